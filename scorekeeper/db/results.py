"""The results cache: each game's standing and its players' figures, kept beside the game.

Written by the unit of work (play.changing) in the same transaction as every change to a
game, by the same rules that score it, so the roster, player pages and history can read
figures with SQL instead of replaying every game. It stays derived: `check` recomputes
every game and reports a difference, `rebuild` fills the tables again from what was entered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import date, datetime

from sqlalchemy import delete, select

from .. import rules, variants
from ..extensions import db
from .models import Game, GameResult, ResultBest, ResultFact, ResultPair, ResultSeat
from .reader import read_games

BATCH = 200
# Every table of the cache, in the order they are deleted (a game's own row last); the
# ratings' steps (reports/ratings.py) are the one other kind of derived data.
DERIVED = (ResultBest, ResultPair, ResultFact, ResultSeat, GameResult)
PARTS = (ResultSeat, ResultFact, ResultPair, ResultBest)  # a game's rows, after its own


def _rows(game_id: int, core: rules.Game, player_ids: Sequence[int],
          outcome: rules.GameResult | Exception, when: tuple[date, datetime] | None = None
          ) -> tuple[dict, list[dict], list[dict], list[dict], list[dict]]:
    """Return the cache rows of one game: the game's, one per seat, one per fact, one per
    ordered pair of players once it is over, and one per player's best (not 0), with the
    game's day and start (`when`, needed only if it has a best)."""
    if not isinstance(outcome, rules.GameResult):
        problem = str(getattr(outcome, "error", outcome))
        return {"game_id": game_id, "over": False, "rounds": len(core.rounds),
                "problem": problem}, [], [], [], []
    result = outcome
    ids = dict(zip(core.players, player_ids))
    lower = rules.get_variant(core.variant).lower_is_better
    seats = [{"game_id": game_id, "player_id": ids[name], "total": result.totals[name],
              "place": place, "won": result.over and name in result.winners,
              "standing": result.totals[name] if lower else -result.totals[name],
              "variant": core.variant, "over": result.over}
             for place, name in enumerate(result.ranking, start=1)]
    pairs = [{"game_id": game_id, "player_id": one["player_id"],
              "other_id": other["player_id"],
              "outcome": (one["standing"] < other["standing"]) - (one["standing"] >
                                                                  other["standing"])}
             for one in seats for other in seats
             if result.over and one is not other]
    home = variants.get(core.variant)
    facts, bests = [], []
    for name in core.players:
        counted: Counter[str] = Counter()
        for rnd, done in zip(core.rounds, result.rounds):
            counted.update(home.facts(name, rnd, done))
        facts += [{"game_id": game_id, "player_id": ids[name], "fact": fact, "value": value}
                  for fact, value in sorted(counted.items()) if value]
        bests += [{"game_id": game_id, "player_id": ids[name], "fact": fact, "value": value,
                   "variant": core.variant, "played_on": when[0], "created_at": when[1]}
                  for fact, value in sorted(home.bests(name, core, result).items()) if value]
    return ({"game_id": game_id, "over": result.over, "rounds": len(result.rounds),
             "problem": None}, seats, facts, pairs, bests)


def forget(game_ids: Iterable[int], session=None) -> None:
    """Delete these games' cache rows (not committed): what they said is out of date."""
    session = session or db.session
    ids = list(game_ids)
    for model in DERIVED:
        session.execute(delete(model).where(model.game_id.in_(ids)))


def refresh(game_ids: Iterable[int], session=None) -> None:
    """Read these games again and write their cache rows in place of the old ones (not
    committed); a game deleted keeps none."""
    ids = list(game_ids)
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        forget(batch, session)
        games = read_games(batch, session=session).values()
        _insert([_rows(game.id, game.core, game.player_ids, game.outcome,
                       (game.played_on, game.created_at)) for game in games], session)


def _insert(made: list[tuple], session=None) -> None:
    """Write games' cache rows (as `_rows` gives them), a statement a table."""
    session = session or db.session
    if made:
        session.execute(GameResult.__table__.insert(), [game for game, *_ in made])
    for part, model in enumerate(PARTS, start=1):
        rows = [row for rows in made for row in rows[part]]
        if rows:
            session.execute(model.__table__.insert(), rows)


def rebuild(session=None) -> int:
    """Fill the cache again from what was entered; return how many games it holds."""
    session = session or db.session
    for model in DERIVED:
        session.execute(delete(model))
    ids = list(session.scalars(select(Game.id).order_by(Game.id)))
    refresh(ids, session)
    return len(ids)


def _cached(ids: Sequence[int], session) -> dict[int, tuple]:
    """Return what the cache holds for these games, comparable with `_rows`."""
    found: dict[int, list] = {}
    for row in session.execute(select(GameResult).where(GameResult.game_id.in_(ids))).scalars():
        found[row.game_id] = [{"game_id": row.game_id, "over": row.over, "rounds": row.rounds,
                               "problem": row.problem}, [], [], [], []]
    for part, model in enumerate(PARTS, start=1):
        columns = [column.key for column in model.__table__.columns]
        for row in session.execute(select(model).where(model.game_id.in_(ids))).scalars():
            found.setdefault(row.game_id, [None, [], [], [], []])[part].append(
                {column: getattr(row, column) for column in columns})
    return {game_id: _canonical(*rows) for game_id, rows in found.items()}


def _canonical(game, seats, facts, pairs, bests) -> tuple:
    """Return cache rows in one order, so two sets of them compare."""
    return (game, sorted(seats, key=lambda r: r["player_id"]),
            sorted(facts, key=lambda r: (r["player_id"], r["fact"])),
            sorted(pairs, key=lambda r: (r["player_id"], r["other_id"])),
            sorted(bests, key=lambda r: (r["player_id"], r["fact"])))


def check(session=None) -> list[str]:
    """Recompute every game and return each difference from the cache, in words."""
    session = session or db.session
    ids = list(session.scalars(select(Game.id).order_by(Game.id)))
    differences = []
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        cached = _cached(batch, session)
        for game in read_games(batch, session=session).values():
            rows = _rows(game.id, game.core, game.player_ids, game.outcome,
                         (game.played_on, game.created_at))
            if cached.get(game.id) != _canonical(*rows):
                what = "missing" if game.id not in cached else "differs"
                differences.append(f"game {game.id}: the cached result {what}")
    cached_ids = set(session.scalars(select(GameResult.game_id)))
    differences += [f"game {gone}: cached, but there is no such game"
                    for gone in sorted(cached_ids - set(ids))]
    return differences
