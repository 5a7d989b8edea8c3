"""A night for a crowd on the web: the start form's refusals, Next round, and the night's
one QR code taking each phone to its table."""

from __future__ import annotations

import re
from html import unescape

import pytest

from scorekeeper.db.models import Crowd, CrowdTable, Game
from scorekeeper.extensions import db
from scorekeeper.web import own_phones
from tests.helpers import ELEVEN, play_out, send, start_game


def text(page) -> str:
    html = page.get_data(as_text=True) if hasattr(page, "get_data") else page
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def errors(page) -> dict[str, str]:
    return {name: unescape(message) for name, message in re.findall(
        r'id="([\w\[\]]+)-error" role="alert">([^<]*)<', page.get_data(as_text=True))}


def start(client, names=ELEVEN, **more):
    data = {"new_names": "\n".join(names), "variant": "penalty", "table_size": "4",
            "seating": "random", "moving": "progressive", "rounds": "3", **more}
    return client.post("/crowds/new", data=data)


def counted(app) -> tuple[int, int]:
    with app.app_context():
        return (db.session.query(Crowd).count(), db.session.query(Game).count())


@pytest.mark.parametrize(("given", "field", "words"), [
    ({"names": ELEVEN[:4]}, "players", "at least 5 players"),
    ({"names": ["Ann", "Ben", "Cy", "ann", "Dee"]}, "players", "named twice"),
    ({"table_size": "7"}, "table_size", "2 to 6 players, not 7"),
    ({"table_size": "four"}, "table_size", "whole number"),
    ({"table_size": "³"}, "table_size", "whole number"),  # str.isdigit() lets it by; int() not
    ({"rounds": "١٢"}, "rounds", "whole number"),
    ({"variant": "coronation"}, "table_size", "2 to 2 players"),
    ({"seating": "hand", "tables": "Ann, Ben, Cy\nCy, Dee"}, "tables", "Cy is seated twice"),
    ({"rounds": "99"}, "rounds", ""),
])
def test_a_night_that_cannot_start_says_why_at_its_field_and_keeps_what_was_typed(
        app, given, field, words):
    client = app.test_client()
    page = start(client, **given)
    assert page.status_code == 422
    said = errors(page)
    assert field in said and words in said[field], said
    assert counted(app) == (0, 0)
    typed = given.get("names", ELEVEN)
    assert "\n".join(typed) in unescape(page.get_data(as_text=True))


def test_the_start_form_is_reached_from_home_and_the_new_game_page(app):
    client = app.test_client()
    assert 'href="/crowds/new"' in client.get("/").get_data(as_text=True)
    assert 'href="/crowds/new"' in client.get("/games/new").get_data(as_text=True)
    assert client.get("/crowds/new").status_code == 200


def tables(app, crowd_id, round_number):
    with app.app_context():
        return [(t.number, t.game_id) for t in db.session.query(CrowdTable).filter_by(
            crowd_id=crowd_id, round=round_number).order_by(CrowdTable.number)]


def finish_all(app, crowd_id, round_number):
    with app.app_context():
        for _, game_id in tables(app, crowd_id, round_number):
            play_out(game_id)


def test_next_round_waits_for_every_table_then_seats_once(app):
    client = app.test_client()
    night = start(client).headers["Location"]
    assert night == "/crowds/1"
    page = client.get(night)
    assert "Round 1 of 3" in text(page) and "Every table is playing" in text(page)
    early = client.post("/crowds/1/next", data={"after": "1"}, follow_redirects=True)
    assert "still playing" in text(early)
    assert tables(app, 1, 2) == []
    finish_all(app, 1, 1)
    assert 'id="next-round"' in client.get(night).get_data(as_text=True)
    seated = client.post("/crowds/1/next", data={"after": "1"}, follow_redirects=True)
    assert "Round 2 is seated" in text(seated)
    stale = client.post("/crowds/1/next", data={"after": "1"}, follow_redirects=True)
    assert "Round 2 was seated already" in text(stale)
    assert len(tables(app, 1, 2)) == 3


def test_the_night_is_won_when_its_last_round_ends(app):
    client = app.test_client()
    start(client, rounds="2")
    finish_all(app, 1, 1)
    client.post("/crowds/1/next", data={"after": "1"})
    finish_all(app, 1, 2)
    page = text(client.get("/crowds/1"))
    assert "The night is over" in page and "wins the night" in page
    assert 'id="next-round"' not in page


def code_of(app, crowd_id) -> str:
    with app.test_request_context():
        return own_phones.crowd_code(crowd_id)


def test_the_nights_qr_takes_a_phone_to_its_table_every_round_behind_a_passcode(app):
    host = app.test_client()
    start(host, names=ELEVEN[:8], table_size="4")
    assert host.post("/settings/passcode", data={"passcode": "open sesame"}).status_code == 302
    phone = app.test_client()
    assert phone.post("/crowds/1/who", data={"player": "1"}).status_code in (302, 303, 403)
    wrong = phone.get("/crowds/1/join/000000000000", follow_redirects=True)
    assert "not this night's" in text(wrong)
    assert phone.get(f"/crowds/1/join/{code_of(app, 1)}").headers["Location"] == "/crowds/1/who"
    with app.app_context():
        ann = db.session.execute(db.text("SELECT id FROM player WHERE name = 'Ann'")).scalar()
    taken = phone.post("/crowds/1/who", data={"player": str(ann)})
    assert taken.headers["Location"] == "/crowds/1/me"
    board = phone.get("/crowds/1/me", follow_redirects=True)
    said = text(board)
    assert re.search(r"Round 1: table \d, seat \d", said), said
    game_id = int(re.search(r"/games/(\d+)/version", board.get_data(as_text=True))[1])
    with app.app_context():
        from scorekeeper.db import read_game
        seat = read_game(game_id).players.index("Ann")
    # Her own part goes in without the passcode: the seat is this phone's.
    assert send(phone, game_id, 1, seat, went_out="1").status_code == 200
    # Her finished game offers nothing until the next round is seated, then her table.
    finish_all(app, 1, 1)
    assert "next" not in phone.get(f"/games/{game_id}/version").get_json()
    host.post("/crowds/1/next", data={"after": "1"})
    offered = phone.get(f"/games/{game_id}/version").get_json()
    assert offered["url"] == "/crowds/1/me"
    moved = text(phone.get("/crowds/1/me", follow_redirects=True))
    assert "Round 2: table" in moved


def test_history_shows_a_crowd_night_as_one_night_with_its_rounds_and_tables(app):
    client = app.test_client()
    start(client, names=ELEVEN[:6], table_size="3", rounds="2")
    finish_all(app, 1, 1)
    client.post("/crowds/1/next", data={"after": "1"})
    finish_all(app, 1, 2)
    listed = text(client.get("/history/"))
    assert listed.count("4 games") == 1, listed  # one night of four games, not four nights
    with app.app_context():
        night_id = db.session.get(Crowd, 1).night_id
    page = text(client.get(f"/history/nights/{night_id}"))
    assert "2 rounds · 2 tables" in page and "wins the night" in page
    for round_number in (1, 2):
        for table in (1, 2):
            assert f"Round {round_number}, table {table}" in page


def test_a_phone_whose_next_table_waits_is_told_and_taken_there_once_seated(app):
    host = app.test_client()
    start(host, names=[*ELEVEN, "Lu"], rounds="2")
    first = tables(app, 1, 1)
    with app.app_context():
        from scorekeeper.db import read_game
        orders = [play_out(game_id) for _, game_id in first[:2]]  # table 3 is late
        mover = orders[1][-1]  # table 2's last goes down to table 3: it waits for it
        mover_id = db.session.execute(db.text("SELECT id FROM player WHERE name = :n"),
                                      {"n": mover}).scalar()
    phone = app.test_client()
    phone.get(f"/crowds/1/join/{code_of(app, 1)}")
    phone.post("/crowds/1/who", data={"player": str(mover_id)})
    seated = text(host.post("/crowds/1/next", data={"after": "1"}, follow_redirects=True))
    assert "Round 2, tables seated: 1," in seated and "to end: 2, 3;" in seated
    assert "Round 2: tables 2, 3 wait" in text(host.get("/crowds/1"))
    game_id = first[1][1]
    assert "url" not in phone.get(f"/games/{game_id}/version").get_json()
    assert "Waiting for table 3 to finish" in text(phone.get(f"/games/{game_id}"))
    assert "Waiting for table 3 to finish" in text(phone.get("/crowds/1/me",
                                                             follow_redirects=True))
    with app.app_context():
        play_out(first[2][1])
    done = text(host.post("/crowds/1/next", data={"after": "1"}, follow_redirects=True))
    assert "Round 2 is seated" in done
    assert phone.get(f"/games/{game_id}/version").get_json()["url"] == "/crowds/1/me"
    moved = text(phone.get("/crowds/1/me", follow_redirects=True))
    assert "Round 2: table 3" in moved and "you moved down from table 2" in moved
    with app.app_context():
        assert mover in read_game(tables(app, 1, 2)[2][1]).players


def test_the_night_page_writes_points_in_the_pages_language(app):
    client = app.test_client()
    start(client, names=ELEVEN[:6], table_size="3", rounds="1")
    finish_all(app, 1, 1)  # 3, 1.5, 0 at each table of three
    spanish = text(client.get("/crowds/1", headers={"Accept-Language": "es"}))
    assert "1,5" in spanish and "1.5" not in spanish


def test_a_finished_table_of_the_night_offers_the_night_not_a_rematch(app):
    """A rematch would seat the table's players at a game of its own while the night seats
    them at its next round: a finished table links to the night instead, and a rematch
    sent anyway (an old page) is refused in words, with nothing started."""
    client = app.test_client()
    start(client)
    finish_all(app, 1, 1)
    _, game_id = tables(app, 1, 1)[0]
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'id="rematch"' not in page
    assert 'href="/crowds/1"' in page
    games = counted(app)[1]
    refused = client.post(f"/games/{game_id}/rematch", follow_redirects=True)
    assert "not played again: the night seats its next round" in text(refused)
    assert counted(app)[1] == games
    other = start_game(client, ("Ann", "Ben"))  # an ordinary game's still offers one
    with app.app_context():
        play_out(other)
    assert 'id="rematch"' in client.get(f"/games/{other}").get_data(as_text=True)


def test_a_player_on_another_phone_is_moved_only_by_a_phone_with_the_passcode(app):
    """Behind a passcode, a phone that came by the night's QR code and taps a player who is
    on another phone is told so, and offered the passcode, as at a game's seats; the
    player stays on their own phone."""
    host = app.test_client()
    start(host, names=ELEVEN[:8], table_size="4")
    assert host.post("/settings/passcode", data={"passcode": "open sesame"}).status_code == 302
    with app.app_context():
        ann = db.session.execute(db.text("SELECT id FROM player WHERE name = 'Ann'")).scalar()
    phones = [app.test_client(), app.test_client()]
    for phone in phones:
        phone.get(f"/crowds/1/join/{code_of(app, 1)}")
    assert phones[0].post("/crowds/1/who", data={"player": str(ann)}).status_code == 302
    refused = phones[1].post("/crowds/1/who", data={"player": str(ann), "take": "1"})
    assert refused.status_code == 403
    page = refused.get_data(as_text=True)
    assert "Ann is on another phone" in text(page)
    assert 'href="/unlock?next=/crowds/1/who"' in page.replace("%2F", "/")
    assert "Give the table passcode" in text(page)
    for phone, is_ann in zip(phones, (True, False)):  # still Ann's phone, and only hers
        seen = text(phone.get("/crowds/1/me", follow_redirects=True))
        assert (re.search(r"Round 1: table \d, seat \d", seen) is not None) == is_ann, seen


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/crowds/999"), ("get", "/crowds/999/who"), ("post", "/crowds/999/who"),
    ("post", "/crowds/999/next"), ("post", "/crowds/999/rounds"),
    ("get", "/crowds/999/join/abc"), ("get", "/crowds/999/me"), ("get", "/crowds/999/board")])
def test_a_night_that_is_not_there_is_not_found(app, method, path):
    start(app.test_client())  # night 1 is there; 999 is not
    assert getattr(app.test_client(), method)(path).status_code == 404
