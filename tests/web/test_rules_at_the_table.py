"""The rules at the table: how to play, this game's rules, and why these points."""

import re
from html import unescape

from tests.helpers import deal_data, hand_data, start_game


def text(html: str) -> str:
    """Return a page's words without its tags, as a phone shows them."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def why_of(html: str) -> list[str]:
    """Return every explanation a tap on a score opens, in page order."""
    return [text(part).strip() for part in re.findall(r'<p class="why-text">(.*?)</p>', html)]


def test_how_to_play_is_one_tap_from_the_scoreboard_and_the_new_game_page(client):
    game_id = start_game(client)
    for page in (f"/games/{game_id}", "/games/new"):
        assert 'href="/how-to-play"' in client.get(page).get_data(as_text=True)
    html = client.get("/how-to-play").get_data(as_text=True)
    said = text(html)
    assert "Deal seven cards to each player" in said
    assert "a king into an empty corner" in said
    assert "Draw at the start of your turn, or at the end of it." in said
    assert "<svg" in html and 'role="img"' in html


def test_the_rules_at_the_table_in_spanish(client):
    spanish = {"Accept-Language": "es-ES,es;q=0.9"}
    said = text(client.get("/how-to-play", headers=spanish).get_data(as_text=True))
    assert "Cómo jugar a Kings Corners" in said
    assert "Reparte siete cartas a cada jugador" in said
    players = ("Ann", "Ben")
    game_id = start_game(client, players)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(players, "Ann", {"Ben": (3, 1)}))
    html = client.get(f"/games/{game_id}", headers=spanish).get_data(as_text=True)
    assert why_of(html) == ["Ann salió: 0",
                            "Ben: 3 cartas, 1 de ellas un rey: 2 × 1 + 1 × 10 = 12"]
    assert "Jugar hasta 25: la partida termina tras la mano en que un total llega a 25" \
        in text(html)


def test_a_penalty_score_says_how_it_was_worked_out(client):
    players = ("Ann", "Ben", "Cy")
    game_id = start_game(client, players)
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(players, "Cy", {"Ann": 4, "Ben": (3, 1)}))
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert why_of(html) == ["Ann: 4 cards: 4 × 1 = 4",
                            "Ben: 3 cards, 1 of them a king: 2 × 1 + 1 × 10 = 12",
                            "Cy went out: 0"]


def test_a_stalemate_tells_the_fewest_cards(client):
    players = ("Ann", "Ben")
    game_id = start_game(client, players)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(players, None, {"Ann": 2, "Ben": 5}))
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert why_of(html) == ["Ann: the fewest cards in the stalemate (2): 0",
                            "Ben: 5 cards: 5 × 1 = 5"]


def test_a_chips_hand_says_what_each_paid_and_who_won_the_pot(client):
    players = ("Ann", "Ben", "Cy")
    game_id = start_game(client, players, variant="chips", preset="house")
    data = hand_data(players, "Cy", {"Ann": 5, "Ben": 1})
    data["events"] = "0:pass,0:pass"
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    said = why_of(html)
    assert said[0].startswith("Ann paid 1 ante")
    assert "5 cards:" in said[0] and "Cy won the pot of" in said[0]
    assert said[2].startswith("Cy paid 1 ante: 1 into the pot; Cy won the pot of")


def test_a_deal_says_which_corners_were_crowned(client):
    game_id = start_game(client, ("Ann", "Ben"), variant="coronation", deals_to_win=3)
    response = client.post(f"/games/{game_id}/hands/new",
                           data=deal_data(["Ann", "Ben", "Ann", "Ben"], "Ann"))
    assert response.status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert why_of(html) == ["Ann: corners crowned: 1 and 3; the dragon: slain: 3 points",
                            "Ben: corners crowned: 2 and 4; the dragon: not slain: 2 points"]


def test_the_scoreboard_says_this_games_rules_with_its_numbers(client):
    game_id = start_game(client, variant="penalty", target=50, end_when="exceeds",
                         king_points=5)
    said = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "This game’s rules" in said
    assert "passes 50 (more than 50)" in said
    assert "scores 5 for each king left in hand and 1 for each other card" in said
