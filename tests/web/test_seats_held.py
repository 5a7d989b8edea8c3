"""A seat is its phone's: what a join code gives, what it does not, and how it ends."""

from __future__ import annotations

import re
from html import unescape

import pytest

from scorekeeper.db import phone_parts, read_game
from scorekeeper.web import own_phones
from tests.helpers import send, sit, start_game

NAMES = ("Ann", "Ben", "Cy", "Dee")


def text(page) -> str:
    """Return what a page says, without its tags, spaces collapsed."""
    html = page.get_data(as_text=True) if hasattr(page, "get_data") else page
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())






def code_of(app, game_id) -> str:
    with app.test_request_context():
        return own_phones.join_code(game_id)


@pytest.fixture
def locked(app):
    """A game of four at a table with a passcode: the scorer's phone knows it; Ann's and
    Ben's phones came by the QR code and sat down."""
    scorer = app.test_client()
    game_id = start_game(scorer, NAMES)
    assert scorer.post("/settings/passcode", data={"passcode": "open sesame"}).status_code == 302
    code = code_of(app, game_id)
    phones = []
    for seat in (0, 1):
        phone = app.test_client()
        assert phone.get(f"/games/{game_id}/join/{code}").status_code == 302
        assert sit(phone, game_id, seat).status_code == 302
        phones.append(phone)
    return game_id, scorer, phones


def test_a_join_code_alone_never_takes_a_held_seat(app, locked):
    game_id, scorer, (ann, ben) = locked
    stranger = app.test_client()
    stranger.get(f"/games/{game_id}/join/{code_of(app, game_id)}")
    asked = sit(stranger, game_id, 0)
    assert "A seat is its phone’s" in text(asked) and "Yes, I am Ann" not in text(asked)
    taken = sit(stranger, game_id, 0, take="1")
    assert taken.status_code == 403
    # Ann's phone still holds her seat, and the stranger cannot send her part.
    assert "data-mine" in ann.get(f"/games/{game_id}").get_data(as_text=True)
    assert send(stranger, game_id, 1, 0, cards=10, kings=4).status_code == 403
    # A free seat it may take: one, and its part is shown as its own.
    assert sit(stranger, game_id, 2).status_code == 302
    assert send(stranger, game_id, 1, 2, cards=3).status_code == 200


def test_a_phone_hands_its_seat_back_and_the_next_takes_it(app, locked):
    game_id, scorer, (ann, ben) = locked
    new_phone = app.test_client()
    new_phone.get(f"/games/{game_id}/join/{code_of(app, game_id)}")
    assert sit(new_phone, game_id, 0, take="1").status_code == 403
    ann.post(f"/games/{game_id}/seat/leave")  # "Not Ann? Give the seat back"
    assert sit(new_phone, game_id, 0).status_code == 302
    assert send(new_phone, game_id, 1, 0, went_out=1).status_code == 200
    # The scorer's phone (it knows the passcode) may still move a seat, after asking.
    assert sit(scorer, game_id, 1).status_code == 200
    assert sit(scorer, game_id, 1, take="1").status_code == 302


def test_without_a_passcode_a_held_seat_is_taken_after_asking(app):
    game_id = start_game(app.test_client(), NAMES[:2])
    first, second = app.test_client(), app.test_client()
    sit(first, game_id, 0)
    assert "Yes, I am Ann" in text(sit(second, game_id, 0))
    assert sit(second, game_id, 0, take="1").status_code == 302


def test_a_phone_that_moves_on_leaves_its_parts_marked(app):
    game_id = start_game(app.test_client(), NAMES)
    hopper = app.test_client()
    sit(hopper, game_id, 2)
    send(hopper, game_id, 1, 2, cards=10, kings=4)
    sit(hopper, game_id, 3)
    send(hopper, game_id, 1, 3, cards=9)
    board = text(app.test_client().get(f"/games/{game_id}"))
    assert "Cy 10 cards (4 kings) ✓ entered on Dee's phone" in board
    hopper.post(f"/games/{game_id}/seat/leave")
    board = text(app.test_client().get(f"/games/{game_id}"))
    assert "Dee 9 cards ✓ entered on another phone" in board


def test_a_finished_games_join_code_seats_no_one(app):
    scorer = app.test_client()
    game_id = start_game(scorer, NAMES[:2])
    scorer.post("/settings/passcode", data={"passcode": "open sesame"})
    code = code_of(app, game_id)
    scorer.post(f"/games/{game_id}/end")
    late = app.test_client()
    answer = late.get(f"/games/{game_id}/join/{code}", follow_redirects=True)
    assert "This game is over: its join code seats no one." in text(answer)
    assert sit(late, game_id, 0).status_code == 403


def test_a_new_join_code_ends_the_old_one(app):
    scorer = app.test_client()
    game_id = start_game(scorer, NAMES[:2])
    scorer.post("/settings/passcode", data={"passcode": "open sesame"})
    old = code_of(app, game_id)
    ann = app.test_client()
    ann.get(f"/games/{game_id}/join/{old}")
    sit(ann, game_id, 0)
    big = scorer.get(f"/join?to=/games/{game_id}/join/{old}")
    assert "New join code" in text(big)
    moved = scorer.post(f"/games/{game_id}/join-code")
    assert moved.status_code == 302
    new = code_of(app, game_id)
    assert new != old and new in moved.headers["Location"]
    late = app.test_client()
    late.get(f"/games/{game_id}/join/{old}")
    assert sit(late, game_id, 1).status_code == 403  # the old QR seats no one
    late.get(f"/games/{game_id}/join/{new}")
    assert sit(late, game_id, 1).status_code == 302
    assert send(ann, game_id, 1, 0, went_out=1).status_code == 200  # Ann keeps her seat
    # Only a phone that knows the passcode changes the code, or is shown the key.
    assert "New join code" not in text(late.get(f"/join?to=/games/{game_id}/join/{new}"))
    assert late.post(f"/games/{game_id}/join-code").status_code == 403
    assert code_of(app, game_id) == new


def test_wrong_join_codes_count_as_wrong_passcodes(app):
    scorer = app.test_client()
    game_id = start_game(scorer, NAMES[:2])
    scorer.post("/settings/passcode", data={"passcode": "open sesame"})
    guesser = app.test_client()
    for wrong in range(5):
        guesser.get(f"/games/{game_id}/join/{wrong:012x}")
    answer = guesser.get(f"/games/{game_id}/join/{code_of(app, game_id)}",
                         follow_redirects=True)
    assert "Too many wrong codes from this phone. Try again in" in text(answer)
    assert sit(guesser, game_id, 0).status_code == 403
    unlock = guesser.post("/unlock", data={"unlock_passcode": "open sesame",
                                           "unlock_next": "/"})
    assert unlock.status_code == 429  # the same count as the passcode's


def test_the_guess_limit_has_a_ceiling_for_the_whole_table(app):
    scorer = app.test_client()
    game_id = start_game(scorer, NAMES[:2])
    scorer.post("/settings/passcode", data={"passcode": "open sesame"})
    checked = 0
    for address in range(1, 17):  # 16 addresses, as many guesses each as they are let
        guesser = app.test_client()
        guesser.environ_base["REMOTE_ADDR"] = f"10.0.0.{address}"
        for _ in range(6):
            answer = guesser.post("/unlock", data={"unlock_passcode": "guess",
                                                   "unlock_next": "/"})
            checked += answer.status_code == 401
    assert checked == 30
    # A phone that knows the passcode goes on changing things meanwhile.
    assert send(scorer, game_id, 1, 0, went_out=1).status_code == 200
    late = app.test_client()
    late.environ_base["REMOTE_ADDR"] = "10.0.1.1"
    answer = late.post("/unlock", data={"unlock_passcode": "open sesame", "unlock_next": "/"})
    assert answer.status_code == 429
    assert "Too many wrong passcodes at this table just now" in text(answer)


def test_a_qr_phone_keeps_its_seat_in_the_rematch(app):
    scorer = app.test_client()
    game_id = start_game(scorer, NAMES[:2])
    scorer.post("/settings/passcode", data={"passcode": "open sesame"})
    ann = app.test_client()
    ann.get(f"/games/{game_id}/join/{code_of(app, game_id)}")
    sit(ann, game_id, 0)
    scorer.post(f"/games/{game_id}/end")
    rematch = scorer.post(f"/games/{game_id}/rematch")
    new_id = int(rematch.headers["Location"].rsplit("/", 1)[1].split("?")[0])
    assert new_id != game_id
    assert "data-mine" in ann.get(f"/games/{new_id}").get_data(as_text=True)
    assert send(ann, new_id, 1, 0, went_out=1).status_code == 200


def test_a_seated_phone_undoes_its_own_chips_tap_with_a_passcode(app):
    scorer = app.test_client()
    game_id = start_game(scorer, NAMES[:3], variant="chips", preset="jax")
    scorer.post("/settings/passcode", data={"passcode": "open sesame"})
    ben = app.test_client()
    ben.get(f"/games/{game_id}/join/{code_of(app, game_id)}")
    sit(ben, game_id, 1)
    ben.post(f"/games/{game_id}/chips/events",
             data={"number": "1", "player": "1", "kind": "pass", "token": "ben-1"})
    page = ben.get(f"/games/{game_id}").get_data(as_text=True)
    event = re.search(r'name="event" value="(\d+)"', page).group(1)
    undone = ben.post(f"/games/{game_id}/chips/undo", data={"number": "1", "event": event})
    assert undone.status_code == 302
    with app.app_context():
        assert read_game(game_id).waiting == ()
    # Another player's tap: Ben's phone shows no Undo for it, and cannot undo it.
    scorer.post(f"/games/{game_id}/chips/events",
                data={"number": "1", "player": "2", "kind": "pass", "token": "cy-1"})
    page = ben.get(f"/games/{game_id}").get_data(as_text=True)
    assert "data-undo" not in page
    with app.app_context():
        (tap,) = read_game(game_id).waiting
    assert ben.post(f"/games/{game_id}/chips/undo",
                    data={"number": "1", "event": str(tap.id)}).status_code == 403


@pytest.mark.parametrize("fields", [
    {"cards": "³"}, {"cards": "3", "kings": "²"}, {"cards": "①"}, {"cards": "3", "kings": "①"},
    {"cards": "٣"}, {"cards_more": "１２"}])
def test_a_part_with_other_digits_is_refused_by_name(app, fields):
    game_id = start_game(app.test_client(), NAMES[:2])
    answer = send(app.test_client(), game_id, 1, 0, **fields)
    assert answer.status_code == 422
    field = "kings" if "kings" in fields else "cards"
    assert list(answer.get_json()["errors"]) == [field]
    with app.app_context():
        assert phone_parts.parts_of(game_id, 1) == {}  # nothing written


@pytest.mark.parametrize("digit", ["²", "①", "١"])
def test_a_deal_with_other_digits_is_refused_by_name(app, digit):
    game_id = start_game(app.test_client(), ("Ann", "Ben"), variant="coronation")
    deal = {"corner-0": 0, "corner-1": digit, "corner-2": 1, "corner-3": "none", "dragon": 0}
    answer = send(app.test_client(), game_id, 1, 0, **deal)
    assert answer.status_code == 422
    assert list(answer.get_json()["errors"]) == ["corner-1"]


def test_a_join_code_of_any_characters_is_only_wrong(app):
    game_id = start_game(app.test_client(), NAMES[:2])
    for code in ("%C3%A9", "%E2%91%A0" * 4, "%00", "x" * 500):
        answer = app.test_client().get(f"/games/{game_id}/join/{code}", follow_redirects=True)
        assert answer.status_code == 200
        assert "That join code is not this game's" in text(answer)


def test_the_words_of_a_late_part_end_their_sentences(app):
    scorer = app.test_client()
    game_id = start_game(scorer, NAMES)
    phone = app.test_client()
    for seat, fields in enumerate(({"went_out": 1}, {"cards": 2}, {"cards": 3}, {"cards": 5})):
        send(phone, game_id, 1, seat, **fields)
    late = send(phone, game_id, 1, 3, cards=4).get_json()["message"]
    assert re.fullmatch(r"Hand 1 was recorded already: .*Dee 5\. To change it, tap ✎ beside "
                        r"it on the scoreboard\.", late), late
    zero = send(phone, game_id, 0, 0, cards=4)
    assert zero.status_code == 422
    assert zero.get_json()["message"] == "There is no hand 0."


def test_parts_that_do_not_add_up_say_so_in_sentences(app):
    game_id = start_game(app.test_client(), NAMES)
    phone = app.test_client()
    send(phone, game_id, 1, 0, went_out=1)
    for seat in (1, 2):
        send(phone, game_id, 1, seat, cards=3, kings=2)
    refused = send(phone, game_id, 1, 3, cards=3, kings=1).get_json()["message"]
    assert refused.endswith("."), refused
    board = text(app.test_client().get(f"/games/{game_id}"))
    assert re.search(r"The parts do not add up: [^.]*\. Change a part to go on\.", board), board
