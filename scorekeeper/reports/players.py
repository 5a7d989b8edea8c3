"""The roster's statistics, read from the players' tallies with SQL: no game is replayed.

`played_games` still scores every game through the rules, as the reference the cache is
held to (tests compare the two).
"""

from __future__ import annotations

from sqlalchemy import bindparam, func, select

from .. import variants
from ..db import read_games
from ..db.models import Game, Night, Player, PlayerTally, Seat
from ..extensions import db
from ..words import day
from . import stats
from .history import label


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


# The player page's statements, built once: a player id and the nights picked for the chart
# are bound when they run, so nothing is built or compiled again per visit.
PLAYER = bindparam("player")
NIGHTS = (PlayerTally.player_id == PLAYER, PlayerTally.kind == "night")
FIGURES = (select(PlayerTally.kind, PlayerTally.key, PlayerTally.games, PlayerTally.wins,
                  PlayerTally.ahead, PlayerTally.behind, PlayerTally.level)
           .where(PlayerTally.player_id == PLAYER, PlayerTally.kind != "night"))
NIGHT_COUNT = select(func.count()).select_from(PlayerTally).where(*NIGHTS)
# The night with the most wins; a tie goes to the better win rate, then the later night
# (as `stats.best_night` says).
BEST_NIGHT = (
    select(PlayerTally.night_id, PlayerTally.day, PlayerTally.games, PlayerTally.wins,
           Night.name).outerjoin(Night, Night.id == PlayerTally.night_id)
    .where(*NIGHTS, PlayerTally.wins > 0)
    .order_by(PlayerTally.wins.desc(), (PlayerTally.wins * 1.0 / PlayerTally.games).desc(),
              PlayerTally.day.desc(), func.coalesce(PlayerTally.night_id, 0).desc()).limit(1))
# A day's games (no night) before that day's nights, as `stats.night_records` orders them;
# ix_player_tally_nights gives this order without a sort.
_ORDER = (PlayerTally.day, PlayerTally.night_id.nulls_first())
_RUNNING = select(
    PlayerTally.day,
    func.sum(PlayerTally.wins).over(order_by=_ORDER, rows=(None, 0)).label("wins"),
    func.sum(PlayerTally.games).over(order_by=_ORDER, rows=(None, 0)).label("games"),
    func.row_number().over(order_by=_ORDER).label("n")).where(*NIGHTS).subquery()
# The win rate after each night, at the nights `stats.spread` picks: the database sums as it
# goes and hands back only those.
FORM = (select(_RUNNING.c.day, _RUNNING.c.wins, _RUNNING.c.games)
        .where(_RUNNING.c.n.in_(bindparam("picked", expanding=True))).order_by(_RUNNING.c.n))


def player_stats(player: Player) -> stats.PlayerStats:
    """Return everything the player page shows, from the player's tallies."""
    mine = {"player": player.id}
    by_kind: dict[str, list] = {}
    for row in db.session.connection().execute(FIGURES, mine):
        by_kind.setdefault(row.kind, []).append(row)
    won = {row.key: stats.Record(row.games, row.wins) for row in by_kind.get("variant", [])}
    by_variant = {home.name: won[home.name] for home in variants.homes() if home.name in won}
    overall = stats.Record(sum(r.played for r in by_variant.values()),
                           sum(r.wins for r in by_variant.values()))
    nights = db.session.scalar(NIGHT_COUNT, mine)
    best = db.session.connection().execute(BEST_NIGHT, mine).first()
    picked = [i + 1 for i in stats.spread(nights)]
    form = db.session.connection().execute(FORM, {**mine, "picked": picked})
    return stats.PlayerStats(
        name=player.name, overall=overall, by_variant=by_variant,
        unfinished=sum(row.games for row in by_kind.get("unfinished", [])),
        hands=stats.Facts({row.key: row.games for row in by_kind.get("fact", [])}),
        nights=nights, best_night=best and stats.NightRecord(
            best.night_id, best.name or day(best.day), best.day,
            best.games, best.wins),
        head_to_head=_head_to_head(by_kind.get("versus", [])),
        form=tuple((day, 100 * int(wins) / int(games)) for day, wins, games in form))


def _head_to_head(rows) -> tuple[stats.HeadToHead, ...]:
    """Return, per other player, the finished games shared and who finished ahead how often."""
    names = dict(db.session.execute(select(Player.id, Player.name).where(
        Player.id.in_([int(row.key) for row in rows]))).all()) if rows else {}
    found = [stats.HeadToHead(names[int(row.key)], row.games, row.ahead, row.behind, row.level,
                              int(row.key)) for row in rows]
    return tuple(sorted(found, key=lambda h: (-h.games, h.other.casefold())))
