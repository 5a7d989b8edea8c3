"""The chip pot's hands on the scoreboard, each as the table tells it: who dealt and went
out, who took the pot, and each player's payments and stack or score after. Plain data and
words, drawn by templates/variants/chips/scoreboard.html."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import gettext, ngettext

from ... import rules
from ...words import signed, together
from .live import flow_word, paid

# What was paid for, counted, in "Ann paid 1 ante, 2 passes and 5 cards".
PAID_FOR = {
    "ante": lambda n: ngettext("%(num)d ante", "%(num)d antes", n),
    "pass": lambda n: ngettext("%(num)d pass", "%(num)d passes", n),
    "king_held": lambda n: ngettext("caught holding a king once",
                                    "caught holding a king %(num)d times", n),
    "missed_draw": lambda n: ngettext("%(num)d missed draw", "%(num)d missed draws", n),
    "cards": lambda n: ngettext("%(num)d card", "%(num)d cards", n),
}


@dataclass(frozen=True)
class Paid:
    """What one player paid and took in a hand."""

    name: str
    net: str  # "+7", "-4"; where the chips are re-split, "+8" or "paid 4"
    after: str  # "→ 11", the stack after; where re-split, "12 pts", the score
    busted: bool  # out of the game by this hand
    parts: list[str]  # a kind of payment each: "ante 1", "2 passes 2", "cards 1 of 3"
    took: int  # chips won from the pot


@dataclass(frozen=True)
class Told:
    """One hand of the hand by hand."""

    number: int
    dealer: str
    went_out: str | None  # None: a stalemate
    pot: int
    shares: list[tuple[str, int]]  # who took the pot and how much, in payout order
    people: list[Paid]  # those who paid, in seat order


def told(core: rules.Game, result: rules.GameResult, reset: bool,
         unit: Callable[[int], str]) -> list[Told]:
    """Return each played hand as the hand by hand tells it, newest first: who paid what for
    what (payments summed by player and kind) and who took the pot. `reset`: the chips are
    re-split every hand, and a total is a score in `unit` ("pts"), not a stack."""
    hands = []
    for entered, done in zip(core.rounds, result.rounds):
        shares: dict[str, int] = {}  # in payout order: a split's odd chips go to the first
        paid_by: dict[str, dict[str, list[int]]] = {}  # player: kind: [times, chips, owed]
        for flow in done.extra["flows"]:
            player, kind, chips = flow["player"], flow["kind"], flow["chips"]
            if kind == "pot":
                shares[player] = chips
                continue
            summed = paid_by.setdefault(player, {}).setdefault(kind, [0, 0, 0])
            summed[0] += 1
            summed[1] += chips
            summed[2] += flow["owed"]
        people = []
        for name in core.players:
            kinds = paid_by.get(name)
            if not kinds:
                continue
            got = shares.get(name, 0)
            spent = sum(chips for _, chips, _ in kinds.values())
            if reset:
                total = done.totals[name]
                net = f"+{got}" if got else gettext("paid %(num)s", num=spent)
                after = f"{total} {unit(total)}"
            else:
                net = f"+{got - spent}" if got > spent else str(got - spent)
                after = f"→ {done.extra['stacks'][name]}"
            people.append(Paid(
                name, net, after, name in done.extra["busted"],
                [paid(flow_word(kind, times), chips, owed)
                 for kind, (times, chips, owed) in kinds.items()], got))
        hands.append(Told(done.number, done.dealer, entered.went_out, done.extra["pot"],
                          list(shares.items()), people))
    return hands[::-1]


def why_words(name: str, why: rules.Why, done: rules.RoundResult, reset: bool) -> str:
    """Return how a player's chips moved in a hand, from the rules' explanation: "Ann paid
    1 ante, 2 passes and 5 cards: 8 into the pot; Cy won the pot of 19. Net: −8"."""
    payments = [term for term in (why.paid if reset else why.terms) if term.kind != "pot"]
    said = []
    if payments:
        things = []
        for term in payments:
            thing = PAID_FOR[term.kind](term.count)
            if term.owed is not None:
                thing += " " + gettext("(all %(paid)s left, of %(owed)s owed)", paid=-term.total,
                                       owed=term.owed)
            things.append(thing)
        said.append(gettext("%(name)s paid %(things)s: %(num)s into the pot", name=name,
                            things=together(things),
                            num=-sum(term.total for term in payments)))
    pot, winners = done.extra["pot"], done.hand_winners
    said.append(ngettext("%(names)s won the pot of %(pot)s",
                         "%(names)s split the pot of %(pot)s", len(winners),
                         names=together(winners), pot=pot))
    text = "; ".join(said)
    if reset:
        return text + ". " + gettext("Score: %(num)s", num=why.score)
    return text + ". " + gettext("Net: %(num)s", num=signed(why.score))
