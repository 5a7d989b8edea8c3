"""The roster and player pages: statistics shown, rename, merge."""

from __future__ import annotations

import json
import re

from scorekeeper.db.models import Player
from scorekeeper.extensions import db
from tests.helpers import alerts, csrf_token, hand_data, start_game, with_part

PLAYERS = ["Ann", "Ben", "Cy"]


def text(response) -> str:
    """Return a page's text with its whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", response.get_data(as_text=True)).split())


def finished_game(client) -> int:
    """Play a penalty game to 10 in one hand: Ben out, Ann 3 cards 1 king (12), Cy 5 (5)."""
    game_id = start_game(client, PLAYERS, target=10)
    response = client.post(f"/games/{game_id}/hands/new",
                           data=hand_data(PLAYERS, "Ben", {"Ann": (3, 1), "Cy": 5}))
    assert response.status_code == 302
    return game_id


def player_id(app, name: str) -> int:
    """Return the id of the roster player called `name`."""
    with app.app_context():
        return db.session.query(Player).filter_by(name_key=name.casefold()).one().id


def import_log(client, doc: dict) -> int:
    """Import a game log through the import page; return the new game's id."""
    response = client.post("/import", data={"text": json.dumps(doc)})
    assert response.status_code == 302, alerts(response.get_data(as_text=True))
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_the_roster_lists_every_player_with_games_and_wins(client):
    finished_game(client)
    start_game(client, ["Ann", "Dee"])  # unfinished: not counted yet
    page = text(client.get("/players"))
    assert "Ben 1 game · 1 win 100%" in page
    assert "Ann 1 game · 0 wins 0%" in page
    assert "Dee 0 games · 0 wins –" in page


def test_every_page_links_to_the_players(client):
    assert 'href="/players"' in client.get("/").get_data(as_text=True)


def test_a_player_page_shows_the_statistics_worked_out_from_the_hands(app, client):
    finished_game(client)
    page = text(with_part(client, f"/players/{player_id(app, 'Ann')}"))
    assert "1 game 0 wins 0% win rate" in page
    assert "Penalty points 1 0 0%" in page  # games, wins, rate per variant
    assert "Penalty per hand 12.0 12 points in 1 hand" in page
    assert "Kings left in hand 1 in 1 hand" in page
    assert "No wins yet in 1 night." in page
    # Head to head: Ann's 12 is behind Ben's 0 and Cy's 5.
    assert "Ben 1 game" in page and "Ann ahead 0 · level 0 · behind 1" in page
    assert "Win rate over time" not in page  # one game is not a line yet
    ben = text(with_part(client, f"/players/{player_id(app, 'Ben')}"))
    assert "1 win in 1 game" in ben  # best night


def test_a_player_s_charts_rivals_and_head_to_head_are_a_part_fetched_into_the_page(app,
                                                                                   client):
    finished_game(client)
    ann = player_id(app, "Ann")
    html = client.get(f"/players/{ann}?season=all").get_data(as_text=True)
    # The page shows the record at once, and keeps a slot for the rest, with a link.
    assert "1 game 0 wins 0% win rate" in " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert "Head to head" not in html and "Best night" not in html
    more = f"/players/{ann}/more?season=all"  # the season the page is seen for
    assert (f'data-more="{more}">\n  <a class="button" href="{more}">Charts, rivals and head '
            "to head</a>") in html
    # As app.js asks for it: the cards alone, for the same address told apart by the header.
    part = client.get(more, headers={"X-Fragment": "1"})
    said = part.get_data(as_text=True)
    assert part.status_code == 200 and "<html" not in said
    assert "Head to head" in said and "Ann ahead 0 · level 0 · behind 1" in text(part)
    assert "X-Fragment" in part.headers["Vary"]
    # Opened by its link (no script, or no connection): a page of its own, with the way back.
    alone = client.get(more)
    page = alone.get_data(as_text=True)
    assert alone.status_code == 200 and page.startswith("<!doctype html>")
    assert f'<a href="/players/{ann}?season=all">Ann</a>' in page and "Head to head" in page
    assert client.get("/players/99/more").status_code == 404
    assert client.get(f"/players/{ann}/more?season=Nonsense").status_code == 404


def test_a_player_whose_only_game_is_unfinished_has_nothing_counted_yet(app, client):
    start_game(client, ["Ann", "Dee"])
    page = text(with_part(client, f"/players/{player_id(app, 'Dee')}"))
    assert "0 games 0 wins – win rate" in page
    assert "1 unfinished game will count once it ends." in page
    assert "No wins yet." in page and "Head to head" not in page


def test_renaming_a_player_keeps_their_games(app, client):
    game_id = finished_game(client)
    ann = player_id(app, "Ann")
    response = client.post(f"/players/{ann}/rename", data={"name": "  Annie  "},
                           follow_redirects=True)
    assert "Ann is now called Annie." in text(response)
    assert "Penalty per hand 12.0" in text(response)
    assert "Annie" in text(client.get(f"/games/{game_id}"))
    assert "Annie 1 game" in text(client.get("/players"))


def test_renaming_to_a_name_already_on_the_roster_says_so_and_keeps_what_was_typed(app, client):
    finished_game(client)
    ann = player_id(app, "Ann")
    response = client.post(f"/players/{ann}/rename", data={"name": "bEN"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert alerts(html) == ["Name: “Ben” is already on the roster. If they are the same "
                            "person, merge the two entries instead."]
    assert 'value="bEN"' in html and "<details class=\"rename\" open>" in html
    with app.app_context():
        assert db.session.get(Player, ann).name == "Ann"


def test_a_player_can_change_only_the_case_of_their_name(app, client):
    finished_game(client)
    ann = player_id(app, "Ann")
    client.post(f"/players/{ann}/rename", data={"name": "ANN"})
    with app.app_context():
        assert db.session.get(Player, ann).name == "ANN"


def test_an_empty_name_is_refused_next_to_the_field(app, client):
    finished_game(client)
    response = client.post(f"/players/{player_id(app, 'Ann')}/rename", data={"name": "  "})
    assert response.status_code == 422
    assert alerts(response.get_data(as_text=True)) == ["Name: a name cannot be empty"]


def test_merging_a_duplicate_moves_its_games_over(app, client):
    finished_game(client)
    second = start_game(client, ["annie b", "Ben"], target=10)
    client.post(f"/games/{second}/hands/new",
                data=hand_data(["annie b", "Ben"], "annie b", {"Ben": (4, 1)}))
    ann, dup = player_id(app, "Ann"), player_id(app, "annie b")
    page = client.get(f"/players/{ann}/merge").get_data(as_text=True)
    assert "annie b · 1 game" in page
    response = client.post(f"/players/{ann}/merge", data={"other": str(dup), "confirmed": "1"},
                           follow_redirects=True)
    assert "annie b merged into Ann: 1 game moved over." in text(response)
    assert "2 games 1 win 50% win rate" in text(response)
    # Ben, met in both games, is now met by Ann
    assert "Ann ahead 1" in text(with_part(client, f"/players/{ann}"))
    assert "annie b" not in text(client.get("/players"))
    assert "Ann" in text(client.get(f"/games/{second}"))


def test_two_entries_who_sat_in_the_same_game_are_not_merged(app, client):
    game_id = finished_game(client)
    ann, ben = player_id(app, "Ann"), player_id(app, "Ben")
    response = client.post(f"/players/{ann}/merge", data={"other": str(ben), "confirmed": "1"})
    assert response.status_code == 422
    assert alerts(response.get_data(as_text=True)) == [
        f"Ann and Ben both sat in game {game_id}, so they are two different people; "
        "nothing was merged."]
    assert "Ben 1 game" in text(client.get("/players"))


def test_merging_without_picking_an_entry_asks_for_one(app, client):
    finished_game(client)
    response = client.post(f"/players/{player_id(app, 'Ann')}/merge", data={})
    assert response.status_code == 422
    assert alerts(response.get_data(as_text=True)) == ["Tap the entry to fold into this one."]


def test_merging_rewrites_corners_dragons_and_chips_events(app, client):
    coronation = import_log(client, {
        "format": "kings-corners-game/1", "variant": "coronation", "players": ["Anny", "Ben"],
        "rounds": [{"corners": ["Anny", "Ben", "Anny", None], "dragon": "Anny"}]})
    chips = import_log(client, {
        "format": "kings-corners-game/1", "variant": "chips", "players": ["Anny", "Cy"],
        "rounds": [{"went_out": "Cy", "hands": {"Anny": {"cards": 2}},
                    "events": [{"player": "Anny", "kind": "pass"}]}]})
    import_log(client, {"format": "kings-corners-game/1", "variant": "penalty",
                        "players": ["Ann", "Dee"]})
    before = [client.get(f"/games/{g}/export.json").get_json()["result"]
              for g in (coronation, chips)]
    ann, dup = player_id(app, "Ann"), player_id(app, "Anny")
    merged = client.post(f"/players/{ann}/merge", data={"other": str(dup), "confirmed": "1"})
    assert merged.status_code == 302
    deal = client.get(f"/games/{coronation}/export.json").get_json()
    assert deal["rounds"] == [{"corners": ["Ann", "Ben", "Ann", None], "dragon": "Ann"}]
    pot = client.get(f"/games/{chips}/export.json").get_json()
    assert pot["rounds"][0]["events"] == [{"player": "Ann", "kind": "pass"}]
    after = [client.get(f"/games/{g}/export.json").get_json()["result"]
             for g in (coronation, chips)]
    renamed = json.loads(json.dumps(before).replace("Anny", "Ann"))
    assert after == renamed
    page = text(client.get(f"/players/{ann}"))
    assert "Coronations 2 corners crowned in 1 deal Dragons slain 1" in page


def test_an_unknown_player_is_not_found(client):
    assert client.get("/players/99").status_code == 404


def test_renaming_without_the_csrf_token_changes_nothing(guarded_app):
    app = guarded_app
    with app.app_context():
        db.session.add(Player(name="Ann", name_key="ann"))
        db.session.commit()
    client = app.test_client()
    assert client.post("/players/1/rename", data={"name": "Bob"}).status_code == 400
    page = client.get("/players/1").get_data(as_text=True)
    token = csrf_token(page)
    client.post("/players/1/rename", data={"name": "Bob", "csrf_token": token})
    with app.app_context():
        assert db.session.get(Player, 1).name == "Bob"
        db.engine.dispose()


def test_the_roster_typed_with_a_slash_opens_and_a_missing_page_says_what_is_missing(client):
    finished_game(client)
    opened = client.get("/players/", follow_redirects=True)
    assert opened.status_code == 200 and "Ann" in text(opened)
    nothing = client.get("/players/nobody")
    assert nothing.status_code == 404
    assert "There is nothing at this address." in text(nothing)
    assert "deleted" not in text(nothing)  # not a game: nothing about a deleted game
    gone = client.get("/games/999")
    assert gone.status_code == 404 and "the game may have been deleted" in text(gone)


def test_a_player_page_shows_their_records_marked_against_the_table_s(app, client):
    from tests.helpers import import_log

    names = ["Ann", "Ben", "Cy"]
    # Ben is left holding 2 kings on the 5th; Ann 3 on the 12th; Cy 3 on the 19th, after her.
    for day, held in (("05", {"Ben": {"cards": 2, "kings": 2}, "Cy": {"cards": 1}}),
                      ("12", {"Ben": {"cards": 1}, "Cy": {"cards": 4, "kings": 3}}),
                      ("19", {"Ann": {"cards": 4, "kings": 3}, "Ben": {"cards": 1}})):
        import_log(app, "penalty", names, [{"went_out": "Ann" if day != "19" else "Cy",
                                            "hands": held}], f"2026-01-{day}")
    cy = with_part(client, "/players/3").get_data(as_text=True)
    records = cy[cy.index('aria-labelledby="records-h"'):cy.index("Best night")]
    assert "Most kings left in one hand" in records and "<b>3 kings</b>" in records
    assert '<span class="badge gold">Table record</span>' in records
    ann = with_part(client, "/players/1").get_data(as_text=True)
    assert '<span class="badge">Equals the table record</span>' in ann
    ben = with_part(client, "/players/2", headers={"Accept-Language": "es-ES,es;q=0.9"})
    said = ben.get_data(as_text=True)
    assert "<h2 id=\"records-h\">Récords</h2>" in said
    assert "Más reyes sin bajar en una mano" in said and "<b>2 reyes</b>" in said
    assert "Récord de la mesa" not in said  # Ben's 2 kings are nobody's record now


def test_a_player_with_no_best_has_no_records_part(app, client):
    start_game(client, ["Ann", "Ben"])
    assert "records-h" not in with_part(client, "/players/1").get_data(as_text=True)
