"""History's list of nights: the nights it lists, a page of them at a time, newest first,
and how many each year holds (the page each year begins on), of all time or of a season's
days. The statements are built once (once for each number of runs of days a season has)."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from functools import cache

from sqlalchemy import bindparam, func, or_, select
from sqlalchemy.orm import aliased

from ..extensions import db
from .models import Night
from .nights import ROW, listed
from .seasons import latest_each_year, year_of, year_start

NEWEST_FIRST = (Night.started_at.desc(), Night.id.desc())


@cache
def _on_days(runs: int):
    """Return the condition that a night began on one of `runs` runs of days, the Nth from
    `from_N` to before `until_N`."""
    return or_(*((Night.started_at >= bindparam(f"from_{n}"))
                 & (Night.started_at < bindparam(f"until_{n}")) for n in range(runs)))


def _days_bound(days) -> dict[str, datetime]:
    """Return the bounds of runs of days, (first, last) dates, as `_on_days` binds them: from
    the first day's start to the start of the day after the last."""
    bound = {}
    for n, (first, last) in enumerate(days):
        bound[f"from_{n}"] = datetime.combine(first, time())
        bound[f"until_{n}"] = datetime.combine(last + timedelta(days=1), time())
    return bound


@cache
def _page(runs: int | None):
    """Return the statement reading a page of the nights listed as plain columns (ROW), of
    all time (None) or on `runs` runs of days."""
    query = select(*ROW).where(listed(Night))
    if runs is not None:
        query = query.where(_on_days(runs))
    return query.order_by(*NEWEST_FIRST).limit(bindparam("limit")).offset(bindparam("offset"))


def page_rows(limit: int, offset: int, days=None) -> list:
    """Return a page of the nights history lists, newest first, as plain columns (ROW): of
    those that began on `days` (runs of days, each its first and last date), if given."""
    if days is not None and not days:
        return []
    query = _page(None if days is None else len(days))
    at = {"limit": limit, "offset": offset, **_days_bound(days or ())}
    return db.session.connection().execute(query, at).all()


def _each_year():
    """Return the statement of each year's nights listed, newest first: the newest night,
    then the newest before its year began, and so on, each found in the index on
    `night.started_at` (a row a year, as the seasons' days are found), and the nights from
    its year's first day to it counted along the same index: no sort of every night by its
    year (0.30 -> 0.23 ms at ten years)."""
    latest = latest_each_year(Night, "started_at", listed)
    inside = aliased(Night)
    nights = (select(func.count()).select_from(inside)
              .where(inside.started_at >= year_start(latest.c.at),
                     inside.started_at <= latest.c.at, listed(inside))
              .scalar_subquery())
    return (select(year_of(latest.c.at), nights).where(latest.c.at.is_not(None))
            .order_by(latest.c.at.desc()))


_EACH_YEAR = _each_year()


@cache
def _counted_on(runs: int):
    """Return the statement counting the nights listed on `runs` runs of days."""
    return select(func.count()).select_from(Night).where(listed(Night), _on_days(runs))


def year_pages(per_page: int, days=None) -> tuple[list[tuple[int, int]], int]:
    """Return each year with nights and the history page its newest night is on, newest
    first, and how many nights are listed in all; of those that began on `days` (runs of
    days, each its first and last date), if given: only how many (a season's list has no
    row of years)."""
    run = db.session.connection().execute
    if days is not None:
        return [], run(_counted_on(len(days)), _days_bound(days)).scalar_one() if days else 0
    pages, before = [], 0
    for year, count in run(_EACH_YEAR).all():
        pages.append((int(year), before // per_page + 1))
        before += count
    return pages, before
