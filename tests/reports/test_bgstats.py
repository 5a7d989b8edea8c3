"""A finished game handed to BG Stats as the play it documents for other apps' pushes."""

from __future__ import annotations

import json
from html import unescape
from urllib.parse import unquote

from scorekeeper.reports.bgstats import CREATE_PLAY
from tests.helpers import hand_data, start_game

NAMES = ["Ann", "Ben", "Cy"]


def sent(client, game_id) -> dict | None:
    """Return the play a scoreboard's Send to BG Stats link carries, or None."""
    page = unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    start = page.find(CREATE_PLAY)
    if start < 0:
        return None
    link = page[start:page.index('"', start)]
    return json.loads(unquote(link[len(CREATE_PLAY):]))


def test_penalty_lowest_wins_ties_share_a_rank_and_only_once_over(client):
    game_id = start_game(client, NAMES, target=25)
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(NAMES, "Ann", {"Ben": 5, "Cy": 5}, number=1))
    assert sent(client, game_id) is None  # not over: nothing to send
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(NAMES, "Ann", {"Ben": (10, 2), "Cy": (10, 2)}, number=2))
    play = sent(client, game_id)
    assert play["game"] == {"name": "Kings in the Corner", "highestWins": False,
                            "noPoints": False, "sourceGameId": "kings-corners-penalty"}
    assert play["board"] == "Penalty points"
    by_name = {p["name"]: p for p in play["players"]}
    assert by_name["Ann"] | {"sourcePlayerId": ""} == {
        "name": "Ann", "score": 0, "rank": 1, "winner": True, "startPlayer": False,
        "sourcePlayerId": "", "role": ""}
    # Ben and Cy tie on 5 + 28 = 33: both second.
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Ann", 0, 1, True), ("Ben", 33, 2, False), ("Cy", 33, 2, False)]
    assert sum(p["startPlayer"] for p in play["players"]) == 1  # who played first, hand 1
    assert len(play["playDate"]) == 19


def test_chips_most_chips_win(client):
    game_id = start_game(client, NAMES, variant="chips", preset="house")
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(NAMES, "Cy", {"Ann": 4, "Ben": 1}, number=1))
    client.post(f"/games/{game_id}/end")
    play = sent(client, game_id)
    assert play["game"]["highestWins"] is True
    assert play["players"][0]["name"] == "Cy" and play["players"][0]["winner"]
    scores = [p["score"] for p in play["players"]]
    assert scores == sorted(scores, reverse=True)


def test_an_imported_game_is_dated_the_day_it_was_played_and_sent_twice_is_one_play(
        app, client):
    from tests.helpers import import_log

    rounds = [{"went_out": "Ann", "hands": {"Ben": {"cards": 10}, "Cy": {"cards": 12}}}]
    old = import_log(app, "penalty", NAMES, rounds, "2025-03-07", ended=True, target=25)
    play = sent(client, old)
    assert play["playDate"] == "2025-03-07 12:00:00"  # not the day it was imported
    assert play["sourcePlayId"] == sent(client, old)["sourcePlayId"]  # the same play again
    today = start_game(client, NAMES, target=25)
    client.post(f"/games/{today}/hands/new",
                data=hand_data(NAMES, "Ann", {"Ben": (10, 2), "Cy": (10, 2)}, number=1))
    again = sent(client, today)
    assert again["sourcePlayId"] != play["sourcePlayId"]  # another game, another play
