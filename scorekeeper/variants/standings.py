"""A game's board as its page draws it: what the page gives a variant's board (the links
that correct a round and explain its scores), and the places of a standings. The board
itself is drawn by the variant's template (templates/variants/)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Page:
    """What a game's page gives its variant's board."""

    edit_before: str  # the link that corrects round n: edit_before, n, edit_after
    edit_after: str
    why_before: str  # the address of round n's scores explained: why_before, n, why_after
    why_after: str

    def edit(self, number: int) -> str:
        """Return the link that corrects round `number`."""
        return f"{self.edit_before}{number}{self.edit_after}"

    def why(self, number: int) -> str:
        """Return the address that explains round `number`'s scores, fetched on a tap."""
        return f"{self.why_before}{number}{self.why_after}"


@dataclass(frozen=True, slots=True)
class Cell:
    """One player's score of a round on the board."""

    name: str
    score: object  # the round's score, or ★ for a winner of the round
    total: object  # the running total after it
    won: bool  # a winner of the round
    why: bool  # took part: the score opens how it was worked out


@dataclass(frozen=True, slots=True)
class Row:
    """One round of the board's round-by-round table."""

    number: int
    dealt: str  # "Ann dealt"
    edit: str  # the link that corrects it
    edit_label: str  # "Edit hand 3"
    why: str  # the address of its scores explained
    cells: list[Cell]


def places(totals: Sequence[Any]) -> list[int]:
    """Return the place of each of these totals, best first: a tie shares the place, the
    next one counting everyone ahead (1, 2, 2, 4), as a game's card numbers them."""
    placed: list[int] = []
    for index, total in enumerate(totals):
        placed.append(placed[-1] if index and total == totals[index - 1] else index + 1)
    return placed
