"""The unit of work (play.changing) keeps everything derived right: whatever a table does, in
any order, the results cache and the ratings equal a rebuild from what was entered, and every
game a change went through moves the stamp its phones poll."""

from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.db import results
from scorekeeper.db.models import Game, Season, Seat
from scorekeeper.extensions import db
from scorekeeper.reports import ratings
from tests.helpers import DrawnTable, deal, emptied_app, fresh, hand

POOL = ["Ann", "Ben", "Cy", "annie"]
SETTINGS = {"coronation": {"deals_to_win": 1}, "penalty": {"target": 10}}
game = st.integers(0, 5)
change = st.one_of(
    st.tuples(st.just("start"), st.sampled_from(["penalty", "chips", "coronation"]),
              st.lists(st.sampled_from(POOL), min_size=2, max_size=3, unique=True)),
    st.tuples(st.just("record"), game, hand, deal),
    st.tuples(st.just("correct"), game, hand, deal),
    st.tuples(st.just("undo"), game),
    st.tuples(st.just("delete"), game),
    st.tuples(st.just("end"), game),
    st.tuples(st.just("reopen"), game),
    st.tuples(st.just("rename"), st.integers(1, 4), st.sampled_from(["Dee", "Ben", "ann"])),
    st.tuples(st.just("merge"), st.integers(1, 4), st.integers(1, 4)),
    st.tuples(st.just("season"), st.sampled_from(["Winter", "League"]), st.integers(-3, 0),
              st.integers(0, 3)),
    st.tuples(st.just("forget"), st.integers(0, 3)),
    st.tuples(st.just("restore")),
)


def stamps(app) -> dict[int, int]:
    """Return each game's change stamp (the version phones poll), by game."""
    with app.app_context():
        found = dict(db.session.execute(select(Game.id, Game.version)).all())
        db.session.remove()
        return found


def games_of(app, player_id: int) -> set[int]:
    """Return the games a player sits in."""
    with app.app_context():
        found = set(db.session.scalars(select(Seat.game_id).where(Seat.player_id == player_id)))
        db.session.remove()
        return found


def differences(app) -> list[str]:
    """Return what the derived data holds that a rebuild from scratch would not (none)."""
    with app.app_context():
        found = results.check() + ratings.check()
        db.session.remove()
        return found


def apply(table: DrawnTable, app, drawn: tuple) -> tuple[int, set[int]]:
    """Make one drawn change through the app; return its answer's status (302: it went
    through; 0: not made) and the games it is about, whose stamps must move then."""
    client, kind = table.client, drawn[0]
    pick = table.pick(drawn[1]) if kind in ("record", "correct", "undo", "delete", "end",
                                            "reopen") else None
    if kind == "start":  # a new game starts at its first stamp
        table.start(drawn[1], drawn[2])
        return 302, set()
    if kind == "record" and pick:
        played = table.played[pick[0]]
        answer = table.hand(pick, drawn[2], drawn[3])
        return 302 if table.played[pick[0]] > played else answer.status_code, {pick[0]}
    if kind == "correct" and pick and table.played[pick[0]]:
        return table.hand(pick, drawn[2], drawn[3], edit=True).status_code, {pick[0]}
    if kind == "undo" and pick and table.played[pick[0]]:
        number = table.played[pick[0]]
        answer = client.post(f"/games/{pick[0]}/hands/last/delete",
                             data={"number": str(number), "confirmed": "1"})
        table.played[pick[0]] -= answer.status_code == 302
        return answer.status_code, {pick[0]}
    if kind == "delete" and pick:
        table.games.remove(pick)
        return client.post(f"/games/{pick[0]}/delete",
                           data={"confirmed": "1"}).status_code, set()
    if kind in ("end", "reopen") and pick:
        return client.post(f"/games/{pick[0]}/{kind}").status_code, {pick[0]}
    if kind == "rename":
        games = games_of(app, drawn[1])
        return client.post(f"/players/{drawn[1]}/rename",
                           data={"name": drawn[2]}).status_code, games
    if kind == "merge":
        games = games_of(app, drawn[2])
        return table.merge(drawn[1], drawn[2]).status_code, games
    if kind == "season":
        today = date.today()
        return client.post("/seasons/", data={
            "name": drawn[1], "first_day": (today + timedelta(days=drawn[2])).isoformat(),
            "last_day": (today + timedelta(days=drawn[3])).isoformat()}).status_code, set()
    if kind == "forget":
        with app.app_context():
            named = list(db.session.scalars(select(Season.id).order_by(Season.id)))
            db.session.remove()
        if named:
            season_id = named[drawn[1] % len(named)]
            return client.post(f"/seasons/{season_id}/forget",
                               data={"confirmed": "1"}).status_code, set()
    return 0, set()


def restored(app, new_app):
    """Return `new_app` (empty) with a backup of `app` restored into it."""
    backup = app.test_client().get("/backup/download").get_data()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    answer = new_app.test_client().post(
        "/backup/restore", data={"file": (io.BytesIO(backup), "backup.json")},
        content_type="multipart/form-data")
    assert answer.status_code == 302
    return new_app


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
@settings(max_examples=12, deadline=None, phases=[Phase.generate], suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(changes=st.lists(change, min_size=2, max_size=14))
def test_after_any_changes_the_derived_data_equals_a_rebuild(kept_apps, database, changes):
    new_app = (lambda: fresh(kept_apps, csrf=False)) if database == "sqlite" else emptied_app
    app = new_app()
    table = DrawnTable(app.test_client(), SETTINGS)
    for drawn in changes:
        if drawn[0] == "restore":
            app = restored(app, new_app())
            table.client = app.test_client()
            assert differences(app) == [], drawn
            continue
        before = stamps(app)
        status, about = apply(table, app, drawn)
        after = stamps(app)
        assert differences(app) == [], drawn
        if status == 302:  # it went through: the phones on its games see it
            assert all(after[g] > before.get(g, 0) for g in about if g in after), drawn
        elif status:  # refused: nothing was written
            assert after == before, drawn
    with app.app_context():
        db.session.remove()
        db.engine.dispose()

