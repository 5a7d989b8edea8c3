"""The JSON game log (docs/gamelog.md): export, import into an empty database, refusals."""

import copy
import io
import json

import pytest

from scorekeeper.db.models import Game, Player, Round
from scorekeeper.extensions import db
from scorekeeper.reports import gamelog
from scorekeeper.rules import RuleError
from tests.helpers import EXAMPLE, alerts, hand_data, make_app, start_game

P = ["Ann", "Ben", "Cy", "Dee"]


def fresh_client(path):
    """Return a client of an app on an empty database at `path`."""
    return make_app(path).test_client()


def import_doc(client, doc):
    """Paste a game log on the import page; return the response."""
    return client.post("/import", data={"text": json.dumps(doc)})


def played(client):
    """Play a game with every kind of hand: kings, 11+ cards, stalemate ties, a rotated deal."""
    game_id = start_game(client, P, dealer=2, target=60, **{"end_when": "exceeds"})
    hands = [("Ben", {"Ann": (3, 1), "Cy": 14, "Dee": (2, 2)}),
             (None, {"Ann": 2, "Ben": 4, "Cy": 2, "Dee": (5, 1)}),
             ("Dee", {"Ann": 1, "Ben": 1, "Cy": 1})]
    for number, (went_out, held) in enumerate(hands, start=1):
        response = client.post(f"/games/{game_id}/hands/new",
                                data=hand_data(P, went_out, held, number))
        assert response.status_code == 302
    return game_id


def without_ids(doc):
    """Drop what may differ between two copies of one game: the date it was played."""
    doc = copy.deepcopy(doc)
    doc.pop("played_on")
    return doc


def test_export_import_export_gives_the_same_document(tmp_path, client):
    game_id = played(client)
    client.post(f"/games/{game_id}/end")
    first = client.get(f"/games/{game_id}/export.json").get_json()
    other = fresh_client(tmp_path / "other.sqlite")
    response = import_doc(other, first)
    assert response.status_code == 302, alerts(response.get_data(as_text=True))
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    again = other.get(f"/games/{new_id}/export.json").get_json()
    assert without_ids(again) == without_ids(first)
    assert again["played_on"] == first["played_on"]


def test_the_export_carries_the_normalised_input_and_what_the_app_computed(client):
    log = client.get(f"/games/{played(client)}/export.json").get_json()
    assert log["rules"] == {"target": 60, "end_when": "exceeds", "king_points": 10,
                            "card_points": 1}
    assert log["first_dealer"] == "Cy" and log["ended"] is False
    assert log["rounds"][0] == {"went_out": "Ben", "hands": {
        "Ann": {"cards": 3, "kings": 1}, "Cy": {"cards": 14, "kings": 0},
        "Dee": {"cards": 2, "kings": 2}}}
    result = log["result"]
    assert [r["dealer"] for r in result["rounds"]] == ["Cy", "Dee", "Ann"]
    assert [r["hand_winners"] for r in result["rounds"]] == [["Ben"], ["Ann", "Cy"], ["Dee"]]
    assert result["rounds"][1]["scores"] == {"Ann": 0, "Ben": 4, "Cy": 0, "Dee": 14}
    assert result["totals"] == {"Ann": 13, "Ben": 5, "Cy": 15, "Dee": 34}
    assert result["over"] is False and result["winners"] == []
    for per_player in [result["totals"]] + [r[k] for r in result["rounds"]
                                            for k in ("scores", "totals")]:
        assert list(per_player) == P


def test_the_gamelog_example_imports_and_scores_a_king_and_two_cards_as_12(client):
    response = import_doc(client, EXAMPLE)
    assert response.status_code == 302
    log = client.get("/games/1/export.json").get_json()
    assert log["result"]["rounds"][0]["scores"] == {"Ann": 12, "Ben": 0, "Cy": 5}
    assert log["result"]["totals"] == {"Ann": 12, "Ben": 4, "Cy": 5}
    assert log["played_on"] == "2026-11-21"
    assert log["rules"]["target"] == 50 and log["rules"]["king_points"] == 10


def test_a_finished_game_exports_its_winners(client):
    doc = {**EXAMPLE, "rules": {}, "rounds": EXAMPLE["rounds"] + [
        {"went_out": "Cy", "hands": {"Ann": {"cards": 4, "kings": 1}, "Ben": {"cards": 1}}}]}
    import_doc(client, doc)
    result = client.get("/games/1/export.json").get_json()["result"]
    assert result["totals"] == {"Ann": 25, "Ben": 5, "Cy": 5}
    assert result["over"] is True and result["winners"] == ["Ben", "Cy"]


def test_names_are_trimmed_and_matched_whatever_their_case(client):
    doc = {**EXAMPLE, "players": ["  Ann ", "Ben", "Cy"], "first_dealer": "ben",
           "rounds": [{"went_out": "BEN", "hands": {"ann": {"cards": 2}, " Cy": {"cards": 1}}}]}
    assert import_doc(client, doc).status_code == 302
    log = client.get("/games/1/export.json").get_json()
    assert log["players"] == ["Ann", "Ben", "Cy"] and log["first_dealer"] == "Ben"
    assert log["result"]["totals"] == {"Ann": 2, "Ben": 0, "Cy": 1}


def test_what_import_leaves_out_takes_its_default(client):
    doc = {"format": "kings-corners-game/1", "variant": "penalty", "players": ["Ann", "Ben"],
           "rounds": [{"went_out": "Ann", "hands": {"Ben": {"cards": 3}}}]}
    assert import_doc(client, doc).status_code == 302
    log = client.get("/games/1/export.json").get_json()
    assert log["first_dealer"] == "Ann" and log["ended"] is False
    assert log["rules"] == {"target": 25, "end_when": "reaches", "king_points": 10,
                            "card_points": 1}
    assert log["rounds"][0]["hands"]["Ben"] == {"cards": 3, "kings": 0}


def test_a_game_log_file_can_be_uploaded(client):
    upload = (io.BytesIO(json.dumps(EXAMPLE).encode()), "game.json")
    response = client.post("/import", data={"file": upload},
                           content_type="multipart/form-data")
    assert response.status_code == 302
    assert client.get("/games/1/export.json").get_json()["players"] == ["Ann", "Ben", "Cy"]


def test_the_import_page_asks_for_a_file_or_a_pasted_log(client):
    page = client.get("/import").get_data(as_text=True)
    assert 'type="file"' in page and "<textarea" in page
    empty = client.post("/import", data={"text": "  "})
    assert empty.status_code == 422
    assert alerts(empty.get_data(as_text=True)) == ["Choose a file or paste a game log."]


def round_(went_out, **held):
    return {"went_out": went_out, "hands": {
        name: {"cards": value[0], "kings": value[1]} if isinstance(value, tuple)
        else {"cards": value} for name, value in held.items()}}


OK = round_("Ann", Ben=1, Cy=1)
REFUSALS = [
    ({"rounds": [OK, round_("Ben", Ann=(2, 3), Cy=1)]}, "Round 2, hands.Ann.kings"),
    ({"rounds": [OK, round_("Ben", Ann=-1, Cy=1)]}, "Round 2, hands.Ann.cards"),
    ({"rounds": [OK, round_("Ben", Ann=2.5, Cy=1)]}, "Round 2, hands.Ann.cards"),
    ({"rounds": [OK, round_("Ben", Ann="2", Cy=1)]}, "Round 2, hands.Ann.cards"),
    ({"rounds": [OK, round_("Ben", Ann=(3, 3), Cy=(2, 2))]}, "Round 2, hands.Cy.kings"),
    ({"rounds": [OK, round_("Ben", Ann=30, Cy=30)]}, "Round 2, hands.Cy.cards"),
    ({"rounds": [round_("Ben", Ann=2, Ben=1, Cy=1)]}, "Round 1, hands.Ben.cards"),
    ({"rounds": [round_("Ben", Ann=0, Cy=1)]}, "Round 1, hands.Ann.cards"),
    ({"rounds": [round_(None, Ann=0, Ben=1, Cy=1)]}, "Round 1, hands.Ann.cards"),
    ({"rounds": [round_("Dee", Ann=1, Ben=1, Cy=1)]}, "Round 1, went_out"),
    ({"rounds": [round_("Ann", Ben=1, Cy=1, Dee=1)]}, "Round 1, hands.Dee"),
    ({"rounds": [round_("Ann", Ben=1)]}, "Round 1, hands.Cy.cards"),
    ({"rounds": [OK, {"went_out": "Ann", "hands": {"Ben": {"cards": 1, "queens": 2}}}]},
     "Round 2, hands.Ben"),
    ({"rounds": [OK, {"went_out": "Ann", "hand": {}}]}, "Round 2, hand"),
    ({"rules": {}, "rounds": [round_("Ann", Ben=(3, 3), Cy=1), OK]}, "Round 2, went_out"),
    ({"rules": {"target": "fifty"}}, "rules.target"),
    ({"rules": {"target": 0}}, "rules.target"),
    ({"rules": {"end_when": "passes"}}, "rules.end_when"),
    ({"rules": {"kings": 5}}, "rules.kings"),
    ({"players": ["Ann", "Ben", " ann "]}, "players"),
    ({"players": ["Ann"], "first_dealer": None}, "players"),
    ({"players": list("ABCDEFG"), "first_dealer": None}, "players"),
    ({"players": ["Ann", "Ben", 3]}, "players"),
    ({"first_dealer": "Dee"}, "first_dealer"),
    ({"format": "kings-corners-game/2"}, "format"),
    ({"variant": "rummy"}, "variant"),
    ({"played_on": "21/11/2026"}, "played_on"),
    ({"ended": "yes"}, "ended"),
    ({"score": 3}, "score"),
]


@pytest.mark.parametrize("change, where", REFUSALS)
def test_a_document_breaking_a_rule_is_refused_whole_naming_round_and_field(
        client, app, change, where):
    doc = {**EXAMPLE, "rounds": [], **change}
    response = import_doc(client, doc)
    assert response.status_code == 422
    [message] = alerts(response.get_data(as_text=True))
    assert message.startswith(f"Nothing was imported. {where}: "), message
    with app.app_context():
        assert [db.session.query(m).count() for m in (Game, Player, Round)] == [0, 0, 0]


@pytest.mark.parametrize("text, words", [
    ("{not json", "this is not JSON"),
    ("[1, 2]", "a game log is a JSON object"),
    ('"Ann"', "a game log is a JSON object"),
])
def test_text_that_is_not_a_game_log_is_refused(client, text, words):
    response = client.post("/import", data={"text": text})
    [message] = alerts(response.get_data(as_text=True))
    assert response.status_code == 422 and words.lower() in message.lower()


def test_parse_names_the_round_and_field_of_the_first_impossible_entry():
    doc = {**EXAMPLE, "rounds": [OK, OK, round_("Ben", Ann=(1, 2), Cy=1)]}
    with pytest.raises(RuleError) as caught:
        gamelog.parse(doc)
    assert (caught.value.round_number, caught.value.field) == (3, "hands.Ann.kings")
