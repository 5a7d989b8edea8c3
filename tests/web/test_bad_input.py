"""Impossible hands and bad new games through the forms: a message at the field, what was typed
kept, nothing written."""

import html as markup
import re

import pytest

from scorekeeper.db.models import Game, Player, Round
from scorekeeper.extensions import db
from scorekeeper.web.bidi import needs_isolating
from tests.helpers import alerts, hand_data, start_game

P = ["Ann", "Ben", "Cy"]


def error_at(html: str, name: str) -> str:
    """Return the message shown next to form input `name`, or '' if there is none."""
    found = re.search(rf'id="{re.escape(name)}-error" role="alert">([^<]+)<', html)
    return found.group(1) if found else ""


def count(app, model) -> int:
    with app.app_context():
        return db.session.query(model).count()


def post_hand(client, data):
    response = client.post("/games/1/hands/new", data=data)
    assert response.status_code == 422
    return response.get_data(as_text=True)


def checked(html: str, name: str, value) -> bool:
    return bool(re.search(rf'name="{name}" value="{value}" checked', html))


BUTTONS = {"went_out": ("0", "1", "2", "stalemate"), "cards": tuple(map(str, range(1, 11))),
           "kings": ("0", "1", "2", "3", "4")}


def assert_kept(html: str, data: dict) -> None:
    """Check the re-rendered form shows every tap and every typed box as they were sent."""
    for name, value in data.items():
        kind = name.split("-")[0]
        if kind == "cards_more" or kind == "token":
            assert re.search(rf'name="{name}"[^>]*value="{re.escape(value)}"', html), name
        elif value in BUTTONS.get(kind, ()):
            typed_over = kind == "cards" and data.get(f"cards_more-{name.split('-')[1]}")
            assert checked(html, name, value) != bool(typed_over), name


@pytest.fixture
def game(client):
    """Start Ann, Ben and Cy, with Ann dealing, and record the first hand."""
    start_game(client, P)
    client.post("/games/1/hands/new", data=hand_data(P, "Cy", {"Ann": 1, "Ben": 1}, 1))
    return client


BAD_HANDS = [
    # (what a player typed, the input the message sits at, words of the message)
    ({"cards_more-0": "-3"}, "cards_more-0", "Cards left for Ann cannot be negative"),
    ({"cards_more-0": "2.5"}, "cards_more-0", "Cards left for Ann must be a whole number"),
    ({"cards_more-0": "three"}, "cards_more-0", "you typed “three”"),
    ({"cards-0": "-1"}, "cards-0", "Cards left for Ann cannot be negative"),
    ({"kings-0": "1.5"}, "kings-0", "Kings for Ann must be a whole number"),
    ({"kings-0": "-1"}, "kings-0", "Kings for Ann cannot be negative"),
    ({"cards-0": "2", "kings-0": "3"}, "kings-0", "Ann holds 2 cards, so cannot hold 3 kings"),
    ({"cards-0": "9", "kings-0": "5"}, "kings-0", "A deck has only 4 kings"),
    ({"cards-0": "3", "kings-0": "3", "cards-2": "2", "kings-2": "2"}, "kings-2",
     "A deck has only 4 kings"),
    # A count typed in the 11+ box is refused at that box.
    ({"cards_more-0": "30", "cards_more-2": "23"}, "cards_more-2", "A deck has only 52 cards"),
    ({"cards_more-0": "0"}, "cards_more-0", "Ann did not go out, so holds at least one card"),
    ({"went_out": "stalemate", "cards-1": "2", "cards_more-0": "0"}, "cards_more-0",
     "In a stalemate nobody has emptied their hand: Ann holds at least one card"),
    ({"went_out": "7"}, "went_out", "Tap who went out"),
    ({"went_out": "Dee"}, "went_out", "Tap who went out"),
    ({"went_out": ""}, "went_out", "Tap who went out"),
    ({"cards-0": ""}, "cards-0", "How many cards does Ann have left?"),
]


@pytest.mark.parametrize("typed, field, words", BAD_HANDS)
def test_an_impossible_hand_is_refused_at_its_field_keeping_what_was_typed(
        game, app, typed, field, words):
    data = hand_data(P, "Ben", {"Ann": 4, "Cy": 2}, 2)
    data.update(typed)
    html = post_hand(game, data)
    assert words in error_at(html, field), alerts(html)
    assert_kept(html, data)
    assert count(app, Round) == 1
    scoreboard = game.get("/games/1/export.json").get_json()
    assert scoreboard["result"]["totals"] == {"Ann": 1, "Ben": 1, "Cy": 0}


def test_cards_left_tapped_for_the_one_who_went_out_ask_for_a_second_look(game, app):
    # Without JavaScript a tap stays on when someone is then picked as the one who went out.
    data = hand_data(P, "Ben", {"Ann": 4, "Cy": 2}, 2)
    data.update({"cards-1": "3", "kings-1": "1"})
    html = post_hand(game, data)
    assert error_at(html, "went_out") == (
        "Cards were tapped for Ben, who went out. Save again if Ben went out; if not, tap who did.")
    assert count(app, Round) == 1
    # Shown again without Ben's taps, so the same Save now goes through.
    assert checked(html, "went_out", 1) and checked(html, "cards-0", 4)
    assert not checked(html, "cards-1", 3) and not checked(html, "kings-1", 1)
    del data["cards-1"]
    data["kings-1"] = "0"
    assert game.post("/games/1/hands/new", data=data).status_code == 302
    log = game.get("/games/1/export.json").get_json()
    assert log["result"]["totals"] == {"Ann": 5, "Ben": 1, "Cy": 2}


def test_switching_who_went_out_in_an_edit_without_javascript_takes_two_saves(game):
    # Hand 1: Cy went out, Ann and Ben held 1. The edit page shows Ann's and Ben's taps on.
    data = {"number": "1", "went_out": "1", "cards-0": "1", "kings-0": "0",
            "cards-1": "1", "kings-1": "0", "cards-2": "3", "kings-2": "0"}
    response = game.post("/games/1/hands/1/edit", data=data)
    assert response.status_code == 422
    assert "Cards were tapped for Ben, who went out" in error_at(response.get_data(as_text=True),
                                                         "went_out")
    del data["cards-1"]
    assert game.post("/games/1/hands/1/edit", data=data).status_code == 302
    log = game.get("/games/1/export.json").get_json()
    assert log["result"]["totals"] == {"Ann": 1, "Ben": 0, "Cy": 3}


def test_an_impossible_edit_is_refused_and_the_stored_hand_stays(game):
    response = game.post("/games/1/hands/1/edit",
                         data=hand_data(P, "Cy", {"Ann": (2, 3), "Ben": 1}, 1))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "cannot hold 3 kings" in error_at(html, "kings-0")
    assert checked(html, "kings-0", 3) and "Edit hand 1" in html
    log = game.get("/games/1/export.json").get_json()
    assert log["rounds"][0]["hands"]["Ann"] == {"cards": 1, "kings": 0}


def test_a_refused_hand_marks_the_players_box_that_needs_fixing(game):
    data = hand_data(P, "Ben", {"Ann": (2, 3), "Cy": 2}, 2)
    html = post_hand(game, data)
    boxes = re.findall(r'<fieldset class="card player( invalid)?"\s+data-seat="(\d)"', html)
    assert [(seat, bool(bad)) for bad, seat in boxes] == [("0", True), ("1", False),
                                                          ("2", False)]


# New game: names, table size and settings.

def new_game(client, *names, dealer="0", **rules):
    data = {"variant": "penalty", "dealer": dealer}
    data.update({f"seat-{i}": name for i, name in enumerate(names)})
    data.update({f"rules-penalty-{key}": value for key, value in rules.items()})
    return client.post("/games/new", data=data)


def refused(response, app) -> str:
    assert response.status_code == 422
    assert count(app, Game) == 0 and count(app, Player) == 0
    return response.get_data(as_text=True)


@pytest.mark.parametrize("names, field, words", [
    ((), "seat-0", "Needs at least 2 players"),
    (("", "  ", "\t"), "seat-0", "at least 2 players"),
    (("Ann",), "seat-0", "at least 2 players"),
    (("Ann", "Ben", "ann"), "seat-2", "“ann” is already in this game (seat 1)"),
    (("Ann", "  ANN  "), "seat-1", "is already in this game"),
    (("Zoë", "Zoe\u0308"), "seat-1", "is already in this game"),
    (("Ann", "Ben\x07"), "seat-1", "cannot be shown"),
    (("Ann", "Ben\x00"), "seat-1", "cannot be shown"),
    (("Ann", "\u202eneB"), "seat-1", "cannot be shown"),
    (("Ann", "B" * 200), "seat-1", "A name can be at most 40 characters"),
    (("Ann", "ß" * 30), "seat-1", "A name can be at most 40 characters"),
])
def test_bad_names_are_refused_at_their_seat(client, app, names, field, words):
    html = refused(new_game(client, *names), app)
    assert words in error_at(html, field), alerts(html)
    for i, name in enumerate(names):
        if name.strip() and "\x00" not in name:
            assert f'name="seat-{i}" value="{name}"' in html.replace("&#39;", "'")


def test_a_seventh_player_is_refused_rather_than_left_out(client, app):
    data = {"variant": "penalty", "dealer": "0"}
    data.update({f"seat-{i}": name for i, name in enumerate("ABCDEFG")})
    html = refused(client.post("/games/new", data=data), app)
    assert "at most 6 players" in error_at(html, "players")


@pytest.mark.parametrize("rules, field, words", [
    ({"target-other": "abc"}, "rules-penalty-target-other", "Play to must be a whole number"),
    ({"target-other": "-5"}, "rules-penalty-target-other", "Play to cannot be negative"),
    ({"target-other": "0"}, "rules-penalty-target-other", "Play to: must be at least 1"),
    ({"target-other": "99999"}, "rules-penalty-target-other", "at most 10000"),
    ({"target-other": "123456789012345678901234567890"}, "rules-penalty-target-other",
     "too big"),
    ({"target": "twenty"}, "rules-penalty-target", "Play to must be a whole number"),
    ({"king_points": "1e3"}, "rules-penalty-king_points", "must be a whole number"),
    ({"card_points": "5000"}, "rules-penalty-card_points", "at most 1000"),
    ({"end_when": "passes"}, "rules-penalty-end_when",
     "Game ends when a total: must be one of reaches, exceeds"),
])
def test_bad_settings_are_refused_at_their_input_keeping_the_names(client, app, rules, field,
                                                                    words):
    html = refused(new_game(client, "Ann", "Ben", **rules), app)
    assert words in error_at(html, field), alerts(html)
    assert 'name="seat-1" value="Ben"' in html
    for key, value in rules.items():
        if key.endswith("-other") or key in ("king_points", "card_points"):
            assert re.search(rf'name="rules-penalty-{key}"[^>]*value="{value}"', html)


@pytest.mark.parametrize("typed, shown", [
    ("  Ann  ", "Ann"),
    ("Zoe\u0308", "Zoë"),
    ("Mary   Jo", "Mary Jo"),
    ("🂡 Ace", "🂡 Ace"),
    ("👩‍🚀 Kim", "👩‍🚀 Kim"),
    ("سارا", "سارا"),
    ("שרה", "שרה"),
    ("李小龙", "李小龙"),
    ("<b>Bo</b>", "&lt;b&gt;Bo&lt;/b&gt;"),
    ("X" * 40, "X" * 40),
])
def test_unusual_names_are_seated_cleaned_up_and_shown_as_typed(client, typed, shown):
    response = new_game(client, typed, "Ben")
    assert response.status_code == 302, alerts(response.get_data(as_text=True))
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    # A right-to-left name is isolated (<bdi>), so the words around it keep their places.
    isolated = f"<bdi>{shown}</bdi>" if needs_isolating(markup.unescape(shown)) else shown
    assert f"<b>{isolated}</b> deals" in html
    assert client.get("/games/1/export.json").get_json()["players"][0] == (
        shown.replace("&lt;", "<").replace("&gt;", ">"))


def test_a_name_typed_in_another_case_is_the_roster_player_of_that_name(client, app):
    start_game(client, ["Ann", "Ben"])
    start_game(client, ["ANN", "cy"])
    log = client.get("/games/2/export.json").get_json()
    assert log["players"] == ["Ann", "cy"]
    assert count(app, Player) == 3


def test_a_first_dealer_seat_left_empty_falls_back_to_the_first_seat(client):
    response = new_game(client, "Ann", "Ben", "", dealer="2")
    assert response.status_code == 302
    assert client.get("/games/1/export.json").get_json()["first_dealer"] == "Ann"
