"""Several phones on one game: a stale form never overwrites or duplicates, and says why."""

from __future__ import annotations

import re

import pytest

from scorekeeper.db.models import Game
from scorekeeper.extensions import db
from tests.helpers import alerts, hand_data, start_game

P = ["Ann", "Ben", "Cy"]


def edit_form(client, game_id: int, number: int) -> dict[str, str]:
    """Open a correction and return its hidden inputs, as a phone keeps them."""
    html = client.get(f"/games/{game_id}/hands/{number}/edit").get_data(as_text=True)
    return dict(re.findall(r'name="(number|was)" type="hidden" value="([^"]*)"', html))


def version(app, game_id: int) -> int:
    with app.app_context():
        return db.session.get(Game, game_id).version


def test_a_correction_opened_before_another_phone_changed_the_hand_is_not_saved_blindly(client):
    game_id = start_game(client, P)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Ann", {"Ben": 3, "Cy": 2}))
    first, second = edit_form(client, game_id, 1), edit_form(client, game_id, 1)
    saved = client.post(f"/games/{game_id}/hands/1/edit",
                        data={**hand_data(P, "Ann", {"Ben": 4, "Cy": 2}), **first})
    assert saved.status_code == 302
    late = client.post(f"/games/{game_id}/hands/1/edit",
                       data={**hand_data(P, "Ann", {"Ben": 9, "Cy": 2}), **second})
    assert late.status_code == 422
    html = late.get_data(as_text=True)
    said = " ".join(alerts(html))
    assert re.search(r"Hand 1 was changed on another phone at \d\d:\d\d: it is now Ann went "
                     r"out, Ben 4, Cy 2\.", said), said
    assert 'name="cards-1" value="9" checked' in html  # what was typed is kept
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert re.search(r'<span class="total">4</span>', board)  # the later save was not stored
    # Saving the refused form again replaces the hand on purpose.
    again = dict(re.findall(r'name="(number|was)" type="hidden" value="([^"]*)"', html))
    assert again["was"] != second["was"]
    done = client.post(f"/games/{game_id}/hands/1/edit",
                       data={**hand_data(P, "Ann", {"Ben": 9, "Cy": 2}), **again})
    assert done.status_code == 302
    assert '<span class="total">9</span>' in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_record_link_from_a_stale_scoreboard_says_what_changed(client):
    game_id = start_game(client, P)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Cy", {"Ann": 2, "Ben": 5}))
    page = client.get(f"/games/{game_id}/hands/new?hand=1")
    assert page.status_code == 200
    said = " ".join(alerts(page.get_data(as_text=True)))
    assert re.search(r"Hand 1 was recorded on another phone at \d\d:\d\d: Cy went out, Ann 2, "
                     r"Ben 5\. Saving will ask what to do\.", said), said
    # A link that is up to date says nothing.
    assert alerts(client.get(f"/games/{game_id}/hands/new?hand=2").get_data(as_text=True)) == []
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'href="/games/{game_id}/hands/new?hand=2"' in board


def test_a_stale_record_link_never_records_a_second_copy_in_one_save(client):
    game_id = start_game(client, P)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Cy", {"Ann": 2, "Ben": 5}))
    # A phone whose scoreboard still offered "Record hand 1" opens it and taps the same hand.
    html = client.get(f"/games/{game_id}/hands/new?hand=1").get_data(as_text=True)
    fields = dict(re.findall(r'name="(number|token)" type="hidden" value="([^"]*)"', html))
    assert fields["number"] == "1" and "Save hand 1" in html
    first = client.post(f"/games/{game_id}/hands/new",
                        data={**hand_data(P, "Cy", {"Ann": 2, "Ben": 5}), **fields})
    assert first.status_code == 422
    refused = first.get_data(as_text=True)
    assert re.search(r"Save again to record what you entered as hand 2", refused)
    assert "Save hand 2" in refused  # the second Save says which hand it records
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "1 hand played" in board  # nothing recorded by the first tap
    # The second, explicit Save records it as hand 2, once.
    again = dict(re.findall(r'name="(number|token)" type="hidden" value="([^"]*)"', refused))
    assert again["number"] == "2"
    done = client.post(f"/games/{game_id}/hands/new",
                       data={**hand_data(P, "Cy", {"Ann": 2, "Ben": 5}), **again})
    assert done.status_code == 302
    assert "2 hands played" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_deleting_a_hand_that_is_no_longer_the_last_says_why_and_deletes_nothing(client):
    game_id = start_game(client, P)
    for number in (1, 2):
        client.post(f"/games/{game_id}/hands/new",
                    data=hand_data(P, "Cy", {"Ann": 2, "Ben": 5}, number))
    stale = client.post(f"/games/{game_id}/hands/last/delete",
                        data={"number": "1", "confirmed": "1"}, follow_redirects=True)
    assert ("Hand 1 is no longer the last: hand 2 was recorded since (on another phone?), "
            "so nothing was deleted.") in stale.get_data(as_text=True)
    assert "2 hands played" in stale.get_data(as_text=True)


def test_every_write_moves_the_game_s_version_on(app, client):
    game_id = start_game(client, P)
    seen = [version(app, game_id)]
    client.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Cy", {"Ann": 2, "Ben": 5}))
    seen.append(version(app, game_id))
    client.post(f"/games/{game_id}/hands/1/edit", data=hand_data(P, "Cy", {"Ann": 3, "Ben": 5}))
    seen.append(version(app, game_id))
    client.post(f"/games/{game_id}/end")
    seen.append(version(app, game_id))
    client.post(f"/games/{game_id}/reopen")
    seen.append(version(app, game_id))
    client.post(f"/games/{game_id}/hands/last/delete", data={"number": "1", "confirmed": "1"})
    seen.append(version(app, game_id))
    client.get(f"/games/{game_id}")  # reading changes nothing
    seen.append(version(app, game_id))
    assert seen == [0, 1, 2, 3, 4, 5, 5]


@pytest.mark.parametrize("number", ["0", "", "abc", "-1"])
def test_a_hand_number_that_cannot_be_read_is_refused_with_a_message(client, number):
    game_id = start_game(client, P)
    data = {**hand_data(P, "Ann", {"Ben": 3, "Cy": 2}), "number": number}
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 422
    assert any("hand number could not be read" in a
               for a in alerts(response.get_data(as_text=True)))
    assert client.get(f"/games/{game_id}/hands/0/notice").status_code == 200
    assert "Record hand 1" in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_renaming_a_player_does_not_make_an_open_correction_look_stale(client):
    game_id = start_game(client, P)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Ann", {"Ben": 3, "Cy": 2}))
    opened = edit_form(client, game_id, 1)
    client.post("/players/2/rename", data={"name": "Benedict"})
    names = ["Ann", "Benedict", "Cy"]
    saved = client.post(f"/games/{game_id}/hands/1/edit",
                        data={**hand_data(names, "Ann", {"Benedict": 4, "Cy": 2}), **opened})
    assert saved.status_code == 302


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_deleted_games_number_is_never_given_to_another_game(request, database):
    """An old link or QR code to a deleted game says it is gone; it never opens a new game."""
    app = request.getfixturevalue("app" if database == "sqlite" else "pg_app")
    app.config["WTF_CSRF_ENABLED"] = False
    client = app.test_client()
    first = start_game(client, P)
    newest = start_game(client, P)
    assert client.post(f"/games/{newest}/delete").status_code == 302
    assert client.get(f"/games/{newest}").status_code == 404
    again = start_game(client, ["Dee", "Eve"])
    assert again > newest  # not the deleted game's number
    assert client.get(f"/games/{newest}").status_code == 404
    # Deleting an older game, then the newest, still never goes back.
    client.post(f"/games/{first}/delete")
    client.post(f"/games/{again}/delete")
    assert start_game(client, P) > again


def test_a_finished_game_tells_the_phones_watching_it_when_the_next_game_starts(client):
    game_id = start_game(client, P, target=10)
    asked = f"/games/{game_id}/version?since="
    version = client.get(asked + "-1").get_json()["version"]
    assert client.get(asked + str(version)).status_code == 204  # nothing new
    client.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Ben", {"Ann": (3, 1), "Cy": 5}))
    version = client.get(asked + "-1").get_json()["version"]
    assert client.get(asked + str(version)).status_code == 204  # over, and nothing after it
    rematch = client.post(f"/games/{game_id}/rematch")
    newer_in_progress = int(rematch.headers["Location"].rsplit("/", 1)[1])
    told = client.get(asked + str(version))
    assert told.status_code == 200
    assert told.get_json() == {"version": version, "next": newer_in_progress,
                               "url": f"/games/{newer_in_progress}"}
    # A game still being played is never sent away, whatever starts after it.
    later = start_game(client, ["Dee", "Eve"])
    asked = f"/games/{newer_in_progress}/version?since="
    version = client.get(asked + "-1").get_json()["version"]
    assert later > newer_in_progress
    assert client.get(asked + str(version)).status_code == 204
