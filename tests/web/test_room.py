"""The room's board of a crowd night (reports/board.py, views/room.py): every table of the
round, whose deal, the hand in progress (the parts in from the players' phones, the pot at
chips), the version a TV asks after, the night's standings between rounds and its winner
at the end."""

from __future__ import annotations

import re
from html import unescape

import pytest

from scorekeeper import crowd, play
from scorekeeper.reports import board as reading
from tests.helpers import ELEVEN, hand_data, play_out, send, sit


def text(page) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page.get_data(as_text=True))).split())


def start(app, names=ELEVEN, rounds=2, variant="penalty", settings=None, size=4) -> int:
    with app.app_context():
        return crowd.start(crowd.Plan(names, variant, settings or {}, size, rounds=rounds),
                           seed=3)


def board(app, crowd_id):
    with app.app_context():
        return reading.board(crowd_id)


def finish_round(app, crowd_id):
    with app.app_context():
        for table in reading.board(crowd_id).tables:
            play_out(table.game_id)


def test_the_board_shows_every_table_with_its_standings_and_whose_deal(app):
    crowd_id = start(app)
    shown = board(app, crowd_id)
    assert [t.number for t in shown.tables] == [1, 2, 3]
    assert sorted(row["name"] for t in shown.tables for row in t.rows) == sorted(ELEVEN)
    first = shown.tables[0]
    players = [row["name"] for row in first.rows]
    with app.app_context():
        play.record(first.game_id, 1, hand_data(players, players[0],
                                                {name: 4 for name in players[1:]}), None)
    after = board(app, crowd_id).tables[0]
    assert after.hand == 2 and after.rows[0]["name"] == players[0]
    assert after.rows[0]["total"] == 0 and after.rows[1]["total"] == 4
    dealers = [row["name"] for row in after.rows if row["deals"]]
    assert dealers == [after.dealer] and after.dealer is not None
    page = text(app.test_client().get(f"/crowds/{crowd_id}/board"))
    assert "Round 1 of 2" in page and "Table 3" in page
    assert f"{after.dealer} deals" in page and "Hand 2" in page
    assert not shown.between


def test_the_board_counts_the_parts_in_from_the_players_phones(app):
    crowd_id = start(app)
    table = board(app, crowd_id).tables[0]
    phone = app.test_client()
    game_id, name = table.game_id, table.rows[0]["name"]
    with app.app_context():
        from scorekeeper.db import read_game
        seat = read_game(game_id).players.index(name)
    assert sit(phone, game_id, seat).status_code in (200, 302, 303)
    assert send(phone, game_id, 1, seat, cards=3).status_code == 200
    after = board(app, crowd_id).tables[0]
    assert (after.parts, after.playing) == (1, 4)
    assert [row["name"] for row in after.rows if row["sent"]] == [name]
    assert "1 of 4 in" in text(app.test_client().get(f"/crowds/{crowd_id}/board"))


def test_a_chips_night_shows_each_tables_pot(app):
    crowd_id = start(app, names=ELEVEN[:8], variant="chips", settings={"preset": "house"})
    tables = board(app, crowd_id).tables
    assert all(t.pot is not None for t in tables)
    assert "in the pot" in text(app.test_client().get(f"/crowds/{crowd_id}/board"))


def test_the_version_changes_with_a_save_and_a_round_and_is_quiet_otherwise(app):
    the_version_changes_with_a_save_and_a_round(app)


def test_the_version_is_one_query_postgresql_answers_too(pg_app):
    the_version_changes_with_a_save_and_a_round(pg_app)


def the_version_changes_with_a_save_and_a_round(app):
    crowd_id = start(app)
    client = app.test_client()
    before = client.get(f"/crowds/{crowd_id}/board/version").get_json()["version"]
    assert f'data-live-version="{before}"' in client.get(f"/crowds/{crowd_id}/board").get_data(
        as_text=True)
    quiet = client.get(f"/crowds/{crowd_id}/board/version?since={before}")
    assert quiet.status_code == 204 and quiet.headers["Cache-Control"] == "no-store"
    finish_round(app, crowd_id)
    over = client.get(f"/crowds/{crowd_id}/board/version?since={before}").get_json()["version"]
    assert over != before
    with app.app_context():
        crowd.next_round(crowd_id, 1, seed=1)
    seated = client.get(f"/crowds/{crowd_id}/board/version?since={over}").get_json()["version"]
    assert seated not in (before, over)
    assert client.get(f"/crowds/{crowd_id + 1}/board/version").status_code == 404
    assert client.get(f"/crowds/{crowd_id + 1}/board").status_code == 404


def test_between_rounds_the_board_shows_the_nights_standings_then_its_winner(app):
    crowd_id = start(app)
    client = app.test_client()
    finish_round(app, crowd_id)
    shown = board(app, crowd_id)
    assert shown.between and not shown.night.over
    page = text(client.get(f"/crowds/{crowd_id}/board"))
    assert "The night’s standings · after round 1" in page
    assert "the next round is seated soon" in page and "wins the night" not in page
    for table in shown.tables:
        assert f"Table {table.number}: {' & '.join(table.winners)}" in page
    with app.app_context():
        crowd.next_round(crowd_id, 1, seed=1)
    page = text(client.get(f"/crowds/{crowd_id}/board"))
    assert "Round 2 of 2" in page and "The night’s standings" not in page
    finish_round(app, crowd_id)
    shown = board(app, crowd_id)
    page = text(client.get(f"/crowds/{crowd_id}/board"))
    assert "The night is over" in page
    assert f"{' & '.join(shown.night.winners)} wins the night" in page
    assert "seated soon" not in page


@pytest.mark.parametrize("locked", [False, True])
def test_the_board_carries_the_nights_qr_code_where_the_nights_page_does(app, locked):
    crowd_id = start(app)
    host = app.test_client()
    night = host.get(f"/crowds/{crowd_id}").get_data(as_text=True)
    assert f'href="/crowds/{crowd_id}/board"' in night
    if locked:
        host.post("/settings/passcode", data={"passcode": "open sesame"})
    tv = app.test_client()
    page = tv.get(f"/crowds/{crowd_id}/board").get_data(as_text=True)
    assert ("/join.svg?to=/crowds/1/join/" in page) is not locked


def test_with_a_late_table_the_board_shows_each_tables_latest_game_and_its_round(app):
    crowd_id = start(app, names=[*ELEVEN, "Lu"], rounds=3)
    with app.app_context():
        first = reading.board(crowd_id).tables
        for table in first[:2]:
            play_out(table.game_id)
        crowd.next_round(crowd_id, 1)  # table 1 of round 2; tables 2 and 3 wait for 3
    shown = board(app, crowd_id)
    assert [(t.number, t.round) for t in shown.tables] == [(1, 2), (2, 1), (3, 1)]
    assert not shown.between  # table 3 and round 2's table 1 are being played
    page = text(app.test_client().get(f"/crowds/{crowd_id}/board"))
    assert "Round 2 of 3" in page and "Table 3 round 1" in page
    assert "The night’s standings" not in page
    with app.app_context():
        play_out(shown.tables[0].game_id)
        play_out(first[2].game_id)
    assert board(app, crowd_id).between  # nothing is being played: the standings
