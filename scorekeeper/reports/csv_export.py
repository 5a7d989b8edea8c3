"""A game as CSV for a spreadsheet: one row per hand and player who took part in it."""

from __future__ import annotations

import csv
import io
from typing import Any

from .. import rules, variants

COLUMNS = ("hand", "dealer", "player", "went_out", "won_hand", "cards", "kings", "score", "total")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def columns(variant: str) -> tuple[str, ...]:
    """Return the header of a variant's CSV: the shared columns, then its own."""
    return COLUMNS + variants.get(variant).csv_columns


def safe_text(text: str | None) -> str:
    """Return a name a spreadsheet shows as text, never runs as a formula."""
    if not text:
        return ""
    return "'" + text if text.startswith(FORMULA_START) else text


def _cell(value: Any) -> Any:
    """Return a value as its cell: yes/no for a flag, names safe from formulas."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return safe_text(value) if isinstance(value, str) else value


def rows(core: rules.Game, result: rules.GameResult) -> list[dict[str, Any]]:
    """Return the game's rows: hand, dealer, player, what they held, score and running total."""
    home = variants.get(core.variant)
    out = []
    for rnd, done in zip(core.rounds, result.rounds):
        for name in home.took_part(core, rnd):
            row: dict[str, Any] = {
                "hand": done.number, "dealer": done.dealer, "player": name,
                "won_hand": name in done.hand_winners,
                "score": done.scores[name], "total": done.totals[name],
                **home.csv_cells(core, rnd, done, name)}
            out.append({key: _cell(value) for key, value in row.items()})
    return out


def to_csv(core: rules.Game, result: rules.GameResult) -> str:
    """Return the game as CSV text with a header row (RFC 4180 line ends)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns(core.variant))
    writer.writeheader()
    writer.writerows(rows(core, result))
    return buffer.getvalue()
