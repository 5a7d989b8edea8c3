"""Every player on their own phone: take a seat, send your part, the hand records itself."""

from __future__ import annotations

import re
from html import unescape

import pytest

from scorekeeper.db import read_game
from scorekeeper.web import own_phones
from tests.helpers import csrf_token, hand_data, make_app, send, sit, start_game

NAMES = ("Ann", "Ben", "Cy", "Dee")


def text(page) -> str:
    """Return what a page says, without its tags, spaces collapsed."""
    html = page.get_data(as_text=True) if hasattr(page, "get_data") else page
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def rounds(app, game_id):
    with app.app_context():
        return read_game(game_id).core.rounds






@pytest.fixture
def phones(app):
    """A game of four, and a phone for each player, each in their own seat."""
    game_id = start_game(app.test_client(), NAMES)
    clients = [app.test_client() for _ in NAMES]
    for seat, client in enumerate(clients):
        assert sit(client, game_id, seat).status_code == 302
    return game_id, clients


def test_four_parts_record_one_hand_in_any_order(app, phones):
    game_id, clients = phones
    assert send(clients[2], game_id, 1, 2, cards=3).get_json()["waiting"] == ["Ann", "Ben", "Dee"]
    assert send(clients[0], game_id, 1, 0, went_out=1).status_code == 200
    assert send(clients[3], game_id, 1, 3, cards=2, kings=1).status_code == 200
    assert rounds(app, game_id) == ()  # nothing recorded until every part is in
    board = text(clients[1].get(f"/games/{game_id}"))
    assert "Cy 3 cards ✓" in board and "Dee 2 cards (1 king) ✓" in board and "Ben …" in board
    answer = send(clients[1], game_id, 1, 1, cards=5)
    assert answer.get_json()["saved"] == 1
    (hand,) = rounds(app, game_id)
    assert hand.went_out == "Ann"
    assert {n: (h.cards, h.kings) for n, h in hand.hands.items() if n != "Ann"} == {
        "Ben": (5, 0), "Cy": (3, 0), "Dee": (2, 1)}
    # Another part for hand 1 now is refused with what was recorded; nothing changes.
    late = send(clients[2], game_id, 1, 2, cards=4)
    assert late.status_code == 409
    assert "Ann went out" in late.get_json()["message"]
    assert len(rounds(app, game_id)) == 1


def test_two_claiming_out_records_nothing_and_says_so(app, phones):
    game_id, clients = phones
    send(clients[0], game_id, 1, 0, went_out=1)
    send(clients[1], game_id, 1, 1, went_out=1)
    send(clients[2], game_id, 1, 2, cards=3)
    send(clients[3], game_id, 1, 3, cards=3)
    assert rounds(app, game_id) == ()
    board = clients[2].get(f"/games/{game_id}").get_data(as_text=True)
    assert "Ann and Ben both say they went out" in board
    # Ben taps his cards instead: the hand is whole and records itself.
    assert send(clients[1], game_id, 1, 1, cards=1).get_json()["saved"] == 1
    assert rounds(app, game_id)[0].went_out == "Ann"


def test_three_claiming_out_are_named_all_three(app, phones):
    game_id, clients = phones
    for seat in range(3):
        send(clients[seat], game_id, 1, seat, went_out=1)
    send(clients[3], game_id, 1, 3, cards=3)
    assert rounds(app, game_id) == ()
    board = clients[3].get(f"/games/{game_id}").get_data(as_text=True)
    assert ("Ann, Ben and Cy all say they went out. Only one can have: the others tap their "
            "cards.") in board


def test_all_holding_cards_is_a_stalemate(app, phones):
    game_id, clients = phones
    for seat, client in enumerate(clients):
        send(client, game_id, 1, seat, cards=seat + 1)
    assert rounds(app, game_id)[0].went_out is None


def test_parts_the_rules_refuse_are_shown_and_not_recorded(app, phones):
    game_id, clients = phones
    send(clients[0], game_id, 1, 0, went_out=1)
    send(clients[1], game_id, 1, 1, cards=3, kings=2)
    send(clients[2], game_id, 1, 2, cards=3, kings=2)
    answer = send(clients[3], game_id, 1, 3, cards=3, kings=1)
    assert answer.status_code == 422 and "kings" in answer.get_json()["message"]
    assert rounds(app, game_id) == ()
    board = clients[0].get(f"/games/{game_id}").get_data(as_text=True)
    assert "The parts do not add up" in board
    assert send(clients[3], game_id, 1, 3, cards=3, kings=0).get_json()["saved"] == 1


def test_a_seated_phone_sends_only_its_own_part_without_the_passcode(guarded_app):
    client = guarded_app.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    data = {"variant": "penalty", "dealer": "0", "csrf_token": csrf_token(page),
            **{f"seat-{i}": n for i, n in enumerate(NAMES[:3])}}
    game_id = int(client.post("/games/new", data=data).headers["Location"].rsplit("/", 1)[1])
    # The table sets a passcode; the scorer's phone stays unlocked, Ann's phone is new.
    settings = client.get("/settings").get_data(as_text=True)
    client.post("/settings/passcode", data={"csrf_token": csrf_token(settings),
                                            "passcode": "open sesame",
                                            "confirm": "open sesame"})
    board = unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    code = re.search(rf"/games/{game_id}/join/([0-9a-f]+)", board)
    assert code, "the scorer's phone shows the join code in its QR link"
    stranger = guarded_app.test_client()
    page = stranger.get(f"/games/{game_id}").get_data(as_text=True)
    assert f"/games/{game_id}/join/" not in page  # a reader never sees the join code
    assert "Scan the QR code" in text(stranger.get(f"/games/{game_id}/seat"))
    token = csrf_token(page)
    refused = stranger.post(f"/games/{game_id}/seat", data={"seat": "0", "csrf_token": token})
    assert refused.status_code == 403  # no QR code, no passcode: read-only
    ann = guarded_app.test_client()
    assert ann.get(f"/games/{game_id}/join/{code.group(1)}").status_code == 302
    token = csrf_token(ann.get(f"/games/{game_id}/seat").get_data(as_text=True))
    assert ann.post(f"/games/{game_id}/seat",
                    data={"seat": "0", "csrf_token": token}).status_code == 302
    sent = ann.post(f"/games/{game_id}/hands/1/part", headers={"X-Part": "1"},
                    data={"seat": "0", "went_out": "1", "csrf_token": token})
    assert sent.status_code == 200
    other = ann.post(f"/games/{game_id}/hands/1/part",
                     headers={"X-Part": "1", "X-Live-Panel": "1"},
                     data={"seat": "1", "cards": "3", "csrf_token": token})
    assert other.status_code == 403 and "passcode" in other.get_data(as_text=True)
    assert other.headers["X-Unlock"].startswith("/unlock")
    # ... and nothing else: a hand's whole form still asks for the passcode.
    whole = ann.post(f"/games/{game_id}/hands/new",
                     data={**hand_data(list(NAMES[:3]), "Ann", {"Ben": 2, "Cy": 2}),
                           "csrf_token": token})
    assert whole.status_code == 403
    assert rounds(guarded_app, game_id) == ()


def test_a_wrong_join_code_gives_no_seat(guarded_app):
    client = guarded_app.test_client()
    page = client.get("/games/new").get_data(as_text=True)
    data = {"variant": "penalty", "dealer": "0", "csrf_token": csrf_token(page),
            "seat-0": "Ann", "seat-1": "Ben"}
    game_id = int(client.post("/games/new", data=data).headers["Location"].rsplit("/", 1)[1])
    with guarded_app.test_request_context():
        right = own_phones.join_code(game_id)
    assert right not in own_phones.join_code.__doc__
    wrong = "0" * len(right)
    assert client.get(f"/games/{game_id}/join/{wrong}").status_code == 302
    with client.session_transaction() as session:
        assert not session.get(own_phones.JOINED)


def test_taking_a_held_seat_asks_first_and_names_the_phone(app):
    game_id = start_game(app.test_client(), NAMES[:2])
    first, second = app.test_client(), app.test_client()
    first.post(f"/games/{game_id}/seat", data={"seat": "0"},
               headers={"User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1"})
    asked = sit(second, game_id, 0)
    assert asked.status_code == 200
    page = asked.get_data(as_text=True)
    assert "on another phone (iPhone · Safari)" in page
    assert "Ann" not in second.get(f"/games/{game_id}").get_data(as_text=True).split(
        "data-mine")[0][-1:]  # not seated yet
    assert sit(second, game_id, 0, take="1").status_code == 302
    mine = second.get(f"/games/{game_id}").get_data(as_text=True)
    assert "data-mine" in mine
    assert "data-mine" not in first.get(f"/games/{game_id}").get_data(as_text=True)


def test_giving_the_seat_back_and_the_name_offered_next_game(app):
    client = app.test_client()
    game_id = start_game(client, NAMES[:3])
    ben = app.test_client()
    sit(ben, game_id, 1)
    assert "data-mine" in ben.get(f"/games/{game_id}").get_data(as_text=True)
    ben.post(f"/games/{game_id}/seat/leave")
    board = ben.get(f"/games/{game_id}").get_data(as_text=True)
    assert "data-mine" not in board
    # The next game of the night offers Ben his name in one tap.
    next_game = start_game(client, ("Cy", "Ben", "Ann"))
    offered = ben.get(f"/games/{next_game}").get_data(as_text=True)
    assert "I’m Ben" in offered
    assert ben.post(f"/games/{next_game}/seat", data={"seat": "1"}).status_code == 302
    assert "data-mine" in ben.get(f"/games/{next_game}").get_data(as_text=True)


def test_any_phone_fills_in_a_part_and_the_table_sees_where(app, phones):
    game_id, clients = phones
    scorer = app.test_client()  # no seat: the scorer's phone
    assert scorer.get(f"/games/{game_id}/hands/1/part?seat=3").status_code == 200
    send(scorer, game_id, 1, 3, cards=4)
    send(clients[0], game_id, 1, 2, cards=2)  # Ann's phone enters Cy's part
    board = text(clients[1].get(f"/games/{game_id}"))
    assert "Dee 4 cards ✓ entered on another phone" in board
    assert "Cy 2 cards ✓ entered on Ann's phone" in board
    send(clients[2], game_id, 1, 2, cards=5)  # Cy corrects it on his own phone
    board = text(clients[1].get(f"/games/{game_id}"))
    assert "changed from 2 cards" in board
    send(clients[0], game_id, 1, 0, went_out=1)
    send(clients[1], game_id, 1, 1, cards=1)  # the last part: the hand is recorded
    board = text(clients[1].get(f"/games/{game_id}"))
    assert "Hand 1 came from each phone. Dee’s part entered on another phone." in board


def test_the_scorers_whole_hand_wins_a_race_and_leaves_no_parts(app, phones):
    game_id, clients = phones
    send(clients[0], game_id, 1, 0, went_out=1)
    scorer = app.test_client()
    saved = scorer.post(f"/games/{game_id}/hands/new",
                        data=hand_data(list(NAMES), "Ben", {"Ann": 2, "Cy": 2, "Dee": 2}))
    assert saved.status_code == 302
    late = send(clients[1], game_id, 1, 1, went_out=1)
    assert late.status_code == 409
    assert len(rounds(app, game_id)) == 1
    assert "Ann went out ✓" not in text(clients[0].get(f"/games/{game_id}"))


def test_bad_parts_are_refused_by_name_and_nothing_is_written(app, phones):
    game_id, clients = phones
    for fields in ({"cards": "x"}, {"cards": "-2"}, {"cards": "99"}, {"cards": "3", "kings": "9"},
                   {"cards": ""}, {"cards": "1" * 500}):
        answer = send(clients[1], game_id, 1, 1, **fields)
        assert answer.status_code == 422, fields
        assert answer.get_json()["message"]
    assert send(clients[1], game_id, 5, 1, cards=3).status_code == 422  # no hand 5 yet
    assert "Ben …" in text(clients[0].get(f"/games/{game_id}"))


def test_coronation_both_players_confirm_the_deal(app):
    game_id = start_game(app.test_client(), ("Ann", "Ben"), variant="coronation")
    ann, ben = app.test_client(), app.test_client()
    sit(ann, game_id, 0)
    sit(ben, game_id, 1)
    deal = {"corner-0": 0, "corner-1": 0, "corner-2": 1, "corner-3": "none", "dragon": 0}
    assert send(ann, game_id, 1, 0, **deal).get_json()["waiting"] == ["Ben"]
    page = text(ben.get(f"/games/{game_id}"))
    assert "Ann says: corners Ann, Ann, Ben, nobody; dragon Ann" in page
    assert "That is right" in page
    other = {**deal, "dragon": 1}
    send(ben, game_id, 1, 1, **other)
    assert rounds(app, game_id) == ()
    assert "disagree" in ann.get(f"/games/{game_id}").get_data(as_text=True)
    assert send(ben, game_id, 1, 1, **deal).get_json()["saved"] == 1
    (deal_row,) = rounds(app, game_id)
    assert deal_row.dragon == "Ann" and deal_row.corners == ("Ann", "Ann", "Ben", None)


def test_my_game_on_my_phone(app, phones):
    game_id, clients = phones
    page = clients[1].get(f"/games/{game_id}").get_data(as_text=True)
    assert "Your deal" not in page or "data-my-deal" in page
    dealer = read_dealer(app, game_id)
    seat = NAMES.index(dealer)
    mine = clients[seat].get(f"/games/{game_id}").get_data(as_text=True)
    assert "Your deal: hand 1" in mine and "data-my-deal" in mine
    others = [c.get(f"/games/{game_id}").get_data(as_text=True)
              for s, c in enumerate(clients) if s != seat]
    assert all("Your deal" not in page for page in others)


def read_dealer(app, game_id):
    with app.app_context():
        return read_game(game_id).result.next_dealer


def test_a_second_app_shares_nothing(tmp_path):
    """Seats are per install: a phone's seat in one database says nothing in another."""
    app = make_app(tmp_path / "other.sqlite")
    client = app.test_client()
    game_id = start_game(client, NAMES[:2])
    assert "data-mine" not in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_chips_a_seated_phone_shows_and_taps_its_own_keys_only(guarded_app):
    scorer = guarded_app.test_client()
    page = scorer.get("/games/new").get_data(as_text=True)
    data = {"variant": "chips", "dealer": "0", "csrf_token": csrf_token(page),
            "rules-chips-preset": "jax", **{f"seat-{i}": n for i, n in enumerate(NAMES[:3])}}
    game_id = int(scorer.post("/games/new", data=data).headers["Location"].rsplit("/", 1)[1])
    board = scorer.get(f"/games/{game_id}").get_data(as_text=True)
    assert board.count('name="kind" value="pass"') == 3  # no seat: everyone's keys
    settings = scorer.get("/settings").get_data(as_text=True)
    scorer.post("/settings/passcode", data={"csrf_token": csrf_token(settings),
                                            "passcode": "open sesame"})
    code = re.search(rf"/games/{game_id}/join/([0-9a-f]+)",
                     unescape(scorer.get(f"/games/{game_id}").get_data(as_text=True))).group(1)
    ben = guarded_app.test_client()
    ben.get(f"/games/{game_id}/join/{code}")
    token = csrf_token(ben.get(f"/games/{game_id}/seat").get_data(as_text=True))
    ben.post(f"/games/{game_id}/seat", data={"seat": "1", "csrf_token": token})
    mine = ben.get(f"/games/{game_id}").get_data(as_text=True)
    assert mine.count('name="kind" value="pass"') == 1  # his own keys, and only those
    assert 'class="live-player mine"' in mine
    tap = {"number": "1", "kind": "pass", "csrf_token": token}
    own = ben.post(f"/games/{game_id}/chips/events", data={**tap, "player": "1",
                                                           "token": "own-1"})
    assert own.status_code == 302
    other = ben.post(f"/games/{game_id}/chips/events", data={**tap, "player": "2",
                                                             "token": "other-1"},
                     headers={"X-Live-Panel": "1"})
    assert other.status_code == 403 and other.headers["X-Unlock"].startswith("/unlock")
    with guarded_app.app_context():
        taps = read_game(game_id).waiting_events()
    assert [(t.player, t.kind) for t in taps] == [("Ben", "pass")]
