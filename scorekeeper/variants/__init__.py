"""Each variant's one home: how its rounds are entered, shown, exported and counted.

Everything outside a variant's home asks here (`get`, `homes`); nothing else names a
variant. The registry is the rules' own (`rules.VARIANTS`): a home registers with its rules.
"""

from __future__ import annotations

from .. import rules
from .base import Entry, Errors, FactLine, Home, RecordLine
from .standings import Page


def register(home: Home) -> Home:
    """Register a variant's home: its rules go in the rules' registry, with the home."""
    home.rules.home = home
    rules.register(home.rules)
    return home


def get(name: str) -> Home:
    """Return the home of the variant called `name`, or raise RuleError."""
    variant = rules.VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None or variant.home is None:
        raise rules.RuleError("unknown variant %(name)s; known: %(known)s", "variant",
                              name=repr(name), known=", ".join(h.name for h in homes()))
    return variant.home


def homes() -> list[Home]:
    """Return every registered variant's home, in the order they were registered."""
    return [variant.home for variant in rules.VARIANTS.values() if variant.home is not None]


def known(name: str) -> bool:
    """Tell whether a variant of that name has a home (and so can be played here)."""
    variant = rules.VARIANTS.get(name) if isinstance(name, str) else None
    return variant is not None and variant.home is not None


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

__all__ = ["Entry", "Errors", "FactLine", "Home", "Page", "RecordLine", "fact_lines", "get",
           "homes", "known", "register"]
