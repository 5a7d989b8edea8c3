"""The roster's and a player's figures, summed by the database from the results cache: no
game is replayed. Game-level numbers (played, wins, best night, head-to-head) count finished
games only; hand-level numbers (kings left, chips, corners...) every hand recorded.

tests/reports/oracle.py works the same figures out by replaying every game, the slow,
obvious way; the tests hold the two equal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from operator import itemgetter

from flask_babel import gettext
from sqlalchemy import Integer, bindparam, case, cast, func, select, tuple_

from .. import variants
from ..db.models import (
    Game,
    Night,
    Player,
    ResultFact,
    ResultPair,
    ResultSeat,
    TallyFact,
    TallyNight,
    TallyPair,
    TallySeat,
)
from ..db.named_seasons import in_season
from ..extensions import db
from ..words import day
from .calendar import EVERYTHING, Shown


@dataclass(frozen=True)
class Record:
    """Finished games played and won (a shared win is a win for each)."""

    played: int = 0
    wins: int = 0

    @property
    def win_rate(self) -> float | None:
        """Return wins per game played, or None before any game."""
        return self.wins / self.played if self.played else None

    def add(self, won: bool) -> Record:
        """Return this record with one more game."""
        return Record(self.played + 1, self.wins + int(won))


class Facts(Counter):
    """What a player's hands added up to, across every hand recorded, by fact name."""

    def lines(self) -> list[tuple[str, str, str, str]]:
        """Return the statistics lines with something to say: (label, figure, note, tone)."""
        return [(gettext(line.label), *line.show(self)) for line in variants.fact_lines()
                if self[line.needs]]


@dataclass(frozen=True)
class NightRecord:
    """A player's finished games and wins on one night."""

    night: int | None
    label: str
    played_on: date
    games: int
    wins: int


@dataclass(frozen=True)
class HeadToHead:
    """Finished games two players both sat in, and who finished ahead."""

    other: str
    games: int
    ahead: int
    behind: int
    level: int
    other_id: int | None = field(default=None, compare=False)  # for a link, when known


# Years of weekly nights, or of games, are drawn from this many points: on a phone they are
# then about as far apart as the line is wide (3 units of a chart 360 wide), and more could
# not be told apart.
CHART_POINTS = 80


def spread(total: int, most: int = CHART_POINTS) -> list[int]:
    """Return the positions of at most `most` of `total` items, spread evenly, the first and
    the last always among them."""
    if total <= most:
        return list(range(total))
    return [round(i * (total - 1) / (most - 1)) for i in range(most)]


# What the figures count: a finished game (the cache keeps seats only for games the rules
# accept), read from the results cache's own indexes. The statements are built once: the
# player's id is bound when they run.
PLAYER = bindparam("player")
_WINS = func.sum(case((ResultSeat.won, 1), else_=0))
# Counted by over and won or not, as the indexes hold them, in their order: no sum to work
# out per row; the unfinished games are left out when read. (Not asked for by `over`: a
# season's seats are then found by their games, not among every finished seat.)
RECORDS = (select(ResultSeat.over, ResultSeat.player_id, ResultSeat.won, func.count())
           .group_by(ResultSeat.over, ResultSeat.player_id, ResultSeat.won))
_BY_VARIANT = (select(ResultSeat.variant, ResultSeat.over, ResultSeat.won, func.count())
               .group_by(ResultSeat.over, ResultSeat.variant, ResultSeat.won))
_FACTS = select(ResultFact.fact, func.sum(ResultFact.value)).group_by(ResultFact.fact)


def within(query, game_id, season: bool):
    """Return a statement narrowed to the games of the season bound (as it is, for all
    time)."""
    if not season:
        return query
    return query.where(game_id.in_(select(Game.id).where(in_season(Game.played_on))))


def mine(query, game_id, player_id, season: bool):
    """Return a statement narrowed to the player's rows (PLAYER) of the season bound's
    games, or of all time. For all time they are found by the player's index; for a season,
    by the season's games, each game's row of the player looked up by its key (game,
    player): the player's index would read every game of theirs since the first and keep a
    season's few."""
    if not season:
        return query.where(player_id == PLAYER)
    return query.where(tuple_(game_id, player_id).in_(
        select(Game.id, cast(PLAYER, Integer)).where(in_season(Game.played_on))))


# Per night (a game outside any night counts on its own day): games and wins, grouped
# first, then each night's start and name looked up once.
_DAY = case((Game.night_id.is_(None), Game.played_on))


def _nights_of(season: bool):
    per_night = (select(Game.night_id.label("night_id"), _DAY.label("alone"),
                        func.count().label("games"), _WINS.label("wins"))
                 .join(ResultSeat, ResultSeat.game_id == Game.id)
                 .where(ResultSeat.over.is_(True)))
    per_night = mine(per_night, ResultSeat.game_id, ResultSeat.player_id, season)
    per_night = per_night.group_by(Game.night_id, _DAY).subquery()
    return (select(per_night.c.night_id, per_night.c.alone, Night.started_at, Night.name,
                   per_night.c.games, per_night.c.wins)
            .outerjoin(Night, Night.id == per_night.c.night_id))


# Finished games shared with each other player, counted by outcome (ahead 1, level 0,
# behind -1) as the index holds them, in its order: no sum to work out per row. Their
# names are joined on once the few rows are counted.
def _versus_of(season: bool):
    counted = select(ResultPair.other_id.label("other_id"),
                     ResultPair.outcome.label("outcome"), func.count().label("games"))
    counted = mine(counted, ResultPair.game_id, ResultPair.player_id, season)
    counted = counted.group_by(ResultPair.other_id, ResultPair.outcome).subquery()
    return (select(counted.c.other_id, Player.name, counted.c.outcome, counted.c.games)
            .join(Player, Player.id == counted.c.other_id))


# A player's page and the roster, of the season bound (True), counted from the results
# cache, or of all time (False), read from the players' tallies (db/results.py: the same
# sums, kept with every change): built once (building them costs more than SQLite takes to
# answer them).
_TALLIED = TallySeat.player_id == PLAYER
BY_VARIANT, FACTS, NIGHTS, VERSUS, SEATS = (
    {True: mine(_BY_VARIANT, ResultSeat.game_id, ResultSeat.player_id, True),
     False: select(TallySeat.variant, TallySeat.over, TallySeat.won, TallySeat.games)
     .where(_TALLIED)},
    {True: mine(_FACTS, ResultFact.game_id, ResultFact.player_id, True),
     False: select(TallyFact.fact, TallyFact.value).where(TallyFact.player_id == PLAYER)},
    {True: _nights_of(True)},
    {True: _versus_of(True),
     False: select(TallyPair.other_id, Player.name, TallyPair.outcome, TallyPair.games)
     .join(Player, Player.id == TallyPair.other_id).where(TallyPair.player_id == PLAYER)},
    {True: within(RECORDS, ResultSeat.game_id, True),
     False: select(TallySeat.over, TallySeat.player_id, TallySeat.won,
                   func.sum(TallySeat.games))
     .group_by(TallySeat.over, TallySeat.player_id, TallySeat.won)})
NAMES = select(Player.id, Player.name)
# A player's nights for all time, from their tally (db/results.py): how many, the best (the
# most wins, then the fewest games, then the latest), and the few a chart draws, by number.
_NIGHT = TallyNight.player_id == PLAYER
NIGHTS_TALLIED = select(func.max(TallyNight.number)).where(_NIGHT)
BEST_TALLIED = (select(TallyNight.night_id, Night.name, TallyNight.day, TallyNight.games,
                       TallyNight.wins)
                .outerjoin(Night, Night.id == TallyNight.night_id)
                .where(_NIGHT, TallyNight.wins > 0)
                .order_by(TallyNight.wins.desc(), TallyNight.games, TallyNight.number.desc())
                .limit(1))
CHARTED = (select(TallyNight.day, TallyNight.played, TallyNight.won)
           .where(_NIGHT, TallyNight.number.in_(bindparam("numbers", expanding=True)))
           .order_by(TallyNight.number))


def records(shown: Shown = EVERYTHING) -> dict[str, Record]:
    """Return every player's finished games and wins, by name."""
    run = db.session.execute
    names = dict(run(NAMES).all())
    return {names[player]: record for player, record in records_by_id(shown).items()}


def records_by_id(shown: Shown = EVERYTHING) -> dict[int, Record]:
    """Return every player's finished games and wins, by id (the roster knows the names),
    in a season or for all time."""
    counted: dict[int, list[int]] = {}  # player: [played, wins]
    season = shown.bound
    for over, player, won, games in db.session.execute(
            SEATS[season is not None], season or {}).all():
        if not over:
            continue
        counts = counted.setdefault(player, [0, 0])
        counts[0] += games
        if won:
            counts[1] += games
    return {player: Record(played, wins) for player, (played, wins) in counted.items()}


@dataclass(frozen=True)
class Summary:
    """What a player's page shows first: finished games and wins, by variant, and what
    their hands added up to."""

    name: str
    overall: Record
    by_variant: dict[str, Record]
    unfinished: int
    hands: Facts


@dataclass(frozen=True)
class Details:
    """What the part of a player's page fetched into place shows: nights, the best one,
    the win rate after each, and head-to-head."""

    nights: int  # how many nights they finished a game on
    best_night: NightRecord | None
    head_to_head: tuple[HeadToHead, ...]
    form: tuple[tuple[date, float], ...]  # at most CHART_POINTS nights, spread evenly


def summary(player: Player, shown: Shown = EVERYTHING) -> Summary:
    """Return a player's games and wins by variant and their hands' facts, of a season's
    games or of all time: two grouped statements along the results cache's indexes."""
    season = shown.bound
    mine = {"player": player.id, **(season or {})}
    run = db.session.execute
    won, unfinished = {}, 0
    for variant, over, winner, games in run(BY_VARIANT[season is not None], mine).all():
        if over:
            before = won.get(variant, Record())
            won[variant] = Record(before.played + games, before.wins + (games if winner else 0))
        else:
            unfinished += games
    by_variant = {home.name: won[home.name] for home in variants.homes() if home.name in won}
    overall = Record(sum(r.played for r in by_variant.values()),
                     sum(r.wins for r in by_variant.values()))
    return Summary(player.name, overall, by_variant, unfinished,
                   Facts({fact: int(value) for fact, value in
                         run(FACTS[season is not None], mine).all()}))


def details(player: Player, shown: Shown = EVERYTHING) -> Details:
    """Return a player's nights (how many, the best, the win rate after each, spread for a
    chart) and head-to-head, of a season's games or of all time."""
    season = shown.bound
    mine = {"player": player.id, **(season or {})}
    run = db.session.execute
    if season is None:
        nights, best, points = _tallied_nights(player.id)
    else:
        nights, best, points = _nights(run(NIGHTS[True], mine).all())
    shared: dict[int, list] = {}  # other's id: [name, games, ahead, behind]
    for other, name, outcome, games in run(VERSUS[season is not None], mine).all():
        counts = shared.setdefault(other, [name, 0, 0, 0])
        counts[1] += games
        if outcome:
            counts[2 if outcome > 0 else 3] += games
    versus = [HeadToHead(name, games, ahead, behind, games - ahead - behind, other)
              for other, (name, games, ahead, behind) in shared.items()]
    return Details(nights, best,
                   tuple(sorted(versus, key=lambda h: (-h.games, h.other.casefold()))), points)


def _nights(rows: Sequence) -> tuple[int, NightRecord | None, tuple[tuple[date, float], ...]]:
    """Return from the rows of NIGHTS how many nights, the best one and the chart's points:
    what the oracle's best night and chart give (tests/reports/oracle.py), worked out on
    plain tuples, with a record made only for the best night and a rate only for the
    nights charted."""
    nights = sorted(((alone if started is None else started.date(), night_id or 0, night_id,
                      name, int(games), int(wins or 0))
                     for night_id, alone, started, name, games, wins in rows),
                    key=itemgetter(0, 1))
    played, won, best = [], [], None
    games_so_far = wins_so_far = 0
    for index, (_, _, _, _, games, wins) in enumerate(nights):
        games_so_far += games
        wins_so_far += wins
        played.append(games_so_far)
        won.append(wins_so_far)
        if wins and (best is None or (wins, wins / games, index) > best):
            best = (wins, wins / games, index)
    record = None
    if best is not None:
        # Labelled once picked: a night's label (its date, in the page's language) is
        # shown only for the best night.
        played_on, _, night_id, name, games, wins = nights[best[2]]
        record = NightRecord(night_id, name or day(played_on), played_on, games, wins)
    points = tuple((nights[i][0], 100 * won[i] / played[i]) for i in spread(len(nights)))
    return len(nights), record, points


def _tallied_nights(player_id: int):
    """Return a player's nights of all time as `_nights` does, from their tally: how many,
    the best one and the chart's points, a few rows however many nights."""
    run = db.session.execute
    mine = {"player": player_id}
    count = run(NIGHTS_TALLIED, mine).scalar() or 0
    best = run(BEST_TALLIED, mine).first()
    record = None
    if best is not None:
        night_id, name, played_on, games, wins = best
        record = NightRecord(night_id, name or day(played_on), played_on, games, wins)
    numbers = [i + 1 for i in spread(count)]
    points = tuple((played_on, 100 * won / played) for played_on, played, won in
                   run(CHARTED, {**mine, "numbers": numbers}).all())
    return count, record, points
