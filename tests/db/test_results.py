"""The results cache stays equal to a fresh recomputation, whatever is written, and can be
checked and rebuilt from the command line."""

from __future__ import annotations

import io
import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update

from scorekeeper.db import results
from scorekeeper.db.models import Night, ResultSeat, TallyNight, TallySeat
from scorekeeper.extensions import db
from tests.helpers import DrawnTable, deal, form, fresh, hand, hand_data, make_app, start_game

P = ["Ann", "Ben", "Cy"]
TWO = ["Ann", "Ben"]


def consistent(app) -> list[str]:
    """Return the cache's differences from a fresh recomputation (none is right)."""
    with app.app_context():
        found = results.check()
        db.session.remove()
        return found


step = st.one_of(
    st.tuples(st.just("record"), hand, deal),
    st.tuples(st.just("edit"), hand, deal, st.integers(min_value=1, max_value=6)),
    st.tuples(st.just("delete")), st.tuples(st.just("end")), st.tuples(st.just("reopen")),
    st.tuples(st.just("tap"), st.integers(min_value=0, max_value=2)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(["penalty", "chips", "coronation"]),
       steps=st.lists(step, min_size=1, max_size=12))
def test_after_every_kind_of_write_the_cache_equals_a_recomputation(kept_apps, variant, steps):
    app = fresh(kept_apps, csrf=False)
    client = app.test_client()
    names = TWO if variant == "coronation" else P
    game_id = start_game(client, names, variant=variant, **(
        {"deals_to_win": 3} if variant == "coronation" else {}))
    played = 0
    for drawn in steps:
        kind = drawn[0]
        if kind == "record":
            answer = client.post(f"/games/{game_id}/hands/new",
                                 data=form(variant, drawn[1], drawn[2], played + 1))
            played += answer.status_code == 302
        elif kind == "edit" and played:
            number = 1 + (drawn[3] - 1) % played
            client.post(f"/games/{game_id}/hands/{number}/edit",
                        data=form(variant, drawn[1], drawn[2], number))
        elif kind == "delete" and played:
            client.post(f"/games/{game_id}/hands/last/delete",
                        data={"number": str(played), "confirmed": "1"})
            played -= 1
        elif kind in ("end", "reopen"):
            client.post(f"/games/{game_id}/{kind}")
        elif kind == "tap":
            client.post(f"/games/{game_id}/chips/events",
                        data={"number": str(played + 1), "player": str(drawn[1] % len(names)),
                              "kind": "pass"})
        assert consistent(app) == [], drawn
    with app.app_context():
        db.engine.dispose()


def test_import_restore_and_a_merge_keep_the_cache_right(app, client, tmp_path):
    game_id = start_game(client, P)
    saved = client.post(f"/games/{game_id}/hands/new",
                        data=hand_data(P, "Ann", {"Ben": (3, 1), "Cy": 2}))
    assert saved.status_code == 302
    log = client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    assert client.post("/import", data={"text": log}).status_code == 302
    start_game(client, ["annie", "Dee"])  # "annie" is Ann, typed once by mistake
    merged = client.post("/players/1/merge", data={"other": "4", "confirmed": "1"},
                         follow_redirects=True)
    assert "annie merged into Ann" in merged.get_data(as_text=True)
    assert consistent(app) == []
    backup = client.get("/backup/download").get_data(as_text=True)
    other = make_app(tmp_path / "other.sqlite")
    assert other.test_client().post(
        "/backup/restore", data={"file": (io.BytesIO(backup.encode()), "b.json")},
        content_type="multipart/form-data").status_code == 302
    assert consistent(other) == []
    with other.app_context():
        db.engine.dispose()
    assert json.loads(log)["result"]["totals"]["Ben"] == 12


def test_check_reports_a_tampered_cache_and_rebuild_mends_it(app, client, runner):
    game_id = start_game(client, P)
    saved = client.post(f"/games/{game_id}/hands/new",
                        data=hand_data(P, "Ann", {"Ben": (3, 1), "Cy": 2}))
    assert saved.status_code == 302
    assert runner.invoke(args=["results", "check"]).exit_code == 0
    with app.app_context():
        db.session.execute(update(ResultSeat).values(total=99))
        db.session.commit()
    checked = runner.invoke(args=["results", "check"])
    assert checked.exit_code == 1 and f"game {game_id}: the cached result differs" in checked.output
    rebuilt = runner.invoke(args=["results", "rebuild"])
    assert rebuilt.exit_code == 0 and "rebuilt the results of 1 game" in rebuilt.output
    assert runner.invoke(args=["results", "check"]).exit_code == 0


def test_check_reports_a_tampered_tally_and_rebuild_mends_it(app, client, runner):
    game_id = start_game(client, P)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Ann", {"Ben": 3, "Cy": 2}))
    assert client.post(f"/games/{game_id}/end").status_code == 302
    with app.app_context():
        db.session.execute(update(TallySeat).where(TallySeat.player_id == 2)
                           .values(games=TallySeat.games + 5))
        db.session.commit()
    roster = client.get("/players?season=all").get_data(as_text=True)
    assert "6 games · 0 wins" in roster  # what the roster shows is the tally
    checked = runner.invoke(args=["results", "check"])
    assert checked.exit_code == 1
    assert "player 2: the tallies differ from the cached results" in checked.output
    assert runner.invoke(args=["results", "rebuild"]).exit_code == 0
    assert runner.invoke(args=["results", "check"]).exit_code == 0
    assert "6 games" not in client.get("/players?season=all").get_data(as_text=True)


def test_check_reports_a_tampered_night_tally_and_rebuild_mends_it(app, client, runner):
    game_id = start_game(client, P)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Ann", {"Ben": 3, "Cy": 2}))
    assert client.post(f"/games/{game_id}/end").status_code == 302
    with app.app_context():
        db.session.execute(update(TallyNight).where(TallyNight.player_id == 1)
                           .values(games=4, wins=3))
        db.session.commit()
    part = client.get("/players/1/more?season=all").get_data(as_text=True)
    assert "3 wins in 4 games" in part  # what their best night shows is the tally
    checked = runner.invoke(args=["results", "check"])
    assert checked.exit_code == 1
    assert "player 1: the tallies differ from the cached results" in checked.output
    assert runner.invoke(args=["results", "rebuild"]).exit_code == 0
    assert runner.invoke(args=["results", "check"]).exit_code == 0
    assert "3 wins in 4 games" not in client.get("/players/1/more?season=all").get_data(
        as_text=True)


# Across games and nights: start, play out, end, move to another night, merge two roster
# entries, delete a game. Each changes what the cache holds for some player.
POOL = ["Ann", "Ben", "Cy", "annie"]
table_step = st.one_of(
    st.tuples(st.just("start"), st.sampled_from(["penalty", "chips", "coronation"]),
              st.lists(st.sampled_from(POOL), min_size=2, max_size=3, unique=True)),
    st.tuples(st.just("play"), st.integers(0, 5), hand, deal),
    st.tuples(st.just("end"), st.integers(0, 5)),
    st.tuples(st.just("move"), st.integers(0, 5), st.sampled_from(["new", "0", "1", "2"])),
    st.tuples(st.just("merge"), st.integers(1, 4), st.integers(1, 4)),
    st.tuples(st.just("delete"), st.integers(0, 5)),
)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(steps=st.lists(table_step, min_size=2, max_size=12))
def test_the_cache_equals_a_fresh_count_after_moves_merges_and_deletes(kept_apps, steps):
    app = fresh(kept_apps, csrf=False)
    table = DrawnTable(app.test_client(), {"coronation": {"deals_to_win": 2},
                                           "penalty": {"target": 15}})
    for drawn in steps:
        kind = drawn[0]
        pick = table.pick(drawn[1]) if kind not in ("start", "merge") else None
        if kind == "start":
            table.start(drawn[1], drawn[2])
        elif kind == "play" and pick:
            table.hand(pick, drawn[2], drawn[3])
        elif kind == "end" and pick:
            table.client.post(f"/games/{pick[0]}/end")
        elif kind == "move" and pick:
            with app.app_context():
                nights = [str(n) for n in db.session.scalars(select(Night.id).order_by(Night.id))]
            where = ("new" if drawn[2] == "new" or not nights
                     else nights[int(drawn[2]) % len(nights)])
            moved = table.client.post(f"/history/games/{pick[0]}/move", data={"night": where})
            event(f"move answered {moved.status_code}")
        elif kind == "merge":
            event(f"merge answered {table.merge(drawn[1], drawn[2]).status_code}")
        elif kind == "delete" and pick:
            table.delete(pick)
        assert consistent(app) == [], drawn
    with app.app_context():
        db.engine.dispose()
