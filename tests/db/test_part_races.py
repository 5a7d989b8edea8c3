"""Every player's part sent from their own phone, raced for real: a waitress server, the
phones released together by a barrier, many times, on SQLite and on PostgreSQL.

Whatever order the parts arrive in, and however many arrive at once, the hand is recorded
once, with every part; a part racing the scorer's whole hand leaves one hand; two players
claiming they went out at the same moment record nothing, and the table is told.
"""

from __future__ import annotations

import http.client
import json
import re
from functools import partial
from html import unescape

from sqlalchemy import func, select

from scorekeeper.db import read_game
from scorekeeper.db.models import HandPart, Round
from scorekeeper.extensions import db
from tests.helpers import Phone, hand_data, start_game, together

NAMES = ["Ann", "Ben", "Cy", "Dee"]
TRIALS = 20
# Ann went out; Ben, Cy and Dee say what they hold.
PARTS = [{"went_out": "1"}, {"cards": "5"}, {"cards": "3", "kings": "1"}, {"cards": "2"}]


def seated_game(app, port: int) -> tuple[int, list[Phone]]:
    """Start a game of four and give each player a phone holding their seat."""
    game_id = start_game(app.test_client(), NAMES)
    phones = []
    for seat in range(len(NAMES)):
        phone = Phone(lambda: http.client.HTTPConnection("127.0.0.1", port, timeout=30))
        status, _ = phone.send("POST", f"/games/{game_id}/seat", {"seat": str(seat)})
        assert status == 302
        phones.append(phone)
    return game_id, phones


def part(phone: Phone, game_id: int, seat: int, fields: dict, number: int = 1):
    """Send a seat's part as the page's script does; return (status, its JSON answer)."""
    connection = phone.connect()
    cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
    body = "&".join(f"{k}={v}" for k, v in {"seat": str(seat), **fields}.items())
    connection.request("POST", f"/games/{game_id}/hands/{number}/part", body,
                       {"Cookie": cookie, "X-Part": "1",
                        "Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    answer = json.loads(response.read().decode() or "{}")
    connection.close()
    return response.status, answer


def stored(app, game_id: int):
    """Return the game's hands as the rules read them, and how many rows of rounds."""
    with app.app_context():
        rounds = read_game(game_id).core.rounds
        rows = db.session.scalar(select(func.count()).select_from(Round)
                                 .where(Round.game_id == game_id))
        kept = db.session.scalar(select(func.count()).select_from(HandPart)
                                 .where(HandPart.game_id == game_id))
        db.session.remove()
    return rounds, rows, kept


def test_four_phones_send_their_parts_at_once(server):
    app, port = server
    for _ in range(TRIALS):
        game_id, phones = seated_game(app, port)
        answers = together(*[
            partial(part, phones[s], game_id, s, PARTS[s]) for s in range(4)])
        assert all(status == 200 for status, _ in answers), answers
        assert sum(1 for _, a in answers if a.get("saved") == 1) == 1, answers
        rounds, rows, kept = stored(app, game_id)
        assert rows == 1 and kept == 4  # one hand, and where each part came from
        (hand,) = rounds
        assert hand.went_out == "Ann"
        assert {n: (h.cards, h.kings) for n, h in hand.hands.items() if n != "Ann"} == {
            "Ben": (5, 0), "Cy": (3, 1), "Dee": (2, 0)}


def test_the_last_part_against_the_scorers_whole_hand(server):
    app, port = server
    outcomes = set()
    for _ in range(TRIALS):
        scorer_hand = hand_data(NAMES, "Dee", {"Ann": 1, "Ben": 1, "Cy": 1})  # a fresh form
        game_id, phones = seated_game(app, port)
        for seat in range(3):
            assert part(phones[seat], game_id, seat, PARTS[seat])[0] == 200
        scorer = Phone(lambda: http.client.HTTPConnection("127.0.0.1", port, timeout=30))
        (last, _), (whole, page) = together(
            partial(part, phones[3], game_id, 3, PARTS[3]),
            partial(scorer.send, "POST", f"/games/{game_id}/hands/new", scorer_hand))
        rounds, rows, _ = stored(app, game_id)
        assert rows == 1, (last, whole)  # one hand, whichever came first
        if whole == 302:  # the scorer's hand went in: the part was refused with it
            assert last == 409 and rounds[0].went_out == "Dee"
            outcomes.add("scorer")
        else:  # the parts made the hand: the scorer's form says so, nothing doubled
            assert last == 200 and rounds[0].went_out == "Ann"
            assert "recorded on another phone" in unescape(page)
            outcomes.add("parts")
    assert outcomes  # each trial ended one of the two ways


def test_two_claiming_they_went_out_at_once_record_nothing(server):
    app, port = server
    for _ in range(TRIALS):
        game_id, phones = seated_game(app, port)
        for seat in (2, 3):
            assert part(phones[seat], game_id, seat, PARTS[seat])[0] == 200
        answers = together(
            partial(part, phones[0], game_id, 0, {"went_out": "1"}),
            partial(part, phones[1], game_id, 1, {"went_out": "1"}))
        assert [status for status, _ in answers] == [200, 200]
        rounds, rows, _ = stored(app, game_id)
        assert rows == 0 and rounds == ()
        _, board = phones[2].send("GET", f"/games/{game_id}")
        said = " ".join(unescape(re.sub(r"<[^>]+>", " ", board)).split())
        assert "Ann and Ben both say they went out" in said
