"""A night for a crowd under a race, tried for real: two tables' last parts and Next round
tapped on two phones at once, on a real server, 20 times on SQLite and on PostgreSQL: one
next round, everyone seated in it once; and, a round being seated table by table, the late
tables' last parts and Next round at once: one game a table, everyone seated once."""

from __future__ import annotations

import http.client
import urllib.parse
from collections import Counter
from functools import partial

from sqlalchemy import select

from scorekeeper import crowd
from scorekeeper.db import read_game
from scorekeeper.db.models import CrowdTable, Game
from scorekeeper.extensions import db
from scorekeeper.reports import crowd as reading
from tests import helpers

TRIALS = 20
SIX = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def post(port: int, path: str, data: dict, headers: dict) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("POST", path, urllib.parse.urlencode(data),
                       {"Content-Type": "application/x-www-form-urlencoded", **headers})
    status = connection.getresponse().status
    connection.close()
    return status


def together(port: int, *requests) -> list[int]:
    """Send the requests from threads released at once; return their statuses."""
    return helpers.together(*(partial(post, port, *request) for request in requests))


def night_but_two_parts(app, names=SIX) -> tuple[int, list[tuple[int, int]]]:
    """Start a night of tables of three; send every part of each table's first hand but
    the last one, the one that ends its game (26 cards: past the target of 25). Return the
    night and each table's (game, last seat)."""
    from scorekeeper import play
    from scorekeeper.rules.parts import Part
    with app.app_context():
        crowd_id = crowd.start(crowd.Plan(names, "penalty", {}, 3, rounds=2))
        last = []
        for table in reading.night(crowd_id).tables:
            play.send_part(table.game_id, 1, Part(0, went_out=True), None, "test")
            play.send_part(table.game_id, 1, Part(1, cards=1), None, "test")
            last.append((table.game_id, 2))
        db.session.remove()
    return crowd_id, last


def test_last_parts_and_next_round_at_once_seat_one_round_everyone_once(server):
    app, port = server
    rounds_seen = Counter()
    for _ in range(TRIALS):
        crowd_id, last = night_but_two_parts(app)
        part = {"X-Part": "1"}
        answers = together(
            port,
            *[(f"/games/{game}/hands/1/part", {"seat": seat, "cards": 26, "kings": 0}, part)
              for game, seat in last],
            (f"/crowds/{crowd_id}/next", {"after": "1"}, {}),
            (f"/crowds/{crowd_id}/next", {"after": "1"}, {}))
        assert answers[:2] == [200, 200], answers
        assert answers[2:] == [302, 302], answers
        with app.app_context():
            seated = db.session.execute(select(CrowdTable.round, CrowdTable.game_id).where(
                CrowdTable.crowd_id == crowd_id)).all()
            rounds_seen[max(r for r, _ in seated)] += 1
            if max(r for r, _ in seated) == 1:  # both taps came before a table finished
                assert all(read_game(g).result.over for _, g in seated)
                assert crowd.next_round(crowd_id, 1).started
                seated = db.session.execute(select(CrowdTable.round, CrowdTable.game_id)
                                            .where(CrowdTable.crowd_id == crowd_id)).all()
            second = [g for r, g in seated if r == 2]
            assert len(second) == 2 and max(r for r, _ in seated) == 2
            players = [name for g in second for name in read_game(g).players]
            assert sorted(players) == sorted(SIX)
            assert db.session.query(Game).filter(Game.id.in_(second)).count() == 2
            db.session.remove()
    assert sum(rounds_seen.values()) == TRIALS


NINE = [*SIX, "Gus", "Hal", "Ida"]


def test_late_tables_last_parts_and_next_round_at_once_seat_each_table_once(server):
    """Three tables (progressive: next table 1 waits for tables 1 and 2, table 3 for 2 and
    3, table 2 for all three): table 1 ends first and Next round seats what it can; then
    tables 2 and 3 end at once with two taps of Next round. However it falls, once every
    game is over and Next round tapped, round 2 has one game a table, everyone once."""
    app, port = server
    for _ in range(TRIALS):
        crowd_id, last = night_but_two_parts(app, NINE)
        first, *late = last
        assert post(port, f"/games/{first[0]}/hands/1/part",
                    {"seat": first[1], "cards": 26, "kings": 0}, {"X-Part": "1"}) == 200
        answers = together(
            port,
            *[(f"/games/{game}/hands/1/part", {"seat": seat, "cards": 26, "kings": 0},
               {"X-Part": "1"}) for game, seat in late],
            (f"/crowds/{crowd_id}/next", {"after": "1"}, {}),
            (f"/crowds/{crowd_id}/next", {"after": "1"}, {}))
        assert answers == [200, 200, 302, 302], answers
        with app.app_context():
            view = reading.night(crowd_id)
            assert all(t.over for t in view.rounds[1])
            if not view.complete or view.round == 1:
                assert crowd.next_round(crowd_id, 1).started  # seats the rest
            seated = db.session.execute(select(CrowdTable.number, CrowdTable.game_id).where(
                CrowdTable.crowd_id == crowd_id, CrowdTable.round == 2)).all()
            assert sorted(n for n, _ in seated) == [1, 2, 3]
            players = [name for _, g in seated for name in read_game(g).players]
            assert sorted(players) == sorted(NINE)
            assert not crowd.next_round(crowd_id, 1).started
            db.session.remove()
