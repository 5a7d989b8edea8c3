"""History's list of nights: the nights it lists, a page of them at a time, newest first,
and how many each year holds (the page each year begins on), of all time or of a season's
days. The statements are built once, the season bound when they run."""

from __future__ import annotations

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import aliased

from ..extensions import db
from .models import Night
from .named_seasons import began_in_season, latest_each_year, year_of, year_start
from .nights import ROW, listed

NEWEST_FIRST = (Night.started_at.desc(), Night.id.desc())


def _page(season: bool):
    """Return the statement reading a page of the nights listed as plain columns (ROW), of
    all time or of the season bound (db.named_seasons.in_season)."""
    query = select(*ROW).where(listed(Night))
    if season:
        query = query.where(began_in_season(Night.started_at))
    return query.order_by(*NEWEST_FIRST).limit(bindparam("limit")).offset(bindparam("offset"))


_PAGE = {False: _page(False), True: _page(True)}


def page_rows(limit: int, offset: int, season: dict | None = None) -> list:
    """Return a page of the nights history lists, newest first, as plain columns (ROW): of
    those that began in a season, if given (its values bound: reports.seasons.Shown.bound)."""
    at = {"limit": limit, "offset": offset, **(season or {})}
    return db.session.execute(_PAGE[season is not None], at).all()


def _each_year():
    """Return the statement of each year's nights listed, newest first: the newest night,
    then the newest before its year began, and so on, each found in the index on
    `night.started_at` (a row a year, as the seasons' days are found), and the nights from
    its year's first day to it counted along the same index: no sort of every night by its
    year."""
    latest = latest_each_year(Night, "started_at", listed)
    inside = aliased(Night)
    nights = (select(func.count()).select_from(inside)
              .where(inside.started_at >= year_start(latest.c.at),
                     inside.started_at <= latest.c.at, listed(inside))
              .scalar_subquery())
    return (select(year_of(latest.c.at), nights).where(latest.c.at.is_not(None))
            .order_by(latest.c.at.desc()))


_EACH_YEAR = _each_year()


_COUNTED = (select(func.count()).select_from(Night)
            .where(listed(Night), began_in_season(Night.started_at)))


def year_pages(per_page: int, season: dict | None = None) -> tuple[list[tuple[int, int]], int]:
    """Return each year with nights and the history page its newest night is on, newest
    first, and how many nights are listed in all; of those that began in a season, if given
    (its values bound): only how many (a season's list has no row of years)."""
    run = db.session.execute
    if season is not None:
        return [], run(_COUNTED, season).scalar_one()
    pages, before = [], 0
    for year, count in run(_EACH_YEAR).all():
        pages.append((int(year), before // per_page + 1))
        before += count
    return pages, before
