"""The roster's and a player's figures, summed by the database from the results cache: no
game is replayed.

`played_games` still scores every game through the rules, as the reference the cache is
held to (tests compare the two).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

from sqlalchemy import bindparam, case, func, select
from sqlalchemy.orm import aliased

from .. import variants
from ..db import read_games
from ..db.models import Game, GameResult, Night, Player, ResultFact, ResultSeat, Seat
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


# A finished game the rules accept: what the figures count.
FINISHED = GameResult.over.is_(True) & GameResult.problem.is_(None)
# The player page's statements, built once: the player's id is bound when they run.
PLAYER = bindparam("player")
RECORDS = (select(Player.name, func.count(), func.sum(case((ResultSeat.won, 1), else_=0)))
           .join(ResultSeat, ResultSeat.player_id == Player.id)
           .join(GameResult, GameResult.game_id == ResultSeat.game_id)
           .where(FINISHED).group_by(Player.id, Player.name))
BY_VARIANT = (select(Game.variant, func.count(), func.sum(case((ResultSeat.won, 1), else_=0)))
              .join(ResultSeat, ResultSeat.game_id == Game.id)
              .join(GameResult, GameResult.game_id == Game.id)
              .where(ResultSeat.player_id == PLAYER, FINISHED).group_by(Game.variant))
UNFINISHED = (select(func.count()).select_from(ResultSeat)
              .join(GameResult, GameResult.game_id == ResultSeat.game_id)
              .where(ResultSeat.player_id == PLAYER, GameResult.over.is_(False),
                     GameResult.problem.is_(None)))
FACTS = (select(ResultFact.fact, func.sum(ResultFact.value))
         .where(ResultFact.player_id == PLAYER).group_by(ResultFact.fact))
# Per night (a game outside any night counts on its own day): games, wins, when it began.
_DAY = case((Game.night_id.is_(None), Game.played_on))
NIGHTS = (select(Game.night_id, _DAY, func.min(Night.started_at), func.min(Night.name),
                 func.count(), func.sum(case((ResultSeat.won, 1), else_=0)))
          .join(ResultSeat, ResultSeat.game_id == Game.id)
          .join(GameResult, GameResult.game_id == Game.id)
          .outerjoin(Night, Night.id == Game.night_id)
          .where(ResultSeat.player_id == PLAYER, FINISHED).group_by(Game.night_id, _DAY))
# Finished games shared with each other player, and who finished ahead (lower standing).
_OTHER = aliased(ResultSeat)
VERSUS = (select(_OTHER.player_id, Player.name, func.count(),
                 func.sum(case((ResultSeat.standing < _OTHER.standing, 1), else_=0)),
                 func.sum(case((ResultSeat.standing > _OTHER.standing, 1), else_=0)),
                 func.sum(case((ResultSeat.standing == _OTHER.standing, 1), else_=0)))
          .join(_OTHER, (_OTHER.game_id == ResultSeat.game_id)
                & (_OTHER.player_id != ResultSeat.player_id))
          .join(GameResult, GameResult.game_id == ResultSeat.game_id)
          .join(Player, Player.id == _OTHER.player_id)
          .where(ResultSeat.player_id == PLAYER, FINISHED)
          .group_by(_OTHER.player_id, Player.name))


def records() -> dict[str, stats.Record]:
    """Return every player's finished games and wins, by name."""
    return {name: stats.Record(int(played), int(wins or 0))
            for name, played, wins in db.session.execute(RECORDS)}


def player_stats(player: Player) -> stats.PlayerStats:
    """Return everything the player page shows, summed by the database from the results
    cache: one grouped query for each part of the page, whatever the history."""
    mine = {"player": player.id}
    run = db.session.connection().execute
    won = {variant: stats.Record(int(games), int(wins or 0))
           for variant, games, wins in run(BY_VARIANT, mine)}
    by_variant = {home.name: won[home.name] for home in variants.homes() if home.name in won}
    overall = stats.Record(sum(r.played for r in by_variant.values()),
                           sum(r.wins for r in by_variant.values()))
    # Labelled once picked: a night's label (its date, in the page's language) is shown
    # only for the best night.
    nights = sorted(
        (stats.NightRecord(night_id, name or "", day_of(started, alone), int(games),
                           int(wins or 0))
         for night_id, alone, started, name, games, wins in run(NIGHTS, mine)),
        key=lambda r: (r.played_on, r.night or 0))
    best = stats.best_night(nights)
    if best is not None and not best.label:
        best = replace(best, label=day(best.played_on))
    versus = [stats.HeadToHead(name, int(games), int(ahead), int(behind), int(level), other)
              for other, name, games, ahead, behind, level in run(VERSUS, mine)]
    return stats.PlayerStats(
        name=player.name, overall=overall, by_variant=by_variant,
        unfinished=run(UNFINISHED, mine).scalar(),
        hands=stats.Facts({fact: int(value) for fact, value in run(FACTS, mine)}),
        nights=len(nights), best_night=best,
        head_to_head=tuple(sorted(versus, key=lambda h: (-h.games, h.other.casefold()))),
        form=stats.sampled(stats.form(nights)))


def day_of(started: datetime | str | None, alone: date | str | None) -> date:
    """Return the day a night began (or the day of a game outside any night), as a date
    whichever way the database handed it back."""
    if started is not None:
        return (started if isinstance(started, datetime)
                else datetime.fromisoformat(str(started))).date()
    return alone if isinstance(alone, date) else date.fromisoformat(str(alone))
