"""What history shows of game nights: the lines of the list of nights, and a night's games,
as rows with their links and words worked out once for the page.

A page says the same few words again and again ("4 games", "won by", "pts", the same ten
names): each is looked up once for the page, each link built once and given the id, and
the templates write the rows out as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import get_translations
from markupsafe import Markup, escape

from .. import variants
from ..reports import history
from ..variants.board import places
from ..words import day
from ..words import month as month_of
from .bidi import bdi, bdi_join
from .pages import link


@dataclass(frozen=True)
class Month:
    """The nights of a month on a page of the list, newest first: a line of HTML each."""

    said: str  # "November 2026"
    nights: Markup


def listed_months(lines: Sequence[history.NightLine]) -> list[Month]:
    """Return a page of the list of nights grouped by month, each night's line written here
    as HTML (as a game's board writes its rows: a template's loop over twenty nights cost
    more than working them out): its words said as the template's _() and ngettext say
    them (the sentence as markup, its numbers put in), the names isolated and joined."""
    if not lines:
        return []
    say = get_translations()
    before, after = map(escape, link("history.night", "night_id"))
    # The same few names fill a page: each isolated once. A line is joined as plain text,
    # every part of it markup already (a name escaped and isolated by bdi, a word from the
    # catalogue with only numbers put in) or escaped here.
    names = {name: str(bdi(name)) for name in {n for line in lines for n in line.players}}
    nobody = Markup(say.ugettext("No games")) % {}
    won_by = Markup(say.ugettext("won by")) % {}
    counted: dict[int, str] = {}
    months: list[tuple[str, list[str]]] = []
    shown_month = None
    for line in lines:
        night = line.night
        said = counted.get(line.games)
        if said is None:
            said = counted[line.games] = Markup(say.ungettext(
                "%(num)d game", "%(num)d games", line.games)) % {"num": line.games}
        if line.wins:
            said = f'{said} · <span class="wins">{won_by} ' + ", ".join(
                f"<b>{names[name]}</b> ×{count}" if count > 1 else f"<b>{names[name]}</b>"
                for name, count in line.wins) + "</span>"
        if line.unfinished:
            said = f"{said} · " + str(Markup(say.ugettext("%(num)s unfinished")) % {
                "num": line.unfinished})
        if line.broken:
            said = f"{said} · " + str(Markup(say.ungettext(
                "%(num)d needs repair", "%(num)d need repair", line.broken)) % {
                "num": line.broken})
        started = night.started_at
        if (started.year, started.month) != shown_month:
            shown_month = (started.year, started.month)
            months.append((month_of(started), []))
        named = f' <span class="name">{escape(night.name)}</span>' if night.name else ""
        players = " · ".join([names[name] for name in line.players]) if line.players else nobody
        months[-1][1].append(
            f'\n  <li><a href="{before}{night.id}{after}" data-night="{night.id}">'
            f'\n    <span class="when"><b>{escape(day(started))}</b>{named}</span>'
            f'\n    <span class="players">{players}</span>'
            f'\n    <span class="games">{said}</span>\n  </a></li>')
    return [Month(month, Markup("".join(nights))) for month, nights in months]


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
    """A game of a night's page, with its words and links worked out for the page."""

    id: int
    eyebrow: Markup  # "Game 2 · Chip pot"
    readable: bool  # the rules accept it as stored
    about: Markup  # "House set · 500 each · 20 hands"
    over: bool
    won: Markup  # "Ann wins", "Ann & Ben win"
    standings: Markup  # a line of HTML for each player: place, name, total and its unit
    href: str  # its page, hand by hand
    scoreboard: str


def night_games(games: Sequence[history.GameSummary]) -> list[NightGame]:
    """Return a night's games as its page shows them: each sentence said as the template's
    _() and ngettext say it (the sentence as markup, what is put in escaped); a variant's
    name, its settings and rounds in words, and each name, worked out once for the page;
    the standings written here as HTML (a template's loop over each player of each game
    cost more than working them out)."""
    if not games:
        return []
    say = get_translations()
    page = link("history.game", "game_id")
    board = link("games.scoreboard", "game_id")
    numbered = Markup(say.ugettext("Game %(number)s"))
    badge = f' <span class="badge gold">{Markup(say.ugettext("winner")) % {}}</span>'
    plural = say.plural  # the plural form the page's language gives a count
    said: dict[tuple, str] = {}  # what the variants say: the same on every game
    names: dict[str, str] = {}
    shown = []
    for number, game in enumerate(games, start=1):
        home = variants.get(game.variant)
        label = said.get((game.variant,))
        if label is None:
            label = said[game.variant,] = escape(home.label)
        eyebrow = Markup(f"{numbered % {'number': number}} · {label}")
        href = f"{page[0]}{game.id}{page[1]}"
        scoreboard = f"{board[0]}{game.id}{board[1]}"
        if not game.readable:
            shown.append(NightGame(game.id, eyebrow, False, Markup(), False, Markup(),
                                   Markup(), href, scoreboard))
            continue
        frozen = _frozen(game.settings)
        about = said.get((game.variant, frozen, game.rounds)) if frozen else None
        if about is None:
            about = (f"{escape(home.summary(game.settings))} · "
                     f"{escape(home.rounds(game.rounds))}")
            if frozen:
                said[game.variant, frozen, game.rounds] = about
        winners = game.winners
        won = (Markup(say.ungettext("%(names)s wins", "%(names)s win", len(winners)))
               % {"names": bdi_join(winners, " & "), "num": len(winners)}
               if game.over else Markup())
        placed = []
        ranked = places([standing.total for standing in game.standings])
        for index, (place, standing) in enumerate(zip(ranked, game.standings)):
            who = names.get(standing.name)
            if who is None:
                who = names[standing.name] = str(bdi(standing.name))
            total = standing.total
            # What a total counts ("pt", "pts") is said once for each of the
            # catalogue's plural forms (and one or not), not once for every total.
            key = (game.variant, frozen, plural(total), total == 1)
            unit = said.get(key) if frozen else None
            if unit is None:
                unit = home.unit(game.settings, total)
                if frozen:
                    said[key] = unit
            kind = ("won" if standing.won else "") + (" lead" if index == 0 and not game.over
                                                       else "")
            placed.append(
                f'\n    <li class="{kind}">\n      <span class="place">{place}</span>'
                f'\n      <span class="who">{who}{badge if standing.won else ""}</span>'
                f'\n      <span class="total">{total} <small>{escape(unit)}</small></span>'
                f'\n    </li>')
        shown.append(NightGame(game.id, eyebrow, True, Markup(about), game.over, won,
                               Markup("".join(placed)), href, scoreboard))
    return shown


def _frozen(settings: dict) -> tuple | None:
    """Return a game's settings as a key of what is said of them (None if they hold a list
    or another value that cannot be one: then what is said is not kept)."""
    key = tuple(sorted(settings.items()))
    try:
        hash(key)
    except TypeError:
        return None
    return key
