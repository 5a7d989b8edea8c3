"""A night for a crowd, done whole: start it, seat the next round, decide how many rounds,
and a phone joining as one of its players (as play.py does for a game: the lock, the check,
the write, everything derived kept by `play.changing`, the commit)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import rules
from .db import crowds, phone_parts, read_games, writer
from .db.locks import one_at_a_time
from .db.models import Night, table_time
from .db.roster import clean_name, player_for
from .extensions import db
from .play import Gone, changing
from .reports import crowd as reading
from .reports import ratings
from .rules import crowd as rule
from .rules.base import check_int

MAX_ROUNDS = 20


@dataclass(frozen=True)
class Plan:
    """What the host chose for a crowd night, as typed: checked by `start`."""

    names: Sequence[str]
    variant: str
    settings: dict[str, Any]
    table_size: Any
    seating: str = "random"
    moving: str = "progressive"
    rounds: Any = None  # None or "": decided as the night goes
    by_hand: Sequence[Sequence[str]] = ()  # the tables, when the host seats by hand


def _names(raw: Sequence[str]) -> list[str]:
    """Return the players' names cleaned, refusing one named twice (naming the field)."""
    names, seen = [], {}
    for i, name in enumerate(raw):
        cleaned = clean_name(name, f"players[{i}]")
        if cleaned.casefold() in seen:
            raise rules.RuleError("%(name)s is named twice", "players", name=cleaned)
        seen[cleaned.casefold()] = cleaned
        names.append(cleaned)
    return names


def _whole(raw: Any) -> Any:
    """Return typed ASCII digits as a number, anything else as it came (check_int refuses
    it): str.isdigit() alone lets "³" and "٣" by, which int() then fails on."""
    typed = raw.strip() if isinstance(raw, str) else None
    return int(typed) if typed and typed.isascii() and typed.isdigit() else raw


def _rounds(raw: Any) -> int | None:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    return check_int(_whole(raw), "rounds", 1, MAX_ROUNDS,
                     what=rules.Word("a whole number of rounds"))


def _first_round(plan: Plan, names: list[str], spec, size: int,
                 rng: random.Random) -> rule.Seating:
    """Return the first round's tables, as the host chose to seat them."""
    if plan.seating == "hand":
        by_key = {name.casefold(): name for name in names}
        tables = [[by_key.get(" ".join(n.split()).casefold(), n) for n in table if n.strip()]
                  for table in plan.by_hand]
        return rule.check_by_hand(tables, names, spec.min_players, spec.max_players)
    sizes = rule.table_sizes(len(names), size, spec.min_players, spec.max_players)
    if plan.seating == "rating":
        figures = {r.name.casefold(): r.figure for r in ratings.roster(spec.name)}
        newcomer = ratings.BASE  # a player not rated yet in the variant
        rated = [(name, figures.get(name.casefold(), newcomer)) for name in names]
        return rule.seat_by_rating(rated, sizes, rng)
    return rule.seat_at_random(names, sizes, rng)


def _seat_round(crowd_id: int, number: int, variant: str, settings: dict[str, Any],
                seating: dict[int, list[str]], night: Night) -> list[int]:
    """Start a game at these tables of round `number` (by number, 1 the top), and seat there
    each phone that joined the night as one of its players; return the games' ids."""
    phones = crowds.phones(crowd_id)
    game_ids = []
    for table, names in sorted(seating.items()):
        game = writer.create_game(variant, dict(settings), list(names), 0, night=night)
        crowds.add_table(crowd_id, number, table, game.id)
        for seat, player in enumerate(game.seats):
            joined = phones.get(player.player_id)
            if joined is not None:
                phone_parts.take(game.id, 1, seat, *joined)
        game_ids.append(game.id)
    return game_ids


def start(plan: Plan, seed: int | None = None) -> int:
    """Start a night for a crowd: its own night, its players on the roster (new names
    added), the first round seated and a game started at every table; return its id.
    Refused (a RuleError naming the field, nothing written) when it cannot be seated."""
    names = _names(plan.names)
    spec = rules.get_variant(plan.variant)
    settings = spec.resolve_settings(plan.settings)
    size = check_int(_whole(plan.table_size), "table_size", 1, 52,
                     what=rules.Word("a whole number of players"))
    if plan.seating not in rule.SEATINGS:
        raise rules.RuleError("choose how the tables are seated", "seating")
    if plan.moving not in rule.MOVES:
        raise rules.RuleError("choose how players move between rounds", "moving")
    rounds = _rounds(plan.rounds)
    rng = random.Random(seed)
    with changing() as change:
        seating = _first_round(plan, names, spec, size, rng)
        night = Night(started_at=table_time())
        players = [player_for(name) for name in names]
        found = crowds.add(night, spec.name, settings, size, plan.seating, plan.moving,
                           rounds, players)
        change.games(*_seat_round(found.id, 1, spec.name, settings,
                                  dict(enumerate(seating, start=1)), night))
        crowd_id = found.id
    return crowd_id


@dataclass(frozen=True)
class NextRound:
    """What asking for the next round did: `round` the round being seated; `seated` the
    tables this ask seated (none: another phone had, or a double tap); `waiting` its tables
    still held by a table of the round before that is still playing."""

    round: int
    seated: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()

    @property
    def started(self) -> bool:
        """Tell whether this ask seated any table."""
        return bool(self.seated)


def next_round(crowd_id: int, after: int, seed: int | None = None) -> NextRound:
    """Seat the round after round `after` (the one the host's page showed), every table of
    it whose players' games are all over: players moved as the night moves them, a new game
    at each such table, each joined phone seated there. A table still playing holds only
    the tables its players go to; the next ask seats them once it ends. An ask that finds
    nothing left to seat (another phone, a double tap) seats nothing and says which round is
    being played; one that finds every table it could seat held says which table holds it."""
    held = [table.game_id for table in crowds.tables(crowd_id, after)]
    with changing(*held) as change:
        one_at_a_time(f"crowd:{crowd_id}")  # PostgreSQL: one next round at a time
        found = crowds.get(crowd_id)
        if found is None:
            raise Gone(crowd_id)
        now = crowds.current_round(crowd_id)
        tables = crowds.tables(crowd_id, after)
        count = len(crowds.tables(crowd_id, 1))
        seated = crowds.tables(crowd_id, after + 1)
        if not tables or now > after + 1 or len(seated) == count:
            return NextRound(now)
        if now == after and found.rounds is not None and now >= found.rounds:
            raise rules.RuleError("the night is over after round %(round)s: add a round to "
                                  "play on", "round", round=now)
        games = read_games([t.game_id for t in tables + seated])
        previous = [list(games[t.game_id].players) for t in tables]
        done = {t.number - 1: list(games[t.game_id].result.ranking) for t in tables
                if games[t.game_id].result.over}
        ready = rule.seat_ready(found.moving, previous,
                                done, {t.number - 1: list(games[t.game_id].players)
                                       for t in seated}, random.Random(seed))
        playing = [str(t.number) for t in tables if t.number - 1 not in done]
        if not ready:
            raise rules.RuleError("table %(tables)s is still playing: the next round's tables "
                                  "wait for it to end", "round", tables=", ".join(playing))
        night = db.session.get(Night, found.night_id)
        change.games(*_seat_round(crowd_id, after + 1, found.variant, found.settings,
                                  {index + 1: names for index, names in ready.items()},
                                  night))
        change.show(*held)  # the phones on the last round's games see where to go
        left = {t.number for t in seated} | {index + 1 for index in ready}
    return NextRound(after + 1, tuple(sorted(i + 1 for i in ready)),
                     tuple(n for n in range(1, count + 1) if n not in left))


def _lately(crowd_id: int) -> list[int]:
    """Return the games of the latest two rounds: a table may be a round behind."""
    now = crowds.current_round(crowd_id)
    return [t.game_id for t in crowds.tables(crowd_id) if t.round >= now - 1]


def set_rounds(crowd_id: int, rounds: Any) -> int | None:
    """Decide how many rounds the night has (None: decided as it goes), at least the round
    being played: the night ends when that round's games end. Return it."""
    wanted = _rounds(rounds)
    with changing(*[t.game_id for t in crowds.tables(crowd_id)]) as change:
        found = crowds.get(crowd_id)
        if found is None:
            raise Gone(crowd_id)
        now = crowds.current_round(crowd_id)
        if wanted is not None and wanted < now:
            raise rules.RuleError("round %(round)s is being played: the night has at least "
                                  "%(round)s rounds", "rounds", round=now)
        found.rounds = wanted
        change.show(*_lately(crowd_id))
    return wanted


def end_after_this_round(crowd_id: int) -> int:
    """Make the round being played the night's last; return it."""
    return set_rounds(crowd_id, crowds.current_round(crowd_id)) or 0


@dataclass(frozen=True)
class Joined:
    """A phone joining the night as a player: `taken`, or the other phone that is theirs
    (`holder`: taking the player from it asks first)."""

    name: str
    taken: bool
    holder: str | None = None


def join(crowd_id: int, player_id: int, phone: str, label: str, force: bool) -> Joined:
    """Make this phone a player's for the night, and seat it at their table of the round
    being played (and at every round's from then on); a player another phone is already
    only when `force` (this phone was asked, and said yes)."""
    with changing(*_lately(crowd_id)) as change:
        found = crowds.get(crowd_id)
        if found is None:
            raise Gone(crowd_id)
        names = dict(crowds.players(crowd_id))
        if player_id not in names:
            raise rules.RuleError("tap your name: that player is not at this night", "player")
        other = crowds.phone_of(crowd_id, player_id)
        if other is not None and other.phone != phone and not force:
            return Joined(names[player_id], False, other.label)
        crowds.join(crowd_id, player_id, phone, label)
        view = reading.night(crowd_id)
        at = reading.seat_of(view, names[player_id]) if view is not None else None
        if at is not None and not at.over:
            game = view.games[at.game_id]
            phone_parts.take(at.game_id, game.next_number, at.seat - 1, phone, label)
            change.show(at.game_id)
    return Joined(names[player_id], True)
