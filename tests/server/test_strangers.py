"""Nothing a stranger sends stops the table: against a real server (waitress), guesses from
many addresses, a join code used to take a seat another phone holds, and odd characters."""

from __future__ import annotations

import http.client
import re

import pytest

from scorekeeper.extensions import db
from scorekeeper.web import own_phones
from tests.helpers import Phone, make_app, serve, start_game, stop_serving


@pytest.fixture
def served(tmp_path):
    """A real server on a table with a passcode; the scorer's phone knows it. Yields the
    port, the game, its join code and the scorer's phone."""
    app = make_app(tmp_path / "strangers.sqlite", csrf=False)
    game_id = start_game(app.test_client(), ("Ann", "Ben", "Cy"))
    with app.test_request_context():
        code = own_phones.join_code(game_id)
    server, base = serve(app, threads=8)
    port = int(base.rsplit(":", 1)[1])
    scorer = phone(port)
    assert scorer.send("POST", "/settings/passcode", {"passcode": "open sesame"})[0] == 302
    try:
        yield port, game_id, code, scorer
    finally:
        stop_serving(server)
        with app.app_context():
            db.engine.dispose()


def phone(port: int, address: str = "127.0.0.1") -> Phone:
    """Return a phone that connects from `address` (any of 127.0.0.0/8 on this machine)."""
    return Phone(lambda: http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                                    source_address=(address, 0)))


def test_guesses_from_many_addresses_meet_the_tables_ceiling(served):
    """16 addresses x 6 guesses: 30 are checked, not 80; a phone that knows the passcode
    keeps working, and the table's own phones are told to wait, not locked out for good."""
    port, game_id, _, scorer = served
    statuses = []
    for n in range(2, 18):
        stranger = phone(port, f"127.0.0.{n}")
        for _ in range(6):
            status, _ = stranger.send("POST", "/unlock", {"unlock_passcode": "guess",
                                                          "unlock_next": "/"})
            statuses.append(status)
    assert statuses.count(401) == 30 and set(statuses) == {401, 429}
    status, _ = scorer.send("POST", f"/games/{game_id}/hands/1/part",
                            {"seat": "0", "went_out": "1"})
    assert status == 302
    late = phone(port, "127.0.0.40")
    status, page = late.send("POST", "/unlock", {"unlock_passcode": "open sesame",
                                                 "unlock_next": "/"})
    assert status == 429 and "Too many wrong passcodes at this table just now" in page


def test_a_join_code_takes_a_free_seat_and_no_held_one(served):
    port, game_id, code, _ = served
    ann, stranger = phone(port, "127.0.0.2"), phone(port, "127.0.0.3")
    for one in (ann, stranger):
        assert one.send("GET", f"/games/{game_id}/join/{code}")[0] == 302
    assert ann.send("POST", f"/games/{game_id}/seat", {"seat": "0"})[0] == 302
    status, page = stranger.send("POST", f"/games/{game_id}/seat", {"seat": "0", "take": "1"})
    assert status == 403 and "A seat is its phone’s" in page
    status, _ = stranger.send("POST", f"/games/{game_id}/hands/1/part",
                              {"seat": "0", "cards": "10", "kings": "4"})
    assert status == 403
    # Ann hands it back on purpose: then it is free for the next phone.
    assert ann.send("POST", f"/games/{game_id}/seat/leave")[0] == 302
    assert stranger.send("POST", f"/games/{game_id}/seat", {"seat": "0"})[0] == 302
    _, board = ann.send("GET", f"/games/{game_id}")
    assert "data-mine" not in board


def test_odd_characters_are_refused_not_a_500(served):
    port, game_id, code, _ = served
    ann = phone(port, "127.0.0.2")
    assert ann.send("GET", f"/games/{game_id}/join/%C3%A9")[0] == 302
    assert ann.send("GET", f"/games/{game_id}/join/{code}")[0] == 302
    assert ann.send("POST", f"/games/{game_id}/seat", {"seat": "0"})[0] == 302
    for fields in ({"cards": "①"}, {"cards": "3", "kings": "①"}, {"cards": "³"}):
        status, page = ann.send("POST", f"/games/{game_id}/hands/1/part",
                                {"seat": "0", **fields})
        assert status == 302, fields  # back to the scoreboard, saying which field
        _, board = ann.send("GET", f"/games/{game_id}")
        assert re.search(r"(Cards left|Kings): tap how many", board), fields
