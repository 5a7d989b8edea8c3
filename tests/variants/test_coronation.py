"""Coronation in the app: start a two-player match, record deals, read the scoreboard, logs."""

from __future__ import annotations

import html as markup
import json
import re

from scorekeeper.rules import Round
from scorekeeper.variants import Errors, get
from tests.helpers import alerts, csrf_token, deal_data, start_game

CORONATION = get("coronation")
PLAYERS = ("Ann", "Ben")


def start_match(client, dealer=0, **rules) -> int:
    """Start a coronation match between Ann and Ben; return its id."""
    return start_game(client, PLAYERS, dealer=dealer, variant="coronation", **rules)


def record(client, game_id, corners, dragon, number=1):
    """Post one deal and return the response."""
    return client.post(f"/games/{game_id}/hands/new", data=deal_data(corners, dragon, number))


def text_of(html: str) -> str:
    """Return the page's words without tags, spaces collapsed, as a reader sees them."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def export(client, game_id) -> dict:
    """Return the game's exported log."""
    return json.loads(client.get(f"/games/{game_id}/export.json").get_data(as_text=True))


def match_log(rounds, deals_to_win=1) -> dict:
    """Return a coronation game log between Ann and Ben."""
    return {"format": "kings-corners-game/1", "variant": "coronation",
            "rules": {"deals_to_win": deals_to_win}, "players": list(PLAYERS),
            "rounds": rounds}


# Reading the form

def test_five_taps_read_as_four_corners_and_a_dragon():
    errors = Errors()
    deal = CORONATION.read_round(deal_data(["Ann", None, "Ben", "Ann"], "Ben"), PLAYERS,
                                 errors)
    assert not errors
    assert deal == Round(corners=("Ann", None, "Ben", "Ann"), dragon="Ben")


def test_a_stored_deal_refills_the_form_it_came_from():
    deal = Round(corners=("Ben", "Ben", None, "Ann"), dragon=None)
    refilled = CORONATION.round_values(PLAYERS, deal)
    assert CORONATION.read_round(refilled, PLAYERS, Errors()) == deal


def test_a_deal_imported_with_fewer_corners_or_went_out_refills_as_nobody_and_the_dragon():
    values = CORONATION.round_values(PLAYERS, Round(went_out="Ben", corners=("Ann",)))
    assert values == {"corner-0": "0", "corner-1": "none", "corner-2": "none",
                      "corner-3": "none", "dragon": "1"}


# Starting a match

def test_new_game_offers_coronation_for_two_players(client):
    html = client.get("/games/new").get_data(as_text=True)
    assert 'value="coronation"' in html and "Coronation" in html
    assert 'data-players="2-2"' in html and "Two players." in html
    assert 'name="rules-coronation-deals_to_win"' in html


def test_coronation_with_three_players_is_refused_at_the_game_choice_keeping_the_names(client):
    response = client.post("/games/new", data={
        "variant": "coronation", "dealer": "0", "seat-0": "Ann", "seat-1": "Ben",
        "seat-2": "Cy"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert alerts(html) == ["Coronation is for exactly 2 players, and 3 are seated"]
    assert 'id="variant-error"' in html and 'value="Cy"' in html
    assert client.get("/").get_data(as_text=True).count("Continue") == 0


def test_a_new_match_shows_deals_won_and_who_starts_the_first_deal(client):
    game_id = start_match(client, dealer=0, deals_to_win=3)
    page = text_of(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Deals won · first to 3" in page
    assert "Ben starts deal 1" in page
    assert "Ann 0 0 points – Ben 0 0 points" in page


# Recording deals

def test_the_record_page_has_a_tap_for_each_player_and_nobody_on_every_corner_and_the_dragon(
        client):
    game_id = start_match(client)
    html = client.get(f"/games/{game_id}/hands/new").get_data(as_text=True)
    for name in ("corner-0", "corner-1", "corner-2", "corner-3", "dragon"):
        for value in ("0", "1", "none"):
            assert f'type="radio" name="{name}" value="{value}"' in html
    assert "Ben</b> starts this deal" in html
    assert 'id="deal-preview"' in html and 'data-preview="/games/' in html


def test_an_absolute_victory_wins_a_one_deal_match_with_a_banner_naming_the_class(client):
    game_id = start_match(client)
    response = record(client, game_id, ["Ann"] * 4, "Ann")
    assert response.status_code == 302
    page = text_of(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ann wins!" in page
    assert "An absolute victory: 5–0 in the deciding deal." in page
    assert "Record hand" not in page
    assert client.get(f"/games/{game_id}/hands/new").status_code == 302


def test_each_deal_shows_its_points_winner_and_class_and_the_start_alternates(client):
    game_id = start_match(client, dealer=0, deals_to_win=2)
    assert record(client, game_id, ["Ben", "Ann", "Ben", "Ben"], "Ben", 1).status_code == 302
    assert record(client, game_id, ["Ann", "Ben", None, None], None, 2).status_code == 302
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    page = text_of(html)
    assert "Ben starts deal 3" in page
    assert "Ann 0 2 points – Ben 1 5 points" in page
    # Each row as it shows before a score is tapped to say why (the why-text under it).
    rows = [re.sub(r'<p class="why-text">.*?</p>', "", row) for row in
            re.findall(r'<tr data-deal="\d+"[^>]*>(.*?)</tr>', html, re.S)]
    assert text_of(rows[0]).startswith("1 1 4 ▸ Ben incredible")
    assert text_of(rows[1]).startswith("2 1 ▸ 1 draw")

    assert record(client, game_id, ["Ann", "Ann", "Ben", "Ann"], "Ann", 3).status_code == 302
    assert record(client, game_id, ["Ben", "Ann", "Ann", "Ben"], "Ben", 4).status_code == 302
    page = text_of(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Ben wins!" in page and "A normal victory: 3–2 in the deciding deal." in page


def test_an_untapped_corner_is_refused_next_to_it_keeping_the_other_taps(client):
    game_id = start_match(client)
    data = deal_data(["Ann", "Ben", "Ann", "Ben"], "Ann")
    del data["corner-2"]
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert alerts(html) == ["Tap who crowned corner 3, or Nobody"]
    assert 'id="corner-2-error"' in html
    assert 'name="corner-3" value="1" checked' in html
    assert 'name="dragon" value="0" checked' in html
    assert "0 deals played" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_deal_without_the_dragon_tapped_is_refused_at_the_dragon(client):
    game_id = start_match(client)
    data = deal_data(["Ann"] * 4, None)
    del data["dragon"]
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 422
    assert alerts(response.get_data(as_text=True)) == [
        "Tap who slew the dragon (emptied their hand first), or Nobody"]


def test_a_fifth_corner_is_refused_with_a_message_and_nothing_saved(client):
    game_id = start_match(client)
    data = deal_data(["Ann", "Ben", "Ann", "Ben", "Ann"], "Ben")
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert alerts(html) == ["A deal has only 4 corners, not 5"]
    assert "0 deals played" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_someone_not_in_this_game_is_refused_at_the_corner_they_were_put_in(client):
    game_id = start_match(client)
    data = deal_data(["Ann", "Ben", "Ann", "Ben"], "Ann")
    data["corner-1"] = "2"
    data["dragon"] = "Zed"
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert alerts(html) == [
        "That is not a player in this game: tap Ann or Ben, or Nobody"] * 2
    assert 'id="corner-1-error"' in html and 'id="dragon-error"' in html
    assert "0 deals played" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_saving_the_same_deal_twice_records_it_once(client):
    game_id = start_match(client, deals_to_win=3)
    data = deal_data(["Ann", "Ann", "Ben", None], "Ann")
    client.post(f"/games/{game_id}/hands/new", data=data)
    client.post(f"/games/{game_id}/hands/new", data=data)
    assert export(client, game_id)["result"]["totals"] == {"Ann": 1, "Ben": 0}


def test_editing_a_deal_opens_with_its_taps_and_moves_the_win(client):
    game_id = start_match(client, deals_to_win=2)
    record(client, game_id, ["Ann", "Ann", "Ben", "Ben"], "Ann", 1)
    html = client.get(f"/games/{game_id}/hands/1/edit").get_data(as_text=True)
    for name, value in (("corner-0", "0"), ("corner-2", "1"), ("dragon", "0")):
        assert f'name="{name}" value="{value}" checked' in html
    assert "Ben</b> started this deal" in html
    response = client.post(f"/games/{game_id}/hands/1/edit",
                           data=deal_data(["Ann", "Ben", "Ben", "Ben"], "Ben"))
    assert response.status_code == 302
    assert export(client, game_id)["result"]["totals"] == {"Ann": 0, "Ben": 1}


def test_editing_an_early_deal_so_the_match_ends_before_a_later_one_is_refused(client):
    game_id = start_match(client, deals_to_win=2)
    record(client, game_id, ["Ann", "Ann", "Ann", "Ben"], "Ann", 1)
    record(client, game_id, [None, None, None, None], None, 2)
    record(client, game_id, ["Ben", "Ben", "Ben", "Ann"], "Ben", 3)
    response = client.post(f"/games/{game_id}/hands/2/edit",
                           data=deal_data(["Ann"] * 4, "Ann", 2))
    assert response.status_code == 422
    assert alerts(response.get_data(as_text=True)) == [
        "The match was already over after deal 2"]


def test_deals_are_refused_without_a_csrf_token_and_saved_with_one(guarded):
    client = guarded
    html = client.get("/games/new").get_data(as_text=True)
    token = csrf_token(html)
    response = client.post("/games/new", data={
        "csrf_token": token, "variant": "coronation", "dealer": "0",
        "seat-0": "Ann", "seat-1": "Ben"})
    assert response.status_code == 302
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    # Refused by CSRFProtect (400) or by the form itself ("expired", 422): never saved.
    assert record(client, game_id, ["Ann"] * 4, "Ann").status_code in (400, 422)
    assert "0 deals played" in client.get(f"/games/{game_id}").get_data(as_text=True)
    response = client.post(f"/games/{game_id}/hands/new",
                           data={**deal_data(["Ann"] * 4, "Ann"), "csrf_token": token})
    assert response.status_code == 302
    assert "Ann wins!" in client.get(f"/games/{game_id}").get_data(as_text=True)


# The game log and the command line

def test_export_writes_corners_dragon_deals_won_and_each_deals_class(client):
    game_id = start_match(client, dealer=1, deals_to_win=2)
    record(client, game_id, ["Ann", "Ann", "Ann", "Ann"], "Ben", 1)
    record(client, game_id, ["Ben", None, "Ann", None], "Ben", 2)
    doc = export(client, game_id)
    assert doc["variant"] == "coronation" and doc["rules"] == {"deals_to_win": 2}
    assert doc["first_dealer"] == "Ben"
    assert doc["rounds"] == [{"corners": ["Ann", "Ann", "Ann", "Ann"], "dragon": "Ben"},
                             {"corners": ["Ben", None, "Ann", None], "dragon": "Ben"}]
    first, second = doc["result"]["rounds"]
    assert first == {"dealer": "Ben", "hand_winners": ["Ann"], "scores": {"Ann": 4, "Ben": 1},
                     "totals": {"Ann": 1, "Ben": 0}, "deal_winner": "Ann",
                     "victory": "incredible"}
    assert second["dealer"] == "Ann" and second["deal_winner"] == "Ben"
    assert second["victory"] == "normal" and second["scores"] == {"Ann": 1, "Ben": 2}
    assert doc["result"]["totals"] == {"Ann": 1, "Ben": 1}
    assert doc["result"]["over"] is False and doc["result"]["winners"] == []


def test_an_exported_match_imports_and_exports_again_the_same(client):
    game_id = start_match(client, deals_to_win=2)
    record(client, game_id, ["Ann", None, "Ben", "Ann"], "Ann", 1)
    record(client, game_id, ["Ben", "Ben", "Ben", "Ben"], "Ben", 2)
    record(client, game_id, [None, None, None, None], None, 3)
    first = export(client, game_id)
    response = client.post("/import", data={"text": json.dumps(first)})
    assert response.status_code == 302
    again = export(client, int(response.headers["Location"].rsplit("/", 1)[1]))
    assert again == first


def test_a_dragon_given_as_went_out_is_kept_through_import_and_export(client):
    log = match_log([{"went_out": "Ben", "corners": ["Ann", "Ben", None, "Ann"]}])
    response = client.post("/import", data={"text": json.dumps(log)})
    assert response.status_code == 302
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    doc = export(client, game_id)
    assert doc["rounds"] == [{"corners": ["Ann", "Ben", None, "Ann"], "dragon": "Ben"}]
    assert doc["result"]["rounds"][0]["scores"] == {"Ann": 2, "Ben": 2}
    assert doc["result"]["rounds"][0]["victory"] == "draw"
    response = client.post("/import", data={"text": json.dumps(doc)})
    assert export(client, int(response.headers["Location"].rsplit("/", 1)[1])) == doc


def test_import_refuses_a_fifth_corner_naming_the_round_and_field(client):
    log = match_log([{"corners": ["Ann", "Ann", "Ann", "Ann", "Ben"], "dragon": "Ann"}])
    response = client.post("/import", data={"text": json.dumps(log)})
    assert response.status_code == 422
    assert alerts(response.get_data(as_text=True)) == [
        "Nothing was imported. Round 1, corners: a deal has only 4 corners, not 5."]
    assert client.get("/games/1").status_code == 404


def test_import_refuses_someone_not_in_the_game_at_their_corner_or_the_dragon(client):
    log = match_log([{"corners": ["Ann"], "dragon": "Ann"},
                     {"corners": ["Ann", "Cy"], "dragon": "Ben"}], deals_to_win=2)
    response = client.post("/import", data={"text": json.dumps(log)})
    assert [markup.unescape(a) for a in alerts(response.get_data(as_text=True))] == [
        "Nothing was imported. Round 2, corners[1]: 'Cy' is not a player in this game."]
    log = match_log([{"corners": [], "dragon": "Zed"}])
    response = client.post("/import", data={"text": json.dumps(log)})
    assert [markup.unescape(a) for a in alerts(response.get_data(as_text=True))] == [
        "Nothing was imported. Round 1, dragon: 'Zed' is not a player in this game."]


def test_import_refuses_cards_left_in_hand_in_a_coronation_deal(client):
    log = match_log([{"corners": ["Ann"], "dragon": "Ann", "hands": {"Ben": {"cards": 3}}}])
    response = client.post("/import", data={"text": json.dumps(log)})
    assert response.status_code == 422
    assert "Round 1, hands: a coronation deal records corners and the dragon" in response.get_data(
        as_text=True)


def test_the_command_line_imports_and_exports_a_coronation_match(runner, tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match_log(
        [{"corners": ["Ann", "Ann", "Ann", "Ben"], "dragon": "Ann"}])), encoding="utf-8")
    imported = runner.invoke(args=["games", "import", str(path)])
    assert imported.exit_code == 0, imported.output
    game_id = int(imported.output.strip())
    exported = runner.invoke(args=["games", "export", str(game_id)])
    doc = json.loads(exported.output)
    assert doc["result"]["winners"] == ["Ann"]
    assert doc["result"]["rounds"][0]["victory"] == "incredible"


def test_the_command_line_refuses_a_three_player_coronation_and_imports_nothing(runner, tmp_path):
    log = match_log([])
    log["players"] = ["Ann", "Ben", "Cy"]
    path = tmp_path / "three.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    result = runner.invoke(args=["games", "import", str(path)])
    assert result.exit_code == 1
    assert "refused, nothing imported: players: takes at most 2 players" in result.output
