"""Each player's figures summed over their games (PlayerTally), kept up to date by difference.

A game adds to its players' tallies: a finished game a game and maybe a win in its variant
and its night, a meeting with each other player and who finished ahead, and its hand facts;
a game still being played counts as unfinished. When a game changes, what it added before
is taken away and what it adds now is added, in the same transaction: `counted` reads what
a set of games adds from the results cache, and `apply` writes the difference. The roster
and a player's page then read a few rows, whatever the history.

Adding is done in the database (`games = games + n`, inserting the row if there is none),
so two games finishing at once on different phones never lose each other's count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import date
from functools import cache

from sqlalchemy import bindparam, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from . import stamp
from .models import Game, GameResult, Night, PlayerTally, ResultFact, ResultSeat

COUNTS = ("games", "wins", "ahead", "behind", "level")
Key = tuple[int, str, str]  # (player id, kind, key)


class Counted:
    """What some games add to their players' tallies: counts by row, and where nights fall."""

    def __init__(self) -> None:
        self.counts: dict[Key, Counter[str]] = {}
        self.where: dict[Key, tuple[int | None, date | None]] = {}
        # Each game read's variant, night, night's date and day (as `where_games_are` says).
        self.placed: dict[int, tuple] = {}

    def add(self, key: Key, night: tuple[int | None, date | None] = (None, None),
            **counts: int) -> None:
        """Add counts to one row."""
        self.counts.setdefault(key, Counter()).update(counts)
        self.where.setdefault(key, night)

    def game(self, result: dict, seats: Sequence[dict], facts: Sequence[dict], variant: str,
             night_id: int | None, night_day: date | None, played_on: date) -> None:
        """Add what one game adds, from its cache rows (as the results cache writes them)."""
        for fact in facts:
            self.add((fact["player_id"], "fact", fact["fact"]), games=fact["value"])
        if result["problem"] is not None:
            return  # a game the rules refuse counts for nothing until it is repaired
        if not result["over"]:
            for seat in seats:
                self.add((seat["player_id"], "unfinished", ""), games=1)
            return
        night = (night_id, night_day) if night_id is not None else (None, played_on)
        night_key = f"n{night_id}" if night_id is not None else f"d{played_on.isoformat()}"
        for seat in seats:
            player, won = seat["player_id"], int(seat["won"])
            self.add((player, "variant", variant), games=1, wins=won)
            self.add((player, "night", night_key), night, games=1, wins=won)
            for other in seats:
                if other is not seat:
                    mine, theirs = seat["standing"], other["standing"]
                    self.add((player, "versus", str(other["player_id"])), games=1,
                             ahead=int(mine < theirs), behind=int(mine > theirs),
                             level=int(mine == theirs))


# Statements built once (a hand is saved every minute or so): ids and rows are bound when
# they run, so nothing is compiled again.
_IDS = bindparam("ids", expanding=True)
WHERE_GAMES_ARE = (select(Game.id, Game.variant, Game.night_id, Game.played_on, Night.started_at)
                   .outerjoin(Night, Night.id == Game.night_id).where(Game.id.in_(_IDS)))
SEATS = select(ResultSeat.game_id, ResultSeat.player_id, ResultSeat.won,
               ResultSeat.standing).where(ResultSeat.game_id.in_(_IDS))
FACTS = select(ResultFact.game_id, ResultFact.player_id, ResultFact.fact,
               ResultFact.value).where(ResultFact.game_id.in_(_IDS))
RESULTS = (select(GameResult.game_id, GameResult.over, GameResult.problem, Game.variant,
                  Game.night_id, Game.played_on, Night.started_at)
           .join(Game, Game.id == GameResult.game_id)
           .outerjoin(Night, Night.id == Game.night_id).where(GameResult.game_id.in_(_IDS)))
_TABLE = PlayerTally.__table__
_ROW = (_TABLE.c.player_id == bindparam("p"), _TABLE.c.kind == bindparam("k"),
        _TABLE.c.key == bindparam("w"))
# A row back at nothing goes: a night a player no longer played in is not a night of theirs.
GONE = _TABLE.delete().where(*_ROW, *(_TABLE.c[name] == 0 for name in COUNTS))


@cache
def _add(dialect: str):
    """Return the statement adding to a tally row, inserting it if there is none."""
    insert = (postgresql if dialect == "postgresql" else sqlite).insert(_TABLE)
    return insert.on_conflict_do_update(
        index_elements=["player_id", "kind", "key"],
        set_={name: _TABLE.c[name] + insert.excluded[name] for name in COUNTS})


def where_games_are(game_ids: Sequence[int], session=None) -> dict[int, tuple]:
    """Return each game's variant, night, the night's date and the day it was played."""
    session = session or db.session
    return {row.id: (row.variant, row.night_id,
                     row.started_at.date() if row.started_at else None, row.played_on)
            for row in session.execute(WHERE_GAMES_ARE, {"ids": list(game_ids)})}


def counted(game_ids: Iterable[int], session=None) -> Counted:
    """Return what these games add now, read from the results cache in three queries."""
    session = session or db.session
    ids = {"ids": list(game_ids)}
    out = Counted()
    if not ids["ids"]:
        return out
    seats: dict[int, list[dict]] = {}
    for row in session.execute(SEATS, ids):
        seats.setdefault(row.game_id, []).append(row._asdict())
    facts: dict[int, list[dict]] = {}
    for row in session.execute(FACTS, ids):
        facts.setdefault(row.game_id, []).append(row._asdict())
    for row in session.execute(RESULTS, ids):
        placed = (row.variant, row.night_id, row.started_at.date() if row.started_at else None,
                  row.played_on)
        out.placed[row.game_id] = placed
        out.game({"over": row.over, "problem": row.problem}, seats.get(row.game_id, []),
                 facts.get(row.game_id, []), *placed)
    return out


def apply(before: Counted, after: Counted, session=None) -> None:
    """Write the difference between what games added before a change and what they add now."""
    session = session or db.session
    rows = []
    # In one order, the same for every transaction: two games changing one player's rows at
    # once then lock them in the same order and one waits for the other, where in the order
    # of a set PostgreSQL could find each waiting on the other (a deadlock, one save lost).
    for key in sorted(before.counts.keys() | after.counts.keys()):
        change = Counter(after.counts.get(key, Counter()))
        change.subtract(before.counts.get(key, Counter()))
        if any(change.values()):
            night_id, day = after.where.get(key) or before.where[key]
            rows.append({"player_id": key[0], "kind": key[1], "key": key[2],
                         "night_id": night_id, "day": day,
                         **{name: change[name] for name in COUNTS}})
    if not rows:
        return
    connection = session.connection()
    stamp.wrote(session)  # written on the connection, where the session does not see it
    connection.execute(_add(connection.dialect.name), rows)
    connection.execute(GONE, [{"p": row["player_id"], "k": row["kind"], "w": row["key"]}
                              for row in rows])


def rebuild(session=None, batch: int = 500) -> None:
    """Fill the tallies again from the results cache, `batch` games at a time."""
    session = session or db.session
    session.execute(delete(PlayerTally))
    last = 0
    while ids := list(session.scalars(select(GameResult.game_id).where(
            GameResult.game_id > last).order_by(GameResult.game_id).limit(batch))):
        apply(Counted(), counted(ids, session), session)
        last = ids[-1]


def stored(session=None) -> dict[Key, dict[str, object]]:
    """Return every tally row as stored, to compare with a fresh count."""
    session = session or db.session
    return {(row.player_id, row.kind, row.key): {
        **{name: getattr(row, name) for name in COUNTS}, "night_id": row.night_id,
        "day": row.day} for row in session.scalars(select(PlayerTally))}


def as_rows(count: Counted) -> dict[Key, dict[str, object]]:
    """Return a count as `stored` returns rows, leaving out rows at nothing."""
    rows = {}
    for key, counts in count.counts.items():
        if any(counts.values()):
            night_id, day = count.where[key]
            rows[key] = {**{name: counts[name] for name in COUNTS},
                         "night_id": night_id, "day": day}
    return rows
