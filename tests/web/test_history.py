"""History pages, moving games between nights, the chart on the scoreboard, CSV export."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta

import pytest
from sqlalchemy import event, select

from scorekeeper.db.models import Game, Night
from scorekeeper.extensions import db
from scorekeeper.reports import gamelog
from tests.helpers import alerts, hand_data, start_game, store_log
from tests.helpers import csrf_token as csrf

FIRST_NIGHT = date(2021, 1, 2)


def add_night(app, day: date, names=("Ann", "Ben", "Cy"), games=1, name=None) -> int:
    """Store a night on `day` with finished penalty games that names[1] wins; return its id."""
    doc = {"format": "kings-corners-game/1", "variant": "penalty", "rules": {"target": 10},
           "players": list(names),
           "rounds": [{"went_out": names[1], "hands": {n: {"cards": 6, "kings": 1}
                                                        for n in names if n != names[1]}}]}
    with app.app_context():
        for _ in range(games):
            game = store_log(gamelog.parse(doc).game, day)
        game.night.name = name
        db.session.commit()
        return game.night_id


def weekly_nights(app, count: int) -> list[int]:
    """Store `count` weekly nights from FIRST_NIGHT on; return their ids, oldest first."""
    return [add_night(app, FIRST_NIGHT + timedelta(weeks=i)) for i in range(count)]


def page(client, url: str, status: int = 200) -> str:
    """Return a page's HTML, checking its status."""
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:2000]
    return response.get_data(as_text=True)


def listed_nights(html: str) -> list[int]:
    """Return the night ids a history page lists, in order."""
    return [int(n) for n in re.findall(r'data-night="(\d+)"', html)]


def test_history_lists_nights_newest_first_with_date_players_games_and_winners(app, client):
    old = add_night(app, date(2026, 10, 3), names=("Ann", "Ben"))
    new = add_night(app, date(2026, 10, 10), names=("Cy", "Dee", "Eve"), games=2,
                    name="Farewell party")
    html = page(client, "/history/")
    assert listed_nights(html) == [new, old]
    assert "Sat 10 Oct 2026" in html and "Farewell party" in html
    assert "Cy · Dee · Eve" in html and "Ann · Ben" in html
    assert "2 games" in html and "<b>Dee</b> ×2" in html
    assert "October 2026" in html


def test_an_empty_history_says_how_nights_appear(client):
    assert "No game nights yet" in page(client, "/history/")


def test_every_page_has_a_history_link(client):
    assert 'href="/history/">History</a>' in page(client, "/")


def test_history_is_paged_twenty_nights_at_a_time(app, client):
    ids = weekly_nights(app, 45)
    newest_first = list(reversed(ids))
    first = page(client, "/history/")
    assert listed_nights(first) == newest_first[:20]
    assert "Page 1 of 3" in first and 'rel="next" href="/history/?page=2"' in first
    assert 'rel="prev"' not in first
    second = page(client, "/history/?page=2")
    assert listed_nights(second) == newest_first[20:40]
    assert 'rel="prev" href="/history/?page=1"' in second
    last = page(client, "/history/?page=3")
    assert listed_nights(last) == newest_first[40:]
    assert 'rel="next"' not in last
    page(client, "/history/?page=4", status=404)


def test_year_links_jump_to_the_page_where_that_year_starts(app, client):
    weekly_nights(app, 80)  # 2 Jan 2021 to 9 Jul 2022: 28 nights in 2022, then 52 in 2021
    html = page(client, "/history/?season=all")
    assert 'href="/history/?page=1&amp;season=all" aria-current="page">2022</a>' in html
    assert 'href="/history/?page=2&amp;season=all">2021</a>' in html
    assert "2021</h2>" not in html.split('<nav class="years"', 1)[-1].split("</nav>", 1)[-1]
    assert "December 2021</h2>" in page(client, "/history/?page=2&season=all")


def count_queries(app, client, url: str) -> int:
    """Return how many SQL statements serving `url` runs."""
    statements = []
    with app.app_context():
        engine = db.engine

    def seen(*_args):
        statements.append(1)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        page(client, url)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    return len(statements)


def test_a_history_page_takes_as_many_queries_for_twenty_nights_as_for_two(app, client):
    weekly_nights(app, 2)
    few = count_queries(app, client, "/history/")
    weekly_nights(app, 30)
    many = count_queries(app, client, "/history/")
    assert many == few
    assert many <= 12


def test_a_night_shows_each_games_final_standings(app, client):
    night_id = add_night(app, date(2026, 10, 3), games=2)
    with app.app_context():
        game_ids = [g.id for g in db.session.get(Night, night_id).games]
    html = page(client, f"/history/nights/{night_id}")
    assert "Saturday 03 October 2026" in html
    assert html.count("Ben wins") == 2
    assert html.count('<span class="total">15 <small>pts</small>') == 4  # Ann and Cy, twice
    for game_id in game_ids:
        assert f'href="/history/games/{game_id}"' in html


def test_an_unfinished_game_of_a_night_links_to_its_scoreboard(client):
    game_id = start_game(client)
    html = page(client, "/history/nights/1")
    assert "Not finished" in html and f'href="/games/{game_id}"' in html


def test_a_night_is_renamed_with_notes_through_its_form_with_csrf_on(app, client):
    night_id = add_night(app, date(2026, 10, 3))
    app.config["WTF_CSRF_ENABLED"] = True
    refused = client.post(f"/history/nights/{night_id}", data={"name": "Finals"})
    assert refused.status_code == 400 and "Nothing was saved" in refused.get_data(as_text=True)
    html = page(client, f"/history/nights/{night_id}")
    response = client.post(f"/history/nights/{night_id}", data={
        "csrf_token": csrf(html), "name": " Finals night ", "notes": "Cy dealt wrong twice."})
    assert response.status_code == 302
    html = page(client, f"/history/nights/{night_id}")
    assert "<h1>Finals night</h1>" in html and "Cy dealt wrong twice." in html
    assert "Finals night" in page(client, "/history/")


def test_a_name_too_long_is_refused_next_to_the_field_keeping_what_was_typed(app, client):
    night_id = add_night(app, date(2026, 10, 3))
    response = client.post(f"/history/nights/{night_id}",
                           data={"name": "N" * 81, "notes": "kept notes"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert alerts(html) == ["Name can be at most 80 characters, not 81."]
    assert 'value="' + "N" * 81 + '"' in html and "kept notes" in html
    with app.app_context():
        assert db.session.get(Night, night_id).name is None


def test_a_game_moves_to_another_night_and_the_emptied_night_goes(app, client):
    target = add_night(app, date(2026, 10, 3))
    wrong = add_night(app, date(2026, 10, 10))
    with app.app_context():
        game_id = db.session.get(Night, wrong).games[0].id
    html = page(client, f"/history/games/{game_id}")
    assert f'name="night" value="{target}"' in html and "Sat 03 Oct 2026" in html
    response = client.post(f"/history/games/{game_id}/move", data={"night": str(target)})
    assert response.headers["Location"].endswith(f"/history/nights/{target}")
    assert "Game moved to Sat 03 Oct 2026." in page(client, f"/history/nights/{target}")
    assert listed_nights(page(client, "/history/")) == [target]


def test_a_game_can_move_to_a_night_of_its_own(app, client):
    night_id = add_night(app, date(2026, 10, 3), games=2)
    with app.app_context():
        game_id = db.session.get(Night, night_id).games[1].id
    response = client.post(f"/history/games/{game_id}/move", data={"night": "new"})
    assert response.status_code == 302
    assert len(listed_nights(page(client, "/history/"))) == 2


def test_moving_without_choosing_a_night_is_refused_and_moves_nothing(app, client):
    night_id = add_night(app, date(2026, 10, 3))
    with app.app_context():
        game_id = db.session.get(Night, night_id).games[0].id
    response = client.post(f"/history/games/{game_id}/move", data={})
    assert response.status_code == 422
    assert alerts(response.get_data(as_text=True)) == ["Choose the night to move this game to."]
    with app.app_context():
        assert db.session.get(Game, game_id).night_id == night_id


def play_penalty(client, names=("Ann", "Ben", "Cy")) -> int:
    """Start a penalty game and record two hands; return its id."""
    game_id = start_game(client, names=names)
    players = list(names)
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(players, names[0], {names[1]: 5, names[2]: (3, 1)}, number=1))
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(players, None, {names[0]: 2, names[1]: 4, names[2]: 2}, number=2))
    return game_id


def test_the_scoreboard_shows_the_chart_and_a_csv_button_once_a_hand_is_in(client):
    game_id = start_game(client)
    html = page(client, f"/games/{game_id}")
    assert "<svg" not in html
    game_id = play_penalty(client)
    html = page(client, f"/games/{game_id}")
    assert "Penalty points, hand by hand" in html and 'role="img"' in html
    assert f'href="/history/games/{game_id}/export.csv"' in html


def test_a_games_history_page_has_its_chart_table_and_exports(client):
    game_id = play_penalty(client)
    html = page(client, f"/history/games/{game_id}")
    assert html.count("<svg") == 1 and "ends at 25" in html
    assert "Hand by hand" in html
    assert f"/history/games/{game_id}/export.csv" in html
    assert f"/games/{game_id}/export.json" in html


def read_csv(client, game_id: int) -> tuple[list[dict], str]:
    """Download a game's CSV; return its rows and the file name offered."""
    response = client.get(f"/history/games/{game_id}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    text = response.data.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text))), response.headers["Content-Disposition"]


def test_the_csv_has_a_row_per_hand_and_player_with_scores_and_totals(client):
    game_id = play_penalty(client)
    rows, disposition = read_csv(client, game_id)
    assert f'filename="kings-corners-game-{game_id}-' in disposition
    assert [(r["hand"], r["player"]) for r in rows] == [
        ("1", "Ann"), ("1", "Ben"), ("1", "Cy"), ("2", "Ann"), ("2", "Ben"), ("2", "Cy")]
    assert rows[2] == {"hand": "1", "dealer": "Ann", "player": "Cy", "went_out": "no",
                       "won_hand": "no", "cards": "3", "kings": "1", "score": "12",
                       "total": "12"}
    assert rows[0]["went_out"] == "yes" and rows[0]["score"] == "0"
    # Hand 2 was a stalemate: Ann and Cy, fewest cards, both won it.
    assert [r["won_hand"] for r in rows[3:]] == ["yes", "no", "yes"]
    assert [r["total"] for r in rows[3:]] == ["0", "9", "12"]


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_written_as_text(client):
    game_id = play_penalty(client, names=("=SUM(A1)", "Ben", "@Cy"))
    rows, _ = read_csv(client, game_id)
    assert rows[0]["player"] == "'=SUM(A1)" and rows[0]["dealer"] == "'=SUM(A1)"
    assert rows[2]["player"] == "'@Cy"


def test_a_chips_csv_adds_passes_stacks_and_the_pot(app, client):
    game_id = start_game(client, names=("Ann", "Ben"), variant="chips", preset="house")
    client.post(f"/games/{game_id}/hands/new", data=hand_data(["Ann", "Ben"], "Ann", {"Ben": 3}))
    rows, _ = read_csv(client, game_id)
    assert list(rows[0])[-5:] == ["passes", "king_held", "missed_draw", "stack", "pot"]
    ann, ben = rows
    assert ann["pot"] == ben["pot"] == "5"  # two antes and Ben's three cards
    assert (ann["stack"], ben["stack"]) == ("54", "46")
    assert ann["total"] == ann["stack"] and ben["score"] == "-4"


def test_a_coronation_csv_has_corners_the_dragon_and_the_victory(app, client):
    doc = {"format": "kings-corners-game/1", "variant": "coronation", "players": ["Ann", "Ben"],
           "rounds": [{"corners": ["Ann", "Ann", "Ann", "Ann"], "dragon": "Ann"}]}
    with app.app_context():
        game_id = store_log(gamelog.parse(doc).game, None).id
        db.session.commit()
    rows, _ = read_csv(client, game_id)
    ann, ben = rows
    assert (ann["corners"], ann["went_out"], ann["score"], ann["total"]) == ("4", "yes", "5", "1")
    assert (ben["corners"], ben["went_out"], ben["cards"]) == ("0", "no", "")
    assert ann["victory"] == "absolute" and ann["deal_winner"] == "Ann"


@pytest.mark.parametrize("url", ["/history/nights/99", "/history/games/99",
                                 "/history/games/99/export.csv"])
def test_a_night_or_game_that_does_not_exist_is_not_found(client, url):
    page(client, url, status=404)


def test_nights_are_listed_by_when_they_were_played_not_when_they_were_entered(app, client):
    later = add_night(app, date(2026, 10, 10))
    earlier = add_night(app, date(2026, 10, 3))  # imported afterwards, played before
    assert listed_nights(page(client, "/history/")) == [later, earlier]
    with app.app_context():
        assert db.session.scalar(select(Night.id).order_by(Night.id.desc())) == earlier


@pytest.mark.postgres
def test_history_paging_years_moving_and_csv_work_on_postgresql(pg_app):  # noqa: F811
    client = pg_app.test_client()
    ids = weekly_nights(pg_app, 60)
    html = page(client, "/history/?season=all")
    assert listed_nights(html) == list(reversed(ids))[:20]
    assert 'href="/history/?page=1&amp;season=all" aria-current="page">2022</a>' in html
    assert listed_nights(page(client, "/history/?page=3&season=all")) == list(reversed(ids))[40:]
    # The usual season, the newest with games: 2022's eight nights.
    assert listed_nights(page(client, "/history/")) == list(reversed(ids))[:8]
    assert listed_nights(page(client, "/history/?season=2021")) == list(reversed(ids))[8:28]
    with pg_app.app_context():
        game_id = db.session.get(Night, ids[-1]).games[0].id
    assert "Ben wins" in page(client, f"/history/nights/{ids[-1]}")
    assert client.post(f"/history/games/{game_id}/move",
                       data={"night": str(ids[-2])}).status_code == 302
    assert listed_nights(page(client, "/history/"))[:2] == [ids[-2], ids[-3]]
    rows, _ = read_csv(client, game_id)
    assert [r["player"] for r in rows] == ["Ann", "Ben", "Cy"]
    first, second = start_game(client), start_game(client)
    with pg_app.app_context():
        assert db.session.get(Game, first).night_id == db.session.get(Game, second).night_id


def test_a_game_outside_any_night_still_has_its_page_and_chart(app, client):
    game_id = play_penalty(client)
    with app.app_context():
        game = db.session.get(Game, game_id)
        game.night = None
        db.session.commit()
    html = page(client, f"/history/games/{game_id}")
    assert "<svg" in html and 'href="/history/nights/' not in html


def test_tied_players_share_a_place_on_the_game_page_as_on_its_card(app, client):
    """Ben and Cy hold 5 cards each: 1, 2, 2, 4 on the game's page, its scoreboard and its
    night's page, as its card numbers them, not 1, 2, 3, 4."""
    names = ["Ann", "Ben", "Cy", "Dee"]
    game_id = start_game(client, names)
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(names, "Ann", {"Ben": 5, "Cy": 5, "Dee": 9}))

    def places(html: str) -> list[tuple[str, str]]:
        return re.findall(r'<span class="place">(\d+)</span>\s*<span class="who">'
                          r'(?:<span class="name">)?(\w+)', html)

    expected = [("1", "Ann"), ("2", "Ben"), ("2", "Cy"), ("4", "Dee")]
    assert places(client.get(f"/history/games/{game_id}").get_data(as_text=True)) == expected
    assert places(client.get(f"/games/{game_id}").get_data(as_text=True)) == expected
    with app.app_context():
        night = db.session.get(Game, game_id).night_id
    assert places(client.get(f"/history/nights/{night}").get_data(as_text=True)) == expected
