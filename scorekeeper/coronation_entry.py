"""Coronation's record-deal form: who crowned each corner, who slew the dragon.

The form posts `corner-0` .. `corner-3` and `dragon`, each a seat index or "none".
Importing this module adds its reader and refiller to `entry.READERS` / `entry.REFILLERS`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from . import rules
from .entry import READERS, REFILLERS, Errors
from .rules.coronation import CORNERS

NOBODY = "none"
CORNER_INPUT = re.compile(r"corner-([0-9]{1,3})")


def _who(raw: str, name: str, players: Sequence[str], errors: Errors) -> str | None:
    """Return the player a tapped value names, None for nobody; note anyone else."""
    if raw == NOBODY:
        return None
    if raw.isdigit() and int(raw) < len(players):
        return players[int(raw)]
    errors.add(name, f"That is not a player in this game: tap {' or '.join(players)}, "
                     "or Nobody")
    return None


def read_deal(form: Mapping[str, str], players: Sequence[str], errors: Errors) -> rules.Round:
    """Return the deal the record-deal form describes; note rows left untapped in `errors`."""
    posted = {int(m.group(1)) for key in form if (m := CORNER_INPUT.fullmatch(key))}
    corners: list[str | None] = []
    for index in sorted(set(range(CORNERS)) | posted):
        raw = (form.get(f"corner-{index}") or "").strip()
        if index >= CORNERS:
            # Not on the form: passed on for the rules to refuse as a corner too many.
            if raw:
                corners.append(_who(raw, "corners", players, errors))
        elif not raw:
            errors.add(f"corner-{index}", f"Tap who crowned corner {index + 1}, or Nobody")
        else:
            corners.append(_who(raw, f"corner-{index}", players, errors))
    raw_dragon = (form.get("dragon") or "").strip()
    if not raw_dragon:
        errors.add("dragon", "Tap who slew the dragon (emptied their hand first), or Nobody")
    dragon = _who(raw_dragon, "dragon", players, errors) if raw_dragon else None
    return rules.Round(corners=tuple(corners), dragon=dragon)


def deal_values(players: Sequence[str], rnd: rules.Round) -> dict[str, str]:
    """Return a stored deal as the record-deal form's inputs, so an edit opens filled in."""

    def seat(name: str | None) -> str:
        return NOBODY if name is None else str(players.index(name))

    corners = list(rnd.corners) + [None] * (CORNERS - len(rnd.corners))
    values = {f"corner-{index}": seat(name) for index, name in enumerate(corners)}
    # An imported deal may name the dragon slayer as the one who went out.
    values["dragon"] = seat(rnd.dragon if rnd.dragon is not None else rnd.went_out)
    return values


READERS["coronation"] = read_deal
REFILLERS["coronation"] = deal_values
