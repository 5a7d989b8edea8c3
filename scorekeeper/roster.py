"""The roster's statistics, read from the players' tallies with SQL: no game is replayed.

`played_games` still scores every game through the rules, as the reference the cache is
held to (tests compare the two).
"""

from __future__ import annotations

from sqlalchemy import func, select

from . import stats, variants
from .extensions import db
from .history import label
from .models import Game, Night, Player, PlayerTally, Seat
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
                         loaded[game_id].night_id, label(night) if night else "", game_id,
                         night.started_at.date() if night else None)
            for game_id, night in rows if game_id in loaded and loaded[game_id].readable]


def records() -> dict[str, stats.Record]:
    """Return every player's finished games and wins, by name (a few rows a player)."""
    rows = db.session.execute(
        select(Player.name, func.sum(PlayerTally.games), func.sum(PlayerTally.wins))
        .join(Player, Player.id == PlayerTally.player_id)
        .where(PlayerTally.kind == "variant").group_by(Player.id, Player.name))
    return {name: stats.Record(int(played), int(wins)) for name, played, wins in rows}


def player_stats(player: Player) -> stats.PlayerStats:
    """Return everything the player page shows, from the player's tallies in two queries."""
    by_kind: dict[str, list] = {}
    for row in db.session.execute(
            select(PlayerTally.kind, PlayerTally.key, PlayerTally.games, PlayerTally.wins,
                   PlayerTally.ahead, PlayerTally.behind, PlayerTally.level)
            .where(PlayerTally.player_id == player.id, PlayerTally.kind != "night")):
        by_kind.setdefault(row.kind, []).append(row)
    won = {row.key: stats.Record(row.games, row.wins) for row in by_kind.get("variant", [])}
    by_variant = {home.name: won[home.name] for home in variants.homes() if home.name in won}
    overall = stats.Record(sum(r.played for r in by_variant.values()),
                           sum(r.wins for r in by_variant.values()))
    facts = stats.Facts({row.key: row.games for row in by_kind.get("fact", [])})
    nights = _nights(player)
    return stats.PlayerStats(
        name=player.name, overall=overall, by_variant=by_variant,
        unfinished=sum(row.games for row in by_kind.get("unfinished", [])),
        hands=facts, nights=nights, best_night=stats.best_night(nights),
        head_to_head=_head_to_head(by_kind.get("versus", [])), form=stats.form(nights))


def _nights(player: Player) -> tuple[stats.NightRecord, ...]:
    """Return the player's finished games and wins per night, oldest first."""
    rows = db.session.execute(
        select(PlayerTally.night_id, PlayerTally.day, PlayerTally.games, PlayerTally.wins,
               Night.name)
        .outerjoin(Night, Night.id == PlayerTally.night_id)
        .where(PlayerTally.player_id == player.id, PlayerTally.kind == "night"))
    found = [stats.NightRecord(night_id, name or day.strftime("%a %d %b %Y"), day, games, wins)
             for night_id, day, games, wins, name in rows]
    return tuple(sorted(found, key=lambda r: (r.played_on, r.night or 0)))


def _head_to_head(rows) -> tuple[stats.HeadToHead, ...]:
    """Return, per other player, the finished games shared and who finished ahead how often."""
    names = dict(db.session.execute(select(Player.id, Player.name).where(
        Player.id.in_([int(row.key) for row in rows]))).all()) if rows else {}
    found = [stats.HeadToHead(names[int(row.key)], row.games, row.ahead, row.behind, row.level)
             for row in rows]
    return tuple(sorted(found, key=lambda h: (-h.games, h.other.casefold())))
