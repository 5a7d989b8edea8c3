"""The results cache: each game's standing and its players' figures, kept beside the game.

Written by the unit of work (play.changing) in the same transaction as every change to a
game, by the same rules that score it, so the roster, player pages and history can read
figures with SQL instead of replaying every game. It stays derived: `check` recomputes
every game and reports a difference, `rebuild` fills the tables again from what was entered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import Date, case, delete, func, insert, select

from .. import rules, variants
from ..extensions import db
from .locks import one_at_a_time
from .models import (
    Game,
    GameResult,
    Night,
    ResultBest,
    ResultFact,
    ResultPair,
    ResultSeat,
    TallyFact,
    TallyNight,
    TallyPair,
    TallySeat,
)
from .reader import read_games

BATCH = 200
# Every table of the cache kept by game, in the order they are deleted (a game's own row
# last), then the tallies kept by player; the ratings' steps (reports/ratings.py) are the
# one other kind of derived data.
DERIVED = (ResultBest, ResultPair, ResultFact, ResultSeat, GameResult)
PARTS = (ResultSeat, ResultFact, ResultPair, ResultBest)  # a game's rows, after its own
def _nights():
    """Return each player's finished games and wins by night, numbered in the order played,
    with the running sums: a night's day is the day it began, a game outside any night's
    its own."""
    day = case((Game.night_id.is_(None), Game.played_on),
               else_=func.date(Night.started_at, type_=Date)).label("day")
    games, wins = func.count(), func.sum(case((ResultSeat.won, 1), else_=0))
    order = {"partition_by": ResultSeat.player_id,
             "order_by": (day, func.coalesce(Game.night_id, 0))}
    return (select(ResultSeat.player_id, func.row_number().over(**order).label("number"), day,
                   Game.night_id, games.label("games"), wins.label("wins"),
                   func.sum(games).over(**order).label("played"),
                   func.sum(wins).over(**order).label("won"))
            .join(Game, Game.id == ResultSeat.game_id)
            .outerjoin(Night, Night.id == Game.night_id)
            .where(ResultSeat.over.is_(True))
            .group_by(ResultSeat.player_id, Game.night_id, day))


# Each player's all-time tallies, and the sum of the cache's rows each one holds: what the
# roster and a player's page read for all time, a few rows however long the history.
TALLIES = (
    (TallySeat, select(ResultSeat.player_id, ResultSeat.variant, ResultSeat.over,
                       ResultSeat.won, func.count().label("games"))
     .group_by(ResultSeat.player_id, ResultSeat.variant, ResultSeat.over, ResultSeat.won)),
    (TallyFact, select(ResultFact.player_id, ResultFact.fact,
                       func.sum(ResultFact.value).label("value"))
     .group_by(ResultFact.player_id, ResultFact.fact)),
    (TallyPair, select(ResultPair.player_id, ResultPair.other_id, ResultPair.outcome,
                       func.count().label("games"))
     .group_by(ResultPair.player_id, ResultPair.other_id, ResultPair.outcome)),
    (TallyNight, _nights()),
)


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


@dataclass(frozen=True)
class Counted:
    """What some games' cache rows count in their players' tallies, but for the facts of
    their hands (those move with nearly every hand, and are counted again each time): each
    seat's variant and whether it is over and won, each pair's outcome once over, and each
    finished seat's night. Read before and after a change, it says whose tallies moved: a
    hand in a game not over moves none of them."""

    seats: frozenset[tuple] = frozenset()  # (game, player, variant, over, won)
    pairs: frozenset[tuple] = frozenset()  # (game, player, other, outcome)
    nights: frozenset[tuple] = frozenset()  # (game, player, won, night, day) once over

    def __or__(self, other: Counted) -> Counted:
        return Counted(self.seats | other.seats, self.pairs | other.pairs,
                       self.nights | other.nights)

    def moved(self, now: Counted) -> dict[type, set[int]]:
        """Return, for each tally it covers, the players whose rows differ from `now`."""
        return {tally: {row[1] for row in getattr(self, part) ^ getattr(now, part)}
                for tally, part in ((TallySeat, "seats"), (TallyPair, "pairs"),
                                    (TallyNight, "nights"))}


def counted(game_ids: Iterable[int], session=None) -> Counted:
    """Return what these games' cache rows count in their players' tallies (`Counted`)."""
    session = session or db.session
    ids = list(game_ids)
    seats = session.execute(select(ResultSeat.game_id, ResultSeat.player_id, ResultSeat.variant,
                                   ResultSeat.over, ResultSeat.won, Game.night_id,
                                   Game.played_on)
                            .join(Game, Game.id == ResultSeat.game_id)
                            .where(ResultSeat.game_id.in_(ids))).all()
    pairs = session.execute(select(ResultPair.game_id, ResultPair.player_id,
                                   ResultPair.other_id, ResultPair.outcome)
                            .where(ResultPair.game_id.in_(ids))).tuples()
    return Counted(frozenset((game, player, variant, over, won)
                             for game, player, variant, over, won, _, _ in seats),
                   frozenset(pairs),
                   frozenset((game, player, won, night, day)
                             for game, player, _, over, won, night, day in seats if over))


def forget(game_ids: Iterable[int], session=None) -> Counted:
    """Delete these games' cache rows (not committed): what they said is out of date.
    Return what they counted (`counted`): their players' tallies `refresh` counts again."""
    session = session or db.session
    ids = list(game_ids)
    was = counted(ids, session)
    for model in DERIVED:
        session.execute(delete(model).where(model.game_id.in_(ids)))
    return was


def refresh(game_ids: Iterable[int], session=None, before: Counted | None = None) -> None:
    """Read these games again and write their cache rows (not committed): their old rows
    are gone already (`forget`, as `play.Change.games` does, or a game just made); a game
    deleted gets none. Then count the tallies again of the players they counted before
    (`before`: what `forget` returned) or count now: the facts of every one of them, their
    seats, pairs and nights only where these moved (without `before`, every one's)."""
    ids = list(game_ids)
    touched = {row[1] for row in before.seats} if before is not None else set()
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        games = read_games(batch, session=session).values()
        made = [_rows(game.id, game.core, game.player_ids, game.outcome,
                      (game.played_on, game.created_at)) for game in games]
        _insert(made, session)
        touched |= {seat["player_id"] for _, seats, *_ in made for seat in seats}
    moved = None if before is None else before.moved(counted(ids, session))
    tally(touched, session, moved)


def tally(player_ids: Iterable[int], session=None,
          moved: dict[type, set[int]] | None = None) -> None:
    """Count these players' all-time tallies again from the cache (not committed): a
    grouped sum of their rows, read along the cache's indexes by player; a tally in
    `moved` only for its players there (every one's, without it): counting a player's
    seats, pairs and nights again costs milliseconds at twenty years, too much for every
    hand."""
    session = session or db.session
    ids = sorted(player_ids)
    if not ids:
        return
    one_at_a_time("kings-corners tallies", session)  # two games ending at once
    for model, summed in TALLIES:
        counting = ids if moved is None or model not in moved else sorted(moved[model])
        if not counting:
            continue
        session.execute(delete(model).where(model.player_id.in_(counting)))
        session.execute(insert(model).from_select(
            [column.name for column in summed.selected_columns],
            summed.where(summed.selected_columns[0].in_(counting))))


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
    for model in (*DERIVED, *(tallied for tallied, _ in TALLIES)):
        session.execute(delete(model))
    ids = list(session.scalars(select(Game.id).order_by(Game.id)))
    refresh(ids, session)  # every player of a game, tallied
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
    return differences + _tallies_differ(session)


def _tallies_differ(session) -> list[str]:
    """Return each player whose all-time tallies are not the sums of the cache, in words."""
    differing = set()
    for model, summed in TALLIES:
        kept = set(session.execute(select(*(getattr(model, column.name)
                                            for column in summed.selected_columns))).all())
        counted = set(session.execute(summed).all())
        differing |= {row[0] for row in kept ^ counted}
    return [f"player {player}: the tallies differ from the cached results"
            for player in sorted(differing)]
