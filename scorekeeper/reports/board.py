"""The room's board of a crowd night, for a TV: every table's latest game at once (its
standings, whose deal, the hand in progress) and, between rounds or once the night
is over, the night's standings (reports/crowd.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import variants
from ..db import phone_parts
from ..db.reader import Loaded
from . import crowd


@dataclass(frozen=True)
class Table:
    """A table's latest game, as the board shows it (a late table may be a round behind)."""

    number: int
    round: int
    game_id: int
    rows: list[dict[str, Any]]  # the game's standings (Variant.standings), with "deals"/"sent"
    over: bool
    winners: tuple[str, ...]
    dealer: str | None
    hand: int  # the hand being played (its number)
    parts: int  # players' parts of it in, from their own phones
    playing: int  # players who send a part of it
    pot: int | None  # chips in the pot of the hand being played (chips only)


@dataclass(frozen=True)
class Board:
    """A crowd night as the room's board shows it."""

    night: crowd.Night
    tables: list[Table]

    @property
    def between(self) -> bool:
        """Tell whether every table's game is over: the night's standings are shown (and,
        once the night is over, its winner), until the next round is seated."""
        return bool(self.tables) and all(table.over for table in self.tables)


def _table(shown: crowd.Table, game: Loaded) -> Table:
    home = variants.get(game.variant)
    result = game.result
    number = game.next_number
    out = () if result.over else home.sitting_out(game, number)
    sent = {} if result.over else phone_parts.parts_of(game.id, number)
    rows = []
    for row in home.standings(game):
        seat = game.players.index(row["name"])
        rows.append({**row, "deals": row["name"] == shown.dealer and not result.over,
                     "sent": seat in sent})
    live = home.live(game)
    return Table(shown.number, shown.round, shown.game_id, rows, result.over, shown.winners,
                 shown.dealer, number, len(sent), len(game.players) - len(out),
                 live["pot"] if live else None)


def board(crowd_id: int) -> Board | None:
    """Return the room's board of a crowd night, or None when there is no such night."""
    night = crowd.night(crowd_id)
    if night is None:
        return None
    return Board(night, [_table(shown, night.games[shown.game_id]) for shown in night.tables
                         if shown.game_id in night.games])

