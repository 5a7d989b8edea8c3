"""A night for a crowd as stored: what the host chose, its players, each round's tables (each
an ordinary game of the night), and the phones that joined it by its QR code."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, select

from ..extensions import db
from .models import Crowd, CrowdPhone, CrowdPlayer, CrowdTable, Game, Night, Player, Seat


@dataclass(frozen=True)
class Table:
    """A table of a round: its number (1 the top table) and its game."""

    round: int
    number: int
    game_id: int


def add(night: Night, variant: str, settings: dict[str, Any], table_size: int, seating: str,
        moving: str, rounds: int | None, players: Sequence[Player],
        created_at: datetime | None = None) -> Crowd:
    """Store a crowd night and its players; not committed."""
    if night.id is None:
        db.session.add(night)
        db.session.flush()
    crowd = Crowd(night_id=night.id, variant=variant, settings=settings, table_size=table_size,
                  seating=seating, moving=moving, rounds=rounds)
    if created_at is not None:
        crowd.created_at = created_at
    db.session.add(crowd)
    db.session.flush()
    db.session.add_all(CrowdPlayer(crowd_id=crowd.id, player_id=p.id) for p in players)
    return crowd


def get(crowd_id: int) -> Crowd | None:
    """Return a crowd night, or None."""
    return db.session.get(Crowd, crowd_id)


def of_night(night_id: int) -> Crowd | None:
    """Return the crowd night a night is, or None (an ordinary night)."""
    return db.session.scalar(select(Crowd).where(Crowd.night_id == night_id))


def players(crowd_id: int) -> list[tuple[int, str]]:
    """Return the night's players (id, name), by name."""
    return list(db.session.execute(
        select(Player.id, Player.name).join(CrowdPlayer, CrowdPlayer.player_id == Player.id)
        .where(CrowdPlayer.crowd_id == crowd_id).order_by(Player.name_key)).tuples())


def tables(crowd_id: int, round_number: int | None = None) -> list[Table]:
    """Return the night's tables (of one round, if given), by round then table."""
    query = select(CrowdTable.round, CrowdTable.number, CrowdTable.game_id).where(
        CrowdTable.crowd_id == crowd_id)
    if round_number is not None:
        query = query.where(CrowdTable.round == round_number)
    return [Table(*row) for row in
            db.session.execute(query.order_by(CrowdTable.round, CrowdTable.number))]


def current_round(crowd_id: int) -> int:
    """Return the round being played (the last seated), 0 before the first."""
    return db.session.scalar(select(func.max(CrowdTable.round))
                             .where(CrowdTable.crowd_id == crowd_id)) or 0


def latest_round_of(crowd_id: int, player_id: int) -> int:
    """Return the latest round a player is seated at a table of (0: none): a round starts
    table by table, so theirs may not be seated yet."""
    return db.session.scalar(
        select(func.max(CrowdTable.round)).join(Seat, Seat.game_id == CrowdTable.game_id)
        .where(CrowdTable.crowd_id == crowd_id, Seat.player_id == player_id)) or 0


def stamp(crowd_id: int) -> str | None:
    """Return what changes whenever anything a board of the night shows does (a round
    seated, a game's version, the rounds decided), in one query; None when no such night."""
    row = db.session.execute(
        select(Crowd.rounds, func.max(CrowdTable.round), func.count(CrowdTable.game_id),
               func.sum(Game.version))
        .select_from(Crowd).outerjoin(CrowdTable, CrowdTable.crowd_id == Crowd.id)
        .outerjoin(Game, Game.id == CrowdTable.game_id)
        .where(Crowd.id == crowd_id).group_by(Crowd.id, Crowd.rounds)).first()
    return None if row is None else ".".join(str(part or 0) for part in row)


def add_table(crowd_id: int, round_number: int, number: int, game_id: int) -> None:
    """Store a table of a round."""
    db.session.add(CrowdTable(crowd_id=crowd_id, round=round_number, number=number,
                              game_id=game_id))


# Built once: every game's scoreboard asks (docs/performance.md).
_TABLE_OF = (select(CrowdTable.crowd_id, CrowdTable.round, CrowdTable.number)
             .where(CrowdTable.game_id == bindparam("game")))


def crowd_of_game(game_id: int) -> tuple[int, Table] | None:
    """Return the crowd night a game is a table of (its id) and the table, or None."""
    row = db.session.execute(_TABLE_OF, {"game": game_id}).first()
    return None if row is None else (row[0], Table(row[1], row[2], game_id))


def phones(crowd_id: int) -> dict[int, tuple[str, str]]:
    """Return the phones that joined the night, by player: each one's digest and label."""
    return {player_id: (phone, label) for player_id, phone, label in db.session.execute(
        select(CrowdPhone.player_id, CrowdPhone.phone, CrowdPhone.label)
        .where(CrowdPhone.crowd_id == crowd_id))}


def phone_of(crowd_id: int, player_id: int) -> CrowdPhone | None:
    """Return the phone that is this player's tonight, if any."""
    return db.session.scalar(select(CrowdPhone).where(CrowdPhone.crowd_id == crowd_id,
                                                      CrowdPhone.player_id == player_id))


def player_of(crowd_id: int, phone: str | None) -> int | None:
    """Return the player this phone is tonight, or None."""
    if not phone:
        return None
    return db.session.scalar(select(CrowdPhone.player_id).where(
        CrowdPhone.crowd_id == crowd_id, CrowdPhone.phone == phone))


def join(crowd_id: int, player_id: int, phone: str, label: str) -> None:
    """Make this phone the player's for the night, in place of any phone that was theirs
    and of any player it was."""
    db.session.execute(delete(CrowdPhone).where(
        CrowdPhone.crowd_id == crowd_id,
        (CrowdPhone.phone == phone) | (CrowdPhone.player_id == player_id)))
    db.session.flush()
    db.session.add(CrowdPhone(crowd_id=crowd_id, phone=phone, player_id=player_id,
                              label=label))


def merge_player(keeper_id: int, duplicate_id: int) -> None:
    """Give the keeper the duplicate's crowd nights (a merge on the roster)."""
    theirs = select(CrowdPlayer.crowd_id).where(CrowdPlayer.player_id == keeper_id)
    db.session.execute(delete(CrowdPlayer).where(CrowdPlayer.player_id == duplicate_id,
                                                 CrowdPlayer.crowd_id.in_(theirs)))
    db.session.execute(CrowdPlayer.__table__.update()
                       .where(CrowdPlayer.player_id == duplicate_id)
                       .values(player_id=keeper_id))
    db.session.execute(delete(CrowdPhone).where(CrowdPhone.player_id == duplicate_id))
