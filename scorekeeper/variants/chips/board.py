"""The chip pot's hands on the scoreboard, each told as the table tells it: who dealt and
went out, who took the pot, and each player's payments and stack or score after.

Written here as HTML once for the page, the words looked up once: drawn by a template, a
game of twenty hands (a hundred lines of payments) took 5 ms, more than the rest of its page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import get_translations
from markupsafe import Markup, escape

from ... import rules
from ...words import N_
from ..board import Page
from .live import flow_word, paid

# Each sentence as a template's _() says it (the sentence as markup, its values escaped);
# marked (N_) so that pybabel extract finds them here.
WORDS = {"hand": N_("Hand %(number)s"), "dealt": N_("%(name)s dealt"),
         "went_out": N_("%(name)s went out"), "stalemate": N_("stalemate"),
         "edit": N_("Edit hand %(number)s"),
         "takes": N_("<b>%(name)s</b> takes the %(num)s-chip pot"),
         "split": N_("<b>%(names)s</b> split the %(num)s-chip pot:"),
         "paid": N_("paid %(num)s"), "took": N_("took %(num)s"), "out": N_("out")}


@dataclass(frozen=True)
class Told:
    """One hand of the hand by hand, its lines written."""

    number: int
    href: str  # where ✎ opens it for correction
    said: Markup  # "<b>Hand 3</b> · Ann dealt · Ben went out"
    edit: Markup  # "Edit hand 3"
    took: Markup  # "<b>Ben</b> takes the 8-chip pot"
    people: Markup  # a line each: paid or won, the stack or score after, what for


def told(core: rules.Game, result: rules.GameResult, page: Page, reset: bool,
         unit: Callable[[int], str]) -> list[Told]:
    """Return each played hand as the hand by hand tells it, newest first: who paid what for
    what (its payments gone through once, summed by player and kind as they come) and who
    took the pot. `reset`: the chips are re-split every hand, and a total is a score in
    `unit` ("pts"), not a stack."""
    say = get_translations()
    # A sentence is markup, as a template's _() takes it; what goes into it is a number or
    # a name already written as HTML, so it is filled in as text and kept as markup once.
    word = {key: say.ugettext(text) for key, text in WORDS.items()}
    stalemate, out = word["stalemate"] % {}, word["out"] % {}
    busted = f' <span class="badge out-badge">{out}</span>'
    names = page.names
    units: dict[int, str] = {}  # each total's unit, looked up once
    paid_for: dict[tuple[str, int, int, int], str] = {}  # each payment in words, as HTML
    hands = []
    for entered, done in zip(core.rounds, result.rounds):
        shares: dict[str, int] = {}  # in payout order: a split's odd chips go to the first
        paid_by: dict[str, dict[str, list[int]]] = {}  # player: kind: [times, chips, owed]
        for flow in done.extra["flows"]:
            player, kind, chips = flow["player"], flow["kind"], flow["chips"]
            if kind == "pot":
                shares[player] = chips
                continue
            kinds = paid_by.setdefault(player, {})
            summed = kinds.get(kind)
            if summed is None:
                kinds[kind] = [1, chips, flow["owed"]]
            else:
                summed[0] += 1
                summed[1] += chips
                summed[2] += flow["owed"]
        lines = []
        stacks, totals, out_now = done.extra["stacks"], done.totals, done.extra["busted"]
        for name in core.players:
            kinds = paid_by.get(name)
            if not kinds:
                continue
            said = []
            for kind, (times, chips, owed) in kinds.items():
                key = (kind, times, chips, owed)
                if key not in paid_for:
                    paid_for[key] = escape(paid(flow_word(kind, times), chips, owed))
                said.append(paid_for[key])
            got = shares.get(name, 0)
            spent = sum(chips for _, chips, _ in kinds.values())
            if reset:
                net = f"+{got}" if got else word["paid"] % {"num": spent}
                total = totals[name]
                if total not in units:
                    units[total] = escape(unit(total))
                after = f"{total} {units[total]}"
            else:
                net = f"+{got - spent}" if got > spent else str(got - spent)
                after = f"→ {stacks[name]}"
            gone, took_here = name in out_now, f" · {word['took'] % {'num': got}}" if got else ""
            lines.append(
                f'\n        <li class="{"got" if got else ""}{" busted" if gone else ""}">'
                f'\n          <span class="who">{names[name]}</span>'
                f'\n          <span class="net">{net}</span>'
                f'\n          <span class="after">{after}{busted if gone else ""}</span>'
                f'\n          <span class="parts">{" · ".join(said)}{took_here}</span>'
                "\n        </li>")
        number, winners = done.number, list(shares)
        went = (word["went_out"] % {"name": names[entered.went_out]} if entered.went_out
                else stalemate)
        if len(winners) == 1:
            took = word["takes"] % {"name": names[winners[0]], "num": done.extra["pot"]}
        else:
            took = (word["split"] % {"names": " &amp; ".join(names[w] for w in winners),
                                     "num": done.extra["pot"]}
                    + "\n          " + ", ".join(f"{names[w]} {shares[w]}" for w in winners))
        hands.append(Told(
            number, page.edit(number),
            Markup(f'<b>{word["hand"] % {"number": number}}</b> · '
                   f'{word["dealt"] % {"name": names[done.dealer]}} ·\n          {went}'),
            Markup(word["edit"] % {"number": number}), Markup(took), Markup("".join(lines))))
    return hands[::-1]
