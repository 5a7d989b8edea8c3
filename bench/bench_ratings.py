"""Time the skill ratings over 10 years of weekly game nights (bench_years.fill: 2,080 games).

Run: .venv/bin/python bench/bench_ratings.py [years]. It fills a fresh SQLite database and
times, called directly (no web server, no bare route to compare with):
  - `ratings.rebuild()`: every finished game rated again from nothing (limit: 5 s);
  - a save that finishes the newest game (play.record of a hand that reaches the target),
    beside the same save with the ratings left out, so their share shows;
  - the worst correction: a hand of the oldest game corrected so that its finishing order
    changes (and back), which rates every later game of its variant again; and reopening it.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_years import fill  # noqa: E402
from sqlalchemy import func, select  # noqa: E402

from bench import fresh_app  # noqa: E402
from scorekeeper import play, rules, variants  # noqa: E402
from scorekeeper.db import read_game  # noqa: E402
from scorekeeper.db.models import Game, RatingStep  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.reports import ratings  # noqa: E402

REBUILD_LIMIT = 5.0


def timed(action) -> float:
    """Return the seconds one call took."""
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


@contextmanager
def no_ratings():
    """Leave the ratings out of every change meanwhile (to see what they add)."""
    kept = ratings.after_change
    ratings.after_change = lambda game_ids, before=None, session=None: 0
    try:
        yield
    finally:
        ratings.after_change = kept


def finishing_save(names: list[str]) -> float:
    """Start a penalty game to 10, then time the save of the hand that ends it."""
    game_id = play.new_game("penalty", {"target": 10}, names, 0)
    home = variants.get("penalty")
    last = rules.Round(names[0], {name: rules.Hand(5, 1) for name in names[1:]})
    form = {**home.round_values(names, last), "number": "1", "token": ""}
    took = timed(lambda: play.record(game_id, 1, form, None))
    assert read_game(game_id).result.over
    return took


def oldest_corrections(times: int = 3) -> tuple[list[float], int]:
    """Correct hand 1 of the oldest game so that its winner held 40 cards, then back as it
    was, `times` times; return the seconds of each and how many games each rated again."""
    game = read_game(db.session.scalar(select(func.min(Game.id))))
    winner = game.result.ranking[0]
    rnd = game.core.rounds[0]
    out = rnd.went_out if rnd.went_out != winner else next(
        name for name in game.players if name != winner)
    hands = {name: rules.Hand(3) for name in game.players if name != out}
    hands[winner] = rules.Hand(40)
    home = variants.get(game.variant)
    forms = [{**home.round_values(list(game.players), r), "number": "1"}
             for r in (rules.Round(out, hands), rnd)]
    took = []
    for _ in range(times):
        for form in forms:
            before = db.session.scalar(select(func.sum(RatingStep.mu_after)))
            took.append(timed(lambda form=form: play.correct(game.id, 1, form, None)))
            after = db.session.scalar(select(func.sum(RatingStep.mu_after)))
            assert before != after, "the correction changed no rating"
    count = db.session.scalar(select(func.count(func.distinct(RatingStep.game_id)))
                              .where(RatingStep.variant == game.variant))
    return took, count


def main() -> None:
    years = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    app = fresh_app()
    with app.app_context():
        fill(years, random.Random(years))
        games = db.session.scalar(select(func.count(Game.id)))
        rebuilds = []
        for _ in range(3):
            rebuilds.append(timed(lambda: play.rebuild_results()))
        rated = []
        for _ in range(3):
            rated.append(timed(lambda: (ratings.rebuild(), db.session.commit())))
        steps = db.session.scalar(select(func.count()).select_from(RatingStep))
        names = ["Ann", "Ben", "Cy", "Dee", "Eve"]
        with_ratings = [finishing_save(names) for _ in range(15)]
        with no_ratings():
            without = [finishing_save(names) for _ in range(15)]
        ratings.rebuild()
        db.session.commit()
        corrections, again = oldest_corrections()
        oldest = db.session.scalar(select(func.min(Game.id)))
        reopen = timed(lambda: play.set_ended(oldest, False))
        end = timed(lambda: play.set_ended(oldest, True))
        assert ratings.check() == []
        reads = {label: min(timed(read) for _ in range(20)) for label, read in (
            ("the roster's ratings (penalty)", lambda: ratings.roster("penalty")),
            ("a player's line (penalty, ~500 games)", lambda: ratings.player_line(1, "penalty")),
            ("a player's line in one season", lambda: ratings.player_line(1, "penalty", "2020")),
            ("a game's changes", lambda: ratings.game_changes(oldest)))}
    ms = 1000
    load = open("/proc/loadavg").read().split()[0] if Path("/proc/loadavg").exists() else "?"
    print(f"(load average at the end: {load})")
    print(f"{years} years: {games:,} games, {steps:,} rating steps")
    print(f"ratings rebuild (median of 3):          {statistics.median(rated):6.2f} s   "
          f"{'within' if max(rated) <= REBUILD_LIMIT else 'OVER'} the {REBUILD_LIMIT:g} s limit")
    print(f"results rebuild with ratings (median):  {statistics.median(rebuilds):6.2f} s")
    print(f"a save that finishes a game (median):   {statistics.median(with_ratings) * ms:6.1f} ms"
          f"  ({statistics.median(without) * ms:.1f} ms with the ratings left out)")
    print(f"correcting the oldest game (median of {len(corrections)}): "
          f"{statistics.median(corrections) * ms:6.1f} ms  (fastest "
          f"{min(corrections) * ms:.1f} ms; {again:,} games of its variant rated again)")
    print(f"reopening the oldest game, ending it:   {reopen * ms:6.1f} ms, {end * ms:.1f} ms")
    for label, took in reads.items():
        print(f"read: {label + ' (fastest of 20)':38} {took * ms:6.1f} ms")


if __name__ == "__main__":
    main()
