"""A player's rivals and runs: who beats them most (their nemesis), whom they beat most, and
their winning streaks (the longest, and the one going now).

The rivals come from the head-to-head a player's page has counted (reports.figures, from
`result_pair`); the runs from the player's rating steps, in the order the games were played
(a finished game of two or more players is rated, and its winners have place 1).
"""

from __future__ import annotations

from dataclasses import dataclass


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


def rivals(head_to_head, played, now: bool = True) -> Rivals:
    """Return a player's nemesis, the player they beat most, and their runs (in a season, or
    of all time; the run going now only when `now`: a past season's last run is over), the
    rivals from the head-to-head the player's page has counted already (reports.figures),
    the runs from their finished games as their rating steps count them (ratings.played)."""
    return Rivals(_most_of(head_to_head, "behind"), _most_of(head_to_head, "ahead"),
                  played.longest_run, played.current_run if now else 0)


def _most_of(head_to_head, way: str) -> Rival | None:
    """Return the other player of the head-to-head rows the player was `way` (ahead of, or
    behind) most often; on a tie, the one with fewer games together, then by name."""
    best = min(head_to_head, default=None,
               key=lambda row: (-getattr(row, way), row.games, row.other))
    if best is None or not getattr(best, way):
        return None
    return Rival(best.other_id, best.other, getattr(best, way), best.games)
