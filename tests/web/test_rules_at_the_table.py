"""The rules at the table: how to play, this game's rules, and why these points."""

import re
from html import unescape

from tests.helpers import deal_data, hand_data, start_game


def text(html: str) -> str:
    """Return a page's words without its tags, as a phone shows them."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def why_of(client, game_id: int, number: int = 1, headers=None) -> list[str]:
    """Return each explanation of a hand a tap on a score opens, in seat order: from the
    hand's why page and from its fragment (what app.js fetches on the tap), which agree."""
    headers = headers or {}
    lines = []
    for fragment in (False, True):
        response = client.get(f"/games/{game_id}/hands/{number}/why",
                              headers={**headers, **({"X-Fragment": "1"} if fragment else {})})
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        assert ("<html" in html) is not fragment
        lines.append([text(part).strip()
                      for part in re.findall(r'<li data-name="[^"]*">(.*?)</li>', html, re.S)])
    page, alone = lines
    assert page == alone
    return page


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
    assert why_of(client, game_id, headers=spanish) == ["Ann salió: 0",
                            "Ben: 3 cartas, 1 de ellas un rey: 2 × 1 + 1 × 10 = 12"]
    assert "Jugar hasta 25: la partida termina tras la mano en que un total llega a 25" \
        in text(html)


def test_a_penalty_score_says_how_it_was_worked_out(client):
    players = ("Ann", "Ben", "Cy")
    game_id = start_game(client, players)
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(players, "Cy", {"Ann": 4, "Ben": (3, 1)}))
    assert why_of(client, game_id) == ["Ann: 4 cards: 4 × 1 = 4",
                            "Ben: 3 cards, 1 of them a king: 2 × 1 + 1 × 10 = 12",
                            "Cy went out: 0"]


def test_a_stalemate_tells_the_fewest_cards(client):
    players = ("Ann", "Ben")
    game_id = start_game(client, players)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(players, None, {"Ann": 2, "Ben": 5}))
    assert why_of(client, game_id) == ["Ann: the fewest cards in the stalemate (2): 0",
                            "Ben: 5 cards: 5 × 1 = 5"]


def test_a_chips_hand_says_what_each_paid_and_who_won_the_pot(client):
    players = ("Ann", "Ben", "Cy")
    game_id = start_game(client, players, variant="chips", preset="house")
    data = hand_data(players, "Cy", {"Ann": 5, "Ben": 1})
    data["events"] = "0:pass,0:pass"
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 302
    said = why_of(client, game_id)
    assert said[0].startswith("Ann paid 1 ante")
    assert "5 cards:" in said[0] and "Cy won the pot of" in said[0]
    assert said[2].startswith("Cy paid 1 ante: 1 into the pot; Cy won the pot of")


def test_a_deal_says_which_corners_were_crowned(client):
    game_id = start_game(client, ("Ann", "Ben"), variant="coronation", deals_to_win=3)
    response = client.post(f"/games/{game_id}/hands/new",
                           data=deal_data(["Ann", "Ben", "Ann", "Ben"], "Ann"))
    assert response.status_code == 302
    assert why_of(client, game_id) == ["Ann: corners crowned: 1 and 3; the dragon: slain: 3 points",
                            "Ben: corners crowned: 2 and 4; the dragon: not slain: 2 points"]


def test_the_scoreboard_says_this_games_rules_with_its_numbers(client):
    game_id = start_game(client, variant="penalty", target=50, end_when="exceeds",
                         king_points=5)
    said = text(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "This game’s rules" in said
    assert "passes 50 (more than 50)" in said
    assert "scores 5 for each king left in hand and 1 for each other card" in said


def test_the_scoreboard_carries_no_explanation_only_where_to_fetch_each_hands(client):
    players = ("Ann", "Ben", "Cy")
    game_id = start_game(client, players)
    for number, went_out in ((1, "Cy"), (2, "Ann")):
        hands = {name: (3, 1) for name in players if name != went_out}
        client.post(f"/games/{game_id}/hands/new", data=hand_data(players, went_out, hands,
                                                                   number=number))
    for page in (f"/games/{game_id}", f"/history/games/{game_id}"):
        html = client.get(page).get_data(as_text=True)
        assert "2 × 1 + 1 × 10" not in html and "went out: 0" not in html
        assert [int(n) for n in re.findall(rf'<tr data-why="/games/{game_id}/hands/(\d+)/why"',
                                           html)] == [1, 2]
        # Each score tapped without a script: one more tap, to its hand's why page.
        links = re.findall(r'<details class="why" data-name="([^"]*)">.*?'
                           r'<p class="why-text"><a href="([^"]*)">Why these points</a></p>',
                           html, re.S)
        assert links == [(name, f"/games/{game_id}/hands/{number}/why")
                         for number in (1, 2) for name in players]


def test_each_variants_board_says_where_to_fetch_a_hands_explanation(client):
    chips = start_game(client, ("Ann", "Ben", "Cy"), variant="chips", preset="house")
    client.post(f"/games/{chips}/hands/new",
                data=hand_data(("Ann", "Ben", "Cy"), "Cy", {"Ann": 5, "Ben": 1}))
    duel = start_game(client, ("Ann", "Ben"), variant="coronation", deals_to_win=3)
    client.post(f"/games/{duel}/hands/new", data=deal_data(["Ann", "Ben", "Ann", "Ben"], "Ann"))
    for game_id, names in ((chips, ("Ann", "Ben", "Cy")), (duel, ("Ann", "Ben"))):
        html = client.get(f"/games/{game_id}").get_data(as_text=True)
        where = f"/games/{game_id}/hands/1/why"
        assert f'data-why="{where}"' in html and "corners crowned" not in html
        assert "paid 1 ante" not in html
        assert re.findall(r'<details class="why" data-name="([^"]*)">', html) == list(names)
        assert html.count(f'<p class="why-text"><a href="{where}">') == len(names)


def test_the_why_page_names_the_hand_and_leads_back_to_the_scoreboard(client):
    game_id = start_game(client, ("Ann", "Ben"))
    client.post(f"/games/{game_id}/hands/new", data=hand_data(("Ann", "Ben"), "Ann", {"Ben": 3}))
    html = client.get(f"/games/{game_id}/hands/1/why").get_data(as_text=True)
    assert "<title>Hand 1: why these points" in html
    assert f'<a class="button big" href="/games/{game_id}" id="back">Back to the scoreboard</a>' \
        in html
    spanish = client.get(f"/games/{game_id}/hands/1/why",
                         headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Mano 1: por qué estos puntos" in spanish and "Volver al marcador" in spanish
    fragment = client.get(f"/games/{game_id}/hands/1/why", headers={"X-Fragment": "1"})
    assert "Back to the scoreboard" not in fragment.get_data(as_text=True)
    assert "X-Fragment" in fragment.headers["Vary"]


def test_a_deal_is_explained_under_its_own_word(client):
    game_id = start_game(client, ("Ann", "Ben"), variant="coronation", deals_to_win=3)
    client.post(f"/games/{game_id}/hands/new", data=deal_data(["Ann", "Ben", "Ann", "Ben"], "Ann"))
    html = client.get(f"/games/{game_id}/hands/1/why").get_data(as_text=True)
    assert "Deal 1: why these points" in html


def test_a_hand_or_game_that_does_not_exist_has_no_explanation(client):
    game_id = start_game(client, ("Ann", "Ben"))
    assert client.get(f"/games/{game_id}/hands/1/why").status_code == 404  # none played yet
    client.post(f"/games/{game_id}/hands/new", data=hand_data(("Ann", "Ben"), "Ann", {"Ben": 3}))
    assert client.get(f"/games/{game_id}/hands/1/why").status_code == 200
    for number in ("0", "2", "99999999999999999999"):
        assert client.get(f"/games/{game_id}/hands/{number}/why").status_code == 404, number
    for game in (game_id + 1, 99999999999999999999):
        assert client.get(f"/games/{game}/hands/1/why").status_code == 404, game
    assert client.get(f"/games/{game_id}/hands/-1/why").status_code == 404


def test_a_name_in_a_right_to_left_script_is_isolated_in_its_explanation(client):
    players = ("دانة", "Ben")
    game_id = start_game(client, players)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(players, "Ben", {"دانة": 3}))
    for headers in ({}, {"X-Fragment": "1"}):
        html = client.get(f"/games/{game_id}/hands/1/why", headers=headers).get_data(
            as_text=True)
        assert '<li data-name="دانة"><bdi>دانة</bdi>: 3 cards: 3 × 1 = 3</li>' in html
