"""The roster in storage: names cleaned and matched, players added, renamed and merged."""

from __future__ import annotations

import unicodedata
from typing import Any

from sqlalchemy import bindparam, func, select, update

from .. import rules
from ..extensions import db
from . import crowds
from .models import Event, Game, HandEntry, Player, Round, Seat
from .named_seasons import in_season

NAME_MAX = 40
JOINERS = {"\u200c", "\u200d"}  # format characters inside emoji (👩‍🚀) and some scripts' words


def clean_name(raw: Any, field: str = "players") -> str:
    """Return a player's name trimmed and normalised, or raise RuleError naming the field."""
    if not isinstance(raw, str):
        raise rules.RuleError("a name must be text", field)
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise rules.RuleError("a name cannot be empty", field)
    # The key folds case ("ß" -> "ss"), and it must fit its column too.
    if len(name) > NAME_MAX or len(name.casefold()) > NAME_MAX:
        raise rules.RuleError("a name can be at most %(count)s characters", field,
                              count=NAME_MAX)
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch not in JOINERS:
            raise rules.RuleError("a name cannot hold %(code)s, a character that cannot be "
                                  "shown", field, code=f"U+{ord(ch):04X}")
    return name


def name_key(name: str) -> str:
    """Return the key two names share when they differ only by case or spacing."""
    return clean_name(name).casefold()


def find_player(name: str) -> Player | None:
    """Return the roster player with this name, whatever its case."""
    return db.session.scalar(select(Player).where(Player.name_key == name_key(name)))


def player_for(name: str) -> Player:
    """Return the roster player with this name, adding them to the roster if new."""
    player = find_player(name)
    if player is None:
        player = Player(name=clean_name(name), name_key=name_key(name))
        db.session.add(player)
        db.session.flush()
    return player


ROSTER = select(Player.id, Player.name).order_by(Player.name_key)


# Those who sat down to a game of the season bound (db.named_seasons.in_season).
_ROSTER_OF_SEASON = ROSTER.where(Player.id.in_(
    select(Seat.player_id).join(Game, Game.id == Seat.game_id).where(in_season(Game.played_on))))


def roster(season: dict | None = None) -> list:
    """Return every player on the roster, by name: rows of (id, name); with `season` (its
    values bound: reports.seasons.Shown.bound), those who sat down to one of its games."""
    if season is None:
        return db.session.execute(ROSTER).all()
    return db.session.execute(_ROSTER_OF_SEASON, season).all()


_ANYONE_ELSE = select(Player.id).where(Player.id != bindparam("player")).limit(1)
_ONE = select(Player.id, Player.name).where(Player.id == bindparam("player"))


def anyone_else(player: Player) -> bool:
    """Tell whether the roster holds anyone but this player (someone to merge)."""
    return (db.session.execute(_ANYONE_ELSE, {"player": player.id}).first()
            is not None)


def player_row(player_id: int):
    """Return a player's id and name as a plain row, or None: a page that only shows them
    needs no object of the session, nor its way round to the database."""
    return db.session.execute(_ONE, {"player": player_id}).first()


def rename(player: Player, raw: str) -> None:
    """Give a player a new name, which no one else on the roster may have in any case."""
    name = clean_name(raw, "name")
    key = name_key(name)
    other = db.session.scalar(select(Player).where(Player.name_key == key, Player.id != player.id))
    if other is not None:
        raise rules.RuleError("“%(name)s” is already on the roster. If they are the same "
                              "person, merge the two entries instead.", "name", name=other.name)
    player.name, player.name_key = name, key
    db.session.flush()


def shared_games(one: Player, other: Player) -> list[int]:
    """Return the ids of the games both players sat in."""
    theirs = select(Seat.game_id).where(Seat.player_id == other.id)
    return list(db.session.scalars(
        select(Game.id).join(Seat).where(Seat.player_id == one.id, Game.id.in_(theirs))
        .order_by(Game.id)))


def games_of(player: Player) -> int:
    """Return how many games a player sat in, finished or not."""
    return db.session.scalar(select(func.count()).where(Seat.player_id == player.id)) or 0


def merge(keeper: Player, duplicate: Player) -> int:
    """Fold a duplicate roster entry into `keeper`: every seat, hand, event and corner moves
    over and the duplicate goes. Return how many games moved. What is derived from the
    duplicate's games is the caller's to forget first (play.changing: `Change.games`)."""
    if keeper.id == duplicate.id:
        raise rules.RuleError("pick another entry than this player", "other")
    together = shared_games(keeper, duplicate)
    if together:
        games = ", ".join(str(game_id) for game_id in together[:3])
        said = (rules.Word("%(one)s and %(other)s both sat in game %(games)s, so they are two "
                           "different people; nothing was merged.") if len(together) == 1 else
                rules.Word("%(one)s and %(other)s both sat in games %(games)s, so they are two "
                           "different people; nothing was merged."))
        raise rules.RuleError(said, "other", one=keeper.name, other=duplicate.name, games=games)
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
    db.session.flush()
    crowds.merge_player(keeper.id, duplicate.id)
    db.session.delete(duplicate)
    db.session.flush()
    db.session.expire_all()
    return len(moved)
