"""The table's records and each player's personal bests, per variant, from the results cache.

A record is the most of a best a player set in one game (`result_best`: the most kings left
in one hand, the biggest pot won, the biggest comeback, the most 5–0 deals in a match): each
variant's `record_lines` say which. Worked out from the hands as entered, so a correction of
an old hand or a deleted game changes the records with the cache.

Ties: a record belongs to the first to set it, in the order games were played (their day,
when each was started, their number; two players in the same game, the one on the roster
first). Equalling it later does not take it: a player's page says "equals the record".

Each is the top of an index (`ix_result_best_records`, `ix_result_best_player`): one
statement for all of a variant's records, or all of a player's, whatever the history.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from flask_babel import gettext
from sqlalchemy import bindparam, case, func, literal, select, tuple_, union_all

from .. import variants
from ..db.models import Game, Night, Player, ResultBest
from ..db.named_seasons import in_season
from ..extensions import db
from ..variants import RecordLine
from ..words import day
from .calendar import Shown


@dataclass(frozen=True)
class Best:
    """A best set in one game: what it is, how much, who set it, in which game and night."""

    variant: str
    fact: str
    label: str  # "Most kings left in one hand", in the page's language
    value: int
    said: str  # the value in words: "3 kings"
    player_id: int
    name: str
    game_id: int
    night_id: int | None
    night: str  # the night's name, else the day the game was played
    played_on: date


@dataclass(frozen=True)
class PlayerBest:
    """A player's personal best, and where it stands against the table's record: "holds"
    (they set the record), "equals" (the same value, set after), or ""."""

    best: Best
    record: str


def _lines(variant: str | None = None) -> list[tuple[str, RecordLine]]:
    """Return every (variant, record line) there is, in the registry's order."""
    return [(home.name, line) for home in variants.homes()
            if variant in (None, home.name) for line in home.record_lines]


# The statements are built once for each shape (which variant, which days are given or a
# season, the table's or a player's) and the days, the season and the player bound when they
# run: building them costs ten times what SQLite takes to answer them.
FIRST_DAY, LAST_DAY, PLAYER = (bindparam("first_day"), bindparam("last_day"),
                               bindparam("player"))


def _top(variant: str, fact: str, *, player: bool = False, first: bool = False,
         last: bool = False, season: bool = False):
    """Return the statement of the first best that is the most of `fact` in `variant` (a
    player's own; between two days; in the season bound): the most, read from the top of
    the index, then the first to set it, the first entry of that value in the same index."""
    where = [ResultBest.variant == variant, ResultBest.fact == fact]
    if player:
        where.append(ResultBest.player_id == PLAYER)
    if first:
        where.append(ResultBest.played_on >= FIRST_DAY)
    if last:
        where.append(ResultBest.played_on <= LAST_DAY)
    if season:
        where.append(in_season(ResultBest.played_on))
    most = (select(ResultBest.value).where(*where).order_by(ResultBest.value.desc()).limit(1)
            .scalar_subquery())
    return (select(ResultBest.variant, ResultBest.fact, ResultBest.value, ResultBest.player_id,
                   ResultBest.game_id, ResultBest.played_on, literal(player).label("mine"))
            .where(*where, ResultBest.value == most)
            .order_by(ResultBest.played_on, ResultBest.created_at, ResultBest.game_id,
                      ResultBest.player_id).limit(1))


@lru_cache(maxsize=64)  # built once: a union of every record line (docs/performance.md)
def _statement(variant: str | None, player: bool, first: bool, last: bool, season: bool):
    """Return the one statement of the table's records (and a player's bests, with
    `player`), each with its player's and night's names."""
    lines = _lines(variant)
    tops = [_top(name, line.fact, first=first, last=last, season=season)
            for name, line in lines]
    if player:
        tops += [_top(name, line.fact, player=True, first=first, last=last, season=season)
                 for name, line in lines]
    found = union_all(*(select(top.subquery()) for top in tops)).subquery()
    return (select(found, Game.night_id, Player.name, Night.name.label("night_name"))
            .join(Game, Game.id == found.c.game_id)
            .join(Player, Player.id == found.c.player_id)
            .outerjoin(Night, Night.id == Game.night_id))


def _read(variant: str | None, player_id: int | None, first_day: date | None,
          last_day: date | None, season: Shown | None = None) -> list:
    """Return the rows of the table's records (and a player's bests)."""
    if not _lines(variant):
        return []
    bound = season.bound if season is not None else None
    statement = _statement(variant, player_id is not None, first_day is not None,
                           last_day is not None, bound is not None)
    return db.session.execute(statement, {"player": player_id,
                                          "first_day": first_day,
                                          "last_day": last_day,
                                          **(bound or {})}).all()


def _best(row, lines: dict[tuple[str, str], RecordLine]) -> Best:
    line = lines[row.variant, row.fact]
    return Best(row.variant, row.fact, gettext(line.label), row.value, line.said(row.value),
                row.player_id, row.name, row.game_id, row.night_id,
                row.night_name or day(row.played_on), row.played_on)


def _grouped(bests, lines: list[tuple[str, RecordLine]], key) -> dict[str, list]:
    """Return bests by variant, in the registry's order and each variant's own."""
    order = {(variant, line.fact): index for index, (variant, line) in enumerate(lines)}
    grouped: dict[str, list] = {}
    for best in sorted(bests, key=lambda b: order[key(b).variant, key(b).fact]):
        grouped.setdefault(key(best).variant, []).append(best)
    return grouped


def records(variant: str | None = None, first_day: date | None = None,
            last_day: date | None = None, season: Shown | None = None) -> dict[str, list[Best]]:
    """Return the table's records by variant (of one variant, with `variant`; set between
    two days, both counted, with `first_day` and `last_day`; or in a season, however its
    days are cut), each held by the first to set it: one statement."""
    lines = _lines(variant)
    rows = _read(variant, None, first_day, last_day, season)
    said = {(name, line.fact): line for name, line in lines}
    return _grouped((_best(row, said) for row in rows), lines, lambda b: b)


def player_records(player_id: int, first_day: date | None = None,
                   last_day: date | None = None,
                   season: Shown | None = None) -> dict[str, list[PlayerBest]]:
    """Return a player's personal bests by variant (set between two days, with `first_day`
    and `last_day`; or in a season), each marked where it is the table's record or equals
    it: one statement, the player's bests and the table's records read together."""
    lines = _lines()
    rows = _read(None, player_id, first_day, last_day, season)
    said = {(name, line.fact): line for name, line in lines}
    table = {(row.variant, row.fact): row for row in rows if not row.mine}
    mine = []
    for row in rows:
        if not row.mine:
            continue
        record = table[row.variant, row.fact]
        mark = ("holds" if (record.game_id, record.player_id) == (row.game_id, player_id)
                else "equals" if record.value == row.value else "")
        mine.append(PlayerBest(_best(row, said), mark))
    return _grouped(mine, lines, lambda b: b.best)


def told(best: Best) -> str:
    """Return a record set as the story of its night tells it ("Ann was left holding 3
    kings in one hand: the table's penalty points record")."""
    home = variants.get(best.variant)
    line = next(line for line in home.record_lines if line.fact == best.fact)
    return gettext(line.feat, name=best.name, value=best.said,
                   variant=gettext(home.in_a_sentence))


FEW = 16  # games of a variant before one: its bests are read game by game, not by value


def _most_before(best):
    """Return the most of a best's kind set before its game (None if none was), for a best
    of an enclosing statement (its variant, fact and game's key).

    From the top of the records' index down to the first best set before the key: after a
    few games of its variant that is soon found, but before the first nights there is little
    or nothing to find and every best of its kind would be read. So while fewer than FEW
    games of the variant came before, their bests are read game by game instead (each from
    the game's own key), whichever way the database would join them: a CASE, of which the
    database works out one side."""
    key = tuple_(best.played_on, best.created_at, best.game_id)
    earlier = (Game.variant == best.variant,
               tuple_(Game.played_on, Game.created_at, Game.id) < key)
    few = ~select(Game.id).where(*earlier).limit(1).offset(FEW - 1).exists()
    game_by_game = select(func.max(
        select(func.max(ResultBest.value))
        .where(ResultBest.game_id == Game.id, ResultBest.fact == best.fact)
        .correlate_except(ResultBest).scalar_subquery())).where(*earlier).scalar_subquery()
    from_the_top = (select(ResultBest.value)
                    .where(ResultBest.variant == best.variant, ResultBest.fact == best.fact,
                           tuple_(ResultBest.played_on, ResultBest.created_at,
                                  ResultBest.game_id) < key)
                    .order_by(ResultBest.value.desc()).limit(1).scalar_subquery())
    return case((few, game_by_game), else_=from_the_top)


# The night's most of each kind of best (the first, of equals: as a record is held), with
# its player's and the night's names, and the most of its kind set before it: one statement.
_TONIGHT = (select(ResultBest.variant, ResultBest.fact, ResultBest.value, ResultBest.player_id,
                   ResultBest.game_id, ResultBest.played_on, ResultBest.created_at,
                   Game.night_id, Player.name, Night.name.label("night_name"),
                   func.row_number().over(
                       partition_by=(ResultBest.variant, ResultBest.fact),
                       order_by=(ResultBest.value.desc(), ResultBest.played_on,
                                 ResultBest.created_at, ResultBest.game_id,
                                 ResultBest.player_id)).label("rank"))
            .join(Game, Game.id == ResultBest.game_id)
            .join(Player, Player.id == ResultBest.player_id)
            .join(Night, Night.id == Game.night_id)
            .where(Game.night_id == bindparam("night")).subquery())
NIGHT_RECORDS = (select(*(column for column in _TONIGHT.c if column.name != "rank"),
                        _most_before(_TONIGHT.c).label("before"))
                 .where(_TONIGHT.c.rank == 1))


def night_records(night_id: int) -> list[Best]:
    """Return the table's records set on a night: for each record, the night's most of it
    (the first, of equals) where it beats every game played before it; a record set in the
    first game of its variant, with nothing to beat, is not counted. One statement."""
    lines = _lines()
    said = {(name, line.fact): line for name, line in lines}
    beaten = [_best(row, said) for row in
              db.session.execute(NIGHT_RECORDS, {"night": night_id}).all()
              if (row.variant, row.fact) in said and row.before is not None
              and row.value > row.before]
    return [best for bests in _grouped(beaten, lines, lambda b: b).values() for best in bests]
