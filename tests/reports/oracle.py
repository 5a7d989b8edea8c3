"""The test oracle for a player's figures: every game replayed through the rules and counted
in Python, the slow, obvious way. The app sums the same figures with SQL from the results
cache (scorekeeper/reports/figures.py); tests hold the two equal, and hold this one to
numbers worked out by hand (tests/reports/test_stats.py).

Game-level numbers (played, wins, best night, head-to-head) count finished games only:
a game still being played has no result yet. Hand-level numbers (penalty per hand, kings
left, chips, corners, dragons) count every hand recorded, finished game or not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from scorekeeper import rules, variants
from scorekeeper.db import read_games
from scorekeeper.db.models import Game, Night, Player, Seat
from scorekeeper.extensions import db
from scorekeeper.reports import figures as app
from scorekeeper.reports.calendar import EVERYTHING, Shown
from scorekeeper.reports.figures import Facts, HeadToHead, NightRecord, Record, spread
from scorekeeper.reports.history import label
from scorekeeper.words import day


@dataclass(frozen=True)
class PlayerStats:
    """Everything a player's page and its part show about one player."""

    name: str
    overall: Record
    by_variant: dict[str, Record]
    unfinished: int
    hands: Facts
    nights: int  # how many nights they finished a game on
    best_night: NightRecord | None
    head_to_head: tuple[HeadToHead, ...]
    form: tuple[tuple[date, float], ...]  # at most CHART_POINTS nights, spread evenly


def form(nights: Iterable[NightRecord]) -> tuple[tuple[date, float], ...]:
    """Return the player's win rate (in %) after each night, oldest first."""
    points, record = [], Record()
    for night in nights:
        record = Record(record.played + night.games, record.wins + night.wins)
        points.append((night.played_on, 100 * record.wins / record.played))
    return tuple(points)


def best_night(nights: Iterable[NightRecord]) -> NightRecord | None:
    """Return the night with the most wins; a tie goes to the better win rate, then the later."""
    winning = [(r.wins, r.wins / r.games, index, r) for index, r in enumerate(nights) if r.wins]
    return max(winning, key=lambda row: row[:3])[3] if winning else None


def sampled(points: Sequence[tuple[date, float]]) -> tuple[tuple[date, float], ...]:
    """Return the chart's points: every night's, or CHART_POINTS of them spread evenly."""
    return tuple(points[i] for i in spread(len(points)))


def app_stats(player: Player, shown: Shown = EVERYTHING) -> PlayerStats:
    """Return the app's own figures of a player (reports.figures: `summary`, which the page
    shows, and `details`, which its part shows), together, to be held equal to the replay."""
    first, more = app.summary(player, shown), app.details(player, shown)
    return PlayerStats(first.name, first.overall, first.by_variant, first.unfinished,
                       first.hands, more.nights, more.best_night, more.head_to_head, more.form)


@dataclass(frozen=True)
class Played:
    """One game as the statistics see it: what was entered, its result, when and which night."""

    game: rules.Game
    result: rules.GameResult
    played_on: date
    night: int | None = None  # games of one night share this key
    night_label: str = ""
    game_id: int | None = None
    night_on: date | None = None  # the day the night began (a night can run past midnight)


def played(game: rules.Game, played_on: date, night: int | None = None,
           night_label: str = "", game_id: int | None = None,
           night_on: date | None = None) -> Played:
    """Score a game with the rules and wrap it for the statistics."""
    return Played(game, rules.play(game), played_on, night, night_label, game_id, night_on)


def won(p: Played, name: str) -> bool:
    """Tell whether `name` won (or shared the win of) a finished game."""
    return p.result.over and name in p.result.winners


def compare(p: Played, name: str, other: str) -> int:
    """Return 1 if `name` finished ahead of `other` in this game, -1 if behind, 0 if level."""
    mine, theirs = p.result.totals[name], p.result.totals[other]
    if mine == theirs:
        return 0
    better = mine < theirs if rules.get_variant(p.game.variant).lower_is_better else mine > theirs
    return 1 if better else -1


def records(games: Iterable[Played]) -> dict[str, Record]:
    """Return every player's finished games and wins, by name."""
    out: dict[str, Record] = {}
    for p in games:
        if p.result.over:
            for name in p.game.players:
                out[name] = out.get(name, Record()).add(won(p, name))
    return out


def variant_records(name: str, games: Iterable[Played]) -> dict[str, Record]:
    """Return a player's finished games and wins per variant, variants in registry order."""
    out = {home.name: Record() for home in variants.homes()}
    for p in games:
        if p.result.over and name in p.game.players:
            out[p.game.variant] = out[p.game.variant].add(won(p, name))
    return {variant: record for variant, record in out.items() if record.played}


def hand_stats(name: str, games: Iterable[Played]) -> Facts:
    """Add up the facts of a player's hands, as each game's variant counts them."""
    facts = Facts()
    for p in games:
        if name not in p.game.players:
            continue
        home = variants.get(p.game.variant)
        for rnd, done in zip(p.game.rounds, p.result.rounds):
            facts.update(home.facts(name, rnd, done))
    return facts


def night_records(name: str, games: Sequence[Played]) -> tuple[NightRecord, ...]:
    """Return a player's finished games and wins per night, oldest night first.

    A night is dated by the day it began; a game outside any night counts on its own day.
    """
    nights: dict[object, NightRecord] = {}
    for p in games:
        if not (p.result.over and name in p.game.players):
            continue
        key = p.night if p.night is not None else ("day", p.played_on)
        seen = nights.get(key)
        if seen is None:
            on = (p.night_on or p.played_on) if p.night is not None else p.played_on
            seen = NightRecord(p.night, p.night_label or day(on), on, 0, 0)
        nights[key] = NightRecord(seen.night, seen.label, seen.played_on, seen.games + 1,
                                  seen.wins + int(won(p, name)))
    return tuple(sorted(nights.values(), key=lambda r: (r.played_on, r.night or 0)))


def head_to_head(name: str, games: Iterable[Played]) -> tuple[HeadToHead, ...]:
    """Return, per other player, the finished games shared and who finished ahead how often."""
    tally: dict[str, list[int]] = {}
    for p in games:
        if not (p.result.over and name in p.game.players):
            continue
        for other in p.game.players:
            if other != name:
                row = tally.setdefault(other, [0, 0, 0, 0])
                row[0] += 1
                row[{1: 1, -1: 2, 0: 3}[compare(p, name, other)]] += 1
    rows = [HeadToHead(other, *counts) for other, counts in tally.items()]
    return tuple(sorted(rows, key=lambda h: (-h.games, h.other.casefold())))


def player_stats(name: str, games: Sequence[Played]) -> PlayerStats:
    """Return every statistic of one player; `games` in the order they were played."""
    mine = [p for p in games if name in p.game.players]
    nights = night_records(name, mine)
    by_variant = variant_records(name, mine)
    overall = Record(sum(r.played for r in by_variant.values()),
                     sum(r.wins for r in by_variant.values()))
    return PlayerStats(
        name=name, overall=overall, by_variant=by_variant,
        unfinished=sum(1 for p in mine if not p.result.over),
        hands=hand_stats(name, mine), nights=len(nights), best_night=best_night(nights),
        head_to_head=head_to_head(name, mine), form=sampled(form(nights)))


def played_games(player: Player | None = None) -> list[Played]:
    """Return the stored games (only `player`'s, if given) scored, in the order played."""
    query = (select(Game.id, Night).outerjoin(Night, Game.night_id == Night.id)
             .order_by(Game.played_on, Game.created_at, Game.id))
    if player is not None:
        query = query.where(Game.id.in_(select(Seat.game_id).where(Seat.player_id == player.id)))
    rows = db.session.execute(query).all()
    loaded = read_games(game_id for game_id, _ in rows)
    # A game the rules refuse as stored has no result to count until it is repaired.
    return [Played(loaded[game_id].core, loaded[game_id].result, loaded[game_id].played_on,
                         loaded[game_id].night_id, label(night) if night else "", game_id,
                         night.started_at.date() if night else None)
            for game_id, night in rows if game_id in loaded and loaded[game_id].readable]
