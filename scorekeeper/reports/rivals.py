"""A player's rivals and runs: who beats them most (their nemesis), whom they beat most, and
their winning streaks (the longest, and the one going now).

Read from the results cache: head-to-head from `result_pair` (one row per two players who met
in a finished game), the runs from `result_seat` in the order the games were played.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from ..db.models import Game, Player, ResultPair, ResultSeat
from ..extensions import db
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


def _most(player_id: int, outcome: int) -> Rival | None:
    """Return the player this one finished behind (-1) or ahead of (1) most often."""
    met = func.count()
    times = func.sum(func.cast(ResultPair.outcome == outcome, db.Integer))
    row = db.session.execute(
        select(ResultPair.other_id, Player.name, times.label("times"), met.label("met"))
        .join(Player, Player.id == ResultPair.other_id)
        .where(ResultPair.player_id == player_id)
        .group_by(ResultPair.other_id, Player.name)
        .order_by(times.desc(), met.asc(), Player.name)
        .limit(1)).first()
    if row is None or not row.times:
        return None
    return Rival(row.other_id, row.name, int(row.times), int(row.met))


def runs(player_id: int, shown: Shown = EVERYTHING) -> tuple[int, int]:
    """Return a player's longest run of wins in finished games (of a season, or of all
    time), and the run its last games make."""
    query = (select(ResultSeat.won).join(Game, Game.id == ResultSeat.game_id)
             .where(ResultSeat.player_id == player_id, ResultSeat.over)
             .order_by(Game.created_at, Game.id))
    if shown.days is not None:
        query = query.where(shown.games())
    won = db.session.scalars(query)
    longest = current = 0
    for win in won:
        current = current + 1 if win else 0
        longest = max(longest, current)
    return longest, current


def rivals(player_id: int, head_to_head=None, shown: Shown = EVERYTHING,
           now: bool = True) -> Rivals:
    """Return a player's nemesis, the player they beat most, and their runs (in a season,
    or of all time; the run going now only when `now`: a past season's last run is over).
    A page that has read the player's head-to-head already (reports.players) passes it,
    and no more is read for the rivals."""
    longest, current = runs(player_id, shown)
    current = current if now else 0
    if head_to_head is None:
        return Rivals(_most(player_id, -1), _most(player_id, 1), longest, current)
    return Rivals(_most_of(head_to_head, "behind"), _most_of(head_to_head, "ahead"),
                  longest, current)


def _most_of(head_to_head, way: str) -> Rival | None:
    """Return the other player of the head-to-head rows the player was `way` (ahead of, or
    behind) most often: as `_most` does, fewer games together first on a tie, then name."""
    best = min(head_to_head, default=None,
               key=lambda row: (-getattr(row, way), row.games, row.other))
    if best is None or not getattr(best, way):
        return None
    return Rival(best.other_id, best.other, getattr(best, way), best.games)
