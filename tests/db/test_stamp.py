"""Pages kept under the change stamp are never shown from before a write.

History, a night, a game's history page, the roster, a player's page and home keep what
they read until anything is written. After every kind of write, each page as a phone
opens it (from what was kept) must equal the page read afresh (nothing kept).
"""

from __future__ import annotations

import io
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event as sql_event
from sqlalchemy import select

from scorekeeper.db.models import Game, Night, Player
from scorekeeper.extensions import db
from tests.helpers import deal, form, hand, hand_data, make_app, start_game

POOL = ["Ann", "Ben", "Cy", "annie"]
TOKEN = re.compile(r'name="(csrf_token|token)" type="hidden" value="[^"]*"')

step = st.one_of(
    st.tuples(st.just("start"), st.sampled_from(["penalty", "chips", "coronation"]),
              st.lists(st.sampled_from(POOL), min_size=2, max_size=3, unique=True)),
    st.tuples(st.just("play"), st.integers(0, 5), hand, deal),
    st.tuples(st.just("edit"), st.integers(0, 5), hand, deal),
    st.tuples(st.just("undo"), st.integers(0, 5)),
    st.tuples(st.just("end"), st.integers(0, 5)),
    st.tuples(st.just("reopen"), st.integers(0, 5)),
    st.tuples(st.just("tap"), st.integers(0, 5)),
    st.tuples(st.just("move"), st.integers(0, 5), st.sampled_from(["new", "0", "1"])),
    st.tuples(st.just("name night"), st.integers(0, 5), st.sampled_from(["", "Ann's birthday"])),
    st.tuples(st.just("rename"), st.integers(1, 4), st.sampled_from(["Anna", "Bén", "Cyrus"])),
    st.tuples(st.just("merge"), st.integers(1, 4), st.integers(1, 4)),
    st.tuples(st.just("delete"), st.integers(0, 5)),
    st.tuples(st.just("import"), st.integers(0, 5)),
)


def pages(app) -> list[str]:
    """Return every page a kept read stands behind, for what is stored now."""
    with app.app_context():
        nights = db.session.scalars(select(Night.id)).all()
        games = db.session.scalars(select(Game.id)).all()
        players = db.session.scalars(select(Player.id)).all()
        db.session.remove()
    return (["/", "/history/", "/players"] + [f"/history/nights/{n}" for n in nights]
            + [f"/history/games/{g}" for g in games] + [f"/players/{p}" for p in players])


def shown(client, path: str) -> str:
    """Return a page as shown, less its per-form tokens (new each time by design)."""
    return TOKEN.sub("", client.get(path).get_data(as_text=True))


def same_as_fresh(app, client) -> None:
    """Assert that each page, as kept, equals the page read with nothing kept."""
    paths = pages(app)
    client.get("/")  # shows (and so clears) any message the write left for the next page
    kept = {path: shown(client, path) for path in paths}
    app.extensions["kept"].clear()
    for path in paths:
        assert kept[path] == shown(client, path), path


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=2, max_size=10))
def test_after_every_kind_of_write_each_page_equals_a_fresh_read(tmp_path_factory, steps):
    app = make_app(tmp_path_factory.mktemp("kept") / "kept.sqlite")
    client = app.test_client()
    games: list[tuple[int, str, list[str]]] = []
    played: dict[int, int] = {}
    for drawn in steps:
        kind = drawn[0]
        pick = games[drawn[1] % len(games)] if games and isinstance(drawn[1], int) else None
        if kind == "start":
            names = drawn[2][:2] if drawn[1] == "coronation" else drawn[2]
            if len({n.casefold() for n in names}) == len(names):
                game_id = start_game(client, names, variant=drawn[1], **(
                    {"deals_to_win": 2} if drawn[1] == "coronation" else {"target": 15}
                    if drawn[1] == "penalty" else {}))
                games.append((game_id, drawn[1], names))
                played[game_id] = 0
        elif kind in ("play", "edit") and pick:
            game_id, variant, names = pick
            number = played[game_id] + 1 if kind == "play" else max(1, played[game_id])
            data = form(variant, drawn[2], drawn[3], number)
            if variant != "coronation" and len(names) == 2:
                data = {k: v for k, v in data.items() if not k.endswith("-2")}
                data["went_out"] = "0" if data["went_out"] == "2" else data["went_out"]
            where = "new" if kind == "play" else f"{number}/edit"
            answer = client.post(f"/games/{game_id}/hands/{where}", data=data)
            played[game_id] += kind == "play" and answer.status_code == 302
        elif kind == "undo" and pick and played[pick[0]]:
            client.post(f"/games/{pick[0]}/hands/last/delete",
                        data={"number": str(played[pick[0]])})
            played[pick[0]] -= 1
        elif kind in ("end", "reopen") and pick:
            client.post(f"/games/{pick[0]}/{kind}")
        elif kind == "tap" and pick and pick[1] == "chips":
            client.post(f"/games/{pick[0]}/chips/events", data={
                "number": str(played[pick[0]] + 1), "player": "0", "kind": "pass"})
        elif kind == "move" and pick:
            with app.app_context():
                nights = [str(n) for n in db.session.scalars(select(Night.id).order_by(Night.id))]
                db.session.remove()
            where = "new" if drawn[2] == "new" else nights[int(drawn[2]) % len(nights)]
            client.post(f"/history/games/{pick[0]}/move", data={"night": where})
        elif kind == "name night" and pick:
            with app.app_context():
                night_id = db.session.get(Game, pick[0]).night_id
                db.session.remove()
            client.post(f"/history/nights/{night_id}", data={"name": drawn[2], "notes": "late"})
        elif kind == "rename":
            client.post(f"/players/{drawn[1]}/rename", data={"name": drawn[2]})
        elif kind == "merge":
            client.post(f"/players/{drawn[1]}/merge", data={"other": str(drawn[2])})
        elif kind == "delete" and pick:
            client.post(f"/games/{pick[0]}/delete")
            games.remove(pick)
        elif kind == "import" and pick:
            log = client.get(f"/games/{pick[0]}/export.json").get_data(as_text=True)
            client.post("/import", data={"text": log})
        same_as_fresh(app, client)
    with app.app_context():
        db.engine.dispose()


def test_a_restore_and_a_write_from_another_process_show_at_once(tmp_path):
    path = tmp_path / "shared.sqlite"
    app, other = make_app(path), make_app(path)  # the server, and a command run beside it
    client = app.test_client()
    names = ["Ann", "Ben", "Cy"]
    game_id = start_game(client, names)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(names, "Ann", {"Ben": 3, "Cy": 2}))
    assert "Ben" in client.get("/players").get_data(as_text=True)
    before = client.get("/history/").get_data(as_text=True)
    assert "1 game night" in before

    # Another process (the other app: its own kept pages, its own engine) renames Ben.
    renamed = other.test_client().post("/players/2/rename", data={"name": "Benedict"})
    assert renamed.status_code == 302
    assert "Benedict" in client.get("/players").get_data(as_text=True)
    assert "Benedict" in client.get("/history/").get_data(as_text=True)
    assert "Benedict" in client.get("/players/2").get_data(as_text=True)

    # This table's backup, restored on a new install whose empty pages were opened first.
    backup = client.get("/backup/download").get_data()
    new = make_app(tmp_path / "new.sqlite")
    fresh = new.test_client()
    assert "No game nights yet" in fresh.get("/history/").get_data(as_text=True)
    assert "Benedict" not in fresh.get("/players").get_data(as_text=True)
    restored = fresh.post("/backup/restore", data={"file": (io.BytesIO(backup), "b.json")},
                          content_type="multipart/form-data")
    assert restored.status_code == 302
    assert "Ann · Benedict · Cy" in fresh.get("/history/").get_data(as_text=True)
    assert "Benedict" in fresh.get("/players").get_data(as_text=True)
    for each in (app, other, new):
        with each.app_context():
            db.engine.dispose()


def test_a_page_opened_again_reads_only_the_stamp(app, client):
    names = ["Ann", "Ben", "Cy"]
    game_id = start_game(client, names)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(names, "Ann", {"Ben": 3, "Cy": 2}))
    statements: list[str] = []
    with app.app_context():
        engine = db.engine

    def count(*args):
        if args[2] != "BEGIN":  # SQLite's own, not a read
            statements.append(args[2])

    sql_event.listen(engine, "before_cursor_execute", count)
    try:
        for path in ("/history/", "/players", "/players/1", "/history/nights/1", "/"):
            client.get(path)
            statements.clear()
            again = client.get(path)
            assert again.status_code == 200
            # The settings row (passcode and stamp), and for a player or night page the row
            # the page is about: nothing that grows with history.
            assert len(statements) <= 2, (path, statements)
    finally:
        sql_event.remove(engine, "before_cursor_execute", count)
