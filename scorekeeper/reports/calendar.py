"""Seasons: a calendar year, unless the table names its own (a name, a first and a last day).

A day in a named season belongs to it; of two named seasons that overlap, the one that began
later holds the days they share (a Christmas cup inside a winter league), so every day is in
exactly one season. A season's days are therefore runs of days (a year with a named season
inside it is the days before and the days after), and a page seen for a season reads the
games played on those days: with one condition, "the season holding the day is this one"
(db.named_seasons.in_season), however many runs of days a season is cut into.

History, the roster and each player's page are seen for one season or for all time; the
season shown unless another is asked for is the current one (the one today falls in), or,
while it has no game yet, the newest season that has.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import select

from ..db.models import Game, Season
from ..db.named_seasons import ALL, is_year, latest_each_year, year_of
from ..extensions import db

ONE_DAY = timedelta(days=1)
Days = tuple[tuple[date, date], ...]  # runs of days, each from its first to its last


@dataclass(frozen=True)
class NamedSeason:
    """A season the table named, from its first day to its last, both counted."""

    name: str
    first_day: date
    last_day: date
    id: int = 0  # the later named of two begun the same day holds the days they share


class Calendar:
    """The named seasons laid on the calendar: the runs of days each one holds, oldest
    first, worked out once (a sweep over the days where some named season begins or ends),
    so that finding a day's season or a season's days does not read every named season."""

    def __init__(self, named: Sequence[NamedSeason] = ()) -> None:
        self.named = {season.name: season for season in named}
        self.runs: list[tuple[date, date, str]] = []  # each run's first and last day, holder
        order = sorted((season.first_day, index) for index, season in enumerate(named)
                       if season.first_day <= season.last_day)
        cuts = sorted({day for season in named
                       for day in (season.first_day, season.last_day + ONE_DAY)})
        holding: list[tuple[int, int]] = []  # (-first day, -index): the later begun on top
        begun = 0
        for start, end in zip(cuts, cuts[1:]):
            while begun < len(order) and order[begun][0] <= start:
                first, index = order[begun]
                heapq.heappush(holding, (-first.toordinal(), -index))
                begun += 1
            while holding and named[-holding[0][1]].last_day < start:
                heapq.heappop(holding)  # ended: the one begun before it holds again
            if not holding:
                continue
            name = named[-holding[0][1]].name
            if self.runs and self.runs[-1][2] == name and self.runs[-1][1] + ONE_DAY == start:
                self.runs[-1] = (self.runs[-1][0], end - ONE_DAY, name)
            else:
                self.runs.append((start, end - ONE_DAY, name))
        self._firsts = [first for first, _, _ in self.runs]

    def named_at(self, day: date) -> str | None:
        """Return the named season that holds a day, or None (the day is its year's)."""
        at = bisect.bisect_right(self._firsts, day) - 1
        return self.runs[at][2] if at >= 0 and day <= self.runs[at][1] else None

    def season_of(self, day: date) -> str:
        """Return the season a day falls in: the named season that holds it, else its year."""
        return self.named_at(day) or str(day.year)

    def days_of(self, name: str) -> Days:
        """Return a season's days as runs of days, oldest first (none for a season that does
        not exist, or whose every day a later named season holds)."""
        if not is_year(name):
            if name not in self.named:
                return ()
            return tuple((first, last) for first, last, holder in self.runs if holder == name)
        start, end = date(int(name), 1, 1), date(int(name), 12, 31)
        days, day = [], start
        for first, last, _ in self.runs[max(bisect.bisect_right(self._firsts, start) - 1, 0):]:
            if first > end:
                break
            if last < day:
                continue
            if first > day:
                days.append((day, first - ONE_DAY))
            day = last + ONE_DAY
        if day <= end:
            days.append((day, end))
        return tuple(days)


    def shown(self, name: str) -> Shown:
        """Return a season as a page is seen for it: its days, and its rank among the
        seasons that hold days (a year's below every named season's)."""
        season = self.named.get(name) if not is_year(name) else None
        rank = (season.first_day, season.id) if season else (date.min, 0)
        return Shown(name, self.days_of(name), rank)


def season_of(day: date, named: Sequence[NamedSeason] = ()) -> str:
    """Return the name of the season a day falls in: a named season that holds it (of two
    that overlap, the one that began later, then the later named in the list), else its
    calendar year ("2026")."""
    return Calendar(named).season_of(day)


def days_of(name: str, named: Sequence[NamedSeason] = ()) -> Days:
    """Return the days of a season as runs of days, oldest first (none for a season that
    does not exist, or whose every day a later named season holds)."""
    return Calendar(named).days_of(name)


@dataclass(frozen=True)
class Shown:
    """The season a page is seen for: its key in a link ("2026", a named season's name, or
    "all"), its days (None for all time) and its rank among the seasons that may hold a day
    (its first day and id; a year's below every named season's)."""

    key: str
    days: Days | None
    rank: tuple[date, int] = (date.min, 0)

    @property
    def all_time(self) -> bool:
        return self.days is None

    @property
    def span(self) -> tuple[date, date] | None:
        """Its first and last day (None for all time; a season of no days: none between)."""
        if self.days is None:
            return None
        return (self.days[0][0], self.days[-1][1]) if self.days else (date.max, date.min)

    @property
    def bound(self) -> dict | None:
        """The values a statement narrowed to it is run with (db.named_seasons.in_season); None
        for all time."""
        if self.span is None:
            return None
        first, last = self.span
        return {"season_first": first, "season_last": last,
                "season_until": last + ONE_DAY, "season_begun": self.rank[0],
                "season_rank": self.rank[1]}


EVERYTHING = Shown(ALL, None)


def named(session=None) -> list[NamedSeason]:
    """Return the seasons the table named, in the order they were named: asked by a write
    through its own session, so a season named and not yet flushed is seen."""
    return [NamedSeason(*row) for row in (session or db.session).execute(
        select(Season.name, Season.first_day, Season.last_day, Season.id)
        .order_by(Season.id)).all()]


def _years():
    """Return the statement of the years with games: each year's latest day with a game,
    found in the index on `game.played_on` (db.named_seasons.latest_each_year), a row a year."""
    latest = latest_each_year(Game, "played_on", lambda game: game.played_on.is_not(None))
    return select(year_of(latest.c.at)).where(latest.c.at.is_not(None))


_YEARS = _years()  # built once (docs/performance.md)


def played(names: Sequence[NamedSeason], calendar: Calendar | None = None) -> list[str]:
    """Return the seasons that hold a game, newest first, from the days games were played on
    (read from an index). With no named season, each year's latest day is found in the
    index, a row a year; with some, every day games were played on is read (a row a day,
    however many seasons are named: the statement does not grow with them) and put in the
    season that holds it."""
    held: dict[str, date] = {}
    if not names:
        years = db.session.execute(_YEARS).scalars()
        return [str(year) for year in sorted(years, reverse=True)]
    calendar = calendar or Calendar(names)
    days = select(Game.played_on).where(Game.played_on.is_not(None)).group_by(Game.played_on)
    for day in db.session.execute(days).scalars():
        season = calendar.season_of(day)
        held[season] = max(held.get(season, day), day)
    return sorted(held, key=lambda season: held[season], reverse=True)


@dataclass(frozen=True)
class Choice:
    """What a page offers to be seen for: the seasons that hold games (newest first), the
    one shown, and the current one (today's)."""

    shown: Shown
    seasons: tuple[str, ...]
    current: str
    usual: str  # the season shown when none is asked for
    calendar: Calendar  # the seasons the table named, as read for the page


def choose(asked: str | None, today: date | None = None) -> Choice | None:
    """Return the season a page asked for (`?season=`) is seen for: a season's key, "all",
    or nothing for the usual one (the current season, or the newest with games while the
    current has none). None when no such season exists."""
    names = named()
    calendar = Calendar(names)
    seasons = played(names, calendar)
    current = calendar.season_of(today or date.today())
    usual = current if current in seasons or not seasons else seasons[0]
    if asked is None or asked == "":
        key = usual
    elif asked == ALL:
        return Choice(EVERYTHING, tuple(seasons), current, usual, calendar)
    else:
        key = asked
        if key not in seasons and key != current and key not in calendar.named:
            return None
    return Choice(calendar.shown(key), tuple(seasons), current, usual, calendar)
