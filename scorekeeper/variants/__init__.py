"""Each variant's one home: how its rounds are entered, shown, exported and counted.

Everything outside a variant's home asks this registry; nothing else names a variant.
A home imports the rules and the standard library (its `views` module, if it has one,
is the web side and is registered as a blueprint by the app).
"""

from __future__ import annotations

from .. import rules
from .base import Entry, Errors, FactLine, Home

HOMES: dict[str, Home] = {}


def register(home: Home) -> Home:
    """Add a variant's home, and its rules, to the registries; return it."""
    rules.register(home.rules)
    HOMES[home.name] = home
    return home


def get(name: str) -> Home:
    """Return the home of the variant called `name`, or raise RuleError."""
    if not isinstance(name, str) or name not in HOMES:
        raise rules.RuleError("unknown variant %(name)s; known: %(known)s", "variant",
                              name=repr(name), known=", ".join(HOMES))
    return HOMES[name]


def homes() -> list[Home]:
    """Return every registered variant's home, in the order they were registered."""
    return list(HOMES.values())


def fact_lines() -> list[FactLine]:
    """Return the statistics lines of every variant, each line once (some are shared)."""
    seen: dict[str, FactLine] = {}
    for home in homes():
        for line in home.fact_lines:
            seen.setdefault(line.key, line)
    return list(seen.values())


from .chips import HOME as _CHIPS  # noqa: E402
from .coronation import HOME as _CORONATION  # noqa: E402
from .penalty import HOME as _PENALTY  # noqa: E402

for _home in (_PENALTY, _CHIPS, _CORONATION):
    register(_home)

__all__ = ["Entry", "Errors", "FactLine", "Home", "fact_lines", "get", "homes", "register"]
