"""Game nights: which night a new game joins, renaming a night, moving a game to another.

A game started within 12 hours of the latest night's last hand joins that night, so a night
that runs past midnight stays one night; otherwise a new night begins. A night for a crowd
holds its tables' games alone: a game started another way never joins it. A game dated another
day (an imported game log) joins the night of that day, never tonight's.
"""

from __future__ import annotations

import unicodedata
from datetime import date, datetime, time, timedelta

from sqlalchemy import bindparam, func, or_, select, union_all

from .. import rules
from ..extensions import db
from .models import Crowd, Game, Night, Round

NIGHT_GAP = timedelta(hours=12)
NAME_MAX = 80
NOTES_MAX = 5000


def is_live(game: Game) -> bool:
    """Tell whether a game was played as it was entered (not imported with another date)."""
    return game.created_at is None or game.played_on == game.created_at.date()


def started_at(game: Game) -> datetime:
    """Return when a game began: when it was entered, or the start of its day if back-dated."""
    if game.created_at is not None and is_live(game):
        return game.created_at
    return datetime.combine(game.played_on, time())


def last_hand_at(night: Night) -> datetime:
    """Return when the night's last hand was recorded, or its start if it has none.

    Hands of a back-dated game are left out: they were stored when it was imported,
    not when they were played.
    """
    rows = db.session.execute(
        select(Game.played_on, Game.created_at, func.max(Round.created_at))
        .outerjoin(Round, Round.game_id == Game.id)
        .where(Game.night_id == night.id).group_by(Game.id, Game.played_on, Game.created_at))
    last = night.started_at
    for played_on, created_at, hand_at in rows:
        if hand_at is not None and created_at is not None and played_on == created_at.date():
            last = max(last, hand_at)
    return last


def night_for(when: datetime, played_on: date | None = None) -> Night:
    """Return the night a game started at `when` joins (and played on `played_on`).

    The latest night that began by `when` is joined if its last hand was at most
    12 hours before; otherwise a new night begins. A game dated another day than
    `when` joins that day's night instead.
    """
    if played_on is not None and played_on != when.date():
        return night_on(played_on)
    night = db.session.scalar(select(Night).where(Night.started_at <= when, ~Night.id.in_(
        select(Crowd.night_id))).order_by(Night.started_at.desc(), Night.id.desc()).limit(1))
    if night is not None and when - last_hand_at(night) <= NIGHT_GAP:
        return night
    night = Night(started_at=when)
    db.session.add(night)
    return night


def night_on(day: date) -> Night:
    """Return the latest night that began on `day` or holds a game played that day, or a new one."""
    start = datetime.combine(day, time())
    began_that_day = (Night.started_at >= start) & (Night.started_at < start + timedelta(days=1))
    night = db.session.scalar(
        select(Night).where(or_(began_that_day, Night.games.any(Game.played_on == day)),
                            ~Night.id.in_(select(Crowd.night_id)))
        .order_by(Night.started_at.desc(), Night.id.desc()).limit(1))
    if night is None:
        night = Night(started_at=start)
        db.session.add(night)
    return night


def clean_text(raw: str | None, limit: int, field: str, one_line: bool) -> str | None:
    """Return typed text trimmed (None when empty), or raise RuleError naming the field."""
    text = unicodedata.normalize("NFC", raw or "")
    text = " ".join(text.split()) if one_line else text.replace("\r\n", "\n").strip()
    if len(text) > limit:
        raise rules.RuleError("can be at most %(limit)s characters, not %(count)s", field,
                              limit=limit, count=len(text))
    allowed = {"\n", "\t"} if not one_line else set()
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch not in allowed
           for ch in text):
        raise rules.RuleError("has a character that cannot be shown", field)
    return text or None


def rename(night: Night, name: str | None, notes: str | None) -> None:
    """Give a night a name and notes (empty clears them); raise RuleError naming the field."""
    cleaned_name = clean_text(name, NAME_MAX, "name", one_line=True)
    cleaned_notes = clean_text(notes, NOTES_MAX, "notes", one_line=False)
    night.name, night.notes = cleaned_name, cleaned_notes


def is_empty(night: Night) -> bool:
    """Tell whether a night holds no game and nothing typed, so it can go."""
    return not night.games and not night.name and not night.notes


def move_game(game: Game, target: Night | None) -> Night:
    """Move a game to another night, or to a new night of its own when `target` is None.

    The night it leaves is removed if that leaves it with no game, name or notes.
    Return the night the game is now in.
    """
    source = game.night
    if target is None:
        target = Night(started_at=started_at(game))
        db.session.add(target)
    elif target is source:
        raise rules.RuleError("the game is already in this night", "night")
    game.night = target
    db.session.flush()
    if source is not None and is_empty(source):
        db.session.delete(source)
    return target


def neighbours(night: Night, each_side: int = 3) -> list[Night]:
    """Return the nights just before and after this one, newest first (where a game may move)."""
    newer, older = _neighbours(Night)
    at = {"started": night.started_at, "id": night.id, "each_side": each_side}
    return (list(reversed(db.session.scalars(newer, at).all()))
            + list(db.session.scalars(older, at)))


ROW = (Night.id, Night.started_at, Night.name, Night.notes)  # a night as pages show it

def _neighbours(*columns):
    """Return the statements finding the nights after and before one."""
    started, night_id, limit = bindparam("started"), bindparam("id"), bindparam("each_side")
    newer = (select(*columns).where(listed(), Night.id != night_id, or_(
        Night.started_at > started, (Night.started_at == started) & (Night.id > night_id)))
        .order_by(Night.started_at, Night.id).limit(limit))
    older = (select(*columns).where(listed(), Night.id != night_id, or_(
        Night.started_at < started, (Night.started_at == started) & (Night.id < night_id)))
        .order_by(Night.started_at.desc(), Night.id.desc()).limit(limit))
    return newer, older


def _whereabouts():
    """Return the statements a game's page reads its night with: the night with
    its games and how many of them come no later than the game; and the nights either side
    of it (where the game may move), each with its games, newest first."""
    def games(up_to=None):
        held = select(func.count(Game.id)).where(Game.night_id == Night.id)
        return (held if up_to is None else held.where(Game.id <= up_to)).scalar_subquery()

    night = select(*ROW, games(), games(bindparam("game"))).where(Night.id == bindparam("id"))
    newer, older = _neighbours(*ROW, games())
    either = union_all(select(newer.subquery()), select(older.subquery())).subquery()
    return night, select(either).order_by(either.c.started_at.desc(), either.c.id.desc())


def night_of(night_id: int, game_id: int):
    """Return a night as plain columns (ROW) with how many games it holds and how many of
    them come no later than `game_id` (which game of its night that one is), or None."""
    return db.session.execute(_NIGHT_OF, {"id": night_id, "game": game_id}).first()


def neighbours_counted(night, each_side: int = 3) -> list:
    """Return `neighbours` of a night (a ROW) as plain columns (ROW) with how many games
    each holds, newest first, in one statement."""
    at = {"started": night.started_at, "id": night.id, "each_side": each_side}
    return db.session.execute(_EITHER_SIDE, at).all()


def listed(night=Night):
    """Return the condition that a night (or an alias of it) is listed: it holds a game, a
    name or notes. Its games asked of their index as an IN, which SQLite answers from the
    index for each night it reads (an EXISTS is a subquery run for each: a third slower
    over every night, as for a page far back). A game in no night makes the IN unknown,
    not true, for a night it is not in: the same."""
    return or_(night.id.in_(select(Game.night_id)), night.name.is_not(None),
               night.notes.is_not(None))


# Built once (docs/performance.md): a game's page asks both.
_NIGHT_OF, _EITHER_SIDE = _whereabouts()
