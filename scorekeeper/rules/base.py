"""Shapes shared by every variant: what was entered at the table, what the rules compute."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(text: str) -> str:
    """Mark words for the catalogue that are translated later, where they are shown (a
    rule's label, said here where no language is known): `pybabel extract -k N_`."""
    return text


class Word(str):
    """An English word or phrase a refusal puts into its sentence ("a whole number of cards").

    Like the sentence itself, it is translated where the refusal is shown, not here.
    """

    __slots__ = ()


class RuleError(ValueError):
    """An entry that cannot have happened at a real table, or a setting out of range.

    It is given as an English sentence with %(name)s slots for `words`, always a literal,
    kept as `template`, so the place that shows it can say it in the page's language
    (scorekeeper/i18n.py, `reason`); `message` is the sentence filled in, in English. A
    word that is itself English is given as a `Word`; another RuleError given as a word is
    told with its place.
    `field` names the entry in the game-log's words, e.g. ``went_out``,
    ``hands.Ann.kings``, ``events[2].kind``, ``corners[1]``, ``rules.target``.
    `round_number` is 1-based, or None when the error is not about one round.
    """

    def __init__(self, message: str, field: str | None = None, round_number: int | None = None,
                 **words: Any):
        self.template = message
        self.words = words
        self.message = message % words if words else message
        super().__init__(self.message)
        self.field = field
        self.round_number = round_number

    def at_round(self, number: int) -> "RuleError":
        """Return this error tagged with the round it belongs to."""
        self.round_number = number
        return self

    def __str__(self) -> str:
        where = []
        if self.round_number is not None:
            where.append(f"round {self.round_number}")
        if self.field:
            where.append(self.field)
        return f"{', '.join(where)}: {self.message}" if where else self.message


@dataclass(frozen=True)
class Hand:
    """Cards one player still held when the hand ended, and how many were kings."""

    cards: int = 0
    kings: int = 0


@dataclass(frozen=True)
class Event:
    """Something that paid chips into the pot during a hand (chips variants)."""

    player: str
    kind: str


@dataclass(frozen=True)
class Round:
    """One hand (one deal in coronation) as it was entered.

    `went_out` is the player who emptied their hand, or None for a stalemate
    (coronation: nobody slew the dragon may also be given as `dragon=None`).
    `hands` maps each player to what they held; the one who went out may be absent.
    """

    went_out: str | None = None
    hands: Mapping[str, Hand] = field(default_factory=dict)
    events: tuple[Event, ...] = ()
    corners: tuple[str | None, ...] = ()
    dragon: str | None = None


@dataclass(frozen=True)
class Game:
    """A whole game as entered: who sits where, who dealt first, settings, the rounds."""

    variant: str
    players: tuple[str, ...]
    first_dealer: str
    settings: Mapping[str, Any]
    rounds: tuple[Round, ...] = ()
    ended: bool = False


@dataclass(frozen=True)
class RoundResult:
    """What one round did: its dealer, who won it, what it added, the totals after it.

    `extra` holds variant-specific results under their game-log names
    (chips: ``pot``, ``stacks``, ``flows``; coronation: ``deal_winner``, ``victory``).
    """

    number: int
    dealer: str
    first_player: str
    hand_winners: tuple[str, ...]
    scores: Mapping[str, int]
    totals: Mapping[str, int]
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Term:
    """One part of a player's score for a round, as the rules worked it out: `count`
    things (`kind`: "king", "card", "ante", "pass", "pot", "corner", "dragon"…) at `each`,
    adding `total`. `which` names the things when the words need them (the corners
    crowned, by their place). Chips paid for cards left: `each` is 0 (a king may cost
    more than another card) and the total is what was paid; `owed` is set when a short
    stack paid less than it owed."""

    kind: str
    count: int
    each: int
    total: int
    which: tuple[int, ...] = ()
    owed: int | None = None


@dataclass(frozen=True)
class Why:
    """How one player's score for one round was worked out: `terms` add up to `score`.

    `won`: the player won the round (went out, or tied for the fewest cards in a
    stalemate). `paid`: what was paid that the score does not count (chips re-split every
    hand, where the score is the pot won): told, not added.
    """

    terms: tuple[Term, ...]
    score: int
    won: bool = False
    paid: tuple[Term, ...] = ()


@dataclass(frozen=True)
class GameResult:
    """The state of a game computed from its rounds."""

    rounds: tuple[RoundResult, ...]
    totals: Mapping[str, int]
    over: bool
    winners: tuple[str, ...]
    ranking: tuple[str, ...]
    next_dealer: str | None
    next_first_player: str | None
    out: frozenset[str] = frozenset()
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Setting:
    """One rule setting a table can choose when a game starts."""

    name: str
    label: str
    kind: type  # int, bool or str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    optional: bool = False  # None ("no target") is allowed
    quick: tuple[Any, ...] = ()  # values offered one tap away
    help: str = ""


WHOLE_NUMBER = Word("a whole number")


def check_int(value: Any, field_name: str, minimum: int | None = None,
              maximum: int | None = None, what: Word = WHOLE_NUMBER) -> int:
    """Return `value` as an int, or raise RuleError naming the field."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("must be %(what)s, not %(value)s", field_name, what=what,
                        value=repr(value))
    if minimum is not None and value < minimum:
        raise RuleError("must be at least %(minimum)s, not %(value)s", field_name,
                        minimum=minimum, value=value)
    if maximum is not None and value > maximum:
        raise RuleError("must be at most %(maximum)s, not %(value)s", field_name,
                        maximum=maximum, value=value)
    return value


def resolve_settings(settings: tuple[Setting, ...], defaults: Mapping[str, Any],
                     given: Mapping[str, Any]) -> dict[str, Any]:
    """Fill defaults into `given`, check every value, refuse unknown keys."""
    known = {s.name: s for s in settings}
    for key in given:
        if key not in known and key != "preset":
            raise RuleError("unknown rule setting %(key)s", f"rules.{key}", key=repr(key))
    resolved: dict[str, Any] = {}
    for s in settings:
        value = given.get(s.name, defaults.get(s.name))
        name = f"rules.{s.name}"
        if value is None and s.optional:
            resolved[s.name] = None
        elif s.kind is bool:
            if not isinstance(value, bool):
                raise RuleError("must be true or false, not %(value)s", name, value=repr(value))
            resolved[s.name] = value
        elif s.kind is int:
            resolved[s.name] = check_int(value, name, s.minimum, s.maximum)
        else:
            if value not in s.choices:
                raise RuleError("must be one of %(choices)s, not %(value)s", name,
                                choices=", ".join(s.choices), value=repr(value))
            resolved[s.name] = value
    return resolved
