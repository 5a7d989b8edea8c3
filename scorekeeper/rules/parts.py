"""A hand put together from its parts: each player's own, sent from their own phone.

A part says what one seat's player says of the hand: they went out, or the cards (and kings
among them) left in their hand; in coronation, the deal as they saw it (who crowned each
corner, who slew the dragon). `gather` says whether the parts make one hand: which seats
are still to come, where they disagree, or the hand they agree on. Nothing here stores or
scores: the hand gathered goes through the rules like any hand entered on one phone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

NOBODY = -1  # in a deal: nobody crowned that corner, or nobody slew the dragon


@dataclass(frozen=True)
class Part:
    """One seat's part: `went_out`, else `cards` left with `kings` among them; or `deal`,
    the seats (NOBODY for none) that crowned each corner, then the dragon's slayer."""

    seat: int
    went_out: bool = False
    cards: int | None = None
    kings: int = 0
    deal: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Gathered:
    """What the parts of a hand make so far.

    `waiting`: the seats whose part has not come. `clash`: why the parts cannot make a
    hand as they stand ("two_out": more than one says they went out, `seats` naming them;
    "deal": the two deals differ, `seats` naming the corners or the dragon (index 4) they
    differ on). `complete`: every part is in and they agree: `went_out` (None for a
    stalemate), each other seat's (cards, kings), or the `deal` agreed.
    """

    waiting: tuple[int, ...] = ()
    clash: str | None = None
    seats: tuple[int, ...] = ()
    went_out: int | None = None
    hands: Mapping[int, tuple[int, int]] | None = None
    deal: tuple[int, ...] | None = None

    @property
    def complete(self) -> bool:
        """Tell whether every part is in and they agree: the hand can be recorded."""
        return not self.waiting and self.clash is None


def gather_hand(playing: Sequence[int], parts: Mapping[int, Part]) -> Gathered:
    """Put a cards hand together: exactly one of those playing went out, or none did (a
    stalemate: everyone holds cards), and everyone else said what they hold."""
    out = tuple(seat for seat in playing if seat in parts and parts[seat].went_out)
    waiting = tuple(seat for seat in playing if seat not in parts)
    if len(out) > 1:
        return Gathered(waiting, "two_out", out)
    if waiting:
        return Gathered(waiting)
    hands = {seat: (parts[seat].cards or 0, parts[seat].kings)
             for seat in playing if not parts[seat].went_out}
    return Gathered(went_out=out[0] if out else None, hands=hands)


def gather_deal(playing: Sequence[int], parts: Mapping[int, Part]) -> Gathered:
    """Put a coronation deal together: both players sent the same deal."""
    waiting = tuple(seat for seat in playing if seat not in parts or parts[seat].deal is None)
    deals = [tuple(parts[seat].deal or ()) for seat in playing if seat not in waiting]
    if len(deals) > 1 and len(set(deals)) > 1:
        first, second = deals[0], deals[1]
        differ = tuple(i for i in range(max(len(first), len(second)))
                       if first[i:i + 1] != second[i:i + 1])
        return Gathered(waiting, "deal", differ)
    if waiting:
        return Gathered(waiting)
    return Gathered(deal=deals[0])
