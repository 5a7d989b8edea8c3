"""Every penalty page through the test client: start, record, edit, delete, end, reopen."""

import re

from scorekeeper.db.models import Game, HandEntry, Round
from scorekeeper.extensions import db
from tests.helpers import alerts, form_token, hand_data, start_game

P = ["Ann", "Ben", "Cy"]


def export(client, game_id):
    """Return what the app computed for a game, read through its export."""
    response = client.get(f"/games/{game_id}/export.json")
    assert response.status_code == 200
    return response.get_json()


def record(client, game_id, went_out, hands, number, token=None, follow=False):
    """Post one hand through the record-hand form."""
    return client.post(f"/games/{game_id}/hands/new", follow_redirects=follow,
                       data=hand_data(P, went_out, hands, number, token))


def text(response):
    """Return a page's text without tags and runs of spaces."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)).split())


def rounds_stored(app):
    with app.app_context():
        return db.session.query(Round).count()


def test_the_home_page_offers_a_new_game_and_the_import_page_when_there_are_none(client):
    page = client.get("/")
    assert page.status_code == 200
    assert "No games yet" in text(page)
    assert 'href="/games/new"' in page.get_data(as_text=True)
    assert 'href="/import"' in page.get_data(as_text=True)


def test_the_new_game_page_has_six_seats_a_first_dealer_and_the_penalty_rules(client):
    html = client.get("/games/new").get_data(as_text=True)
    assert [f'name="seat-{i}"' in html for i in range(7)] == [True] * 6 + [False]
    assert html.count('name="dealer"') == 6
    assert 'name="rules-penalty-target"' in html and 'name="rules-penalty-end_when"' in html


def test_a_new_game_opens_its_scoreboard_saying_who_deals_and_who_plays_first(client):
    game_id = start_game(client, P, dealer=1, target=50)
    page = text(client.get(f"/games/{game_id}"))
    assert "Ben deals, Cy plays first" in page
    assert "Record hand 1" in page and "to 50" in page


def test_the_game_in_progress_shows_first_on_the_home_page(client):
    game_id = start_game(client, P)
    page = client.get("/")
    assert "Game in progress" in text(page) and "Ann · Ben · Cy" in text(page)
    assert f'href="/games/{game_id}"' in page.get_data(as_text=True)


def test_the_record_hand_page_asks_who_went_out_and_what_everyone_held(client):
    game_id = start_game(client, P)
    html = client.get(f"/games/{game_id}/hands/new").get_data(as_text=True)
    assert "Hand 1" in html and "Ann deals" in html
    assert 'value="stalemate"' in html and form_token(html)
    for seat in range(3):
        assert f'name="cards-{seat}"' in html and f'name="kings-{seat}"' in html


def test_recording_a_hand_scores_it_and_passes_the_deal(client, app):
    game_id = start_game(client, P)
    response = record(client, game_id, "Ben", {"Ann": (3, 1), "Cy": 5}, 1)
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/{game_id}")
    page = text(client.get(f"/games/{game_id}"))
    assert "Ben deals, Cy plays first" in page and "Record hand 2" in page
    log = export(client, game_id)
    assert log["result"]["totals"] == {"Ann": 12, "Ben": 0, "Cy": 5}
    assert log["rounds"] == [{"went_out": "Ben", "hands": {"Ann": {"cards": 3, "kings": 1},
                                                           "Cy": {"cards": 5, "kings": 0}}}]


def test_the_scoreboard_ranks_the_lowest_total_first_and_shows_hand_by_hand(client):
    game_id = start_game(client, P)
    record(client, game_id, "Ben", {"Ann": (3, 1), "Cy": 5}, 1)
    record(client, game_id, None, {"Ann": 2, "Ben": 4, "Cy": 2}, 2)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    standings = re.search(r'<ol class="standings">(.*?)</ol>', html, re.S).group(1)
    rows = [" ".join(re.sub(r"<[^>]+>", " ", "<li" + li).split())
            for li in standings.split("<li")[1:]]
    assert [row.split()[:2] for row in rows] == [["1", "Ben"], ["2", "Cy"], ["3", "Ann"]]
    assert re.findall(r'<span class="total">(\d+)</span>', html) == ["4", "5", "12"]
    assert html.count('class="won"') == 3  # Ben, then Ann and Cy sharing the stalemate
    assert 'aria-label="Edit hand 2"' in html


def test_a_hand_of_more_than_ten_cards_is_typed_and_scored(client):
    game_id = start_game(client, P, target=100)
    record(client, game_id, "Ann", {"Ben": (14, 2), "Cy": 1}, 1)
    assert export(client, game_id)["result"]["totals"] == {"Ann": 0, "Ben": 32, "Cy": 1}


def test_reaching_the_target_ends_the_game_with_the_lowest_total_winning(client):
    game_id = start_game(client, P)
    record(client, game_id, "Ben", {"Ann": (3, 2), "Cy": 4}, 1)
    record(client, game_id, "Cy", {"Ann": 4, "Ben": 1}, 2)
    page = client.get(f"/games/{game_id}")
    assert "Ben wins!" in text(page) and "Game over after 2 hands" in text(page)
    assert "Record hand" not in text(page)
    again = client.get(f"/games/{game_id}/hands/new")
    assert again.status_code == 302
    assert "The game is over" in text(client.get(again.headers["Location"]))
    assert "Game over" not in text(client.get("/")) and "Ben won" in text(client.get("/"))


def test_the_edit_page_opens_with_the_hand_as_it_was_entered(client):
    game_id = start_game(client, P)
    record(client, game_id, "Ben", {"Ann": (3, 1), "Cy": 14}, 1)
    html = client.get(f"/games/{game_id}/hands/1/edit").get_data(as_text=True)
    assert "Edit hand 1" in html and "Ann dealt" in html
    assert re.search(r'name="went_out" value="1" checked', html)
    assert re.search(r'name="cards-0" value="3" checked', html)
    assert re.search(r'name="kings-0" value="1" checked', html)
    assert 'name="cards_more-2" value="14"' in html


def test_editing_a_hand_recomputes_every_total_after_it(client):
    game_id = start_game(client, P, target=100)
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 5}, 1)
    record(client, game_id, "Ann", {"Ben": 2, "Cy": 1}, 2)
    response = client.post(f"/games/{game_id}/hands/1/edit",
                           data=hand_data(P, "Cy", {"Ann": (4, 1), "Ben": 6}, 1))
    assert response.status_code == 302
    assert "Hand 1 changed." in text(client.get(response.headers["Location"]))
    log = export(client, game_id)
    assert [r["totals"] for r in log["result"]["rounds"]] == [
        {"Ann": 13, "Ben": 6, "Cy": 0}, {"Ann": 13, "Ben": 8, "Cy": 1}]
    assert [r["dealer"] for r in log["result"]["rounds"]] == ["Ann", "Ben"]


def test_editing_a_hand_can_switch_who_went_out_and_make_it_a_stalemate(client, app):
    game_id = start_game(client, P)
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 5}, 1)
    client.post(f"/games/{game_id}/hands/1/edit",
                data=hand_data(P, None, {"Ann": 2, "Ben": 2, "Cy": 5}, 1))
    log = export(client, game_id)
    assert log["rounds"][0]["went_out"] is None
    assert log["result"]["rounds"][0]["hand_winners"] == ["Ann", "Ben"]
    client.post(f"/games/{game_id}/hands/1/edit",
                data=hand_data(P, "Ann", {"Ben": 2, "Cy": 5}, 1))
    assert export(client, game_id)["result"]["totals"] == {"Ann": 0, "Ben": 2, "Cy": 5}
    with app.app_context():
        assert db.session.query(HandEntry).count() == 2


def test_an_edit_can_reopen_a_finished_game(client):
    game_id = start_game(client, P)
    record(client, game_id, "Ben", {"Ann": (3, 3), "Cy": 1}, 1)
    assert export(client, game_id)["result"]["over"]
    client.post(f"/games/{game_id}/hands/1/edit", data=hand_data(P, "Ben", {"Ann": 3, "Cy": 1}, 1))
    log = export(client, game_id)["result"]
    assert not log["over"] and log["winners"] == []
    assert "Ben deals, Cy plays first" in text(client.get(f"/games/{game_id}"))


def test_an_edit_that_would_end_the_game_before_later_hands_is_refused(client, app):
    game_id = start_game(client, P)
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 1}, 1)
    record(client, game_id, "Ann", {"Ben": 3, "Cy": 1}, 2)
    response = client.post(f"/games/{game_id}/hands/1/edit",
                           data=hand_data(P, "Ben", {"Ann": (3, 3), "Cy": 1}, 1))
    assert response.status_code == 422
    assert any("already over after round 1" in a for a in alerts(response.get_data(as_text=True)))
    assert export(client, game_id)["result"]["totals"] == {"Ann": 3, "Ben": 3, "Cy": 2}


def test_editing_a_hand_that_does_not_exist_goes_back_to_the_scoreboard(client):
    game_id = start_game(client, P)
    response = client.get(f"/games/{game_id}/hands/3/edit", follow_redirects=True)
    assert "There is no hand 3 in this game." in text(response)


def test_deleting_the_last_hand_gives_back_its_points_and_its_deal(client, app):
    game_id = start_game(client, P)
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 1}, 1)
    record(client, game_id, "Cy", {"Ann": (3, 3), "Ben": 2}, 2)
    assert export(client, game_id)["result"]["over"]
    response = client.post(f"/games/{game_id}/hands/last/delete",
                           data={"number": "2", "confirmed": "1"}, follow_redirects=True)
    assert "Hand 2 deleted." in text(response)
    assert "Ben deals, Cy plays first" in text(response)
    log = export(client, game_id)
    assert log["result"]["totals"] == {"Ann": 3, "Ben": 0, "Cy": 1}
    assert not log["result"]["over"] and rounds_stored(app) == 1


def test_a_second_tap_on_delete_last_hand_does_not_delete_the_hand_before(client, app):
    game_id = start_game(client, P)
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 1}, 1)
    record(client, game_id, "Cy", {"Ann": 3, "Ben": 2}, 2)
    client.post(f"/games/{game_id}/hands/last/delete", data={"number": "2", "confirmed": "1"})
    client.post(f"/games/{game_id}/hands/last/delete", data={"number": "2", "confirmed": "1"})
    assert rounds_stored(app) == 1


def test_ending_a_game_by_hand_crowns_the_lowest_total_and_reopening_undoes_it(client):
    game_id = start_game(client, P)
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 5}, 1)
    ended = client.post(f"/games/{game_id}/end", follow_redirects=True)
    assert "Game ended." in text(ended) and "Ben wins!" in text(ended)
    assert "Game ended by hand after 1 hand" in text(ended) and "Reopen game" in text(ended)
    assert export(client, game_id)["ended"] is True
    reopened = client.post(f"/games/{game_id}/reopen", follow_redirects=True)
    assert "Game reopened." in text(reopened) and "Record hand 2" in text(reopened)
    assert export(client, game_id)["result"]["over"] is False


def test_a_game_ended_by_hand_takes_no_new_hand(client, app):
    game_id = start_game(client, P)
    page = client.get(f"/games/{game_id}/hands/new").get_data(as_text=True)
    client.post(f"/games/{game_id}/end")
    response = client.post(f"/games/{game_id}/hands/new",
                           data=hand_data(P, "Ben", {"Ann": 3, "Cy": 5}, 1, form_token(page)))
    assert response.status_code == 422
    assert any("reopen" in a for a in alerts(response.get_data(as_text=True)))
    assert rounds_stored(app) == 0


def test_deleting_a_game_asks_first_then_removes_it_and_its_hands(client, app):
    game_id = start_game(client, P)
    record(client, game_id, "Ben", {"Ann": 3, "Cy": 5}, 1)
    ask = client.get(f"/games/{game_id}/delete")
    assert "Delete this game?" in text(ask) and "1 hand." in text(ask)
    with app.app_context():
        assert db.session.get(Game, game_id) is not None
    done = client.post(f"/games/{game_id}/delete", follow_redirects=True)
    assert "Game deleted." in text(done)
    assert client.get(f"/games/{game_id}").status_code == 404
    assert rounds_stored(app) == 0


def test_the_export_is_a_json_download_named_after_the_game(client):
    game_id = start_game(client, P)
    response = client.get(f"/games/{game_id}/export.json")
    assert response.mimetype == "application/json"
    assert re.fullmatch(rf'attachment; filename="kings-corners-game-{game_id}-\d{{4}}-\d\d-\d\d'
                        r'\.json"', response.headers["Content-Disposition"])
    assert response.get_json()["players"] == P


def test_a_missing_game_is_not_found(client):
    assert client.get("/games/999").status_code == 404
    assert client.get("/games/999/hands/new").status_code == 404
    assert client.get("/games/999/export.json").status_code == 404
