"""The roster's statistics: every stored game scored, in the order they were played."""

from __future__ import annotations

from sqlalchemy import select

from . import stats
from .extensions import db
from .history import label
from .models import Game, Night, Player, Seat
from .storage import read_games


def played_games(player: Player | None = None) -> list[stats.Played]:
    """Return the stored games (only `player`'s, if given) scored, in the order played."""
    query = (select(Game.id, Night).outerjoin(Night, Game.night_id == Night.id)
             .order_by(Game.played_on, Game.created_at, Game.id))
    if player is not None:
        query = query.where(Game.id.in_(select(Seat.game_id).where(Seat.player_id == player.id)))
    rows = db.session.execute(query).all()
    loaded = read_games(game_id for game_id, _ in rows)
    # A game the rules refuse as stored has no result to count until it is repaired.
    return [stats.Played(loaded[game_id].core, loaded[game_id].result, loaded[game_id].played_on,
                         loaded[game_id].night_id, label(night) if night else "", game_id)
            for game_id, night in rows if game_id in loaded and loaded[game_id].readable]
