"""A game's board as its page draws it: what the page gives a variant's board (each name as
HTML, the link that corrects a round, whether it is watch-only), and the shared hand-by-hand
table's rows.

A board's rows are written here as HTML, once for the page, with their words looked up in
the catalogue once: a template's loop over every round and player cost more than the rest
of the board together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import get_translations
from markupsafe import Markup, escape

from .. import rules
from ..words import N_


@dataclass(frozen=True)
class Page:
    """What a game's page gives its variant's board."""

    names: Mapping[str, Markup]  # each player's name as HTML, isolated where it needs it
    edit_before: str  # the link that corrects round n: edit_before, n, edit_after
    edit_after: str
    watching: bool = False  # a watch-only screen: nothing on it changes the game

    def edit(self, number: int) -> str:
        """Return the link that corrects round `number`."""
        return f"{self.edit_before}{number}{self.edit_after}"


def places(totals: Sequence[Any]) -> list[int]:
    """Return the place of each of these totals, best first: a tie shares the place, the
    next one counting everyone ahead (1, 2, 2, 4), as a game's card numbers them."""
    placed: list[int] = []
    for index, total in enumerate(totals):
        placed.append(placed[-1] if index and total == totals[index - 1] else index + 1)
    return placed


def standing_lines(standings: Sequence[Mapping[str, Any]], page: Page, *,
                   name_apart: bool = True, every_note: bool = False) -> Markup:
    """Return the standings (`Home.standings`), a line each: place, name (its badges: leads,
    winner, out), total and how they stand. `name_apart` puts the name in a span of its own;
    `every_note` writes the note's place even when it says nothing."""
    say = get_translations()
    words = (N_("leads"), N_("winner"), N_("out"))
    leads, winner, out = (say.ugettext(word) % {} for word in words)
    lines = []
    for row in standings:
        name = row["name"]
        who = f'<span class="name">{page.names[name]}</span>' if name_apart else page.names[name]
        badges = ((f' <span class="badge">{leads}</span>' if row["lead"] else "")
                  + (f' <span class="badge gold">{winner}</span>' if row["won"] else "")
                  + (f' <span class="badge out-badge">{out}</span>' if row["out"] else ""))
        note = (f'\n      <span class="togo">{escape(row["note"])}</span>'
                if row["note"] or every_note else "")
        kind = (("lead" if row["lead"] else "") + (" won" if row["won"] else "")
                + (" is-out" if row["out"] else ""))
        lines.append(
            f'\n    <li class="{kind}" data-name="{escape(name)}">'
            f'\n      <span class="place">{row["place"]}</span>'
            f'\n      <span class="who">{who}{badges}</span>'
            f'\n      <span class="total">{escape(row["total"])}</span>{note}\n    </li>')
    return Markup("".join(lines))


def hand_rows(players: Sequence[str], rounds: Sequence[rules.RoundResult], word: str,
              page: Page) -> Markup:
    """Return the shared hand-by-hand table's rows, a line each: the round's number (its
    dealer in the title), a cell per player (★ for a winner of the round, else its score,
    then the running total) and the link that corrects it."""
    say = get_translations()
    dealt, edit = say.ugettext("%(name)s dealt"), say.ugettext("Edit %(round)s %(number)s")
    lines = []
    for done in rounds:
        number = done.number
        link = ("" if page.watching else
                f'<a class="edit" href="{page.edit(number)}" aria-label="'
                f'{escape(edit % {"round": word, "number": number})}">✎</a>')
        title = escape(dealt % {"name": done.dealer})
        lines.append(
            f'\n      <tr>\n        <th scope="row" title="{title}">{number}</th>'
            f'\n        {_cells(players, done)}\n        <td>{link}</td>\n      </tr>')
    return Markup("".join(lines))


def _cells(players: Sequence[str], done: rules.RoundResult) -> str:
    """Return a round's cells, a line each: ★ for a winner of the round, else its score, then
    the running total."""
    winners, scores, totals = done.hand_winners, done.scores, done.totals
    cells = []
    for name in players:
        total = _shown(totals.get(name, ""))
        cells.append(
            f'\n        <td class="won"><span class="score">★</span> <span class="running">'
            f'{total}</span></td>' if name in winners else
            f'\n        <td><span class="score">{_shown(scores.get(name, ""))}</span> '
            f'<span class="running">{total}</span></td>')
    return "".join(cells)


def _shown(value) -> object:
    """Return a cell's value as HTML: a number as it is (nothing in it to escape)."""
    return value if type(value) is int else escape(value)
