"""The rules of Kings Corners scoring. Pure: imports the standard library only.

Each variant is an object with `name`, `label`, `settings`, `presets`,
`min_players`, `max_players`, `lower_is_better`, `resolve_settings(given)` and
`play(game) -> GameResult`; `play` checks every round and raises RuleError
naming the round and field of the first impossible entry.
"""

from __future__ import annotations

from .base import (
    Event,
    Game,
    GameResult,
    Hand,
    Round,
    RoundResult,
    RuleError,
    Setting,
    Term,
    Why,
    Word,
)
from .chips import CHIPS
from .coronation import CORONATION
from .penalty import PENALTY

VARIANTS = {variant.name: variant for variant in (PENALTY, CHIPS, CORONATION)}


def register(variant) -> None:
    """Add a variant to the registry, the one registry of variants."""
    VARIANTS[variant.name] = variant


def unregister(name: str) -> None:
    """Take a variant out of the registry (a test's made-up variant, once it is done)."""
    VARIANTS.pop(name).home = None


def get_variant(name: str):
    """Return the variant called `name`, or raise RuleError."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise RuleError("unknown variant %(name)s; known: %(known)s", "variant",
                        name=repr(name), known=", ".join(VARIANTS)) from None


def play(game: Game) -> GameResult:
    """Compute where a game stands from what was entered."""
    return get_variant(game.variant).play(game)


__all__ = ["Event", "Game", "GameResult", "Hand", "Round", "RoundResult", "RuleError",
           "Setting", "Term", "VARIANTS", "Why", "Word", "get_variant", "play", "register",
           "unregister"]
