"""Seasons: every day in exactly one season, a named season's days carved out of its year,
and the season a page shows unless asked (the current one, else the newest with games)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete

from scorekeeper.db.models import Game
from scorekeeper.extensions import db
from scorekeeper.reports import calendar
from scorekeeper.reports.calendar import NamedSeason, days_of, season_of
from tests.helpers import finished

WINTER = NamedSeason("Winter league", date(2025, 11, 1), date(2026, 2, 28))
CUP = NamedSeason("Christmas cup", date(2025, 12, 20), date(2026, 1, 5))


def test_a_year_is_a_season_of_its_own_days():
    assert days_of("2024") == ((date(2024, 1, 1), date(2024, 12, 31)),)
    assert season_of(date(2024, 7, 1)) == "2024"
    assert days_of("Winter league") == ()  # not named: no such season


def test_a_named_season_takes_its_days_from_the_years_and_a_later_one_inside_it_from_it():
    named = [WINTER, CUP]
    assert days_of("2025", named) == ((date(2025, 1, 1), date(2025, 10, 31)),)
    assert days_of("2026", named) == ((date(2026, 3, 1), date(2026, 12, 31)),)
    # The cup began later, inside the league: the league is the days either side of it.
    assert days_of("Winter league", named) == ((date(2025, 11, 1), date(2025, 12, 19)),
                                               (date(2026, 1, 6), date(2026, 2, 28)))
    assert days_of("Christmas cup", named) == ((date(2025, 12, 20), date(2026, 1, 5)),)
    assert season_of(date(2025, 12, 25), named) == "Christmas cup"
    assert season_of(date(2026, 1, 6), named) == "Winter league"


def test_a_season_wholly_inside_a_later_one_has_no_days_left():
    inner = NamedSeason("Inner", date(2026, 3, 1), date(2026, 3, 2))
    later = NamedSeason("Later", date(2026, 3, 1), date(2026, 3, 31))
    assert days_of("Inner", [inner, later]) == ()  # same first day: the later named wins
    assert days_of("Later", [inner, later]) == ((date(2026, 3, 1), date(2026, 3, 31)),)


starts = st.dates(date(2024, 1, 1), date(2026, 12, 31))
named_seasons = st.lists(st.tuples(starts, st.integers(0, 400)), max_size=4).map(
    lambda spans: [NamedSeason(f"S{i}", first, first + timedelta(days=length))
                   for i, (first, length) in enumerate(spans)])


@given(named_seasons)
def test_every_day_is_in_exactly_the_season_that_holds_it(named):
    """Whatever the table names, each day from 2024 to 2027 falls in the runs of days of one
    season only, the one season_of names."""
    keys = {"2024", "2025", "2026", "2027", "2028"} | {season.name for season in named}
    held: dict[date, list[str]] = {}
    for key in keys:
        runs = days_of(key, named)
        assert all(first <= last for first, last in runs)
        assert all(one[1] + timedelta(days=1) < other[0] for one, other in zip(runs, runs[1:]))
        for first, last in runs:
            day = first
            while day <= last:
                held.setdefault(day, []).append(key)
                day += timedelta(days=1)
    day = date(2024, 1, 1)
    while day <= date(2027, 12, 31):
        assert held.get(day) == [season_of(day, named)], day
        day += timedelta(days=1)


many_seasons = st.lists(st.tuples(starts, st.integers(0, 400)), max_size=14).map(
    lambda spans: [NamedSeason(f"S{i}", first, first + timedelta(days=length))
                   for i, (first, length) in enumerate(spans)])


@given(many_seasons, st.lists(starts, min_size=1, max_size=20))
def test_a_day_s_season_is_the_latest_begun_of_those_that_hold_it(named, days):
    """The calendar laid out once gives each day the season the rule names: of the named
    seasons that hold it, the one that began later, then the later named; else its year."""
    laid = calendar.Calendar(named)
    for day in days:
        holding = [(s.first_day, i, s.name) for i, s in enumerate(named)
                   if s.first_day <= day <= s.last_day]
        assert laid.season_of(day) == (max(holding)[2] if holding else str(day.year))


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield app


def test_the_season_shown_is_todays_else_the_newest_with_games(ctx):
    assert calendar.choose(None, today=date(2026, 5, 1)).shown.key == "2026"  # nothing yet
    finished([["Ann"], ["Ben"]], on=date(2024, 6, 1))
    finished([["Ben"], ["Ann"]], on=date(2025, 6, 1))
    choice = calendar.choose(None, today=date(2026, 5, 1))
    assert choice.shown.key == "2025" and choice.seasons == ("2025", "2024")
    assert choice.current == "2026" and choice.usual == "2025"
    finished([["Ann"], ["Ben"]], on=date(2026, 2, 1))
    assert calendar.choose(None, today=date(2026, 5, 1)).shown.key == "2026"
    assert calendar.choose("2024", today=date(2026, 5, 1)).shown.days == (
        (date(2024, 1, 1), date(2024, 12, 31)),)
    assert calendar.choose("all").shown.all_time
    assert calendar.choose("2019") is None and calendar.choose("Nope") is None


game_days = st.lists(st.dates(date(2019, 1, 1), date(2027, 12, 31)), max_size=12)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game_days, named_seasons)
def test_the_seasons_with_games_are_those_of_the_days_played(ctx, days, named):
    """Each year's latest day is found in the index, a year at a time, past the days named
    seasons hold: the seasons listed are those of the days games were played on, the season
    with the latest game first, whatever the gaps between the years."""
    db.session.execute(delete(Game))
    db.session.add_all(Game(variant="penalty", settings={}, played_on=day) for day in days)
    db.session.flush()
    latest: dict[str, date] = {}
    for day in days:
        key = season_of(day, named)
        latest[key] = max(latest.get(key, day), day)
    assert calendar.played(named) == sorted(latest, key=latest.get, reverse=True)
    db.session.rollback()
