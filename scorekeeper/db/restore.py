"""A backup, read and checked by reports/backup.py, written into the empty database.

Written a batch of nights at a time (at most GAMES_AT_ONCE games together) and nothing kept
of them, so memory stays flat however many years it holds. Nothing here commits: play.py
does, or rolls everything back when a later part of the backup is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime

from .. import rules
from ..extensions import db
from . import crowds, named_seasons
from .models import Night, Player
from .writer import NewGame, add_games, highest_deleted

BATCH = 10  # nights written at a time
GAMES_AT_ONCE = 200  # games written together at most


@dataclass(frozen=True)
class Member:
    """A player of the backup's roster, the name checked as the roster checks it."""

    name: str
    key: str
    created_at: datetime


@dataclass(frozen=True)
class NamedSeason:
    """A season the table named, as the backup gives it: checked as the seasons page
    checks one when it is added (`where` says which of the backup's it is)."""

    name: str | None
    first_day: str | None
    last_day: str | None
    where: str


@dataclass(frozen=True)
class KeptGame:
    """A game of the backup, checked by the rules: its seats by their roster name keys."""

    keys: list[str]
    core: rules.Game
    played_on: date
    created_at: datetime
    recorded_at: list[datetime]
    waiting: list[rules.Event]


@dataclass(frozen=True)
class KeptCrowd:
    """A crowd night's own part of a night of the backup, checked: what the host chose,
    its players by roster key, and its tables as (round, table, index of the night's game)."""

    variant: str
    settings: dict
    table_size: int
    seating: str
    moving: str
    rounds: int | None
    created_at: datetime
    keys: list[str]
    tables: list[tuple[int, int, int]]


@dataclass(frozen=True)
class KeptNight:
    """A night of the backup, checked, and its games (checked as they are read)."""

    name: str | None
    notes: str | None
    started_at: datetime
    games: Iterator[KeptGame]
    crowd: KeptCrowd | None = None


def write(roster: Iterable[Member], named: Iterable[NamedSeason], nights: Iterable[KeptNight],
          loose: Iterable[KeptGame]) -> dict[str, int]:
    """Write a backup's parts into the empty database, in the order given (each read as it
    is written); return how many players, nights and games came in."""
    players: dict[str, Player] = {}
    for member in roster:
        players[member.key] = Player(name=member.name, name_key=member.key,
                                     created_at=member.created_at)
        db.session.add(players[member.key])
    for season in named:
        named_seasons.add(season.name, season.first_day, season.last_day, where=season.where)
    db.session.flush()
    night_count = game_count = 0
    # Checked games wait here to be written together, BATCH nights or GAMES_AT_ONCE games at
    # a time: a statement for each table, not for each game.
    waiting: list[NewGame] = []
    # Read once: past the first game, the ids run on from it by themselves.
    deleted = highest_deleted()

    def flush() -> list[int]:
        nonlocal deleted
        if not waiting:
            return []
        ids = add_games(waiting, deleted=deleted)
        waiting.clear()
        deleted = None
        return ids

    def wait(game: KeptGame, night: Night | None) -> None:
        waiting.append(NewGame(game.core, [players[key] for key in game.keys], game.played_on,
                               night, game.created_at, game.recorded_at, game.waiting))

    for kept in nights:
        night = Night(name=kept.name, notes=kept.notes, started_at=kept.started_at)
        db.session.add(night)
        night_count += 1
        if kept.crowd is not None:  # its games written on their own: their ids are its tables'
            flush()
        ids: list[int] = []
        for game in kept.games:
            wait(game, night)
            game_count += 1
            if len(waiting) >= GAMES_AT_ONCE:  # a night of very many games
                ids += flush()
        if kept.crowd is not None:
            _crowd(kept.crowd, night, ids + flush(), players)
        if night_count % BATCH == 0:
            flush()
            _let_go()
    for game in loose:
        wait(game, None)
        game_count += 1
        if len(waiting) >= GAMES_AT_ONCE:
            flush()
            _let_go()
    flush()
    db.session.flush()
    return {"players": len(players), "nights": night_count, "games": game_count}


def _crowd(kept: KeptCrowd, night: Night, game_ids: list[int],
           players: dict[str, Player]) -> None:
    """Write a crowd night's own part, its tables pointing at its games just written."""
    found = crowds.add(night, kept.variant, kept.settings, kept.table_size, kept.seating,
                       kept.moving, kept.rounds, [players[key] for key in kept.keys],
                       kept.created_at)
    for round_number, number, index in kept.tables:
        crowds.add_table(found.id, round_number, number, game_ids[index])


def _let_go() -> None:
    """Write what was added so far (in the same transaction) and forget it: the session
    holds only the nights and players added, and the games go in as rows, not objects."""
    db.session.flush()
    db.session.expunge_all()
