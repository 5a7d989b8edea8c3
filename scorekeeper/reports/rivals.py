"""A player's rivals and runs: who beats them most (their nemesis), whom they beat most, and
their winning streaks (the longest, and the one going now).

The rivals come from the head-to-head a player's page has counted (reports.players, from
`result_pair`); the runs from `result_seat` in the order the games were played.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import Select, select

from ..db.models import Game, ResultSeat
from ..extensions import db
from .players import mine
from .seasons import EVERYTHING, Shown


@dataclass(frozen=True)
class Rival:
    """Another player, and how often one of the two finished ahead of the other."""

    player_id: int
    name: str
    times: int  # the games in which it went that way
    met: int  # the finished games the two played together


@dataclass(frozen=True)
class Rivals:
    """Who beats this player most, whom they beat most, and their winning runs."""

    nemesis: Rival | None
    victim: Rival | None
    longest_run: int
    current_run: int


# A player's finished games in the order played, whether they won each: built once (a
# season's days are added when asked), read from result_seat's (player, over, game, won).
_RUNS = (select(ResultSeat.won).join(Game, Game.id == ResultSeat.game_id)
         .where(ResultSeat.over).order_by(Game.created_at, Game.id))


@lru_cache(maxsize=32)
def _runs_of(days) -> Select:
    """Return the statement of a player's runs in a season's days (None: all time), built
    once a season, as a player's other figures are (reports.players._of_season)."""
    return mine(_RUNS, ResultSeat.game_id, ResultSeat.player_id, Shown("", days))


def runs(player_id: int, shown: Shown = EVERYTHING) -> tuple[int, int]:
    """Return a player's longest run of wins in finished games (of a season, or of all
    time), and the run its last games make."""
    query = _runs_of(shown.days)
    won = db.session.connection().execute(query, {"player": player_id}).scalars().all()
    longest = current = 0
    for win in won:
        current = current + 1 if win else 0
        longest = max(longest, current)
    return longest, current


def rivals(player_id: int, head_to_head, shown: Shown = EVERYTHING, now: bool = True) -> Rivals:
    """Return a player's nemesis, the player they beat most, and their runs (in a season, or
    of all time; the run going now only when `now`: a past season's last run is over), the
    rivals from the head-to-head the player's page has counted already (reports.players)."""
    longest, current = runs(player_id, shown)
    return Rivals(_most_of(head_to_head, "behind"), _most_of(head_to_head, "ahead"),
                  longest, current if now else 0)


def _most_of(head_to_head, way: str) -> Rival | None:
    """Return the other player of the head-to-head rows the player was `way` (ahead of, or
    behind) most often; on a tie, the one with fewer games together, then by name."""
    best = min(head_to_head, default=None,
               key=lambda row: (-getattr(row, way), row.games, row.other))
    if best is None or not getattr(best, way):
        return None
    return Rival(best.other_id, best.other, getattr(best, way), best.games)
