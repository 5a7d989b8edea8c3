"""One writer at a time per game, and a version that tells phones a game has changed."""

from __future__ import annotations

import zlib

from sqlalchemy import func, select, update

from ..extensions import db
from .models import Game, Seat, table_time


def lock(*game_ids: int) -> None:
    """Take the write lock of these games for the rest of the transaction.

    SQLite: BEGIN IMMEDIATE (one writer at a time, readers go on). PostgreSQL: SELECT ...
    FOR UPDATE on the games' rows; a change that locks no game (a new game, the roster, a
    night, the passcode) waits for any other such change, in any server process, as on
    SQLite: two tables starting at once share tonight's night and each new name's player.
    Whatever the request read before is let go, so the caller reads the games again inside
    the lock and checks its write against them.
    """
    db.session.rollback()
    db.session.connection(execution_options={"write_lock": True})
    if db.session.get_bind().dialect.name == "sqlite":
        return
    if game_ids:
        db.session.execute(select(Game.id).where(Game.id.in_(game_ids)).order_by(Game.id)
                           .with_for_update())
    else:
        one_at_a_time("kings-corners: the table as a whole")


def one_at_a_time(name: str, session=None) -> None:
    """Hold the lock called `name` for the rest of the transaction, on PostgreSQL: a change
    that counts across games (a variant's ratings, a player's tallies) waits for another
    doing the same to commit, then reads what it wrote. PostgreSQL locks games by row, so
    two games changed at once would each count without the other. SQLite writes one
    transaction at a time already."""
    session = session or db.session
    if session.get_bind().dialect.name != "sqlite":
        session.execute(select(func.pg_advisory_xact_lock(zlib.crc32(name.encode()))))


def touch(*game_ids: int) -> None:
    """Mark games changed now: "recent games" go by the time, phones by the version."""
    db.session.execute(update(Game).where(Game.id.in_(game_ids))
                       .values(updated_at=table_time(), version=Game.version + 1))


def games_of(*player_ids: int) -> list[int]:
    """Return the ids of the games these players sat in."""
    return list(db.session.scalars(select(Seat.game_id).where(Seat.player_id.in_(player_ids))
                                   .distinct().order_by(Seat.game_id)))
