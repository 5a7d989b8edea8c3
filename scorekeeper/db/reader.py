"""The one reader: stored rows into the rules' Game, for one game or many, in five queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cached_property
from typing import Any

from sqlalchemy import Select, bindparam, case, select
from sqlalchemy.orm import aliased

from .. import rules
from ..extensions import db
from .models import Event, Game, HandEntry, Player, Round, Seat
from .models import GameResult as CachedResult

BATCH = 500  # ids in one IN (...): well inside every database's limit


class Unreadable(Exception):
    """A stored game the rules refuse (an old bug, a hand edited in the database).

    Only its own pages say so, and offer the repair; every other page goes on without it.
    """

    def __init__(self, game_id: int, error: rules.RuleError):
        super().__init__(f"game {game_id}: {error}")
        self.game_id = game_id
        self.error = error


@dataclass(frozen=True)
class Tap:
    """A stored chips event of the hand in progress: its id (for undo), who, what."""

    id: int
    player: str
    kind: str


@dataclass(frozen=True)
class Loaded:
    """A stored game as the rules see it, with what only storage keeps beside it."""

    id: int
    core: rules.Game
    player_ids: tuple[int, ...]  # in seat order
    played_on: date
    created_at: datetime
    updated_at: datetime
    night_id: int | None
    version: int  # one more with every change: what phones ask about
    recorded_at: tuple[datetime, ...]  # when each round was recorded (if asked for)
    waiting: tuple[Tap, ...]  # chips events of the hand in progress

    @cached_property
    def outcome(self) -> rules.GameResult | Unreadable:
        """Return where the game stands, or why the rules refuse it; replayed once."""
        try:
            return rules.play(self.core)
        except rules.RuleError as error:
            return Unreadable(self.id, error)

    @property
    def result(self) -> rules.GameResult:
        """Return where the game stands; raise Unreadable when the rules refuse the game."""
        if isinstance(self.outcome, Unreadable):
            raise self.outcome
        return self.outcome

    @property
    def readable(self) -> bool:
        """Tell whether the rules accept the game as stored."""
        return not isinstance(self.outcome, Unreadable)

    @property
    def variant(self) -> str:
        """Return the variant's name."""
        return self.core.variant

    @property
    def players(self) -> tuple[str, ...]:
        """Return the players' names in seat order."""
        return self.core.players

    @property
    def names(self) -> dict[int, str]:
        """Return each seated player's name by id."""
        return dict(zip(self.player_ids, self.core.players))

    @property
    def ids(self) -> dict[str, int]:
        """Return each seated player's id by name."""
        return dict(zip(self.core.players, self.player_ids))

    @property
    def settings(self) -> dict[str, Any]:
        """Return the game's settings as stored."""
        return dict(self.core.settings)

    @property
    def ended(self) -> bool:
        """Tell whether the game was ended by hand."""
        return self.core.ended

    @property
    def next_number(self) -> int:
        """Return the number of the round to be played next."""
        return len(self.core.rounds) + 1

    def waiting_events(self) -> tuple[rules.Event, ...]:
        """Return the events of the hand in progress as the rules see them."""
        return tuple(rules.Event(tap.player, tap.kind) for tap in self.waiting)

    def with_rounds(self, rounds: Sequence[rules.Round], ended: bool | None = None) -> rules.Game:
        """Return the rules' game with other rounds (a round added or changed), not stored."""
        core = self.core
        return rules.Game(core.variant, core.players, core.first_dealer, core.settings,
                          tuple(rounds), core.ended if ended is None else ended)


def read_game(game_id: int, recorded: bool = False) -> Loaded | None:
    """Return one stored game, or None when there is none with this id."""
    return read_games([game_id], recorded).get(game_id)


def read_games(ids: Iterable[int], recorded: bool = False, session=None) -> dict[int, Loaded]:
    """Return stored games by id, read as plain rows in five queries per batch of ids.

    `recorded` reads when each round was recorded too (a backup keeps it); pages don't
    need it, and turning thousands of stored times into datetimes is not free. `session`
    is the app's unless given (a migration passes its own).
    """
    session = session or db.session
    ids = list(dict.fromkeys(ids))
    loaded: dict[int, Loaded] = {}
    for start in range(0, len(ids), BATCH):
        loaded.update(_consistent_batch(session, ids[start:start + BATCH], recorded))
    return loaded


def _consistent_batch(session, ids: list[int], recorded: bool) -> dict[int, Loaded]:
    """Return one batch of games as one moment saw them.

    SQLite reads a transaction from one snapshot. A database server in READ COMMITTED
    may not, so a hand saved between two of the five queries would be read half: the
    games' versions are checked again afterwards, and the batch read again if one moved.
    """
    if session.get_bind().dialect.name == "sqlite":
        return _read_batch(session, ids, recorded)
    for tries in range(5):
        try:
            batch = _read_batch(session, ids, recorded)
        except KeyError:  # a player merged away between two queries
            if tries == 4:
                raise
            continue
        now = dict(session.execute(select(Game.id, Game.version).where(Game.id.in_(ids))).all())
        if now == {game_id: game.version for game_id, game in batch.items()}:
            break
    return batch


def _statements() -> dict[str, Select]:
    """Return the reader's statements for the games bound (`ids`): games, seats, hands,
    events, rounds."""
    ids = bindparam("ids", expanding=True)
    return {
        "games": select(Game.id, Game.variant, Game.settings, Game.first_dealer_seat,
                        Game.played_on, Game.ended, Game.night_id, Game.created_at,
                        Game.updated_at, Game.version).where(Game.id.in_(ids)),
        "seats": (select(Seat.game_id, Seat.player_id, Player.name).join(Player)
                  .where(Seat.game_id.in_(ids)).order_by(Seat.game_id, Seat.seat)),
        "hands": (select(HandEntry.round_id, Round.game_id, HandEntry.player_id,
                         HandEntry.cards, HandEntry.kings).join(Round)
                  .where(Round.game_id.in_(ids)).order_by(HandEntry.id)),
        "events": (select(Event.id, Event.game_id, Event.hand_number, Event.player_id,
                          Event.kind).where(Event.game_id.in_(ids))
                   .order_by(Event.game_id, Event.hand_number, Event.seq)),
        "rounds": (select(Round.id, Round.game_id, Round.number, Round.went_out_id,
                          Round.corners, Round.dragon_id, Round.created_at)
                   .where(Round.game_id.in_(ids)).order_by(Round.game_id, Round.number)),
    }


_READ = _statements()  # built once (docs/performance.md)


def _read_batch(session, ids: list[int], recorded: bool) -> dict[int, Loaded]:
    """Return one batch of games."""
    if not ids:
        return {}
    read, bound = _READ, {"ids": ids}
    games = session.execute(read["games"], bound).all()
    seats: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for game_id, player_id, name in session.execute(read["seats"], bound).all():
        seats[game_id].append((player_id, name))
    names = {game_id: dict(rows) for game_id, rows in seats.items()}
    hands: dict[int, dict[str, rules.Hand]] = defaultdict(dict)
    for round_id, game_id, player_id, cards, kings in session.execute(read["hands"], bound).all():
        hands[round_id][names[game_id][player_id]] = rules.Hand(cards, kings)
    events: dict[tuple[int, int], list[Tap]] = defaultdict(list)
    # One game whose variant records no events in its hands (one no longer known may) has
    # none to read: its page runs no statement for them. A batch always reads them, so that
    # a page of many games costs the same statements whatever games they are.
    if len(ids) > 1 or any(getattr(rules.VARIANTS.get(row.variant), "records_events", True)
                           for row in games):
        for event_id, game_id, number, player_id, kind in session.execute(
                read["events"], bound).all():
            events[(game_id, number)].append(Tap(event_id, names[game_id][player_id], kind))
    rounds: dict[int, list[tuple[rules.Round, datetime | None]]] = defaultdict(list)
    for round_id, game_id, number, went_out, corners, dragon, created in session.execute(
            read["rounds"], bound).all():
        who = names[game_id]
        entry = rules.Round(
            went_out=who.get(went_out) if went_out else None, hands=hands.get(round_id, {}),
            events=tuple(rules.Event(tap.player, tap.kind) for tap in taps)
            if (taps := events.get((game_id, number))) else (),
            corners=tuple(who.get(pid) if pid else None for pid in (corners or ())),
            dragon=who.get(dragon) if dragon else None)
        rounds[game_id].append((entry, created))
    loaded = {}
    for row in games:
        players = tuple(name for _, name in seats[row.id])
        played = rounds[row.id]
        first_dealer = players[row.first_dealer_seat] if players else ""
        core = rules.Game(row.variant, players, first_dealer, row.settings,
                          tuple(entry for entry, _ in played), row.ended)
        loaded[row.id] = Loaded(
            id=row.id, core=core, player_ids=tuple(pid for pid, _ in seats[row.id]),
            played_on=row.played_on, created_at=row.created_at, updated_at=row.updated_at,
            night_id=row.night_id, version=row.version,
            recorded_at=tuple(created for _, created in played) if recorded else (),
            waiting=tuple(events.get((row.id, len(played) + 1), ())))
    return loaded


def round_times(game_id: int, number: int) -> tuple[datetime, datetime] | None:
    """Return when a stored round was recorded and when it was last changed."""
    row = db.session.execute(select(Round.created_at, Round.updated_at)
                             .where(Round.game_id == game_id, Round.number == number)).first()
    return None if row is None else (row[0], row[1])


_LATER = aliased(Game)
# Built once (docs/performance.md): every watching phone asks every few seconds. The game's
# version and, once it is over, the game started after it (asked only of a finished game).
_VERSION = (select(Game.version, case((CachedResult.over, select(_LATER.id)
                                       .where(_LATER.id > Game.id).order_by(_LATER.id)
                                       .limit(1).scalar_subquery())).label("next"))
            .outerjoin(CachedResult, CachedResult.game_id == Game.id)
            .where(Game.id == bindparam("game")))


@dataclass(frozen=True)
class Version:
    """What a phone watching a game asks for: its version, and once it is over the game
    started after it (a rematch, or the next game of the night), if one has."""

    version: int
    next: int | None = None


def version_of(game_id: int) -> Version | None:
    """Return a game's version (one indexed row) and, once it is over, the next game's id;
    None when there is no such game."""
    row = db.session.execute(_VERSION, {"game": game_id}).first()
    return None if row is None else Version(row.version, row.next)


def latest_game_ids(count: int) -> list[int]:
    """Return the ids of the `count` games changed last, the latest first."""
    return list(db.session.scalars(select(Game.id).order_by(Game.updated_at.desc(),
                                                             Game.id.desc()).limit(count)))


def game_to_watch() -> int | None:
    """Return the id of the game changed last that is still being played, else of the game
    changed last; None when there is none."""
    latest = (select(Game.id).outerjoin(CachedResult, CachedResult.game_id == Game.id)
              .order_by(Game.updated_at.desc(), Game.id.desc()).limit(1))
    return (db.session.scalar(latest.where(CachedResult.over.is_(False)))
            or db.session.scalar(latest))
