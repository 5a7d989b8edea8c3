"""History as the pages show it: what a night is called, and each night's games summed up.

Read from the results cache with SQL: a page of history replays no game, and the list of
nights reads only what it shows (counts and winners per night, grouped by the database).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from operator import attrgetter, itemgetter
from typing import Any

from sqlalchemy import bindparam, select

from ..db.models import Game, GameResult, Night, Player, RatingStep, ResultSeat, Seat
from ..extensions import db
from ..words import day


def label(night: Night | NightRow) -> str:
    """Return what a night is called: its name, else its date, e.g. "Sat 21 Nov 2026"."""
    return night.name or day(night.started_at)


@dataclass(frozen=True)
class NightRow:
    """A night as read, apart from the session: pages keep these between requests."""

    id: int
    started_at: datetime
    name: str | None
    notes: str | None

    @classmethod
    def of(cls, night: Night) -> NightRow:
        """Return what pages show of a stored night."""
        return cls(night.id, night.started_at, night.name, night.notes)


@dataclass(frozen=True)
class Standing:
    """One player's place in a game as the cache keeps it."""

    name: str
    total: int
    won: bool


@dataclass(frozen=True)
class GameSummary:
    """One game of a night as history lists it: standings, winners, over or not."""

    id: int
    variant: str
    settings: dict[str, Any]
    rounds: int
    over: bool
    problem: str | None
    standings: tuple[Standing, ...]  # in place order
    played_on: date | None = None
    players: tuple[str, ...] = ()  # in seat order
    night_id: int | None = None

    @property
    def readable(self) -> bool:
        """Tell whether the rules accept the game as stored."""
        return self.problem is None

    @property
    def winners(self) -> tuple[str, ...]:
        """Return who won, once the game is over."""
        return tuple(s.name for s in self.standings if s.won)


@dataclass(frozen=True)
class NightSummary:
    """A night as the history list shows it."""

    night: NightRow
    players: tuple[str, ...]
    games: tuple[GameSummary, ...]
    wins: tuple[tuple[str, int], ...]  # (name, games won), most first
    unfinished: int
    broken: int = 0  # games the rules refuse as stored: they need repair
    # The seats with a result, in the order the games were played, as the night's story reads
    # them: game, player's id, name, won, over, and the rating step made
    # (variant, games, mu and sigma before and after; None if not rated).
    results: tuple[tuple, ...] = ()


@dataclass(frozen=True)
class NightLine:
    """A night as the list of nights shows it: who played, how many games, who won."""

    night: NightRow
    players: tuple[str, ...]  # in order of first seat
    games: int
    wins: tuple[tuple[str, int], ...]  # (name, games won), most first
    unfinished: int
    broken: int


# The list of nights' statements, built once; the nights shown are bound when they run.
_SHOWN = bindparam("nights", expanding=True)
# Each game of the nights, with its cached result (if any) and a row per winner: the games
# counted and their winners, in one statement.
NIGHT_GAMES = (select(Game.night_id, Game.id, GameResult.game_id, GameResult.over,
                      GameResult.problem, ResultSeat.player_id)
               .outerjoin(GameResult, GameResult.game_id == Game.id)
               .outerjoin(ResultSeat, (ResultSeat.game_id == Game.id) & ResultSeat.won.is_(True))
               .where(Game.night_id.in_(_SHOWN)))
# Every seat of the nights, in the order sat (each game's, in the order they began): the
# players in order of their first seat, without the sort that grouping them would take.
SEATS = (select(Game.night_id, Player.id, Player.name).join(Seat, Seat.game_id == Game.id)
         .join(Player, Player.id == Seat.player_id).where(Game.night_id.in_(_SHOWN))
         .order_by(Game.night_id, Game.id, Seat.seat))


def night_lines(shown: Sequence[NightRow]) -> list[NightLine]:
    """Return the lines of several nights in two statements, whatever their size."""
    ids = {"nights": [night.id for night in shown]}
    run = db.session.execute
    players: dict[int, dict[int, str]] = {night: {} for night in ids["nights"]}
    for night_id, player_id, name in run(SEATS, ids).all():
        seated = players[night_id]
        if player_id not in seated:  # {player: name} in order of first seat
            seated[player_id] = name
    # Each night's games, as whether each is unfinished (None if the rules refuse it as
    # stored, or its result is not cached yet), and each player's wins.
    games: dict[int, dict[int, bool | None]] = {night: {} for night in ids["nights"]}
    won: dict[int, dict[int, int]] = {night: {} for night in ids["nights"]}
    for night_id, game_id, cached, over, problem, winner in run(NIGHT_GAMES, ids).all():
        games[night_id][game_id] = not over if cached is not None and problem is None else None
        if winner is not None:
            wins = won[night_id]
            wins[winner] = wins.get(winner, 0) + 1
    lines = []
    for night in shown:
        seated, played = players[night.id], list(games[night.id].values())
        wins = won[night.id]
        if wins:
            place = {player: index for index, player in enumerate(seated)}
            ranked = tuple((seated[player], count) for player, count in
                           sorted(wins.items(), key=lambda item: (-item[1], place[item[0]])))
        else:
            ranked = ()
        lines.append(NightLine(night, tuple(seated.values()), len(played), ranked,
                               played.count(True), played.count(None)))
    return lines


_GAMES = bindparam("games", expanding=True)
GAME_ROWS = (select(Game.id, Game.variant, Game.settings, Game.played_on, Game.night_id,
                    GameResult.rounds, GameResult.over, GameResult.problem)
             .outerjoin(GameResult, GameResult.game_id == Game.id))
SEATED = (select(Seat.game_id, Player.name).join(Player)
          .where(Seat.game_id.in_(_GAMES)).order_by(Seat.game_id, Seat.seat))
STANDINGS = (select(ResultSeat.game_id, Player.name, ResultSeat.total, ResultSeat.won)
             .join(Player, Player.id == ResultSeat.player_id)
             .where(ResultSeat.game_id.in_(_GAMES))
             .order_by(ResultSeat.game_id, ResultSeat.place))
OF_IDS = GAME_ROWS.where(Game.id.in_(_GAMES))
# A night's seats in seat order, each with its place and total once the game has a result.
# With the rating step each made, for the night's story.
NIGHT_SEATED = (select(Seat.game_id, Seat.player_id, Player.name, ResultSeat.place,
                       ResultSeat.total, ResultSeat.won, ResultSeat.over, RatingStep.variant,
                       RatingStep.games, RatingStep.mu_before, RatingStep.sigma_before,
                       RatingStep.mu_after, RatingStep.sigma_after)
                .join(Game, Game.id == Seat.game_id).join(Player, Player.id == Seat.player_id)
                .outerjoin(ResultSeat, (ResultSeat.game_id == Seat.game_id)
                           & (ResultSeat.player_id == Seat.player_id))
                .outerjoin(RatingStep, (RatingStep.game_id == Seat.game_id)
                           & (RatingStep.player_id == Seat.player_id))
                .where(Game.night_id == bindparam("night")).order_by(Seat.game_id, Seat.seat))


# A night with its games in the order played (one row with no game if it holds none).
NIGHT_READ = (select(Night.id.label("night"), Night.started_at, Night.name.label("night_name"),
                     Night.notes, *GAME_ROWS.selected_columns)
              .select_from(Night).outerjoin(Game, Game.night_id == Night.id)
              .outerjoin(GameResult, GameResult.game_id == Game.id)
              .where(Night.id == bindparam("night"))
              .order_by(Game.played_on, Game.created_at, Game.id))


def night_summary(night_id: int) -> NightSummary | None:
    """Return a night's players (in order of first seat), games with results, who won, and
    its seats' results in the order played (None if there is no such night): two
    statements, the night with its games and their seats."""
    rows = db.session.execute(NIGHT_READ, {"night": night_id}).all()
    if not rows:
        return None
    first = rows[0]
    return _summarised(NightRow(first.night, first.started_at, first.night_name, first.notes),
                       [row for row in rows if row.id is not None])


def _summarised(night: NightRow, rows: Sequence) -> NightSummary:
    """Return the summary of a night from its games' rows (GAME_ROWS, in the order played)
    and their seats, read here."""
    at = {"night": night.id}
    run = db.session.execute
    seated: dict[int, list[str]] = defaultdict(list)
    placed: dict[int, list[tuple[int, Standing]]] = defaultdict(list)
    results: dict[int, list[tuple]] = defaultdict(list)
    for game_id, player_id, name, place, total, won, over, *step in run(NIGHT_SEATED, at).all():
        seated[game_id].append(name)
        if place is not None:
            placed[game_id].append((place, Standing(name, total, won)))
            results[game_id].append((game_id, player_id, name, won, over, *step))
    games = [_summary(row, seated[row.id],
                      [s for _, s in sorted(placed[row.id], key=itemgetter(0))])
             for row in rows]
    return summary_of(night, sorted(games, key=attrgetter("id")),
                      tuple(result for row in rows for result in results[row.id]))


def _summary(row, seated: Sequence[str], standings: Sequence[Standing]) -> GameSummary:
    """Return a game as lists show it from its row (GAME_ROWS), players and standings."""
    # A game with no cached result yet is shown as needing a look, never as a crash.
    problem = row.problem if row.over is not None else "its result is not cached yet"
    return GameSummary(row.id, row.variant, row.settings, row.rounds or 0, bool(row.over),
                       problem, tuple(standings), row.played_on, tuple(seated), row.night_id)


def summaries(ids: Sequence[int] = ()) -> dict[int, GameSummary]:
    """Return these games as lists show them, from the results cache, in three queries."""
    run = db.session.execute
    rows = run(OF_IDS, {"games": list(ids)}).all()
    found_ids = {"games": [row.id for row in rows]}
    seated: dict[int, list[str]] = defaultdict(list)
    for game_id, name in run(SEATED, found_ids).all():
        seated[game_id].append(name)
    standings: dict[int, list[Standing]] = defaultdict(list)
    for game_id, name, total, won in run(STANDINGS, found_ids).all():
        standings[game_id].append(Standing(name, total, won))
    return {row.id: _summary(row, seated[row.id], standings[row.id]) for row in rows}


def summary_of(night: NightRow, games: Sequence[GameSummary],
               results: tuple = ()) -> NightSummary:
    """Return the summary of a night from its games' cached results (and its seats' results,
    as NightSummary.results keeps them)."""
    players: dict[str, None] = {}
    wins: Counter[str] = Counter()
    unfinished = broken = 0
    for game in games:
        players.update(dict.fromkeys(game.players))
        if not game.readable:
            broken += 1
        elif game.over:
            wins.update(game.winners)
        else:
            unfinished += 1
    order = list(players)
    ranked = sorted(wins.items(), key=lambda item: (-item[1], order.index(item[0])))
    return NightSummary(night, tuple(players), tuple(games), tuple(ranked),
                        unfinished, broken, results)
