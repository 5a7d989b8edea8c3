"""A finished game shows what it did to each player's rating."""

from __future__ import annotations

import re
from html import unescape

from scorekeeper.db import read_game
from scorekeeper.reports import ratings
from tests.helpers import hand_data, start_game, with_part

NAMES = ["Ann", "Ben", "Cy"]


def test_each_player_s_change_is_shown_once_the_game_is_over(app, client):
    game_id = start_game(client, NAMES, target=25)
    assert "data-rating-moves" not in client.get(f"/games/{game_id}").get_data(as_text=True)
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(NAMES, "Cy", {"Ann": (13, 2), "Ben": (13, 2)}, number=1))
    page = unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    line = re.search(r'data-rating-moves>(.*?)</p>', page, re.S).group(1)
    shown = dict(re.findall(r'<span class="move">(\w+) ([+−]\d+)', line))
    with app.app_context():
        changes = {c.name: c.change for c in ratings.game_changes(game_id)}
        assert read_game(game_id).result.winners == ("Cy",)
    assert set(shown) == set(NAMES)
    assert {name: int(text.replace("−", "-")) for name, text in shown.items()} == changes
    assert changes["Cy"] > 0 > changes["Ann"]  # the winner gains, the others lose


def won_in_turn(client, *winners: str) -> None:
    """Play a penalty game to 25 for each winner, who goes out while the others end it."""
    for winner in winners:
        game_id = start_game(client, NAMES, target=25)
        others = {name: (13, 2) for name in NAMES if name != winner}
        client.post(f"/games/{game_id}/hands/new",
                    data=hand_data(NAMES, winner, others, number=1))


def test_a_player_s_page_shows_their_rating_and_rivals(app, client):
    won_in_turn(client, "Cy", "Cy", "Ann")
    with app.app_context():
        mine = ratings.player_ratings(3)["penalty"]  # Cy
    page = " ".join(re.sub(r"<[^>]+>", "", unescape(
        with_part(client, "/players/3").get_data(as_text=True))).split())
    assert f"Penalty points{mine.figure} provisional: 3 of 10 games" in page
    assert "Longest winning run: 2 games" in page
    assert "Beaten most by Ann: 1 of 3 games together" in page


def test_a_player_s_page_draws_their_rating_after_each_game_a_line_a_variant(app, client):
    won_in_turn(client, "Cy", "Ann", "Cy")
    start_game(client, NAMES, variant="chips", preset="house")  # not finished: no line
    with app.app_context():
        after = [r.figure for r in ratings.player_line(3, "penalty")]
    html = unescape(with_part(client, "/players/3").get_data(as_text=True))
    chart = re.search(r'<svg[^>]*aria-labelledby="rating-chart-title.*?</svg>', html,
                      re.S).group(0)
    assert f"Cy's rating after each of 3 finished games: now Penalty points {after[-1]}." in chart
    assert chart.count("<polyline") == 1 and "Chip pot" not in chart
    # The line's three points climb, drop and climb as Cy won, lost and won.
    points = re.search(r'<polyline[^>]*points="([^"]+)"', chart).group(1).split()
    heights = [float(point.split(",")[1]) for point in points]  # y grows downwards
    assert len(heights) == 3 and heights[1] > heights[0] and heights[2] < heights[1]
    assert after[1] < after[0] < after[2]
