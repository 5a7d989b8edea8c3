"""The chip pot's hands on the scoreboard, each told as the table tells it: who dealt and
went out, who took the pot, and each player's payments and stack or score after.

Written here as HTML once for the page, the words looked up once: drawn by a template, a
game of twenty hands (a hundred lines of payments) took 5 ms, more than the rest of its page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import get_translations
from markupsafe import Markup, escape

from ..board import Page

# Each sentence as a template's _() says it (the sentence as markup, its values escaped).
WORDS = {"hand": "Hand %(number)s", "dealt": "%(name)s dealt", "went_out": "%(name)s went out",
         "stalemate": "stalemate", "edit": "Edit hand %(number)s",
         "takes": "<b>%(name)s</b> takes the %(num)s-chip pot",
         "split": "<b>%(names)s</b> split the %(num)s-chip pot:",
         "paid": "paid %(num)s", "took": "took %(num)s", "out": "out"}


@dataclass(frozen=True)
class Told:
    """One hand of the hand by hand, its lines written."""

    number: int
    href: str  # where ✎ opens it for correction
    said: Markup  # "<b>Hand 3</b> · Ann dealt · Ben went out"
    edit: Markup  # "Edit hand 3"
    took: Markup  # "<b>Ben</b> takes the 8-chip pot"
    people: Markup  # a line each: paid or won, the stack or score after, what for


def told(stories: Sequence[Mapping[str, Any]], page: Page, reset: bool,
         unit: Callable[[int], str]) -> list[Told]:
    """Return the hands (`live.stories`) as the hand by hand shows them; `reset`: the chips
    are re-split every hand, and a total is a score in `unit` ("pts"), not a stack."""
    say = get_translations()
    # A sentence is markup, as a template's _() takes it; what goes into it is a number or
    # a name already written as HTML, so it is filled in as text and kept as markup once.
    word = {key: say.ugettext(text) for key, text in WORDS.items()}
    stalemate, out = word["stalemate"] % {}, word["out"] % {}
    busted = f' <span class="badge out-badge">{out}</span>'
    units: dict[int, str] = {}  # each total's unit, looked up once
    names = page.names
    hands = []
    for story in stories:
        number, winners = story["number"], story["winners"]
        went = (word["went_out"] % {"name": names[story["went_out"]]} if story["went_out"]
                else stalemate)
        said = (f'<b>{word["hand"] % {"number": number}}</b> · '
                f'{word["dealt"] % {"name": names[story["dealer"]]}} ·\n          {went}')
        if len(winners) == 1:
            took = word["takes"] % {"name": names[winners[0]], "num": story["pot"]}
        else:
            shares = story["shares"]
            took = (word["split"] % {"names": " &amp; ".join(names[w] for w in winners),
                                     "num": story["pot"]}
                    + "\n          " + ", ".join(f"{names[w]} {shares[w]}" for w in winners))
        lines = []
        for p in story["people"]:
            got = p["got"]
            if reset:
                net = f"+{got}" if got else word["paid"] % {"num": p["paid"]}
                total = p["total"]
                if total not in units:
                    units[total] = escape(unit(total))
                after = f"{total} {units[total]}"
            else:
                net = f"+{p['net']}" if p["net"] > 0 else str(p["net"])
                after = f"→ {p['stack']}"
            took_here = f" · {word['took'] % {'num': got}}" if got else ""
            lines.append(
                f'\n        <li class="{"got" if got else ""}{" busted" if p["busted"] else ""}">'
                f'\n          <span class="who">{names[p["name"]]}</span>'
                f'\n          <span class="net">{net}</span>'
                f'\n          <span class="after">{after}{busted if p["busted"] else ""}</span>'
                f'\n          <span class="parts">{escape(p["parts"])}{took_here}</span>'
                "\n        </li>")
        hands.append(Told(number, page.edit(number), Markup(said),
                          Markup(word["edit"] % {"number": number}), Markup(took),
                          Markup("".join(lines))))
    return hands
