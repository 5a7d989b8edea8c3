"""Seating: who deals and who plays first, clockwise around the table."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .base import RuleError


def left_of(players: Sequence[str], seat_player: str, out: Collection[str] = ()) -> str:
    """Return the next player still in the game to the left (clockwise) of `seat_player`."""
    start = players.index(seat_player)
    if not out:  # everyone still in: the next seat
        return players[(start + 1) % len(players)]
    for step in range(1, len(players) + 1):
        candidate = players[(start + step) % len(players)]
        if candidate not in out:
            return candidate
    raise RuleError("nobody is left in the game")


def first_dealer_in(players: Sequence[str], first_dealer: str, out: Collection[str] = ()) -> str:
    """Return `first_dealer`, or the next player in the game left of them if they are out."""
    if first_dealer not in out:
        return first_dealer
    return left_of(players, first_dealer, out)


def check_seating(players: Sequence[str], first_dealer: str, minimum: int, maximum: int) -> None:
    """Refuse a table that is too small, too big, has a duplicate or an absent dealer."""
    if len(players) < minimum:
        raise RuleError("needs at least %(count)s players", "players", count=minimum)
    if len(players) > maximum:
        raise RuleError("takes at most %(count)s players", "players", count=maximum)
    seen: set[str] = set()
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RuleError("every player needs a name", "players")
        key = name.strip().casefold()
        if key in seen:
            raise RuleError("%(name)s is in the game twice", "players", name=name)
        seen.add(key)
    if first_dealer not in players:
        raise RuleError("%(name)s is not a player in this game", "first_dealer",
                        name=repr(first_dealer))


def rematch_dealer(players: Sequence[str], first_dealer: str, last_dealer: str | None) -> str:
    """Return who deals first in a rematch at the same seats: the deal passes on, one seat
    to the left of whoever dealt the last hand (everyone is back in); with no hand played,
    the same first dealer."""
    if last_dealer is None:
        return first_dealer
    return left_of(players, last_dealer)
