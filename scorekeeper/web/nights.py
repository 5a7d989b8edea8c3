"""What history shows of game nights: the list of nights by month, the row of years and
pages, and a night's games with their standings, as plain data for history's templates."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import variants
from ..reports import history
from ..variants.standings import places
from ..words import month as month_of
from .pages import link


@dataclass(frozen=True)
class Month:
    """The nights of a month on a page of the list, newest first."""

    said: str  # "November 2026"
    nights: list[history.NightLine]


def listed_months(lines: Sequence[history.NightLine]) -> list[Month]:
    """Return a page of the list of nights grouped by month."""
    months: list[Month] = []
    shown_month = None
    for line in lines:
        started = line.night.started_at
        if (started.year, started.month) != shown_month:
            shown_month = (started.year, started.month)
            months.append(Month(month_of(started), []))
        months[-1].nights.append(line)
    return months


@dataclass(frozen=True)
class YearLink:
    """A year in the row of years of the list of nights: its link, and whether the page
    shown is the one it leads to."""

    year: int
    href: str
    current: bool


def year_links(years: Sequence[tuple[int, int]], page: int, season: str | None
               ) -> list[YearLink]:
    """Return the links to the page where each year's nights begin (the link built once)."""
    before, after = link("history.index", "page", season=season)
    return [YearLink(year, f"{before}{first}{after}", first == page) for year, first in years]


@dataclass(frozen=True)
class Pages:
    """Which page of the list of nights this is, of how many, and the links to the pages
    either side (None at either end)."""

    page: int
    last: int
    total: int  # nights listed in all
    newer: str | None
    older: str | None

    @classmethod
    def of(cls, page: int, last: int, total: int, season: str | None) -> Pages:
        """Return the pages of a list of `total` nights seen for a season, on `page`."""
        before, after = link("history.index", "page", season=season)
        return cls(page, last, total, f"{before}{page - 1}{after}" if page > 1 else None,
                   f"{before}{page + 1}{after}" if page < last else None)


@dataclass(frozen=True)
class NightGame:
    """A game of a night's page: its variant and settings in words, and its standings."""

    id: int
    label: str  # "Chip pot"
    readable: bool  # the rules accept it as stored
    about: str  # "House set · 500 each · 20 hands"
    over: bool
    winners: list[str]
    standings: list[dict[str, Any]]  # place, name, total and its unit, won, lead


def night_games(games: Sequence[history.GameSummary]) -> list[NightGame]:
    """Return a night's games as its page shows them."""
    shown = []
    for game in games:
        home = variants.get(game.variant)
        if not game.readable:
            shown.append(NightGame(game.id, home.label, False, "", False, [], []))
            continue
        ranked = places([standing.total for standing in game.standings])
        standings = [{"place": place, "name": standing.name, "total": standing.total,
                      "unit": home.unit(game.settings, standing.total), "won": standing.won,
                      "lead": index == 0 and not game.over}
                     for index, (place, standing) in enumerate(zip(ranked, game.standings))]
        shown.append(NightGame(
            game.id, home.label, True,
            f"{home.summary(game.settings)} · {home.rounds(game.rounds)}", game.over,
            list(game.winners), standings))
    return shown
