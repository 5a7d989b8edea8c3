"""The roster in storage: games for the statistics, renaming a player, merging two entries."""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.orm import selectinload

from . import nights, rules, stats, store
from .extensions import db
from .models import Event, Game, HandEntry, Night, Player, Round, Seat


def night_label(night: Night | None) -> str:
    """Return how a night is called (its name, else its date), or "" for no night."""
    return "" if night is None else nights.label(night)


def players() -> list[Player]:
    """Return every player on the roster, by name."""
    return list(db.session.scalars(select(Player).order_by(Player.name_key)))


def stored_games(player: Player | None = None) -> list[Game]:
    """Return the stored games (only `player`'s, if given) in the order they were played."""
    query = (select(Game).options(selectinload(Game.night))
             .order_by(Game.played_on, Game.created_at, Game.id))
    if player is not None:
        query = query.where(Game.id.in_(select(Seat.game_id).where(Seat.player_id == player.id)))
    return list(db.session.scalars(query))


def played_games(player: Player | None = None) -> list[stats.Played]:
    """Return the stored games scored for the statistics, in the order they were played."""
    games = stored_games(player)
    # Plain rows in a few queries: a season's hands are too many to load as objects.
    cores = nights.core_games(games)
    return [stats.played(cores[game.id], game.played_on, game.night_id,
                         night_label(game.night), game.id)
            for game in games]


def rename(player: Player, raw: str) -> None:
    """Give a player a new name, which no one else on the roster may have in any case."""
    name = store.clean_name(raw, "name")
    key = store.name_key(name)
    other = db.session.scalar(select(Player).where(Player.name_key == key, Player.id != player.id))
    if other is not None:
        raise rules.RuleError(f"“{other.name}” is already on the roster. If they are the same "
                              "person, merge the two entries instead.", "name")
    player.name, player.name_key = name, key
    db.session.flush()


def shared_games(one: Player, other: Player) -> list[Game]:
    """Return the games both players sat in."""
    theirs = select(Seat.game_id).where(Seat.player_id == other.id)
    return list(db.session.scalars(
        select(Game).join(Seat).where(Seat.player_id == one.id, Game.id.in_(theirs))
        .order_by(Game.id)))


def games_of(player: Player) -> int:
    """Return how many games a player sat in, finished or not."""
    return db.session.scalar(select(func.count()).where(Seat.player_id == player.id)) or 0


def merge(keeper: Player, duplicate: Player) -> int:
    """Fold a duplicate roster entry into `keeper`: every seat, hand, event and corner moves
    over and the duplicate goes. Return how many games moved."""
    if keeper.id == duplicate.id:
        raise rules.RuleError("pick another entry than this player", "other")
    together = shared_games(keeper, duplicate)
    if together:
        which = ", ".join(f"game {game.id}" for game in together[:3])
        raise rules.RuleError(
            f"{keeper.name} and {duplicate.name} both sat in {which}, so they are two "
            "different people; nothing was merged.", "other")
    moved = list(db.session.scalars(select(Seat.game_id).where(Seat.player_id == duplicate.id)))
    for model, column in ((Seat, Seat.player_id), (HandEntry, HandEntry.player_id),
                          (Event, Event.player_id), (Round, Round.went_out_id),
                          (Round, Round.dragon_id)):
        db.session.execute(update(model).where(column == duplicate.id)
                           .values({column.key: keeper.id}))
    # Corners are a JSON list of player ids, so they are rewritten in Python.
    for row in db.session.scalars(select(Round).where(Round.game_id.in_(moved))):
        if duplicate.id in (row.corners or ()):
            row.corners = [keeper.id if pid == duplicate.id else pid for pid in row.corners]
    db.session.delete(duplicate)
    db.session.flush()
    db.session.expire_all()
    return len(moved)
