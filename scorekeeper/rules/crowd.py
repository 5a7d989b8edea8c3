"""A night for a crowd: its players split into tables, moved between rounds, and the
night's standings, combined across tables and rounds (docs/crowd.md).

Tables are numbered from the top: table 1 is the top table. A round's seating is a list of
tables, each the players in seat order (seat 0 deals first).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .base import RuleError

MIN_TABLES, MAX_TABLES = 2, 8
SEATINGS = ("random", "rating", "hand")  # how the first round is seated
MOVES = ("progressive", "redraw", "same")  # how the next round is seated
TOP_POINTS = 3  # a table's first place, whatever its size; its last gets 0
TOP_WEIGHT = Fraction(3, 2)  # the top table of a progressive night, from round 2 on

Seating = list[list[str]]


def table_sizes(count: int, size: int, smallest: int, largest: int) -> list[int]:
    """Return the sizes of the tables `count` players sit at, at most `size` a table: as
    few tables as that allows, their sizes differing by at most one, biggest first. Refuse
    (naming the field) a size the variant forbids, or a crowd that makes fewer than 2 or more
    than 8 tables, or a table the variant cannot play."""
    if not smallest <= size <= largest:
        raise RuleError("a table of this game seats %(smallest)s to %(largest)s players, "
                        "not %(size)s", "table_size", smallest=smallest, largest=largest,
                        size=size)
    tables = -(-count // size)
    if tables < MIN_TABLES:
        raise RuleError("%(count)s players make one table of %(size)s: a night for a crowd "
                        "needs at least %(least)s players, for two tables", "players",
                        count=count, size=size, least=size + 1)
    if tables > MAX_TABLES:
        raise RuleError("%(count)s players make more than %(most)s tables of %(size)s: seat "
                        "more at a table", "table_size", count=count, most=MAX_TABLES,
                        size=size)
    sizes = [count // tables + (1 if i < count % tables else 0) for i in range(tables)]
    if sizes[-1] < smallest:
        raise RuleError("%(count)s players at tables of %(size)s leave a table of "
                        "%(left)s, and this game needs %(smallest)s: choose another table "
                        "size", "table_size", count=count, size=size, left=sizes[-1],
                        smallest=smallest)
    return sizes


def _split(players: Sequence[str], sizes: Sequence[int]) -> Seating:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start:start + size]))
        start += size
    return tables


def seat_at_random(players: Sequence[str], sizes: Sequence[int],
                   rng: random.Random) -> Seating:
    """Seat the players at tables of these sizes, at random."""
    shuffled = list(players)
    rng.shuffle(shuffled)
    return _split(shuffled, sizes)


def seat_by_rating(rated: Sequence[tuple[str, float]], sizes: Sequence[int],
                   rng: random.Random) -> Seating:
    """Seat the players so that each table is a fair fight: a snake draft by rating (best
    first to tables 1, 2, 3, then back 3, 2, 1...), skipping a table once full; each table's
    seats then shuffled, so who deals first is left to chance."""
    ranked = [name for name, _ in sorted(rated, key=lambda item: -item[1])]
    tables: Seating = [[] for _ in sizes]
    order = list(range(len(sizes)))
    turn = 0
    for name in ranked:
        while True:
            lap, at = divmod(turn, len(order))
            index = order[at] if lap % 2 == 0 else order[-1 - at]
            turn += 1
            if len(tables[index]) < sizes[index]:
                tables[index].append(name)
                break
    for table in tables:
        rng.shuffle(table)
    return tables


def check_by_hand(tables: Sequence[Sequence[str]], players: Sequence[str],
                  smallest: int, largest: int) -> Seating:
    """Return the tables the host seated by hand, refused (naming the field) unless every
    player sits exactly once, at 2 to 8 tables the variant can play, sizes within one."""
    seated = [name for table in tables for name in table]
    keys = [name.casefold() for name in seated]
    twice = sorted({name for name, key in zip(seated, keys) if keys.count(key) > 1})
    if twice:
        raise RuleError("%(name)s is seated twice", "tables", name=twice[0])
    wanted = {name.casefold() for name in players}
    stranger = [name for name in seated if name.casefold() not in wanted]
    if stranger:
        raise RuleError("%(name)s is not one of the night's players", "tables",
                        name=stranger[0])
    missing = [name for name in players if name.casefold() not in set(keys)]
    if missing:
        raise RuleError("%(name)s has no table", "tables", name=missing[0])
    full = [list(table) for table in tables if table]
    if not MIN_TABLES <= len(full) <= MAX_TABLES:
        raise RuleError("seat the players at %(least)s to %(most)s tables, not %(count)s",
                        "tables", least=MIN_TABLES, most=MAX_TABLES, count=len(full))
    sizes = [len(table) for table in full]
    if max(sizes) - min(sizes) > 1:
        raise RuleError("tables of %(big)s and %(small)s: their sizes may differ by one at "
                        "most", "tables", big=max(sizes), small=min(sizes))
    if min(sizes) < smallest or max(sizes) > largest:
        raise RuleError("a table of this game seats %(smallest)s to %(largest)s players",
                        "tables", smallest=smallest, largest=largest)
    return full


def progressive(finished: Sequence[Sequence[str]], rng: random.Random) -> Seating:
    """Return the next round's tables from each table's finishing order (first to last,
    table 1 first): each table's winner moves up a table and its last moves down one; the
    top table's winner and the bottom table's last stay. Every table keeps its size. The
    seats at each table are shuffled (who deals first is left to chance)."""
    count = len(finished)
    tables: Seating = [[] for _ in range(count)]
    for index, order in enumerate(finished):
        winner, last = order[0], order[-1]
        for name in order:
            to = index
            if name == winner and index > 0:
                to = index - 1
            elif name == last and index < count - 1:
                to = index + 1
            tables[to].append(name)
    for table in tables:
        rng.shuffle(table)
    return tables


def redraw(previous: Sequence[Sequence[str]], rng: random.Random) -> Seating:
    """Return the next round's tables drawn again at random, each the size it was."""
    everyone = [name for table in previous for name in table]
    return seat_at_random(everyone, [len(table) for table in previous], rng)


def same(previous: Sequence[Sequence[str]], rng: random.Random) -> Seating:
    """Return the same tables again, the deal passed on: each table's seats turned by one."""
    return [list(table[1:]) + list(table[:1]) for table in previous]


NEXT = {"progressive": progressive, "redraw": redraw, "same": same}


def seat_ready(moving: str, previous: Sequence[Sequence[str]],
               done: Mapping[int, Sequence[str]], seated: Mapping[int, Sequence[str]],
               rng: random.Random) -> dict[int, list[str]]:
    """Return the next round's tables that can be seated now (by index, 0 the top table),
    beyond those `seated` already: a table still playing holds only the tables its players
    go to. `previous` is the round's tables, `done` each finished one's finishing order.

    Progressive: next table k takes table k's stayers, table k+1's winner and table k-1's
    last, so it waits for tables k-1, k and k+1 alone. The same tables: table k waits for
    itself. Drawn again: the free players not seated yet are drawn to the tables they fill
    now (in order, skipping one they cannot fill); the rest wait for the late tables'
    players. Seated whole, round by round, it gives what `NEXT` gives."""
    count = len(previous)
    ready: dict[int, list[str]] = {}
    if moving == "redraw":
        taken = {name for table in seated.values() for name in table}
        free = [name for index in sorted(done) for name in done[index] if name not in taken]
        rng.shuffle(free)
        for index in range(count):
            size = len(previous[index])
            if index not in seated and size <= len(free):
                ready[index], free = free[:size], free[size:]
        return ready
    for index in range(count):
        if index in seated:
            continue
        if moving == "same":
            if index in done:
                order = list(done[index])
                ready[index] = order[1:] + order[:1]
            continue
        needed = range(max(index - 1, 0), min(index + 2, count))
        if not all(k in done for k in needed):
            continue
        order = done[index]
        table = [name for name in order
                 if not (name == order[0] and index > 0)
                 and not (name == order[-1] and index < count - 1)]
        if index + 1 < count:
            table.append(done[index + 1][0])
        if index > 0:
            table.append(done[index - 1][-1])
        rng.shuffle(table)
        ready[index] = table
    return ready


def holding(moving: str, previous: Sequence[Sequence[str]],
            done: Mapping[int, Sequence[str]], name: str) -> list[int]:
    """Return the tables (by index) still playing that a free player's next table waits
    for: progressive, those beside the table they go to; the same tables, none; drawn
    again, every one still playing."""
    playing = [index for index in range(len(previous)) if index not in done]
    if moving == "same":
        return []
    if moving == "redraw":
        return playing
    at = next(index for index, order in done.items() if name in order)
    order = done[at]
    to = at - 1 if name == order[0] and at > 0 else (
        at + 1 if name == order[-1] and at < len(previous) - 1 else at)
    return [index for index in playing if abs(index - to) <= 1]


def place_points(places: Sequence[int]) -> list[Fraction]:
    """Return each player's points for one game from their places (1 first; a tie shares a
    place): 3 for first down to 0 for last, evenly spaced whatever the table's size, and a
    tie sharing the average of the points its places would have had."""
    count = len(places)
    step = Fraction(TOP_POINTS, max(count - 1, 1))
    ordered = sorted(places)
    points = []
    for place in places:
        shared = [i for i, p in enumerate(ordered) if p == place]
        points.append(sum((TOP_POINTS - i * step for i in shared), Fraction(0)) / len(shared))
    return points


@dataclass(frozen=True)
class Played:
    """One finished game of the night: its round, its table (1 the top), and each player's
    place (1 first; a tie shares a place) and whether they won it."""

    round: int
    table: int
    places: Mapping[str, int]
    won: frozenset[str]


@dataclass(frozen=True)
class Standing:
    """A player's line in the night's standings."""

    name: str
    place: int
    points: Fraction
    wins: int
    games: int


def weight(played: Played, weigh_top: bool) -> Fraction:
    """Return what a game's points are multiplied by: the top table of a progressive night,
    from round 2 on (everyone there won their way up), by 3/2; any other, by 1."""
    return TOP_WEIGHT if weigh_top and played.table == 1 and played.round > 1 else Fraction(1)


def standings(players: Sequence[str], games: Sequence[Played],
              weigh_top: bool) -> list[Standing]:
    """Return the night's standings: points summed over every finished game, wins the
    tiebreak, a tie on both sharing a place; then by name."""
    points = {name: Fraction(0) for name in players}
    wins = dict.fromkeys(players, 0)
    games_played = dict.fromkeys(players, 0)
    for played in games:
        names = list(played.places)
        factor = weight(played, weigh_top)
        for name, got in zip(names, place_points([played.places[n] for n in names])):
            points[name] = points.get(name, Fraction(0)) + got * factor
            wins[name] = wins.get(name, 0) + (name in played.won)
            games_played[name] = games_played.get(name, 0) + 1
    order = sorted(points, key=lambda n: (-points[n], -wins[n], n.casefold()))
    lines: list[Standing] = []
    for index, name in enumerate(order):
        tied = lines and (lines[-1].points, lines[-1].wins) == (points[name], wins[name])
        place = lines[-1].place if tied else index + 1
        lines.append(Standing(name, place, points[name], wins[name], games_played[name]))
    return lines
