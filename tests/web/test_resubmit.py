"""CSRF on every POST, and forms sent twice: a double tap, a second phone, the back button."""

import re

from scorekeeper.db.models import Game, Round
from scorekeeper.extensions import db
from tests.helpers import alerts, form_token, hand_data, start_game
from tests.helpers import csrf_token as csrf

P = ["Ann", "Ben", "Cy"]


def count(client, model) -> int:
    with client.application.app_context():
        return db.session.query(model).count()


def new_game_form(names=P) -> dict:
    data = {"variant": "penalty", "dealer": "0", "rules-penalty-target": "25"}
    data.update({f"seat-{i}": name for i, name in enumerate(names)})
    return data


def test_a_new_game_posted_without_the_csrf_token_writes_nothing_and_keeps_the_names(guarded):
    response = guarded.post("/games/new", data=new_game_form())
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert any("expired" in a for a in alerts(html))
    assert 'value="Ann"' in html and 'value="Cy"' in html
    assert count(guarded, Game) == 0


def test_a_new_game_posted_with_the_token_from_the_page_starts(guarded):
    token = csrf(guarded.get("/games/new").get_data(as_text=True))
    response = guarded.post("/games/new", data={**new_game_form(), "csrf_token": token})
    assert response.status_code == 302 and count(guarded, Game) == 1


def test_a_hand_posted_without_the_csrf_token_is_not_saved_and_stays_typed(guarded):
    token = csrf(guarded.get("/games/new").get_data(as_text=True))
    guarded.post("/games/new", data={**new_game_form(), "csrf_token": token})
    data = hand_data(P, "Ben", {"Ann": (3, 1), "Cy": 14}, 1)
    response = guarded.post("/games/1/hands/new", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert any("nothing was saved" in a for a in alerts(html))
    assert re.search(r'name="cards-0" value="3" checked', html)
    assert 'name="cards_more-2" value="14"' in html
    assert count(guarded, Round) == 0
    resent = guarded.post("/games/1/hands/new", data={**data, "csrf_token": csrf(html)})
    assert resent.status_code == 302 and count(guarded, Round) == 1


def test_bare_buttons_need_the_csrf_token_too(guarded):
    page = guarded.get("/games/new").get_data(as_text=True)
    guarded.post("/games/new", data={**new_game_form(), "csrf_token": csrf(page)})
    form = guarded.get("/games/1/hands/new").get_data(as_text=True)
    guarded.post("/games/1/hands/new", data={
        **hand_data(P, "Ben", {"Ann": 3, "Cy": 1}, 1, form_token(form)), "csrf_token": csrf(form)})
    guarded.post("/games/1/end")
    guarded.post("/games/1/hands/last/delete", data={"number": "1", "confirmed": "1"})
    assert guarded.post("/games/1/delete").status_code == 400
    refused = guarded.post("/import", data={"text": "{}"})
    assert refused.status_code == 422 and "expired" in refused.get_data(as_text=True)
    assert count(guarded, Game) == 1 and count(guarded, Round) == 1
    scoreboard = guarded.get("/games/1").get_data(as_text=True)
    assert "Record hand 2" in scoreboard
    guarded.post("/games/1/end", data={"csrf_token": csrf(scoreboard)})
    assert "Game ended by hand" in guarded.get("/games/1").get_data(as_text=True)
    guarded.post("/games/1/delete", data={"csrf_token": csrf(scoreboard)})
    assert count(guarded, Game) == 0


def test_the_same_hand_sent_twice_is_saved_once(client, app):
    game_id = start_game(client, P)
    token = form_token(client.get(f"/games/{game_id}/hands/new").get_data(as_text=True))
    data = hand_data(P, "Ben", {"Ann": 3, "Cy": 5}, 1, token)
    first = client.post(f"/games/{game_id}/hands/new", data=data)
    second = client.post(f"/games/{game_id}/hands/new", data=data)
    assert first.status_code == second.status_code == 302
    assert count(client, Round) == 1
    log = client.get(f"/games/{game_id}/export.json").get_json()
    assert log["result"]["totals"] == {"Ann": 3, "Ben": 0, "Cy": 5}


def test_a_second_phone_saving_the_same_hand_number_is_refused_with_a_message(client):
    game_id = start_game(client, P)
    mine = form_token(client.get(f"/games/{game_id}/hands/new").get_data(as_text=True))
    theirs = form_token(client.get(f"/games/{game_id}/hands/new").get_data(as_text=True))
    assert mine != theirs
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(P, "Ben", {"Ann": 3, "Cy": 5}, 1, mine))
    late = client.post(f"/games/{game_id}/hands/new",
                       data=hand_data(P, "Cy", {"Ann": 2, "Ben": 4}, 1, theirs))
    assert late.status_code == 422
    html = late.get_data(as_text=True)
    said = " ".join(alerts(html))
    assert re.search(r"Hand 1 was recorded on another phone at \d\d:\d\d: "
                     r"Ben went out, Ann 3, Cy 5\. Save again to record what you entered as "
                     r"hand 2, or correct hand 1 if it is the same hand\.", said), said
    assert 'value="2"' in html and "Save hand 2" in html  # what was typed, now for hand 2
    assert 'name="cards-0" value="2" checked' in html
    assert re.search(r'name="went_out" value="2" checked', html)
    assert count(client, Round) == 1
    log = client.get(f"/games/{game_id}/export.json").get_json()
    assert log["result"]["totals"] == {"Ann": 3, "Ben": 0, "Cy": 5}


def test_the_back_button_and_save_again_adds_no_hand_and_says_so(client):
    game_id = start_game(client, P)
    token = form_token(client.get(f"/games/{game_id}/hands/new").get_data(as_text=True))
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(P, "Ben", {"Ann": 3, "Cy": 5}, 1, token))
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(P, "Ann", {"Ben": 3, "Cy": 5}, 2))
    # Back twice to the first form, a changed tap, Save again.
    again = client.post(f"/games/{game_id}/hands/new", follow_redirects=True,
                        data=hand_data(P, "Ben", {"Ann": 4, "Cy": 5}, 1, token))
    assert "Hand 1 was saved already" in again.get_data(as_text=True)
    assert count(client, Round) == 2
    log = client.get(f"/games/{game_id}/export.json").get_json()
    assert log["result"]["totals"] == {"Ann": 3, "Ben": 3, "Cy": 10}


def test_a_hand_form_opened_before_the_game_ended_cannot_add_a_hand(client):
    game_id = start_game(client, P)
    token = form_token(client.get(f"/games/{game_id}/hands/new").get_data(as_text=True))
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(P, "Ben", {"Ann": (3, 3), "Cy": 1}, 1))
    late = client.post(f"/games/{game_id}/hands/new",
                       data=hand_data(P, "Ann", {"Ben": 1, "Cy": 1}, 1, token))
    assert late.status_code == 422 and count(client, Round) == 1


def test_an_edit_posted_without_the_csrf_token_keeps_what_was_typed_and_changes_nothing(guarded):
    page = guarded.get("/games/new").get_data(as_text=True)
    guarded.post("/games/new", data={**new_game_form(), "csrf_token": csrf(page)})
    form = guarded.get("/games/1/hands/new").get_data(as_text=True)
    guarded.post("/games/1/hands/new", data={
        **hand_data(P, "Ben", {"Ann": 3, "Cy": 1}, 1, form_token(form)), "csrf_token": csrf(form)})
    response = guarded.post("/games/1/hands/1/edit", data=hand_data(P, "Cy", {"Ann": 7, "Ben": 2}))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert any("nothing was saved" in a for a in alerts(html))
    assert re.search(r'name="went_out" value="2" checked', html)
    assert re.search(r'name="cards-0" value="7" checked', html)
    log = guarded.get("/games/1/export.json").get_json()
    assert log["rounds"][0]["went_out"] == "Ben"


def test_an_import_with_the_token_from_the_page_is_saved(guarded):
    page = guarded.get("/import").get_data(as_text=True)
    doc = '{"format": "kings-corners-game/1", "variant": "penalty", "players": ["Ann", "Ben"]}'
    response = guarded.post("/import", data={"text": doc, "csrf_token": csrf(page)})
    assert response.status_code == 302 and count(guarded, Game) == 1
