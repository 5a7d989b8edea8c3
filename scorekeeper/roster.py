"""The roster's statistics, read from the results cache with SQL: no game is replayed.

`played_games` still scores every game through the rules, as the reference the cache is
held to (tests compare the two).
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import aliased

from . import stats, variants
from .extensions import db
from .history import label
from .models import Game, GameResult, Night, Player, ResultFact, ResultSeat, Seat
from .storage import read_games

WON = func.sum(case((ResultSeat.won, 1), else_=0))


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


def _finished():
    """Return the join of a player's seats to the games that are over."""
    return select().select_from(ResultSeat).join(
        GameResult, and_(GameResult.game_id == ResultSeat.game_id, GameResult.over))


def records() -> dict[str, stats.Record]:
    """Return every player's finished games and wins, by name."""
    rows = db.session.execute(
        _finished().add_columns(Player.name, func.count(), WON)
        .join(Player, Player.id == ResultSeat.player_id).group_by(Player.id, Player.name))
    return {name: stats.Record(played, int(wins or 0)) for name, played, wins in rows}


def player_stats(player: Player) -> stats.PlayerStats:
    """Return everything the player page shows, from the results cache."""
    mine = ResultSeat.player_id == player.id
    by_variant_rows = dict((variant, (played, int(wins or 0))) for variant, played, wins in
                           db.session.execute(
        _finished().add_columns(Game.variant, func.count(), WON)
        .join(Game, Game.id == ResultSeat.game_id).where(mine).group_by(Game.variant)))
    by_variant = {home.name: stats.Record(*by_variant_rows[home.name])
                  for home in variants.homes() if home.name in by_variant_rows}
    overall = stats.Record(sum(r.played for r in by_variant.values()),
                           sum(r.wins for r in by_variant.values()))
    unfinished = db.session.scalar(
        select(func.count()).select_from(ResultSeat)
        .join(GameResult, GameResult.game_id == ResultSeat.game_id)
        .where(mine, GameResult.over.is_(False), GameResult.problem.is_(None))) or 0
    facts = stats.Facts(dict(db.session.execute(
        select(ResultFact.fact, func.sum(ResultFact.value))
        .where(ResultFact.player_id == player.id).group_by(ResultFact.fact)).all()))
    nights = _nights(player)
    return stats.PlayerStats(
        name=player.name, overall=overall, by_variant=by_variant, unfinished=unfinished,
        hands=facts, nights=nights, best_night=stats.best_night(nights),
        head_to_head=_head_to_head(player), form=_form(player))


def _nights(player: Player) -> tuple[stats.NightRecord, ...]:
    """Return the player's finished games and wins per night (a game with none: its day)."""
    night_key = case((Game.night_id.is_(None), -1), else_=Game.night_id)
    rows = db.session.execute(
        _finished().add_columns(Game.night_id, Night.name, Night.started_at, Game.played_on,
                                func.count(), WON, func.min(Game.created_at), func.min(Game.id))
        .join(Game, Game.id == ResultSeat.game_id)
        .outerjoin(Night, Night.id == Game.night_id)
        .where(ResultSeat.player_id == player.id)
        .group_by(night_key, Game.night_id, Night.name, Night.started_at, Game.played_on))
    grouped: dict[object, list] = {}
    for night_id, name, started, played_on, games, wins, first_at, first_id in rows:
        key = night_id if night_id is not None else ("day", played_on)
        seen = grouped.setdefault(key, [night_id, name, started, played_on, 0, 0,
                                        (played_on, first_at, first_id)])
        seen[3] = min(seen[3], played_on)
        seen[4] += games
        seen[5] += int(wins or 0)
        seen[6] = min(seen[6], (played_on, first_at, first_id))
    records = []
    for night_id, name, started, played_on, games, wins, _first in sorted(
            grouped.values(), key=lambda g: g[6]):
        shown = (name or started.strftime("%a %d %b %Y")) if night_id is not None else (
            played_on.strftime("%a %d %b %Y"))
        records.append(stats.NightRecord(night_id, shown, played_on, games, wins))
    return tuple(sorted(records, key=lambda r: r.played_on))


def _head_to_head(player: Player) -> tuple[stats.HeadToHead, ...]:
    """Return, per other player, the finished games shared and who finished ahead how often."""
    other = aliased(ResultSeat)
    rows = db.session.execute(
        _finished().add_columns(
            Player.name, func.count(),
            func.sum(case((ResultSeat.standing < other.standing, 1), else_=0)),
            func.sum(case((ResultSeat.standing > other.standing, 1), else_=0)),
            func.sum(case((ResultSeat.standing == other.standing, 1), else_=0)))
        .join(other, and_(other.game_id == ResultSeat.game_id,
                          other.player_id != ResultSeat.player_id))
        .join(Player, Player.id == other.player_id)
        .where(ResultSeat.player_id == player.id).group_by(Player.id, Player.name))
    found = [stats.HeadToHead(name, games, int(ahead), int(behind), int(level))
             for name, games, ahead, behind, level in rows]
    return tuple(sorted(found, key=lambda h: (-h.games, h.other.casefold())))


def _form(player: Player) -> tuple[tuple[date, float], ...]:
    """Return the player's win rate (in %) after each finished game, in the order played."""
    rows = db.session.execute(
        _finished().add_columns(Game.played_on, ResultSeat.won)
        .join(Game, Game.id == ResultSeat.game_id).where(ResultSeat.player_id == player.id)
        .order_by(Game.played_on, Game.created_at, Game.id))
    points, played, wins = [], 0, 0
    for played_on, won in rows:
        played, wins = played + 1, wins + int(won)
        points.append((played_on, 100 * wins / played))
    return tuple(points)
