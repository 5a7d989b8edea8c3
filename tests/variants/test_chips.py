"""The chip pot through the test client: new game, live pot, record hand, scoreboard, game log."""

import html as markup
import json
import re

import pytest

from scorekeeper.db.models import Event, Game, Round
from scorekeeper.extensions import db
from tests.helpers import alerts, csrf_token, hand_data, start_game

P = ["Ann", "Ben", "Cy"]


def text(response) -> str:
    """Return a page's text without tags and runs of spaces."""
    page = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    return markup.unescape(" ".join(page.split()))


def messages(response) -> str:
    """Return the error messages a page shows, as the user reads them."""
    return markup.unescape(" ".join(alerts(response.get_data(as_text=True))))


def chips_game(client, names=P, preset="house", **rules) -> int:
    return start_game(client, names, variant="chips", preset=preset, **rules)


def tap(client, game_id, seat, kind="pass", number=1, token=None, partial=False):
    """Tap a live-pot key, as its form posts it."""
    data = {"number": str(number), "player": str(seat), "kind": kind}
    if token:
        data["token"] = token
    headers = {"X-Live-Panel": "1"} if partial else {}
    return client.post(f"/games/{game_id}/chips/events", data=data, headers=headers)


def record(client, game_id, went_out, hands, number, names=P, **extra):
    data = hand_data(names, went_out, hands, number)
    data.update(extra)
    return client.post(f"/games/{game_id}/hands/new", data=data)


def settings_of(app, game_id) -> dict:
    with app.app_context():
        return dict(db.session.get(Game, game_id).settings)


def count(app, model) -> int:
    with app.app_context():
        return db.session.query(model).count()


def pot(response) -> int:
    return int(re.search(r"<b data-pot>(\d+)</b>", response.get_data(as_text=True)).group(1))


def stacks(response) -> dict[str, int]:
    html = response.get_data(as_text=True)
    return {name: int(chips) for name, chips in re.findall(
        r'data-name="([^"]+)">.*?<b data-stack>(\d+)</b>', html, re.S)}


# New game: both presets, every setting


def test_the_new_game_page_offers_both_sets_and_shows_each_sets_value_of_a_setting(client):
    html = client.get("/games/new").get_data(as_text=True)
    assert 'name="rules-chips-preset" value="house" checked' in html
    assert 'name="rules-chips-preset" value="jax"' in html
    assert 'data-preset="house" data-value="0">House: 0' in html  # king held, not offered
    assert 'data-preset="jax" data-value="3">Jax: 3' in html
    assert 'data-preset="jax" data-value="100">Jax: 100' in html


def test_a_house_game_deals_50_each_and_shows_the_chips_in_play(client, app):
    game_id = chips_game(client)
    assert settings_of(app, game_id)["start_chips"] == 50
    page = client.get(f"/games/{game_id}")
    assert "150 chips in play" in text(page)
    assert "Ann deals, Ben plays first" in text(page)
    assert pot(page) == 3 and stacks(page) == {"Ann": 49, "Ben": 49, "Cy": 49}
    assert "King held" not in text(page) and text(page).count("Pass") == 3


def test_a_jax_game_splits_80_chips_and_offers_the_king_and_missed_draw_keys(client, app):
    game_id = chips_game(client, preset="jax")
    settings = settings_of(app, game_id)
    assert (settings["total_chips"], settings["reset_each_hand"], settings["target"]) == (
        80, True, 100)
    page = text(client.get(f"/games/{game_id}"))
    assert "78 chips in play · 2 in the box" in page
    assert "King held" in page and "Missed draw" in page
    assert "Score: pots won · to 100" in page and "100 to go" in page


def test_every_setting_of_the_table_can_be_changed_when_the_game_starts(client, app):
    game_id = chips_game(client, preset="jax", **{
        "total_chips-other": "120", "ante": "2", "pass_chips": "3", "king_held_chips": "0",
        "missed_draw_chips-other": "2", "card_chips": "2", "king_chips": "10",
        "reset_each_hand": "0", "target-other": "150"})
    assert settings_of(app, game_id) == {
        "preset": "jax", "start_chips": None, "total_chips": 120, "ante": 2, "pass_chips": 3,
        "king_held_chips": 0, "missed_draw_chips": 2, "card_chips": 2, "king_chips": 10,
        "reset_each_hand": False, "target": 150}


def test_a_house_game_may_give_a_total_to_split_and_a_target(client, app):
    game_id = chips_game(client, total_chips="80", target="100")
    settings = settings_of(app, game_id)
    assert (settings["start_chips"], settings["total_chips"], settings["target"]) == (
        None, 80, 100)


def test_a_jax_game_can_be_played_with_no_target(client, app):
    game_id = chips_game(client, preset="jax", target="")
    assert settings_of(app, game_id)["target"] is None
    assert "to go" not in text(client.get(f"/games/{game_id}"))


def test_a_blank_box_takes_the_chosen_sets_value(client, app):
    game_id = chips_game(client, preset="jax", ante="")
    settings = settings_of(app, game_id)
    assert settings["ante"] == 1 and settings["target"] == 100


def test_chips_each_and_a_total_together_are_refused_next_to_the_total(client):
    response = client.post("/games/new", data={
        "variant": "chips", "dealer": "0", "seat-0": "Ann", "seat-1": "Ben",
        "rules-chips-start_chips": "50", "rules-chips-total_chips": "80"})
    assert response.status_code == 422
    assert 'id="rules-chips-total_chips-error"' in response.get_data(as_text=True)
    assert "not both" in messages(response)


# The live pot


def test_a_tap_is_saved_at_once_and_the_scoreboard_shows_it_after_a_reload(client, app):
    game_id = chips_game(client)
    response = tap(client, game_id, 0)
    assert response.status_code == 302 and response.headers["Location"].endswith("#live")
    page = client.get(f"/games/{game_id}")
    assert pot(page) == 4 and stacks(page)["Ann"] == 48
    assert "Last tap: Ann , pass (1)" in text(page) and "1 × pass" in text(page)
    assert count(app, Event) == 1


def test_a_tap_sent_twice_with_one_token_counts_once_and_new_tokens_count_again(client, app):
    game_id = chips_game(client)
    tap(client, game_id, 2, token="same")
    tap(client, game_id, 2, token="same")
    assert count(app, Event) == 1
    tap(client, game_id, 2, token="other")
    assert pot(client.get(f"/games/{game_id}")) == 5


def test_every_tap_key_carries_a_token_of_its_own(client):
    game_id = chips_game(client, preset="jax")
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    tokens = re.findall(r'name="token" value="([^"]+)"', html)
    assert len(tokens) == 9 and len(set(tokens)) == 9


def test_a_tap_from_chips_js_is_answered_with_the_live_pot_alone(client):
    game_id = chips_game(client, preset="jax")
    response = tap(client, game_id, 1, "king_held", partial=True)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith("<section") and "<html" not in html
    assert pot(response) == 6 and stacks(response)["Ben"] == 22


def test_undo_takes_back_the_last_tap_once_however_often_it_is_sent(client, app):
    game_id = chips_game(client)
    tap(client, game_id, 0)
    tap(client, game_id, 1)
    html = client.get(f"/games/{game_id}").get_data(as_text=True)
    last = re.search(r'name="event" value="(\d+)"', html).group(1)
    first, again = (client.post(f"/games/{game_id}/chips/undo", follow_redirects=True,
                                data={"number": "1", "event": last}) for _ in range(2))
    assert "Undone: Ben, pass." in text(first)
    response = again
    assert count(app, Event) == 1 and pot(response) == 4


def test_the_live_pot_can_be_fetched_alone_by_a_second_phone(client):
    game_id = chips_game(client)
    tap(client, game_id, 0)
    response = client.get(f"/games/{game_id}/chips/live")
    assert response.status_code == 200 and pot(response) == 4
    assert 'data-version="1.1.' in response.get_data(as_text=True)


@pytest.mark.parametrize("seat, kind, message", [
    ("0", "cheating", "Unknown event 'cheating'"),
    ("0", "king_held", "costs nothing in this game"),
    ("7", "pass", "There is no player at seat '7'"),
    ("x", "pass", "There is no player at seat 'x'"),
])
def test_a_bad_tap_is_refused_with_a_message_and_writes_nothing(client, app, seat, kind, message):
    game_id = chips_game(client)
    response = client.post(f"/games/{game_id}/chips/events",
                           data={"number": "1", "player": seat, "kind": kind})
    assert response.status_code == 422
    assert message in messages(response)
    assert count(app, Event) == 0 and pot(response) == 3


def test_a_tap_meant_for_a_hand_saved_from_another_phone_is_refused(client, app):
    game_id = chips_game(client)
    record(client, game_id, "Ben", {"Ann": 1, "Cy": 1}, 1)
    response = tap(client, game_id, 0, number=1, partial=True)
    assert response.status_code == 422
    assert "Hand 1 is not being played now" in text(response)
    assert count(app, Event) == 0


def test_a_tap_for_a_player_who_is_out_is_refused(client, app):
    game_id = chips_game(client, start_chips="3")
    record(client, game_id, "Ben", {"Ann": 1, "Cy": 5}, 1)
    response = tap(client, game_id, 2, number=2)
    assert response.status_code == 422
    assert "Cy is out of the game." in messages(response)
    assert count(app, Event) == 0


# End of hand


def test_the_record_page_previews_the_pot_so_far_with_its_taps(client):
    game_id = chips_game(client)
    tap(client, game_id, 0)
    tap(client, game_id, 2)
    page = client.get(f"/games/{game_id}/hands/new")
    assert "5 chips in so far: antes and 2 taps." in text(page)
    # A stalemate of equal hands splits the 5: odd chips go left of the dealer (Ann) first.
    preview = client.post(f"/games/{game_id}/hands/1/preview",
                          data=hand_data(P, None, {"Ann": 1, "Ben": 1, "Cy": 1}))
    assert "Ben &amp; Cy &amp; Ann split the 5-chip pot" in preview.get_data(as_text=True)
    assert "Ben 2, Cy 2, Ann 1" in preview.get_data(as_text=True)
    # Cards paid come out of the stacks the taps left: Ann 48 - 3 = 45.
    preview = client.post(f"/games/{game_id}/hands/1/preview",
                          data=hand_data(P, "Ben", {"Ann": 3}))
    said = preview.get_data(as_text=True)
    assert "pays 3 → 45" in said and "Ann pays 3" in said and "Cy</span>" in said
    # A hand tapped but impossible (more kings than cards) is flagged, never asked for again.
    preview = client.post(f"/games/{game_id}/hands/1/preview",
                          data=hand_data(P, "Ben", {"Ann": (2, 3), "Cy": 1}))
    said = preview.get_data(as_text=True)
    assert re.search(r"Ann</span><span class=\"what\">check above", said), said
    assert "cards left?" not in said


def test_the_hand_takes_the_taps_and_the_scoreboard_tells_who_paid_what(client):
    game_id = chips_game(client)
    tap(client, game_id, 0)
    tap(client, game_id, 0)
    tap(client, game_id, 2)
    assert record(client, game_id, "Ben", {"Ann": (3, 1), "Cy": 5}, 1).status_code == 302
    page = text(client.get(f"/games/{game_id}"))
    assert "Ben takes the 14-chip pot" in page
    assert "Ann -6 → 44 ante 1 · 2 passes 2 · cards 3" in page
    assert "Ben +13 → 63 ante 1 · took 14" in page
    assert "Stacks after hand 1" in page and "Ben leads" in page
    assert pot(client.get(f"/games/{game_id}")) == 3  # hand 2 has its antes in


def test_a_stalemate_splits_the_pot_with_odd_chips_left_of_the_dealer_first(client):
    game_id = chips_game(client, ["Ann", "Ben", "Cy", "Dee"], ante="2")
    tap(client, game_id, 3)
    record(client, game_id, None, {"Ann": 2, "Ben": 4, "Cy": 5, "Dee": 2}, 1,
           names=["Ann", "Ben", "Cy", "Dee"])
    page = text(client.get(f"/games/{game_id}"))
    # 8 antes, Dee's pass, Ben's 4 and Cy's 5 cards: 18, shared from the left of Ann (dealer).
    assert "Dee & Ann split the 18-chip pot: Dee 9, Ann 9" in page


def test_an_odd_chip_of_a_split_pot_goes_to_the_first_winner_left_of_the_dealer(client):
    game_id = chips_game(client, dealer=1)
    record(client, game_id, None, {"Ann": 2, "Ben": 4, "Cy": 2}, 1)
    tap(client, game_id, 0, number=2)
    record(client, game_id, None, {"Ann": 2, "Ben": 3, "Cy": 2}, 2)
    page = text(client.get(f"/games/{game_id}"))
    # Hand 1, Ben deals: 3 antes + Ben's 4 cards = 7; Cy sits left of Ben.
    assert "Cy & Ann split the 7-chip pot: Cy 4, Ann 3" in page
    # Hand 2, Cy deals: 3 antes + Ann's pass + Ben's 3 cards = 7; the dealer comes last.
    assert "Ann & Cy split the 7-chip pot: Ann 4, Cy 3" in page


def test_a_short_stack_pays_all_it_has_and_is_then_out_of_later_hands(client, app):
    game_id = chips_game(client, start_chips="3")
    tap(client, game_id, 2)
    record(client, game_id, "Ben", {"Ann": 1, "Cy": 5}, 1)
    page = text(client.get(f"/games/{game_id}"))
    assert "Cy -3 → 0 out ante 1 · pass 1 · cards 1 of 5" in page
    assert "Cy out 0 no chips left" in page
    assert "Ben deals, Ann plays first" in page  # Cy is skipped
    form = client.get(f"/games/{game_id}/hands/new")
    html = form.get_data(as_text=True)
    assert 'name="sits_out-2" value="1"' in html and "Out of the game: Cy." in text(form)
    assert 'name="went_out" value="2"' not in html and 'name="cards-2"' not in html
    response = record(client, game_id, "Ann", {"Ben": 1}, 2, **{"sits_out-2": "1"})
    assert response.status_code == 302 and count(app, Round) == 2


def test_a_hand_naming_a_player_who_is_out_is_refused(client):
    game_id = chips_game(client, start_chips="3")
    record(client, game_id, "Ben", {"Ann": 1, "Cy": 5}, 1)
    response = record(client, game_id, "Ann", {"Ben": 1, "Cy": 1}, 2)
    assert response.status_code == 422
    assert "'Cy' is not playing this hand" in messages(response)


def test_the_house_game_ends_when_one_player_holds_chips(client):
    game_id = chips_game(client, ["Ann", "Ben"], start_chips="3")
    record(client, game_id, "Ben", {"Ann": 4}, 1, names=["Ann", "Ben"])
    page = client.get(f"/games/{game_id}")
    assert "Ben wins!" in text(page) and 'id="live"' not in page.get_data(as_text=True)
    assert "Record hand" not in text(page)


def test_a_hand_after_the_game_is_over_is_refused_and_nothing_is_written(client, app):
    game_id = chips_game(client, ["Ann", "Ben"], start_chips="3")
    record(client, game_id, "Ben", {"Ann": 4}, 1, names=["Ann", "Ben"])
    assert client.get(f"/games/{game_id}/hands/new").status_code == 302
    response = record(client, game_id, "Ben", {"Ann": 1}, 2, names=["Ann", "Ben"])
    assert response.status_code == 422
    assert "already over" in messages(response)
    assert count(app, Round) == 1
    assert tap(client, game_id, 0, number=2).status_code == 422


def test_a_house_game_with_a_target_ends_when_a_stack_reaches_it(client):
    game_id = chips_game(client, start_chips="10", target="20")
    page = text(client.get(f"/games/{game_id}"))
    assert "House set · 10 each · to 20" in page and "10 to go" in page
    record(client, game_id, "Ben", {"Ann": 4, "Cy": 4}, 1)
    page = text(client.get(f"/games/{game_id}"))
    assert "Ben wins!" in page and "reached 20" in page


def test_a_chips_game_ended_by_hand_goes_to_the_most_chips_and_takes_no_more_taps(client, app):
    game_id = chips_game(client)
    record(client, game_id, "Cy", {"Ann": 2, "Ben": 1}, 1)
    client.post(f"/games/{game_id}/end")
    page = client.get(f"/games/{game_id}")
    assert "Cy wins!" in text(page) and 'id="live"' not in page.get_data(as_text=True)
    response = tap(client, game_id, 0, number=2)
    assert response.status_code == 422 and "The game is over after round 1." in text(response)
    assert count(app, Event) == 0


def test_editing_a_hand_played_after_a_bust_does_not_ask_about_the_player_who_is_out(client):
    game_id = chips_game(client, start_chips="3")
    record(client, game_id, "Ben", {"Ann": 1, "Cy": 5}, 1)
    record(client, game_id, "Ann", {"Ben": 2}, 2, **{"sits_out-2": "1"})
    html = client.get(f"/games/{game_id}/hands/2/edit").get_data(as_text=True)
    assert 'name="cards-2"' not in html and 'name="sits_out-2" value="1"' in html
    html = client.get(f"/games/{game_id}/hands/1/edit").get_data(as_text=True)
    assert 'name="cards-2"' in html and "sits_out" not in html


def test_a_jax_hand_scores_the_pot_won_toward_the_target(client):
    game_id = chips_game(client, preset="jax")
    tap(client, game_id, 2, "king_held")
    record(client, game_id, "Ben", {"Ann": 2, "Cy": (2, 1)}, 1)
    page = client.get(f"/games/{game_id}")
    assert "Ben takes the 10-chip pot" in text(page)
    assert "Ben leads 10 90 to go" in text(page)
    assert "Cy paid 6 0 pts ante 1 · king held 3 · cards 2" in text(page)
    assert stacks(page) == {"Ann": 25, "Ben": 25, "Cy": 25}  # re-split for hand 2


def test_editing_a_chips_hand_keeps_its_taps(client):
    game_id = chips_game(client)
    tap(client, game_id, 0)
    record(client, game_id, "Ben", {"Ann": 1, "Cy": 1}, 1)
    form = client.get(f"/games/{game_id}/hands/1/edit")
    assert "Ann pass 1" in text(form)
    data = hand_data(P, "Cy", {"Ann": 2, "Ben": 1}, 1)
    assert client.post(f"/games/{game_id}/hands/1/edit", data=data).status_code == 302
    assert "Cy takes the 7-chip pot" in text(client.get(f"/games/{game_id}"))


# Game log and CLI


def played_game(client) -> int:
    game_id = chips_game(client, preset="jax")
    tap(client, game_id, 0, "king_held")
    tap(client, game_id, 2)
    record(client, game_id, "Ben", {"Ann": (2, 1), "Cy": 1}, 1)
    tap(client, game_id, 1, "missed_draw", number=2)
    record(client, game_id, None, {"Ann": 2, "Ben": 2, "Cy": 3}, 2)
    return game_id


def test_the_export_writes_each_hands_events_pot_and_stacks(client):
    doc = client.get(f"/games/{played_game(client)}/export.json").get_json()
    assert doc["rules"]["preset"] == "jax" and doc["rules"]["king_held_chips"] == 3
    assert doc["rounds"][0]["events"] == [{"player": "Ann", "kind": "king_held"},
                                          {"player": "Cy", "kind": "pass"}]
    assert doc["rounds"][1]["events"] == [{"player": "Ben", "kind": "missed_draw"}]
    first = doc["result"]["rounds"][0]
    assert first["pot"] == 3 + 3 + 1 + 2 + 1 and first["totals"]["Ben"] == 10
    assert first["stacks"] == {"Ann": 20, "Ben": 35, "Cy": 23}


def test_an_exported_chips_game_imports_to_the_same_document(client):
    doc = client.get(f"/games/{played_game(client)}/export.json").get_json()
    response = client.post("/import", data={"text": json.dumps(doc)})
    assert response.status_code == 302
    new_id = int(response.headers["Location"].rsplit("/", 1)[1])
    again = client.get(f"/games/{new_id}/export.json").get_json()
    assert again == doc


@pytest.mark.parametrize("event, field", [
    ({"player": "Ann", "kind": "cheating"}, "events[0].kind"),
    ({"player": "Zed", "kind": "pass"}, "events[0].player"),
    ({"player": "Ann"}, "events[0].kind"),
    ({"player": "Ann", "kind": "pass", "chips": 5}, "events[0]"),
])
def test_an_import_with_a_bad_event_is_refused_naming_the_round_and_field(client, app, event,
                                                                          field):
    doc = {"format": "kings-corners-game/1", "variant": "chips", "players": P,
           "rounds": [{"went_out": "Ben", "hands": {"Ann": {"cards": 1}, "Cy": {"cards": 1}},
                       "events": [event]}]}
    response = client.post("/import", data={"text": json.dumps(doc)})
    assert response.status_code == 422
    assert f"round 1, {field}:" in text(response).lower()
    assert count(app, Game) == 0


def test_an_import_with_an_event_for_a_player_who_is_out_is_refused(client):
    doc = {"format": "kings-corners-game/1", "variant": "chips", "players": P,
           "rules": {"start_chips": 3},
           "rounds": [{"went_out": "Ben", "hands": {"Ann": {"cards": 1}, "Cy": {"cards": 5}}},
                      {"went_out": "Ann", "hands": {"Ben": {"cards": 1}},
                       "events": [{"player": "Cy", "kind": "pass"}]}]}
    response = client.post("/import", data={"text": json.dumps(doc)})
    assert response.status_code == 422
    assert "Round 2, events[0].player: Cy is out of the game" in text(response)


def test_the_cli_exports_and_imports_a_chips_game_with_its_events(client, runner, tmp_path):
    game_id = played_game(client)
    exported = runner.invoke(args=["games", "export", str(game_id)])
    assert exported.exit_code == 0
    doc = json.loads(exported.output)
    path = tmp_path / "game.json"
    path.write_text(exported.output)
    imported = runner.invoke(args=["games", "import", str(path)])
    assert imported.exit_code == 0
    again = json.loads(runner.invoke(args=["games", "export", imported.output.strip()]).output)
    assert again == doc and again["rounds"][0]["events"][0]["kind"] == "king_held"


# CSRF, as in production


def test_a_tap_needs_the_csrf_token_of_the_page_and_saves_with_it(guarded):
    new = guarded.get("/games/new").get_data(as_text=True)
    csrf = csrf_token(new)
    guarded.post("/games/new", data={"csrf_token": csrf, "variant": "chips", "dealer": "0",
                                     "seat-0": "Ann", "seat-1": "Ben"})
    refused = tap(guarded, 1, 0)
    assert refused.status_code == 302
    page = guarded.get("/games/1")
    assert "This page had expired; nothing was saved. Please tap again" in text(page)
    assert pot(page) == 2
    html = page.get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    saved = guarded.post("/games/1/chips/events", data={
        "csrf_token": token, "number": "1", "player": "0", "kind": "pass", "token": "t"})
    assert saved.status_code == 302 and pot(guarded.get("/games/1")) == 3
