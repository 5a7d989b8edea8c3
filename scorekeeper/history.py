"""History as the pages show it: what a night is called, and each night's games summed up."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select

from .extensions import db
from .models import Game, Night
from .storage import Loaded, read_games


def label(night: Night) -> str:
    """Return what a night is called: its name, else its date, e.g. "Sat 21 Nov 2026"."""
    return night.name or night.started_at.strftime("%a %d %b %Y")


@dataclass(frozen=True)
class NightSummary:
    """A night as the history list shows it."""

    night: Night
    players: tuple[str, ...]
    games: tuple[Loaded, ...]
    wins: tuple[tuple[str, int], ...]  # (name, games won), most first
    unfinished: int
    broken: int = 0  # games the rules refuse as stored: they need repair


def summarise(night: Night) -> NightSummary:
    """Return a night's players (in order of first seat), games with results, and who won."""
    return summarise_all([night])[0]


def summarise_all(shown: Sequence[Night]) -> list[NightSummary]:
    """Return the summaries of several nights, reading all their games at once."""
    placed = db.session.execute(select(Game.night_id, Game.id)
                                .where(Game.night_id.in_([night.id for night in shown]))
                                .order_by(Game.id)).all()
    loaded = read_games(game_id for _, game_id in placed)
    games: dict[int, list[Loaded]] = {}
    for night_id, game_id in placed:
        if game_id in loaded:  # not deleted on another phone meanwhile
            games.setdefault(night_id, []).append(loaded[game_id])
    return [summary_of(night, games.get(night.id, [])) for night in shown]


def summary_of(night: Night, games: Sequence[Loaded]) -> NightSummary:
    """Return the summary of a night whose games are read."""
    players: dict[str, None] = {}
    wins: Counter[str] = Counter()
    unfinished = broken = 0
    for game in games:
        players.update(dict.fromkeys(game.players))
        if not game.readable:
            broken += 1
        elif game.result.over:
            wins.update(game.result.winners)
        else:
            unfinished += 1
    order = list(players)
    ranked = sorted(wins.items(), key=lambda item: (-item[1], order.index(item[0])))
    return NightSummary(night, tuple(players), tuple(games), tuple(ranked), unfinished, broken)
