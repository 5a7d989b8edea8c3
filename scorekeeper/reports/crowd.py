"""A night for a crowd as read back: its rounds, each table's game as it stands, the night's
standings (rules/crowd.py) and, for a player, where they sit now."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..db import crowds, read_games
from ..db.models import Crowd
from ..db.reader import Loaded
from ..rules import crowd as rule
from ..variants.standings import places


@dataclass(frozen=True)
class Table:
    """A table of a round, its game as it stands."""

    round: int
    number: int
    game_id: int
    players: tuple[str, ...]
    over: bool
    winners: tuple[str, ...]
    ranking: tuple[str, ...]  # finishing order so far, best first
    dealer: str | None  # who deals next (None once over)
    hands: int


@dataclass(frozen=True)
class Night:
    """A crowd night as its page shows it."""

    crowd: Crowd
    players: list[tuple[int, str]]
    round: int  # being played (the last seated)
    rounds: dict[int, list[Table]] = field(default_factory=dict)
    standings: list[rule.Standing] = field(default_factory=list)
    games: dict[int, Loaded] = field(default_factory=dict, repr=False)  # every table's, read

    @property
    def count(self) -> int:
        """Return how many tables the night has (every round the same)."""
        return len(self.rounds.get(1, ()))

    @property
    def tables(self) -> list[Table]:
        """Return each table's latest game, table 1 first: a round starts table by table
        (a table still playing holds only the tables its players go to), so a late table
        may still be a round behind."""
        latest: dict[int, Table] = {}
        for number in sorted(self.rounds):
            latest.update((table.number, table) for table in self.rounds[number])
        return [latest[number] for number in sorted(latest)]

    @property
    def complete(self) -> bool:
        """Tell whether every table of the latest round is seated."""
        return len(self.rounds.get(self.round, ())) == self.count

    @property
    def waiting(self) -> list[int]:
        """Return the numbers of the latest round's tables not seated yet."""
        seated = {table.number for table in self.rounds.get(self.round, ())}
        return [number for number in range(1, self.count + 1) if number not in seated]

    @property
    def after(self) -> int:
        """Return the round whose next *Next round* seats (tables of): the latest, once it
        is seated whole; else the one before it."""
        return self.round if self.complete else self.round - 1

    @property
    def playing(self) -> list[int]:
        """Return the numbers of the tables whose latest game is still being played."""
        return [table.number for table in self.tables if not table.over]

    @property
    def last_round(self) -> bool:
        """Tell whether the round being played is the night's last (as decided so far)."""
        return self.crowd.rounds is not None and self.round >= self.crowd.rounds

    @property
    def over(self) -> bool:
        """Tell whether the night is over: its last round seated and played out at every
        table."""
        return self.last_round and self.complete and not self.playing

    @property
    def winners(self) -> list[str]:
        """Return the night's winners once it is over (a tie shares the night)."""
        if not self.over or not self.standings:
            return []
        return [line.name for line in self.standings if line.place == 1]


def _table(at: crowds.Table, game: Loaded) -> Table:
    result = game.result
    return Table(at.round, at.number, at.game_id, tuple(game.players), result.over,
                 tuple(result.winners), tuple(result.ranking), result.next_dealer,
                 len(result.rounds))


def played(table: Table, game: Loaded) -> rule.Played:
    """Return a finished table's game as the standings count it: places, ties shared."""
    result = game.result
    placed = places([result.totals[name] for name in result.ranking])
    return rule.Played(table.round, table.number, dict(zip(result.ranking, placed)),
                       frozenset(result.winners))


def night(crowd_id: int) -> Night | None:
    """Return a crowd night with every round's tables and the standings, or None."""
    found = crowds.get(crowd_id)
    if found is None:
        return None
    at = crowds.tables(crowd_id)
    games = read_games([table.game_id for table in at])
    view = Night(found, crowds.players(crowd_id), max((t.round for t in at), default=0),
                 games=games)
    finished = []
    for table in at:
        game = games.get(table.game_id)
        if game is None:
            continue
        shown = _table(table, game)
        view.rounds.setdefault(table.round, []).append(shown)
        if shown.over:
            finished.append(played(shown, game))
    names = [name for _, name in view.players]
    view.standings.extend(rule.standings(names, finished, found.moving == "progressive"))
    return view


UNREAD = object()  # a crowd night not read yet: a function given it reads it (of_night)


def of_night(night_id: int) -> Night | None:
    """Return the crowd night a night is, read whole, or None for an ordinary night."""
    found = crowds.of_night(night_id)
    return None if found is None else night(found.id)


@dataclass(frozen=True)
class Seat:
    """Where a player sits in the round being played."""

    round: int
    table: int
    seat: int  # 1 first
    game_id: int
    deals: bool
    over: bool


def seat_of(view: Night, name: str) -> Seat | None:
    """Return where a player sits now (their latest table), or None."""
    for table in view.tables:
        if name in table.players:
            return Seat(table.round, table.number, table.players.index(name) + 1,
                        table.game_id, table.dealer == name, table.over)
    return None


def waits_for(view: Night, name: str) -> list[int] | None:
    """Return, for a player whose game is over while the next round is being seated
    without them, the tables still playing that their next table waits for (empty: it is
    seated at the next tap of *Next round*); None when they are not waiting so."""
    at = seat_of(view, name)
    if at is None or not at.over or at.round != view.round - 1 or view.over:
        return None
    previous = view.rounds.get(at.round, [])
    done = {t.number - 1: t.ranking for t in previous if t.over}
    holders = rule.holding(view.crowd.moving, [t.players for t in previous], done, name)
    return [index + 1 for index in holders]
