"""A game as CSV for a spreadsheet: one row per hand and player who took part in it."""

from __future__ import annotations

import csv
import io
from collections import Counter
from typing import Any

from . import rules

COLUMNS = ("hand", "dealer", "player", "went_out", "won_hand", "cards", "kings", "score", "total")
EXTRA = {
    "chips": ("passes", "king_held", "missed_draw", "stack", "pot"),
    "coronation": ("corners", "deal_winner", "victory"),
}
EVENT_COLUMNS = {"pass": "passes", "king_held": "king_held", "missed_draw": "missed_draw"}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def columns(variant: str) -> tuple[str, ...]:
    """Return the header of a variant's CSV."""
    return COLUMNS + EXTRA.get(variant, ())


def safe_text(text: str | None) -> str:
    """Return a name a spreadsheet shows as text, never runs as a formula."""
    if not text:
        return ""
    return "'" + text if text.startswith(FORMULA_START) else text


def _yes(flag: bool) -> str:
    """Return a yes/no cell."""
    return "yes" if flag else "no"


def _took_part(core: rules.Game, rnd: rules.Round) -> list[str]:
    """Return who played a hand, in seat order: in chips, a player out of chips sits out."""
    if core.variant == "coronation":
        return list(core.players)
    return [name for name in core.players if name in rnd.hands or name == rnd.went_out]


def rows(core: rules.Game, result: rules.GameResult) -> list[dict[str, Any]]:
    """Return the game's rows: hand, dealer, player, what they held, score and running total."""
    out = []
    for rnd, done in zip(core.rounds, result.rounds):
        if core.variant == "coronation":
            went_out = done.extra.get("dragon")
        else:
            went_out = rnd.went_out
        events = Counter((event.player, event.kind) for event in rnd.events)
        for name in _took_part(core, rnd):
            hand = rnd.hands.get(name, rules.Hand(0, 0))
            row: dict[str, Any] = {
                "hand": done.number, "dealer": safe_text(done.dealer), "player": safe_text(name),
                "went_out": _yes(name == went_out), "won_hand": _yes(name in done.hand_winners),
                "cards": "" if core.variant == "coronation" else hand.cards,
                "kings": "" if core.variant == "coronation" else hand.kings,
                "score": done.scores[name], "total": done.totals[name]}
            if core.variant == "chips":
                for kind, column in EVENT_COLUMNS.items():
                    row[column] = events[(name, kind)]
                row["stack"] = done.extra["stacks"][name]
                row["pot"] = done.extra["pot"]
            elif core.variant == "coronation":
                row["corners"] = sum(1 for who in done.extra.get("corners", ()) if who == name)
                row["deal_winner"] = safe_text(done.extra.get("deal_winner"))
                row["victory"] = done.extra.get("victory", "")
            out.append(row)
    return out


def to_csv(core: rules.Game, result: rules.GameResult) -> str:
    """Return the game as CSV text with a header row (RFC 4180 line ends)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns(core.variant))
    writer.writeheader()
    writer.writerows(rows(core, result))
    return buffer.getvalue()
