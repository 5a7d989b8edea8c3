"""Seasons: a calendar year, unless the table names its own (a name, a first and a last day).

A day in a named season belongs to it; of two named seasons that overlap, the one that began
later holds the days they share (a Christmas cup inside a winter league), so every day is in
exactly one season. A season's days are therefore a few runs of days (a year with a named
season inside it is the days before and the days after), and a page seen for a season reads
the games played on those days.

History, the roster and each player's page are seen for one season or for all time; the
season shown unless another is asked for is the current one (the one today falls in), or,
while it has no game yet, the newest season that has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import false, not_, or_, select

from ..db.models import Game, Season
from ..db.seasons import ALL, is_year, latest_each_year
from ..extensions import db

ONE_DAY = timedelta(days=1)
Days = tuple[tuple[date, date], ...]  # runs of days, each from its first to its last


@dataclass(frozen=True)
class NamedSeason:
    """A season the table named, from its first day to its last, both counted."""

    name: str
    first_day: date
    last_day: date


def season_of(day: date, named: Sequence[NamedSeason] = ()) -> str:
    """Return the name of the season a day falls in: a named season that holds it (of two
    that overlap, the one that began later, then the later named in the list), else its
    calendar year ("2026")."""
    holding = [(season.first_day, index, season.name) for index, season in enumerate(named)
               if season.first_day <= day <= season.last_day]
    return max(holding)[2] if holding else str(day.year)


def days_of(name: str, named: Sequence[NamedSeason] = ()) -> Days:
    """Return the days of a season as runs of days, oldest first (none for a season that
    does not exist, or whose every day a later named season holds).

    Within the span a season could hold (its year, or its named first to last day), the
    season that holds a day changes only where some named season begins or ends, so each
    stretch between two such days is asked once."""
    spans = [(season.first_day, season.last_day) for season in named if season.name == name]
    if is_year(name):
        spans.append((date(int(name), 1, 1), date(int(name), 12, 31)))
    runs: list[list[date]] = []
    for first, last in spans:
        cuts = {first, last + ONE_DAY}
        for season in named:
            cuts.update(day for day in (season.first_day, season.last_day + ONE_DAY)
                        if first < day <= last)
        edges = sorted(cuts)
        for start, end in zip(edges, edges[1:]):
            if season_of(start, named) != name:
                continue
            if runs and runs[-1][1] + ONE_DAY >= start:
                runs[-1][1] = max(runs[-1][1], end - ONE_DAY)
            else:
                runs.append([start, end - ONE_DAY])
    return tuple((first, last) for first, last in runs)


def on_days(column, days: Days):
    """Return the condition that a date column falls on one of these days."""
    return or_(*(column.between(first, last) for first, last in days)) if days else false()


@dataclass(frozen=True)
class Shown:
    """The season a page is seen for: its key in a link ("2026", a named season's name, or
    "all"), and its days (None for all time)."""

    key: str
    days: Days | None

    @property
    def all_time(self) -> bool:
        return self.days is None

    @property
    def span(self) -> tuple[date, date] | None:
        """Its first and last day (None for all time; a season of no days: none between)."""
        if self.days is None:
            return None
        return (self.days[0][0], self.days[-1][1]) if self.days else (date.max, date.min)

    def games(self):
        """The condition that a game is in it (None for all time: every game is)."""
        return None if self.days is None else on_days(Game.played_on, self.days)


EVERYTHING = Shown(ALL, None)


# Built once: every page seen for a season asks. A write asks through its session, so a
# season named and not yet flushed is seen.
_NAMED = select(Season.name, Season.first_day, Season.last_day).order_by(Season.id)


def named(session=None) -> list[NamedSeason]:
    """Return the seasons the table named, in the order they were named: asked by a page,
    through its connection (a page names none); by a write, through its session."""
    run = db.session.connection().execute if session is None else session.execute
    return [NamedSeason(*row) for row in run(_NAMED).all()]


_DAYS = select(Game.played_on.label("day")).group_by(Game.played_on)  # ix_game_played_on


def _latest_each_year(outside=None):
    """Return the statement of each year's latest day with a game (outside the named
    seasons' days, when given as a function of the date column), newest first, each found
    in the index on `game.played_on` (db.seasons.latest_each_year)."""
    def kept(game):
        return (game.played_on.is_not(None) if outside is None
                else outside(game.played_on))

    latest = latest_each_year(Game, "played_on", kept)
    return select(latest.c.at).where(latest.c.at.is_not(None))


_YEARS = _latest_each_year()


def _as_date(day) -> date:
    return day if isinstance(day, date) else date.fromisoformat(str(day))  # SQLite: text


def played(names: Sequence[NamedSeason]) -> list[str]:
    """Return the seasons that hold a game, newest first, from the days games were played on
    (read from an index): a day a named season's first to last day holds is that season's
    (worked out here, day by day: few), any other its year's (each year's latest day found
    in the index, a row a year). Games are written, and committed, by play.py before a page
    reads them: read as the driver's rows, through the connection."""
    held: dict[str, date] = {}
    run = db.session.connection().execute
    years = _YEARS
    if names:
        spans = [(s.first_day, s.last_day) for s in names]
        for day in run(_DAYS.where(on_days(Game.played_on, spans))).scalars().all():
            day = _as_date(day)
            season = season_of(day, names)
            held[season] = max(held.get(season, day), day)
        years = _latest_each_year(lambda column: not_(on_days(column, spans)))
    for day in run(years).scalars().all():
        day = _as_date(day)
        held[str(day.year)] = day
    return sorted(held, key=lambda season: held[season], reverse=True)


@dataclass(frozen=True)
class Choice:
    """What a page offers to be seen for: the seasons that hold games (newest first), the
    one shown, and the current one (today's)."""

    shown: Shown
    seasons: tuple[str, ...]
    current: str
    usual: str  # the season shown when none is asked for
    names: tuple[NamedSeason, ...]  # the seasons the table named, as read for the page


def choose(asked: str | None, today: date | None = None) -> Choice | None:
    """Return the season a page asked for (`?season=`) is seen for: a season's key, "all",
    or nothing for the usual one (the current season, or the newest with games while the
    current has none). None when no such season exists."""
    names = named()
    seasons = played(names)
    current = season_of(today or date.today(), names)
    usual = current if current in seasons or not seasons else seasons[0]
    if asked is None or asked == "":
        key = usual
    elif asked == ALL:
        return Choice(EVERYTHING, tuple(seasons), current, usual, tuple(names))
    else:
        key = asked
        if key not in seasons and key != current and not any(s.name == key for s in names):
            return None
    return Choice(Shown(key, days_of(key, names)), tuple(seasons), current, usual,
                  tuple(names))
