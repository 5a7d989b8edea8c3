"""Forms in the moment of use, through the test client: every error at once with a summary
and the first one focused, impossible counts flagged as tapped, the end of a game said in
the preview, undo after Save, a rematch, and destructive buttons that ask first."""

from __future__ import annotations

import html as markup
import re

from sqlalchemy import select

from scorekeeper.db import read_game
from scorekeeper.db.models import Event, Game, Player, Round
from scorekeeper.extensions import db
from tests.helpers import csrf_token, deal_data, hand_data, start_game

P = ["Ann", "Ben", "Cy"]


def page(response) -> str:
    return markup.unescape(response.get_data(as_text=True))


def summary(html: str) -> list[tuple[str, str]]:
    """Return the error summary's links: (where it goes, what it says)."""
    box = re.search(r'<section class="error-summary".*?</section>', html, re.S)
    return re.findall(r'<a href="#([^"]+)">([^<]+)</a>', box.group(0)) if box else []


def focused(html: str) -> str:
    """Return the id of the one element the page opens focused on (autofocus)."""
    found = re.findall(r"<[^>]*\bautofocus\b[^>]*>", html)
    assert len(found) == 1, found
    return re.search(r'\bid="([^"]+)"', found[0]).group(1)


def flash(response) -> str:
    return " ".join(re.findall(r'class="flash" role="status">([^<]+)<', page(response)))


def rounds(app, game_id) -> int:
    with app.app_context():
        return len(db.session.scalars(select(Round).where(Round.game_id == game_id)).all())


def games(app) -> int:
    with app.app_context():
        return db.session.query(Game).count()


def record(client, game_id, went_out, hands, number, names=P, token=None):
    return client.post(f"/games/{game_id}/hands/new",
                       data=hand_data(names, went_out, hands, number, token))


# -- every error at once, the first in view ----------------------------------------------

def test_a_refused_hand_names_every_error_at_once_and_opens_at_the_first(app, client):
    game_id = start_game(client, P)
    data = {"number": "1", "token": "t1", "went_out": "0", "kings-1": "0",
            "cards_more-1": "abc", "cards-2": "1", "kings-2": "3"}
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 422
    html = page(response)
    assert summary(html) == [
        ("cards_more-1", "Cards left for Ben must be a whole number (you typed “abc”)"),
        ("kings-2", "Cy holds 1 card, so cannot hold 3 kings")]
    assert "Nothing was saved: 2 things to fix" in html
    assert focused(html) == "cards_more-1"
    for anchor, _ in summary(html):  # each link lands on an input of the page, once
        assert html.count(f'id="{anchor}"') == 1
    assert 'name="kings-2" value="3" checked id="kings-2"' in html  # on the tapped key
    assert rounds(app, game_id) == 0


def test_errors_are_listed_in_the_order_of_the_page_whatever_found_them(client):
    game_id = start_game(client, ["Ann", "Ben", "Cy", "Dee"])
    # Ann's kings are impossible (found by the rules), Dee's cards unreadable (the reader).
    data = {"number": "1", "token": "t1", "went_out": "1", "cards-0": "2", "kings-0": "3",
            "cards-2": "4", "kings-2": "0", "cards_more-3": "-2", "kings-3": "0"}
    html = page(client.post(f"/games/{game_id}/hands/new", data=data))
    assert [anchor for anchor, _ in summary(html)] == ["kings-0", "cards_more-3"]
    assert focused(html) == "kings-0"


def test_a_refused_new_game_names_every_error_at_once(app, client):
    response = client.post("/games/new", data={
        "variant": "penalty", "dealer": "0", "seat-0": "Ann", "seat-1": "Ann",
        "rules-penalty-target-other": "0", "rules-penalty-king_points": "5000",
        "rules-penalty-end_when": "passes"})
    assert response.status_code == 422
    html = page(response)
    said = dict(summary(html))
    assert list(said) == ["seat-1", "rules-penalty-target-other", "rules-penalty-end_when",
                          "rules-penalty-king_points"]
    assert "“Ann” is already in this game (seat 1)" in said["seat-1"]
    assert said["rules-penalty-target-other"] == "Play to: must be at least 1, not 0"
    assert said["rules-penalty-king_points"] == (
        "Points per king left: must be at most 1000, not 5000")
    assert focused(html) == "seat-1"
    assert '<details class="more-rules" open>' in html  # the folded rules open at an error
    assert 'name="seat-1" value="Ann"' in html and games(app) == 0


def test_coronation_for_three_is_refused_with_its_other_errors_at_the_game_choice(client):
    response = client.post("/games/new", data={
        "variant": "coronation", "dealer": "1", "seat-0": "Ann", "seat-1": "Ben",
        "seat-2": "Cy", "rules-coronation-deals_to_win-other": "100"})
    html = page(response)
    assert summary(html) == [
        ("variant", "Coronation is for exactly 2 players, and 3 are seated"),
        ("rules-coronation-deals_to_win-other",
         "Deals to win the match: must be at most 99, not 100")]
    # The focus is on the game tapped, not on the first of the games.
    assert focused(html) == "variant"
    assert re.search(r'value="coronation" checked id="variant" autofocus', html)


# -- the preview flags what cannot be -----------------------------------------------------

def preview(client, game_id, number, data):
    response = client.post(f"/games/{game_id}/hands/{number}/preview", data=data)
    assert response.status_code == 200
    return page(response)


def slot(html: str, name: str) -> str:
    """Return the text a preview puts in one slot of the form."""
    found = re.search(rf'data-slot="{name}"[^>]*>(.*?)</(?:p|output)>', html, re.S).group(1)
    return re.sub(r"<[^>]+>", "", found).strip()


def test_the_preview_flags_an_impossible_count_instead_of_scoring_it(client):
    game_id = start_game(client, P)
    html = preview(client, game_id, 1, {"went_out": "0", "cards_more-1": "999999",
                                        "cards-2": "2", "kings-2": "3"})
    assert slot(html, "player-1") == "" and "+999999" not in html
    assert "A deck has only 52 cards, and the hands hold 999999" in html
    assert "Cy holds 2 cards, so cannot hold 3 kings" in html
    # Still to be tapped is not an error while tapping.
    html = preview(client, game_id, 1, {"went_out": "0", "cards-1": "3"})
    assert "How many cards" not in html and slot(html, "player-1") == "+3 → 3"


def test_the_preview_flags_more_kings_than_a_deck_holds_across_hands(client):
    game_id = start_game(client, P)
    html = preview(client, game_id, 1, {"went_out": "0", "cards-1": "4", "kings-1": "3",
                                        "cards-2": "3", "kings-2": "2"})
    assert "A deck has only 4 kings, and the hands hold 5" in slot(html, "flag-2")
    assert slot(html, "player-1") == "+31 → 31"


# -- the preview says when a hand ends the game --------------------------------------------

def test_the_penalty_preview_says_who_reaches_the_target_and_who_wins(client):
    names = ["Ann", "Ben", "Cy", "Dee"]
    game_id = start_game(client, names, target=25)
    record(client, game_id, "Cy", {"Ann": 2, "Ben": 3, "Dee": 9}, 1, names)
    data = hand_data(names, "Ann", {"Ben": 2, "Cy": 3, "Dee": (16, 1)}, 2)
    assert slot(preview(client, game_id, 2, data), "ends") == (
        "Dee reaches 25: the game ends, Ann wins.")
    data = hand_data(names, "Ann", {"Ben": 2, "Cy": 3, "Dee": 5}, 2)
    assert slot(preview(client, game_id, 2, data), "ends") == ""
    # Correcting the last hand says it too; an earlier one, not: the later hands decide.
    client.post(f"/games/{game_id}/hands/new", data=data)
    data = hand_data(names, "Ann", {"Ben": 2, "Cy": 3, "Dee": 20}, 2)
    assert slot(preview(client, game_id, 2, data), "ends") == (
        "Dee reaches 25: the game ends, Ann wins.")
    data = hand_data(names, "Cy", {"Ann": 2, "Ben": 3, "Dee": 30}, 1)
    assert slot(preview(client, game_id, 1, data), "ends") == ""


def test_the_penalty_preview_says_passes_when_the_total_must_exceed(client):
    game_id = start_game(client, ["Ann", "Ben"], target=25, end_when="exceeds")
    data = hand_data(["Ann", "Ben"], "Ann", {"Ben": 26}, 1)
    assert slot(preview(client, game_id, 1, data), "ends") == (
        "Ben passes 25: the game ends, Ann wins.")


def test_the_chips_preview_says_when_a_bust_leaves_one_player_holding_chips(client):
    game_id = start_game(client, ["Ann", "Ben"], variant="chips", preset="house",
                         **{"start_chips-other": 5})
    data = hand_data(["Ann", "Ben"], "Ben", {"Ann": 10}, 1)
    assert slot(preview(client, game_id, 1, data), "ends") == (
        "Ann is out of chips: the game ends, Ben wins.")
    data = hand_data(["Ann", "Ben"], "Ben", {"Ann": 2}, 1)
    assert slot(preview(client, game_id, 1, data), "ends") == ""


def test_the_chips_preview_says_when_a_score_reaches_the_target(client):
    game_id = start_game(client, ["Ann", "Ben"], variant="chips", preset="jax",
                         **{"target-other": 10})
    data = hand_data(["Ann", "Ben"], "Ben", {"Ann": 9}, 1)  # the pot: 2 antes and 9
    assert slot(preview(client, game_id, 1, data), "ends") == (
        "Ben reaches 10: the game ends, Ben wins.")


def test_the_chips_preview_says_when_a_stack_reaches_the_target(client):
    game_id = start_game(client, ["Ann", "Ben"], variant="chips", preset="house",
                         **{"target-other": 60})
    data = hand_data(["Ann", "Ben"], "Ben", {"Ann": 11}, 1)  # Ben: 49 + 2 + 11
    assert slot(preview(client, game_id, 1, data), "ends") == (
        "Ben reaches 60: the game ends, Ben wins.")


def test_the_coronation_preview_says_the_deal_that_wins_the_match(client):
    game_id = start_game(client, ["Ann", "Ben"], variant="coronation", deals_to_win=1)
    html = preview(client, game_id, 1, deal_data(["Ann", "Ann", "Ben", None], "Ann"))
    assert "Ann wins the deal: a normal victory." in html
    assert "Ann has won 1 deal: the match ends, Ann wins." in html
    html = preview(client, game_id, 1, deal_data(["Ann", "Ben", "Ben", None], "Ann"))
    assert "A draw: nobody wins this deal." in html and "the match ends" not in html


# -- undo after Save ---------------------------------------------------------------------

def undo(client, game_id, number, token, confirmed=True):
    data = {"token": token, **({"confirmed": "1"} if confirmed else {})}
    return client.post(f"/games/{game_id}/hands/{number}/undo", data=data,
                       follow_redirects=True)


def test_after_save_the_scoreboard_offers_undo_of_that_hand_once(client):
    game_id = start_game(client, P)
    saved = record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1, token="save-1")
    board = page(client.get(saved.headers["Location"]))
    assert "Hand 1 saved" in board
    assert f'action="/games/{game_id}/hands/1/undo"' in board
    assert 'name="token" value="save-1"' in board
    assert "Hand 1 saved" not in page(client.get(f"/games/{game_id}"))  # once only
    # A second tap of Save saves nothing, and offers no undo of the hand saved before.
    again = record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1, token="save-1")
    board = page(client.get(again.headers["Location"]))
    assert "saved already" in board and "/undo" not in board


def test_undo_deletes_the_hand_just_saved(app, client):
    game_id = start_game(client, P)
    record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1, token="save-1")
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 2}, 2, token="save-2")
    response = undo(client, game_id, 2, "save-2")
    assert "Hand 2 undone: record it again when you are ready." in flash(response)
    assert rounds(app, game_id) == 1
    assert "Record hand 2" in page(response)


def test_undo_is_refused_once_another_hand_was_saved_and_changes_nothing(app, client):
    game_id = start_game(client, P)
    record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1, token="save-1")
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 2}, 2, token="save-2")  # another phone
    response = undo(client, game_id, 1, "save-1")
    assert ("Hand 1 is no longer the last: hand 2 was recorded since (on another phone?), so "
            "nothing was undone.") in flash(response)
    assert rounds(app, game_id) == 2


def test_a_second_undo_deletes_nothing_more(app, client):
    game_id = start_game(client, P)
    record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1, token="save-1")
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 2}, 2, token="save-2")
    undo(client, game_id, 2, "save-2")
    response = undo(client, game_id, 2, "save-2")
    assert "Hand 2 was undone already" in flash(response) and rounds(app, game_id) == 1


def test_undo_never_deletes_a_hand_recorded_again_on_another_phone(app, client):
    game_id = start_game(client, P)
    record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1, token="mine")
    client.post(f"/games/{game_id}/hands/last/delete", data={"number": "1", "confirmed": "1"})
    record(client, game_id, "Cy", {"Ann": 1, "Ben": 2}, 1, token="theirs")
    response = undo(client, game_id, 1, "mine")
    assert "Hand 1 was deleted and recorded again since" in flash(response)
    with app.app_context():
        assert read_game(game_id).core.rounds[0].went_out == "Cy"


def test_undo_without_javascript_asks_on_a_page_first(app, client):
    game_id = start_game(client, P)
    record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1, token="save-1")
    response = undo(client, game_id, 1, "save-1", confirmed=False)
    html = page(response)
    assert response.status_code == 200 and "<h1>Undo hand 1?</h1>" in html
    assert "Hand 1: Ann went out, Ben 3, Cy 2." in html
    assert '<input type="hidden" name="token" value="save-1">' in html
    assert '<input type="hidden" name="confirmed" value="1">' in html
    assert rounds(app, game_id) == 1


def test_undo_of_a_chips_hand_gives_its_taps_back_to_the_hand(app, client):
    game_id = start_game(client, P, variant="chips", preset="house")
    client.post(f"/games/{game_id}/chips/events", data={"number": "1", "player": "1",
                                                         "kind": "pass"})
    record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1, token="save-1")
    response = undo(client, game_id, 1, "save-1")
    assert "Hand 1 undone" in flash(response)
    with app.app_context():
        game = read_game(game_id)
        assert game.core.rounds == () and [(t.player, t.kind) for t in game.waiting] == [
            ("Ben", "pass")]
    assert re.search(r"<b data-pot>4</b>", page(response))  # 3 antes and Ben's pass


def test_undo_is_refused_after_a_tap_in_the_next_hand(app, client):
    game_id = start_game(client, P, variant="chips", preset="house")
    record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1, token="save-1")
    client.post(f"/games/{game_id}/chips/events", data={"number": "2", "player": "1",
                                                         "kind": "pass"})
    response = undo(client, game_id, 1, "save-1")
    assert "a tap was saved in hand 2 since" in flash(response).lower()
    assert rounds(app, game_id) == 1
    with app.app_context():
        assert db.session.query(Event).count() == 1


def test_an_undo_with_an_expired_page_deletes_nothing(guarded_app, guarded):
    html = guarded.get("/games/new").get_data(as_text=True)
    data = {"csrf_token": csrf_token(html), "variant": "penalty", "dealer": "0",
            "seat-0": "Ann", "seat-1": "Ben"}
    game_id = int(guarded.post("/games/new", data=data).headers["Location"].rsplit("/", 1)[1])
    saved = guarded.post(f"/games/{game_id}/hands/new", data={
        **hand_data(["Ann", "Ben"], "Ann", {"Ben": 3}, 1, "save-1"),
        "csrf_token": csrf_token(html)})
    assert saved.status_code == 302
    response = guarded.post(f"/games/{game_id}/hands/1/undo",
                            data={"token": "save-1", "confirmed": "1"})
    assert response.status_code == 400 and "This page had expired" in page(response)
    assert rounds(guarded_app, game_id) == 1


# -- a rematch -----------------------------------------------------------------------------

def rematch(client, game_id):
    return client.post(f"/games/{game_id}/rematch")


def test_a_rematch_keeps_seats_and_rules_and_passes_the_deal_on(app, client):
    game_id = start_game(client, P, dealer=0, target=10, king_points=5)
    record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1)  # Ann dealt
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 9}, 2)  # Ben dealt: Cy reaches 11
    board = page(client.get(f"/games/{game_id}"))
    assert "Same seats and rules; Cy deals first." in board
    response = rematch(client, game_id)
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    assert new_id != game_id
    with app.app_context():
        old, new = read_game(game_id), read_game(new_id)
        assert new.players == old.players and new.player_ids == old.player_ids
        assert new.settings == old.settings and new.core.rounds == ()
        assert new.core.first_dealer == "Cy"
    assert "Rematch! Cy deals first." in flash(client.get(response.headers["Location"]))


def test_a_second_tap_on_rematch_opens_the_same_rematch(app, client):
    game_id = start_game(client, ["Ann", "Ben"], target=5)
    record(client, game_id, "Ann", {"Ben": 6}, 1, ["Ann", "Ben"])
    first, second = rematch(client, game_id), rematch(client, game_id)
    assert first.headers["Location"] == second.headers["Location"]
    assert "The rematch had started already" in flash(client.get(second.headers["Location"]))
    assert games(app) == 2


def test_a_chips_rematch_seats_everyone_again_with_the_same_set(app, client):
    game_id = start_game(client, ["Ann", "Ben", "Cy"], variant="chips", preset="jax",
                         **{"target-other": 5})
    record(client, game_id, "Ben", {"Ann": 2, "Cy": 2}, 1)
    new_id = int(rematch(client, game_id).headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        old, new = read_game(game_id), read_game(new_id)
        assert new.settings == old.settings and new.settings["preset"] == "jax"
        assert new.core.first_dealer == "Ben" and new.result.out == frozenset()


def test_a_coronation_rematch_passes_the_deal_to_the_other_player(app, client):
    game_id = start_game(client, ["Ann", "Ben"], variant="coronation", dealer=1)
    client.post(f"/games/{game_id}/hands/new", data=deal_data(["Ann"] * 4, "Ann"))
    new_id = int(rematch(client, game_id).headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert read_game(new_id).core.first_dealer == "Ann"


def test_a_game_not_over_has_no_rematch(app, client):
    game_id = start_game(client, P)
    response = rematch(client, game_id)
    assert "This game is not over yet" in flash(client.get(response.headers["Location"]))
    assert games(app) == 1 and "Rematch" not in page(client.get(f"/games/{game_id}"))


def test_a_game_ended_before_any_hand_is_rematched_with_the_same_dealer(app, client):
    game_id = start_game(client, P, dealer=2)
    client.post(f"/games/{game_id}/end")
    new_id = int(rematch(client, game_id).headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert read_game(new_id).core.first_dealer == "Cy"


# -- destructive buttons ask first without JavaScript -----------------------------------

def test_deleting_a_hand_without_javascript_asks_on_a_page_first(app, client):
    game_id = start_game(client, P)
    record(client, game_id, "Ann", {"Ben": 3, "Cy": 2}, 1)
    response = client.post(f"/games/{game_id}/hands/last/delete", data={"number": "1"})
    html = page(response)
    assert response.status_code == 200 and "<h1>Delete hand 1?</h1>" in html
    assert '<input type="hidden" name="number" value="1">' in html
    assert f'<form method="post" action="/games/{game_id}/hands/last/delete"' in html
    assert f'href="/games/{game_id}">Keep hand 1</a>' in html
    assert rounds(app, game_id) == 1
    board = page(client.get(f"/games/{game_id}"))
    assert 'data-confirm="Delete hand 1?"' in board  # with JavaScript it asks in place


def test_merging_players_without_javascript_asks_on_a_page_first(app, client):
    start_game(client, ["Ann", "Ben"])
    start_game(client, ["annie", "Cy"])
    with app.app_context():
        ann, annie = (db.session.scalar(select(Player.id).where(Player.name == name))
                      for name in ("Ann", "annie"))
    response = client.post(f"/players/{ann}/merge", data={"other": str(annie)})
    html = page(response)
    assert "<h1>Merge annie · 1 game into Ann?</h1>" in html
    assert f'<input type="hidden" name="other" value="{annie}">' in html
    with app.app_context():
        assert db.session.get(Player, annie) is not None
    done = client.post(f"/players/{ann}/merge", data={"other": str(annie), "confirmed": "1"})
    assert done.status_code == 302
    with app.app_context():
        assert db.session.get(Player, annie) is None


def test_removing_the_passcode_without_javascript_asks_on_a_page_first(app, client):
    app.test_cli_runner().invoke(args=["passcode", "set"], input="2468\n")
    client.post("/unlock", data={"unlock_passcode": "2468", "unlock_next": "/"})
    response = client.post("/settings/passcode/remove")
    assert "<h1>Remove the passcode?</h1>" in page(response)
    assert "Table passcode" in page(client.get("/settings")) and "badge on" in page(
        client.get("/settings"))
    client.post("/settings/passcode/remove", data={"confirmed": "1"})
    assert "badge on" not in page(client.get("/settings"))
