"""The seasons the table names itself: each checked as typed, then kept in `season`.

A day in no named season is in its calendar year's season, so a name cannot be a year's
("2026"), nor "all" (all time, in a link). Dates are typed as a phone's date field sends
them (2026-12-31).
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import Date, Integer, bindparam, exists, extract, func, select, tuple_
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import aliased
from sqlalchemy.sql.functions import FunctionElement

from .. import rules
from ..extensions import db
from .models import Season
from .nights import clean_text

NAME_MAX = 40
ALL = "all"  # the key of "all time" in a link (?season=all): no season may be called it


def is_year(name: str) -> bool:
    """Tell whether a season's key is a calendar year's ("2026")."""
    return len(name) == 4 and name.isascii() and name.isdigit()


def clean_season_name(raw: str | None, field: str = "name") -> str:
    """Return a season's name trimmed, or raise RuleError naming the field."""
    name = clean_text(raw, NAME_MAX, field, one_line=True)
    if name is None:
        raise rules.RuleError("cannot be empty", field)
    if is_year(name):
        raise rules.RuleError("cannot be a year: every year is a season of its own already",
                              field)
    if "/" in name:
        raise rules.RuleError("cannot hold a slash (/)", field)
    if name.casefold() == ALL:
        raise rules.RuleError("cannot be “%(name)s”, the word a link uses for all time", field,
                              name=name)
    return name


def clean_day(raw: str | None, field: str) -> date:
    """Return a typed day (2026-12-31), or raise RuleError naming the field."""
    text = (raw or "").strip()
    if not text:
        raise rules.RuleError("cannot be empty", field)
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise rules.RuleError("is not a date like 2026-12-31", field) from None
    if not 1900 <= day.year <= 2999:
        raise rules.RuleError("must be between the years 1900 and 2999", field)
    return day


def add(name: str | None, first: str | None, last: str | None, where: str = "") -> Season:
    """Name a season from its first day to its last (not committed); raise RuleError naming
    the first field that is wrong (after `where`: a restore says which of a backup's)."""
    cleaned = clean_season_name(name, f"{where}name")
    first_day = clean_day(first, f"{where}first_day")
    last_day = clean_day(last, f"{where}last_day")
    if last_day < first_day:
        raise rules.RuleError("is before the first day", f"{where}last_day")
    taken = db.session.scalar(select(Season.name).where(
        func.lower(Season.name) == cleaned.lower()))
    if taken is not None:
        raise rules.RuleError("“%(name)s” is already a season", f"{where}name", name=taken)
    season = Season(name=cleaned, first_day=first_day, last_day=last_day)
    db.session.add(season)
    db.session.flush()
    return season


def remove(season_id: int) -> str | None:
    """Forget a named season (not committed): its days go back to their years. Return its
    name, or None when it was not there."""
    season = db.session.get(Season, season_id)
    if season is None:
        return None
    db.session.delete(season)
    db.session.flush()
    return season.name


def listed(limit: int | None = None) -> list[Season]:
    """Return the named seasons, the latest to begin first (the first `limit` of them)."""
    return list(db.session.scalars(select(Season).order_by(Season.first_day.desc(),
                                                           Season.id.desc()).limit(limit)))


def count() -> int:
    """Return how many seasons the table named."""
    return db.session.scalar(select(func.count()).select_from(Season))


class year_start(FunctionElement):  # noqa: N801 (an SQL function, named as one)
    """The first day of a date's year, in SQL: lets an index find the latest day before it."""

    type = Date()
    inherit_cache = True


@compiles(year_start, "sqlite")
def _year_start_sqlite(element, compiler, **kw) -> str:
    return f"substr({compiler.process(element.clauses, **kw)}, 1, 4) || '-01-01'"


@compiles(year_start)
def _year_start(element, compiler, **kw) -> str:
    return f"CAST(date_trunc('year', {compiler.process(element.clauses, **kw)}) AS DATE)"


class year_of(FunctionElement):  # noqa: N801 (an SQL function, named as one)
    """The year of a date and time, as a number: EXTRACT(YEAR FROM ...)."""

    type = Integer()
    inherit_cache = True


@compiles(year_of)
def _year_of(element, compiler, **kw):
    return compiler.process(extract("year", *element.clauses), **kw)


@compiles(year_of, "sqlite")
def _year_of_in_sqlite(element, compiler, **kw):
    # SQLite keeps a date and time as SQLAlchemy writes it, "2026-11-21 20:00:00.000000":
    # its first four characters are the year, read without parsing it as strftime would.
    return f"CAST(substr({compiler.process(element.clauses, **kw)}, 1, 4) AS INTEGER)"


class day_of(FunctionElement):  # noqa: N801 (an SQL function, named as one)
    """The day of a date and time, as a date."""

    type = Date()
    inherit_cache = True


@compiles(day_of)
def _day_of(element, compiler, **kw) -> str:
    return f"CAST({compiler.process(element.clauses, **kw)} AS DATE)"


@compiles(day_of, "sqlite")
def _day_of_in_sqlite(element, compiler, **kw) -> str:
    # "2026-11-21 20:00:00.000000" as SQLAlchemy writes it: its first ten characters are
    # the day, as a date is kept.
    return f"substr({compiler.process(element.clauses, **kw)}, 1, 10)"


# The season a statement is narrowed to, bound when it runs (reports.seasons.Shown.bound):
# its first and last day (and the day after it), and its rank among the seasons that may
# hold a day, (first day, id): a named season's own, a year's below every named season's.
FIRST, LAST, UNTIL, BEGUN, RANK = (
    bindparam("season_first", type_=Date()), bindparam("season_last", type_=Date()),
    bindparam("season_until", type_=Date()), bindparam("season_begun", type_=Date()),
    bindparam("season_rank", type_=Integer()))


def _held_above(day):
    """Return the condition that a named season ranked above the one bound holds a day (a
    date in SQL): one begun later, or the same day and named later; for a year, any."""
    other = aliased(Season)
    return exists().where(other.first_day <= day, other.last_day >= day,
                          tuple_(other.first_day, other.id) > tuple_(BEGUN, RANK))


def in_season(day):
    """Return the condition that a date column's day is in the season bound: between its
    first and last day, and held by no named season ranked above it. One condition however
    many stretches of days the season is cut into, and however many seasons are named."""
    return day.between(FIRST, LAST) & ~_held_above(day)


def began_in_season(moment):
    """Return the condition that a date and time column's day is in the season bound (the
    range read along the column's index, as a date and time)."""
    return (moment >= FIRST) & (moment < UNTIL) & ~_held_above(day_of(moment))


def latest_each_year(model, column: str, kept):
    """Return a recursive CTE of each year's latest `model.column` among the rows `kept`
    (a function of the model or an alias of it, giving a condition), newest first, in its
    column `at` (None once there is no earlier year): the latest, then the latest before
    its year began, and so on, each found in an index on the column (a row a year read, not
    a row a game or a night). The seasons with games and history's years both ask it."""
    latest = (select(func.max(getattr(model, column)).label("at")).where(kept(model))
              .cte("latest", recursive=True))
    earlier = aliased(model)
    before = (select(func.max(getattr(earlier, column)))
              .where(getattr(earlier, column) < year_start(latest.c.at), kept(earlier))
              .scalar_subquery())
    return latest.union_all(select(before).where(latest.c.at.is_not(None)))
