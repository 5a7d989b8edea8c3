"""Skill ratings per variant: who tends to finish ahead of whom, from every finished game.

Each finished game of a variant is a free-for-all: its finishing order (tied players share a
place) updates every player's rating with OpenSkill's Plackett-Luce model, a rating being
a skill estimate `mu` and its uncertainty `sigma`. Games count in the order they were
played (their day, then when they were started, then their number), whatever order they
were entered or corrected in, so the same games always give the same ratings.

The ratings are derived data, kept in `rating_step` (one row a player a finished game) in the
same transaction as every change to a game, by the unit of work (play.changing): given the
games' steps as they were (`stored`), `after_change` recomputes a variant from the first game
whose finishing order changed (a hand just recorded that ends the newest game: one step; a
correction of an old game: every game after it), then numbers again the steps of every
player it touched, every variant's in the order played, each with the wins in a row it ends
(`_count`). `check` compares the table with a fresh computation and `rebuild` fills it again
(the named seasons changed: every game).

What a page shows is `figure`: a cautious number (1000 + 40 x (mu - 3 sigma)) that rises as
a player wins and as the app grows sure of them; provisional until their tenth game of the
variant. At a player's first game of a new season their sigma widens a little (`SEASON_TAU`):
the rating is not reset, but a season's first games can move it more. See docs/ratings.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache

from openskill.models import PlackettLuce
from sqlalchemy import (
    bindparam,
    delete,
    func,
    insert,
    select,
    tuple_,
    update,
)

from .. import rules
from ..db.locks import one_at_a_time
from ..db.models import Game, Player, RatingStep, ResultSeat
from ..extensions import db
from . import calendar as seasons_
from .calendar import Calendar, NamedSeason

# OpenSkill's defaults: a newcomer is mu 25, sigma 25/3; beta 25/6 is how far a game's luck
# spreads the result; every game widens sigma by tau 25/300 before it counts, so a rating
# never freezes.
MODEL = PlackettLuce()
SEASON_TAU = 25 / 24  # added (in quadrature) to sigma at a player's first game of a season
PROVISIONAL = 10  # a rating is provisional until this many games of its variant
BASE, SCALE = 1000, 40  # the figure shown: BASE + SCALE x (mu - 3 sigma), a newcomer 1000

STEP = RatingStep.__table__  # written and read as rows: no object per step in the session
NAMED = (Player, Player.id == RatingStep.player_id)  # a step's player, for their name
Key = tuple[date, datetime, int]  # where a game comes in the order: day, started, number
ORDER = (RatingStep.played_on, RatingStep.created_at, RatingStep.game_id)  # a step's Key


def figure(mu: float, sigma: float) -> int:
    """Return the number a page shows for a rating: cautious (mu - 3 sigma, what the player
    is very likely better than), scaled so that a newcomer starts at 1000."""
    return round(BASE + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class Finished:
    """What a rating reads of a finished game: its variant, its place in the order, and each
    player's place (1 for the winner, tied players sharing one)."""

    game_id: int
    variant: str
    played_on: date
    created_at: datetime
    places: tuple[tuple[int, int], ...]  # (player id, place), by player id

    @property
    def key(self) -> Key:
        return (self.played_on, self.created_at, self.game_id)


@dataclass(frozen=True)
class State:
    """A player's rating in a variant after their latest game so far."""

    mu: float
    sigma: float
    games: int
    season: str


def _places(standings: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """Return each player's place from the standings (lower is better, equal is a tie)."""
    return tuple((player, 1 + sum(other < mine for other in standings.values()))
                 for player, mine in sorted(standings.items()))


def _finished(session, *, game_ids: Sequence[int] | None = None, variant: str | None = None,
              since: Key | None = None) -> list[Finished]:
    """Return the finished games asked for (these ids, or a variant's from a point on), in
    the order they count, from the results cache."""
    # From the game table (its ix_game_order index): a variant's games from a point on.
    query = (select(ResultSeat.game_id, ResultSeat.player_id, ResultSeat.standing,
                    Game.variant, Game.played_on, Game.created_at)
             .select_from(Game).join(ResultSeat, ResultSeat.game_id == Game.id)
             .where(ResultSeat.over))
    if game_ids is not None:
        query = query.where(Game.id.in_(game_ids))
    if variant is not None:
        query = query.where(Game.variant == variant)
    if since is not None:
        query = query.where(tuple_(Game.played_on, Game.created_at, Game.id) >= since)
    games: dict[int, tuple] = {}
    standings: dict[int, dict[int, int]] = {}
    for game_id, player_id, standing, kind, played_on, created_at in session.execute(query):
        games[game_id] = (kind, played_on, created_at)
        standings.setdefault(game_id, {})[player_id] = standing
    found = [Finished(game_id, kind, played_on, created_at, _places(standings[game_id]))
             for game_id, (kind, played_on, created_at) in games.items()
             if len(standings[game_id]) > 1]
    return sorted(found, key=lambda game: game.key)


def stored(game_ids: Sequence[int], session=None) -> dict[int, Finished]:
    """Return what the stored steps of these games were computed from."""
    session = session or db.session
    rows: dict[int, list] = {}
    for row in session.execute(select(RatingStep.game_id, RatingStep.player_id,
                                      RatingStep.place, RatingStep.variant,
                                      RatingStep.played_on, RatingStep.created_at)
                               .where(RatingStep.game_id.in_(game_ids))):
        rows.setdefault(row.game_id, []).append(row)
    return {game_id: Finished(game_id, found[0].variant, found[0].played_on,
                              found[0].created_at,
                              tuple(sorted((row.player_id, row.place) for row in found)))
            for game_id, found in rows.items()}


def _steps(games: Iterable[Finished], states: dict[int, State],
           named: Sequence[NamedSeason]) -> list[dict]:
    """Rate these games one after another from the players' states (updated in place);
    return the step rows."""
    rows = []
    default = MODEL.sigma
    calendar = Calendar(named)
    for game in games:
        season = calendar.season_of(game.played_on)
        befores = []
        for player_id, _ in game.places:
            state = states.get(player_id)
            if state is None:
                befores.append((MODEL.mu, default, 0))
                continue
            sigma = state.sigma
            if state.season != season:  # a new season: less sure of them, not reset
                sigma = min(math.hypot(sigma, SEASON_TAU), default)
            befores.append((state.mu, sigma, state.games))
        rated = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in befores],
                           ranks=[place for _, place in game.places])
        for (player_id, place), (mu, sigma, games), [after] in zip(game.places, befores, rated):
            states[player_id] = State(after.mu, after.sigma, games + 1, season)
            rows.append({"game_id": game.game_id, "player_id": player_id,
                         "variant": game.variant, "played_on": game.played_on,
                         "created_at": game.created_at, "season": season, "place": place,
                         "games": games + 1, "mu_before": mu, "sigma_before": sigma,
                         "mu_after": after.mu, "sigma_after": after.sigma})
    return rows


def _latest(session, variant: str, player_ids: Sequence[int] | None = None,
            season: str | None = None, named: bool = False) -> list:
    """Return every player's latest step in a variant (their most games), with their name if
    `named`: of these players only, or of that season only, if asked.

    Two queries: the most games of each player, counted from an index alone (the roster's,
    or a season's), then those steps, each found by (player, variant, games)."""
    most = (select(RatingStep.player_id, func.max(RatingStep.games))
            .where(RatingStep.variant == variant).group_by(RatingStep.player_id))
    if season is not None:
        most = most.where(RatingStep.season == season)
    if player_ids is not None:
        most = most.where(RatingStep.player_id.in_(player_ids))
    return _steps_at(session, [(player_id, variant, games)
                               for player_id, games in session.execute(most)], named)


def _steps_at(session, keys: Sequence[tuple[int, str, int]], named: bool = False) -> list:
    """Return the steps at these (player, variant, games), with the player's name if
    `named`. Every combination of the players, variants and games asked is read along the
    index of a player's line (a join on the counts, or a list of pairs, would read every
    step of the variant), and only the steps asked for are kept."""
    if not keys:
        return []
    query = select(*STEP.c).where(RatingStep.player_id.in_(sorted({key[0] for key in keys})),
                                  RatingStep.variant.in_(sorted({key[1] for key in keys})),
                                  RatingStep.games.in_(sorted({key[2] for key in keys})))
    if named:
        query = query.add_columns(Player.name).join(*NAMED)
    wanted = set(keys)
    return [row for row in session.execute(query)
            if (row.player_id, row.variant, row.games) in wanted]


def _recompute(session, variant: str, since: Key) -> tuple[int, set[int]]:
    """Rate a variant's finished games again from the game at `since` on; return how many,
    and the players whose steps from there on were deleted or written (their numbers are
    not yet counted)."""
    one_at_a_time(f"kings-corners ratings {variant}", session)  # two games of it ending at once
    from_there = (RatingStep.variant == variant, tuple_(*ORDER) >= since)
    touched = set(session.scalars(select(RatingStep.player_id).where(*from_there).distinct()))
    session.execute(delete(STEP).where(*from_there))
    games = _finished(session, variant=variant, since=since)
    if not games:
        return 0, touched
    players = sorted({player_id for game in games for player_id, _ in game.places})
    states = {step.player_id: State(step.mu_after, step.sigma_after, step.games, step.season)
              for step in _latest(session, variant, players)}
    rows = _steps(games, states, seasons_.named(session))
    session.execute(insert(STEP), [{**row, "number": 0, "winning_run": 0} for row in rows])
    return len(games), touched | set(players)


def _count(places: Iterable[int], number: int = 0, run: int = 0) -> Iterator[tuple[int, int]]:
    """Yield the number and the winning run of each of a player's steps, from their places in
    the order played (1 is a win), counting on from the step before them."""
    for place in places:
        number, run = number + 1, run + 1 if place == 1 else 0
        yield number, run


def _renumber(session, player_ids: Iterable[int], since: Key) -> None:
    """Number these players' steps again from the game at `since` on, every variant's, and
    write the numbers and runs that changed."""
    one_at_a_time("kings-corners rating numbers", session)  # a player's games of two variants
    renumbered = (update(STEP).where(RatingStep.game_id == bindparam("game"),
                                     RatingStep.player_id == bindparam("player"))
                  .values(number=bindparam("number"), winning_run=bindparam("run")))
    for player_id in sorted(player_ids):
        mine = RatingStep.player_id == player_id
        before = session.execute(select(RatingStep.number, RatingStep.winning_run)
                                 .where(mine, tuple_(*ORDER) < since)
                                 .order_by(*(key.desc() for key in ORDER)).limit(1)).first()
        after = session.execute(select(RatingStep.game_id, RatingStep.place, RatingStep.number,
                                       RatingStep.winning_run)
                                .where(mine, tuple_(*ORDER) >= since).order_by(*ORDER)).all()
        counted = _count([step.place for step in after], *(before or (0, 0)))
        changed = [{"game": step.game_id, "player": player_id, "number": number, "run": run}
                   for step, (number, run) in zip(after, counted)
                   if (step.number, step.winning_run) != (number, run)]
        if changed:
            session.execute(renumbered, changed)


def after_change(game_ids: Iterable[int], before: dict[int, Finished] | None = None,
                 session=None) -> int:
    """Keep the ratings right after these games changed (inside the change's transaction).

    A game whose finishing order, variant or place in the order is as its steps say changes
    nothing. Otherwise its variant is rated again from the earliest of where the game was
    (`before`: its steps as read before the change, for a game deleted since) and where it
    is now. Return how many games were rated again.
    """
    session = session or db.session
    ids = sorted(set(game_ids))
    if not ids:
        return 0
    was = stored(ids, session) if before is None else before
    now = {game.game_id: game for game in _finished(session, game_ids=ids)}
    since: dict[str, Key] = {}
    for game_id in ids:
        old, new = was.get(game_id), now.get(game_id)
        if old == new:
            continue
        for game in (old, new):
            if game is not None:
                since[game.variant] = min(since.get(game.variant, game.key), game.key)
    rated, touched = 0, set()
    for variant, key in sorted(since.items()):  # every variant's, then the numbers (one lock)
        count, players = _recompute(session, variant, key)
        rated, touched = rated + count, touched | players
    if touched:
        _renumber(session, touched, min(since.values()))
    return rated


def _computed(session) -> list[dict]:
    """Return every step as a fresh computation gives it, variant by variant."""
    named = seasons_.named(session)
    games = _finished(session)
    rows = []
    for variant in sorted({game.variant for game in games}):
        rows += _steps([game for game in games if game.variant == variant], {}, named)
    order = {game.game_id: number for number, game in enumerate(games)}
    players: dict[int, list[dict]] = {}
    for row in sorted(rows, key=lambda row: order[row["game_id"]]):
        players.setdefault(row["player_id"], []).append(row)
    for steps in players.values():
        for row, (number, run) in zip(steps, _count(row["place"] for row in steps)):
            row.update(number=number, winning_run=run)
    return rows


def rebuild(session=None) -> int:
    """Rate every finished game again from nothing; return how many games were rated."""
    session = session or db.session
    for variant in sorted(rules.VARIANTS):  # a game ending meanwhile waits, then counts
        one_at_a_time(f"kings-corners ratings {variant}", session)  # two games of it ending at once
    one_at_a_time("kings-corners rating numbers", session)
    session.execute(delete(STEP))
    rows = _computed(session)
    for start in range(0, len(rows), 5000):
        session.execute(insert(STEP), rows[start:start + 5000])
    return len({row["game_id"] for row in rows})


COLUMNS = ("variant", "played_on", "created_at", "season", "place", "games", "number",
           "winning_run", "mu_before", "sigma_before", "mu_after", "sigma_after")


def _same(one: dict, other: dict) -> bool:
    return all(math.isclose(one[c], other[c], rel_tol=1e-9, abs_tol=1e-9)
               if isinstance(one[c], float) else one[c] == other[c] for c in COLUMNS)


def check(session=None) -> list[str]:
    """Compare the stored ratings with a fresh computation; return each difference in words."""
    session = session or db.session
    fresh = {(row["game_id"], row["player_id"]): row for row in _computed(session)}
    stored = {(step.game_id, step.player_id): {c: getattr(step, c) for c in COLUMNS}
              for step in session.execute(select(*STEP.c))}
    differences = set()
    for key in fresh.keys() | stored.keys():
        one, other = fresh.get(key), stored.get(key)
        if one is None:
            differences.add(f"game {key[0]}: a rating is stored that no finished game gives")
        elif other is None:
            differences.add(f"game {key[0]}: a rating is missing")
        elif not _same(one, other):
            differences.add(f"game {key[0]}: a rating differs")
    return sorted(differences, key=lambda line: (int(line.split()[1].rstrip(":")), line))


# What the pages read.

@dataclass(frozen=True)
class Rating:
    """A player's rating in a variant after a game: the figure shown, the change that game
    made to it, whether it is still provisional, and what it is made of."""

    player_id: int
    name: str
    variant: str
    figure: int
    change: int  # after - before this game, in the figure shown
    provisional: bool
    games: int  # the player's games of the variant so far
    mu: float
    sigma: float
    game_id: int
    played_on: date
    season: str
    place: int


def _rating(row) -> Rating:
    """Return a stored step (with the player's name) as a page shows it."""
    after = figure(row.mu_after, row.sigma_after)
    return Rating(row.player_id, row.name, row.variant, after,
                  after - figure(row.mu_before, row.sigma_before), row.games < PROVISIONAL,
                  row.games, row.mu_after, row.sigma_after, row.game_id, row.played_on,
                  row.season, row.place)


def _ranked(ratings: Iterable[Rating]) -> list[Rating]:
    """Return ratings best first: by the number shown, provisional ones among the others
    (the number is cautious already: a provisional 1217 is very likely better than 1217, as
    a settled one is), then by name."""
    return sorted(ratings, key=lambda r: (-r.figure, r.name.casefold()))


def roster(variant: str, season: str | None = None) -> list[Rating]:
    """Return every player's latest rating in a variant, best first (by the number shown,
    provisional or not); with `season`, as each stood after their last game of that
    season."""
    return _ranked(_rating(row) for row in _latest(db.session, variant, season=season,
                                                   named=True))


def season_rosters(season: str) -> dict[str, list[Rating]]:
    """Return, for each variant played in a season, every player's rating as it stood
    after their last game of it, best first (what `roster(variant, season)` gives)."""
    ends = (select(RatingStep.variant, RatingStep.player_id, func.max(RatingStep.games))
            .where(RatingStep.season == season)
            .group_by(RatingStep.variant, RatingStep.player_id))
    query = (select(*STEP.c, Player.name).join(*NAMED)
             .where(RatingStep.season == season,
                    tuple_(RatingStep.variant, RatingStep.player_id, RatingStep.games).in_(ends)))
    by_variant: dict[str, list[Rating]] = {}
    for row in db.session.execute(query):
        by_variant.setdefault(row.variant, []).append(_rating(row))
    return {variant: _ranked(rows) for variant, rows in by_variant.items()}


def player_ratings(player_id: int, season: str | None = None) -> dict[str, Rating]:
    """Return a player's latest rating in each variant they finished a game of; with
    `season`, as it stood after their last game of it."""
    most = (select(RatingStep.variant, func.max(RatingStep.games))
            .where(RatingStep.player_id == player_id).group_by(RatingStep.variant))
    if season is not None:
        most = most.where(RatingStep.season == season)
    rows = _steps_at(db.session, [(player_id, variant, games)
                                  for variant, games in db.session.execute(most)], named=True)
    return dict(sorted((row.variant, _rating(row)) for row in rows))


def figures_after(keys: Iterable[tuple[int, str, int]]) -> dict[tuple[int, str, int], int]:
    """Return the figure a player's page showed after each of these steps (player, variant,
    their games of it so far): the rating before their next game, as they saw it (a new
    season's widening is that next game's, not theirs)."""
    return {(row.player_id, row.variant, row.games): figure(row.mu_after, row.sigma_after)
            for row in _steps_at(db.session, sorted(set(keys)))}


def player_line(player_id: int, variant: str, season: str | None = None) -> list[Rating]:
    """Return a player's rating after each of their finished games of a variant, in the
    order played (only that season's games, with `season`)."""
    query = (select(*STEP.c, Player.name).join(*NAMED)
             .where(RatingStep.player_id == player_id, RatingStep.variant == variant)
             .order_by(RatingStep.games))
    if season is not None:
        query = query.where(RatingStep.season == season)
    return [_rating(row) for row in db.session.execute(query)]


@dataclass(frozen=True)
class Played:
    """A player's finished games of every variant (all time, or a season's) as their page
    shows them: their steps' numbers in the order played, and their runs of wins (the
    longest, and the one their last game ends)."""

    numbers: Sequence[int]
    longest_run: int
    current_run: int


def played(player_id: int, season: str | None = None,
           days: tuple[date, date] | None = None) -> Played:
    """Return a player's finished games (of one season, with `season`, played within `days`,
    its first and last). All time is read from their last step and the longest run from an
    index, however many games; a season's from its steps."""
    if season is None:
        last = db.session.execute(_LAST, {"player": player_id}).first()
        if last is None:
            return Played((), 0, 0)
        number, current, longest = last
        return Played(range(1, number + 1), longest, current)
    first, final = days or (date.min, date.max)
    places = db.session.execute(_SEASON_PLACES, {"player": player_id, "season": season,
                                                 "first": first, "last": final}).all()
    runs = [run for _, run in _count(place for _, place in places)]
    return Played([number for number, _ in places], max(runs, default=0),
                  runs[-1] if runs else 0)


# A player's last step with their longest run, and a season's steps in the order played:
# built once (docs/performance.md).
_MINE = RatingStep.player_id == bindparam("player")
_LAST = (select(RatingStep.number, RatingStep.winning_run,
                select(func.max(STEP.c.winning_run)).where(STEP.c.player_id == bindparam("player"))
                .correlate(None).scalar_subquery())
         .where(_MINE).order_by(RatingStep.number.desc()).limit(1))
_SEASON_PLACES = (select(RatingStep.number, RatingStep.place)
                  .where(_MINE, RatingStep.season == bindparam("season"),
                         RatingStep.played_on.between(bindparam("first"), bindparam("last")))
                  .order_by(RatingStep.number))


def chart_points(player_id: int, numbers: Sequence[int], season: str | None = None,
                 days: tuple[date, date] | None = None
                 ) -> tuple[list[date], dict[str, list[tuple[float, float] | None]]]:
    """Return the day of each of these steps of a player (by number; of a season, with
    `season`, played within `days`, its first step among them), and their rating in each
    variant after it: the variant's latest step up to it (of that season), None before
    their first game of it. One statement reads only these steps, a row each, and each
    variant's latest up to them, along the chart's index."""
    names = sorted(rules.VARIANTS)
    asked = {"player": player_id, "numbers": list(numbers)}
    if season is not None:
        asked["season"], asked["since"] = season, min(numbers, default=0)
        asked["first"], asked["last"] = days or (date.min, date.max)
    where = {number: i for i, number in enumerate(numbers)}
    drawn: list[date] = [date.min] * len(numbers)
    after: dict[str, list[tuple[float, float] | None]] = {}
    for number, day, *ratings in db.session.execute(_chart(season is not None, tuple(names)),
                                                    asked):
        i = where[number]
        drawn[i] = day
        for name, mu, sigma in zip(names, ratings[::2], ratings[1::2]):
            if mu is not None:
                after.setdefault(name, [None] * len(numbers))[i] = (mu, sigma)
    return drawn, after


@cache  # built once for each shape (docs/performance.md)
def _chart(season: bool, names: tuple[str, ...]):
    """The statement of `chart_points`: for each step numbered in `numbers` (bound), its
    number and day, then a pair of columns a variant of `names`: mu and sigma after the
    player's latest step of it up to that one (of the bound season, between its first and
    last day, with `season`)."""
    player = bindparam("player")
    joined, columns = STEP, []
    for name in names:
        latest, step = STEP.alias(f"latest_{name}"), STEP.alias(f"step_{name}")
        mine = [latest.c.player_id == player, latest.c.variant == name,
                latest.c.number <= STEP.c.number]
        if season:  # from the season's first step: none before it is of the season
            mine += [latest.c.season == bindparam("season"),
                     latest.c.played_on.between(bindparam("first"), bindparam("last")),
                     latest.c.number >= bindparam("since")]
        up_to = (select(latest.c.number).where(*mine).order_by(latest.c.number.desc())
                 .limit(1).scalar_subquery())
        joined = joined.outerjoin(step, (step.c.player_id == player) & (step.c.number == up_to))
        columns += [step.c.mu_after, step.c.sigma_after]
    return (select(STEP.c.number, STEP.c.played_on, *columns).select_from(joined)
            .where(STEP.c.player_id == player,
                   STEP.c.number.in_(bindparam("numbers", expanding=True))))


@dataclass(frozen=True)
class Change:
    """What a finished game did to one player's rating; `upset` when they finished ahead of
    someone whose figure was higher than theirs before the game."""

    player_id: int
    name: str
    place: int
    before: int  # the figure shown before the game (after a new season's widening)
    after: int
    change: int  # after - before
    provisional: bool  # after this game
    upset: bool


def game_changes(game_id: int) -> list[Change]:
    """Return each player's change of rating in a finished game, by place (none when the game
    is not finished)."""
    rows = db.session.execute(_MOVES, {"game": game_id}).all()
    befores = {row.player_id: figure(row.mu_before, row.sigma_before) for row in rows}
    changes = []
    for row in rows:
        before, after = befores[row.player_id], figure(row.mu_after, row.sigma_after)
        upset = any(other.place > row.place and befores[other.player_id] > before
                    for other in rows)
        changes.append(Change(row.player_id, row.name, row.place, before, after,
                              after - before, row.games < PROVISIONAL, upset))
    return sorted(changes, key=lambda c: (c.place, c.name.casefold()))


# Each player's step of a game, with their name: built once, as every finished game's
# scoreboard asks (docs/performance.md).
_MOVES = (select(RatingStep.player_id, Player.name, RatingStep.place, RatingStep.games,
                 RatingStep.mu_before, RatingStep.sigma_before, RatingStep.mu_after,
                 RatingStep.sigma_after)
          .join(*NAMED).where(RatingStep.game_id == bindparam("game")))


def seasons(variant: str | None = None) -> list[str]:
    """Return the names of the seasons games were rated in, oldest first."""
    query = select(RatingStep.season, func.min(RatingStep.played_on)).group_by(RatingStep.season)
    if variant is not None:
        query = query.where(RatingStep.variant == variant)
    return [name for name, _ in sorted(db.session.execute(query), key=lambda row: row[1])]
