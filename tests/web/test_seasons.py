"""Seasons on the pages: history, the roster and a player's page seen for a season or for all
time (the current season unless asked), each season's page, and naming a season."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from sqlalchemy import event, func, insert, select

from scorekeeper.db.models import Game, Player, RatingStep, Season
from scorekeeper.extensions import db
from scorekeeper.reports import ratings
from tests.helpers import alerts, fill, import_log, start_game, with_part

# fill(): weekly nights from Fri 8 Jan 2016, two finished penalty games each, all four
# players in every game. 60 nights: 52 in 2016 (104 games), 8 in 2017 (16 games).
NIGHTS = 60


@pytest.fixture(params=["sqlite", "postgres"])
def either(request):
    """Return an app on SQLite, then on PostgreSQL."""
    return request.getfixturevalue("app" if request.param == "sqlite" else "pg_app")


@pytest.fixture
def years(app):
    fill(app, NIGHTS, hands=3, ended=True)
    with app.app_context():
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
    return app, ann


def page(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, url
    return response.get_data(as_text=True)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def nights_listed(html: str) -> int:
    return len(re.findall(r'data-night="\d+"', html))


def season_links(html: str) -> list[tuple[str, str, bool]]:
    """Return the row of seasons a page offers: (label, link, shown)."""
    nav = re.search(r'<nav class="seasons"[^>]*>(.*?)</nav>', html, re.S)
    return [(re.sub(r"<[^>]+>", "", label), href.replace("&amp;", "&"), bool(current))
            for href, current, label in
            re.findall(r'<a href="([^"]+)"( aria-current="page")?>(.*?)</a>', nav.group(1))]


def test_history_shows_the_newest_season_with_games_unless_asked(years, client):
    html = page(client, "/history/")
    # Today is past 2017 and nothing was played since: 2017, the newest season, is shown.
    assert "8 game nights, newest first." in html and nights_listed(html) == 8
    assert season_links(html) == [("2017", "/history/", True),
                                  ("2016", "/history/?season=2016", False),
                                  ("All time", "/history/?season=all", False)]
    last_year = page(client, "/history/?season=2016")
    assert "52 game nights, newest first." in last_year and nights_listed(last_year) == 20
    # Its pages keep the season.
    assert 'rel="next" href="/history/?page=2&amp;season=2016"' in last_year
    assert nights_listed(page(client, "/history/?page=3&season=2016")) == 12
    everything = page(client, "/history/?season=all")
    assert "60 game nights, newest first." in everything
    assert '<nav class="years"' in everything  # the years to jump to, for all time only
    page(client, "/history/?season=2015", status=404)
    page(client, "/history/?season=Nonsense", status=404)


def test_the_roster_counts_the_seasons_games(years, client):
    assert "Ann 16 games" in text(page(client, "/players"))
    assert "Ann 104 games" in text(page(client, "/players?season=2016"))
    assert "Ann 120 games" in text(page(client, "/players?season=all"))


def test_a_players_page_is_seen_for_a_season_and_its_links_keep_it(years, client):
    app, ann = years
    now = text(page(client, f"/players/{ann}"))
    assert "16 games" in now
    html = with_part(client, f"/players/{ann}?season=2016").get_data(as_text=True)
    assert "104 games" in text(html)
    assert re.search(r'href="/players/\d+\?season=2016">Ben</a>', html)  # head to head
    assert ("2016", f"/players/{ann}?season=2016", True) in season_links(html)
    assert "120 games" in text(page(client, f"/players/{ann}?season=all"))


def test_naming_a_season_carves_its_days_out_of_the_years_and_rates_again(either):
    app, client = either, either.test_client()
    fill(app, NIGHTS, hands=3, ended=True)
    answer = client.post("/seasons/", data={"name": "  Winter   league ",
                                            "first_day": "2016-12-01",
                                            "last_day": "2017-01-31"})
    assert answer.status_code == 302
    listing = page(client, "/seasons/")
    assert "Season “Winter league” named." in listing
    assert [label for label, _, _ in season_links(page(client, "/history/"))] == [
        "2017", "Winter league", "2016", "All time"]
    # Fridays 2 Dec 2016 to 27 Jan 2017: 9 nights; 2017 keeps 4, 2016 keeps 47.
    assert "9 game nights" in page(client, "/history/?season=Winter%20league")
    assert "4 game nights" in page(client, "/history/")
    assert "47 game nights" in page(client, "/history/?season=2016")
    season = text(page(client, "/seasons/Winter%20league"))
    assert "Thu 01 Dec 2016 – Tue 31 Jan 2017" in season and "Most wins" in season
    assert "Penalty points ratings" in season
    with app.app_context():
        seasons_rated = dict(db.session.execute(
            select(RatingStep.season, func.count(func.distinct(RatingStep.game_id)))
            .group_by(RatingStep.season)).all())
    assert seasons_rated == {"2016": 94, "Winter league": 18, "2017": 8}


def test_a_named_season_is_forgotten_and_its_days_go_back(years, client):
    app, _ = years
    client.post("/seasons/", data={"name": "Cup", "first_day": "2017-01-01",
                                   "last_day": "2017-12-31"})
    assert "8 game nights" in page(client, "/history/?season=Cup")
    with app.app_context():
        season_id = db.session.scalar(select(Season.id))
    answer = client.post(f"/seasons/{season_id}/forget", data={"confirmed": "1"})
    assert answer.status_code == 302
    assert "Season “Cup” forgotten." in page(client, "/seasons/")
    page(client, "/history/?season=Cup", status=404)
    assert "8 game nights" in page(client, "/history/")
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(RatingStep).where(
            RatingStep.season == "Cup")) == 0
    assert client.post(f"/seasons/{season_id}/forget", data={"confirmed": "1"}).status_code == 404


@pytest.mark.parametrize("name, first, last, field, message", [
    ("", "2026-01-01", "2026-02-01", "name", "Name cannot be empty."),
    ("2025", "2026-01-01", "2026-02-01", "name",
     "Name cannot be a year: every year is a season of its own already."),
    ("ALL", "2026-01-01", "2026-02-01", "name", "cannot be “ALL”"),
    ("Fall/Winter", "2026-01-01", "2026-02-01", "name", "Name cannot hold a slash (/)."),
    ("x" * 41, "2026-01-01", "2026-02-01", "name", "Name can be at most 40 characters"),
    ("Summer", "", "2026-02-01", "first_day", "First day cannot be empty."),
    ("Summer", "31/12/2026", "2027-02-01", "first_day",
     "First day is not a date like 2026-12-31."),
    ("Summer", "2026-01-01", "9999-01-01", "last_day",
     "Last day must be between the years 1900 and 2999."),
    ("Summer", "2026-03-01", "2026-02-01", "last_day", "Last day is before the first day."),
    ("winter", "2026-03-01", "2026-04-01", "name", "“Winter” is already a season"),
])
def test_a_wrong_season_is_refused_naming_the_field_and_keeping_what_was_typed(
        app, client, name, first, last, field, message):
    client.post("/seasons/", data={"name": "Winter", "first_day": "2025-11-01",
                                   "last_day": "2026-02-28"})
    answer = client.post("/seasons/", data={"name": name, "first_day": first,
                                            "last_day": last})
    assert answer.status_code == 422
    html = answer.get_data(as_text=True)
    said = alerts(html)
    assert len(said) == 1 and message in said[0]
    assert f'id="{field}" name="{field}"' in html and f'aria-describedby="{field}-error"' in html
    assert f'value="{first}"' in html and f'value="{last}"' in html  # kept as typed
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Season)) == 1


def test_a_page_with_one_season_offers_no_row_of_seasons(client):
    start_game(client)
    assert '<nav class="seasons"' not in page(client, "/history/")
    assert '<nav class="seasons"' not in page(client, "/players")
    with client.application.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 1


def kings_left(who: str, kings: int) -> dict:
    """A logged penalty hand that Ann goes out of, `who` left holding `kings` kings."""
    held = {name: {"cards": 4, "kings": kings if name == who else 0}
            for name in ("Ben", "Cy", "Dee")}
    return {"went_out": "Ann", "hands": held}


def test_a_season_s_page_has_the_records_set_on_its_days_only(either):
    app, client = either, either.test_client()
    players = ["Ann", "Ben", "Cy", "Dee"]
    for day, who, kings in (("2017-01-10", "Ben", 1), ("2017-06-10", "Cy", 2),
                            ("2017-12-10", "Dee", 3), ("2018-03-01", "Ben", 4)):
        import_log(app, "penalty", players, [kings_left(who, kings)], day, target=500)
    # A summer league carved out of 2017: 2017 is the days either side of it.
    assert client.post("/seasons/", data={"name": "Summer", "first_day": "2017-06-01",
                                          "last_day": "2017-08-31"}).status_code == 302

    def kings_record(season: str) -> str:
        html = text(page(client, f"/seasons/{season}"))
        return re.search(r"Most kings left in one hand (\d kings? \w+)", html).group(1)

    assert kings_record("2017") == "3 kings Dee"  # the later of 2017's two runs of days
    assert kings_record("Summer") == "2 kings Cy"
    assert kings_record("2018") == "4 kings Ben"
    ben = with_part(client, "/players/2?season=2017").get_data(as_text=True)
    assert "Most kings left in one hand 1 king" in text(ben)


def test_every_season_link_opens_its_season_whatever_its_name(years, client):
    # Names a table might give: spaces, &, ?, +, #, accents (a slash is refused).
    for name, first, last in (("Été & co: 2016?", "2016-06-01", "2016-08-31"),
                              ("A+B #1", "2017-01-01", "2017-01-31")):
        answer = client.post("/seasons/", data={"name": name, "first_day": first,
                                                "last_day": last})
        assert answer.status_code == 302, name
    for where in ("/history/", "/players", f"/players/{years[1]}", f"/players/{years[1]}/more"):
        links = season_links(page(client, where))
        assert [label for label, _, _ in links] == [
            "2017", "A+B #1", "2016", "Été &amp; co: 2016?", "All time"], where
        for label, href, _ in links:
            # The link opens the page for that season: it is the one marked as shown there.
            shown = [lab for lab, _, now in season_links(page(client, href)) if now]
            assert shown == [label], (where, href)


def one_day_seasons(app, count: int) -> None:
    """Name `count` seasons of a day each, every day from 1 Jan 2016 on: each of the weekly
    nights `fill` stores falls in one of them (60 seasons with games at 1,000 and more)."""
    with app.app_context():
        db.session.execute(insert(Season), [
            {"name": f"Day {n}", "first_day": date(2016, 1, 1) + timedelta(days=n),
             "last_day": date(2016, 1, 1) + timedelta(days=n)} for n in range(count)])
        db.session.commit()


def pages_listing_seasons(app, client, count: int) -> None:
    """Every page that lists seasons answers, with `count` named: the rows offer the newest
    few and the Seasons page, which lists the newest 50 of each kind and offers the rest."""
    fill(app, NIGHTS, hands=3, ended=True)
    one_day_seasons(app, count)
    for where in ("/history/", "/players", "/players/1", "/players/1/more"):
        html = page(client, where)
        links = season_links(html)
        # The newest six seasons with games, all time, then every season on their page.
        assert [label for label, _, _ in links] == [
            f"Day {n}" for n in (420, 413, 406, 399, 392, 385)] + ["All time", "All seasons"]
        assert links[-1][1] == "/seasons/"
        page(client, f"{where}?season=all")
        page(client, f"{where}?season=Day%207")  # the oldest night's season
    listing = page(client, "/seasons/")
    assert len(re.findall(r'href="/seasons/Day%20\d+"', listing)) == 50
    assert len(re.findall(r'/forget"', listing)) == 50
    assert "All 60 seasons" in listing and f"All {count} named seasons" in listing
    everything = page(client, "/seasons/?all=1")
    assert len(re.findall(r'href="/seasons/Day%20\d+"', everything)) == 60
    assert len(re.findall(r'/forget"', everything)) == count
    assert "Most wins" in page(client, "/seasons/Day%20420")


def test_a_thousand_named_seasons_leave_every_page_that_lists_them_up(either):
    pages_listing_seasons(either, either.test_client(), 1000)


def test_ten_thousand_named_seasons_leave_every_page_that_lists_them_up(app, client):
    pages_listing_seasons(app, client, 10_000)


def test_a_season_cut_into_a_thousand_pieces_leaves_its_pages_up(either):
    """A long season with 1,000 one-day seasons named inside it on alternate days holds
    about 1,000 separate stretches of days: each of its pages still answers, counting the
    games of its own days only (the weekly nights on an odd day from 1 Jan 2016)."""
    app, client = either, either.test_client()
    fill(app, NIGHTS, hands=3, ended=True)
    with app.app_context():
        db.session.add(Season(name="Long", first_day=date(2016, 1, 1),
                              last_day=date(2099, 12, 31)))
        db.session.flush()
        db.session.execute(insert(Season), [
            {"name": f"Day {n}", "first_day": date(2016, 1, 1) + timedelta(days=2 * n),
             "last_day": date(2016, 1, 1) + timedelta(days=2 * n)} for n in range(1000)])
        ratings.rebuild()
        db.session.commit()
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
    # Fridays from 8 Jan 2016, a week apart: every other one falls on an even day, inside
    # one of the short seasons; Long keeps the other 30 nights, their 60 games.
    for asked in ("", "?season=Long"):
        assert "30 game nights" in page(client, f"/history/{asked}"), asked
        assert "Ann 60 games" in text(page(client, f"/players{asked}")), asked
        assert "60 games" in text(page(client, f"/players/{ann}{asked}")), asked
        assert "Ben" in page(client, f"/players/{ann}/more{asked}"), asked
    season = text(page(client, "/seasons/Long"))
    assert re.search(r"Most wins .* Ann 60 \d+ ", season)
    assert "Penalty points ratings" in season and "Most kings left in one hand" in season
    assert "Long" in page(client, "/seasons/")
    # One of the short seasons holds one night, its two games.
    assert "Ann 2 games" in text(page(client, "/players?season=Day%207"))
    assert "1 game night" in page(client, "/history/?season=Day%207")
    # Read in as many statements as a season of one stretch of days: not one a stretch.
    for where in ("/seasons/{}", f"/players/{ann}/more?season={{}}", "/history/?season={}"):
        assert (statements(app, client, where.format("Long"))
                == statements(app, client, where.format("Day%207"))), where


def statements(app, client, path: str) -> int:
    """Return how many statements a page runs."""
    seen: list[str] = []

    def listener(*args) -> None:
        seen.append(args[2])

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", listener)
        try:
            page(client, path)
        finally:
            event.remove(db.engine, "before_cursor_execute", listener)
    return len(seen)


def test_a_season_s_best_ratings_rank_by_the_number_provisional_ones_too(app, client):
    """Ben, settled, has lost 12 games to Ann; Cy, provisional, has beaten Ben twice: Cy's
    higher number comes before Ben's, marked provisional, and the page says why."""
    for day in range(1, 13):
        import_log(app, "penalty", ["Ann", "Ben"], [
            {"went_out": "Ann", "hands": {"Ben": {"cards": 25}}}], f"2017-03-{day:02d}")
    for day in range(13, 15):
        import_log(app, "penalty", ["Cy", "Ben"], [
            {"went_out": "Cy", "hands": {"Ben": {"cards": 25}}}], f"2017-03-{day:02d}")
    html = page(client, "/seasons/2017")
    ladder = re.findall(r'<li><span class="who">(\w+)</span> <b>(\d+)</b>'
                        r'( <small class="muted">provisional</small>)?', html)
    assert [(name, bool(provisional)) for name, _, provisional in ladder] == [
        ("Ann", False), ("Cy", True), ("Ben", False)]
    figures = [int(figure) for _, figure, _ in ladder]
    assert figures == sorted(figures, reverse=True)
    assert "highest first, provisional ones too" in html
