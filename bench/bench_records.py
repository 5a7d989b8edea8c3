"""Time the records and the night's story over ten years of weekly nights (2,080 games).

Run: .venv/bin/python bench/bench_records.py. It fills a database as bench_years.py does, with
kings left in about one hand in seven (bench_years deals none) and a coronation match every
night, then times, in-process and warm: the table's records (all time, one variant, one
season), a player's records, the records a night set, a night's whole story (the newest night
and the first), and a player's page and a night's page through the test client. It prints the
median and slowest ms of each and the SQL statements each runs.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_years import FIRST, fill  # noqa: E402
from sqlalchemy import event, insert, text  # noqa: E402

from bench import fresh_app  # noqa: E402
from scorekeeper import rules  # noqa: E402
from scorekeeper.db import results  # noqa: E402
from scorekeeper.db.models import Game, Round, Seat  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.reports import ratings, records, story  # noqa: E402

YEARS, RUNS = 10, 100


def more(rng: random.Random) -> None:
    """Add kings to about one hand in seven and a coronation match to every night."""
    db.session.execute(text("UPDATE hand_entry SET kings = 1 + (id % MIN(cards, 3)) "
                            "WHERE id % 7 = 0"))
    nights = 52 * YEARS
    first_id = db.session.execute(text("SELECT max(id) FROM game")).scalar() + 1
    first_round = db.session.execute(text("SELECT max(id) FROM round")).scalar() + 1
    games, seats, rounds = [], [], []
    settings = rules.get_variant("coronation").resolve_settings({"deals_to_win": 3})
    for n in range(nights):
        game_id = first_id + n
        began = FIRST + timedelta(weeks=n, hours=3)
        pair = rng.sample(range(1, 11), 2)
        games.append({"id": game_id, "variant": "coronation", "ended": False,
                      "night_id": n + 1, "settings": settings, "first_dealer_seat": 0,
                      "played_on": began.date(), "created_at": began, "updated_at": began,
                      "version": 0})
        seats += [{"game_id": game_id, "seat": s, "player_id": p} for s, p in enumerate(pair)]
        wins = [0, 0]
        number = 0
        while max(wins) < 3:
            number += 1
            winner = rng.randrange(2)
            wins[winner] += 1
            taken = 5 if rng.random() < 0.3 else 3
            corners = [pair[winner]] * min(taken, 4) + [pair[1 - winner]] * (4 - min(taken, 4))
            rounds.append({"id": first_round + len(rounds), "game_id": game_id,
                           "number": number, "corners": corners, "dragon_id": pair[winner],
                           "created_at": began, "updated_at": began})
    for model, rows in ((Game, games), (Seat, seats), (Round, rounds)):
        db.session.execute(insert(model), rows)
    results.rebuild()
    ratings.rebuild()
    db.session.commit()


def timed(label: str, call, statements: list) -> None:
    """Print the median and slowest ms of `call` and the statements one call runs."""
    call()
    statements.clear()
    call()
    counted = len(statements)
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        call()
        times.append(1000 * (time.perf_counter() - start))
    print(f"{label:<44} {statistics.median(times):7.2f} ms  max {max(times):7.2f} ms  "
          f"{counted} statements")


def main() -> None:
    app = fresh_app()
    with app.app_context():
        fill(YEARS, random.Random(7))
        more(random.Random(8))
        newest = db.session.execute(text("SELECT max(id) FROM night")).scalar()
        print(db.session.execute(text("SELECT count(*) FROM game")).scalar(), "games,",
              db.session.execute(text("SELECT count(*) FROM result_best")).scalar(),
              "bests")
        statements: list[str] = []
        event.listen(db.engine, "before_cursor_execute",
                     lambda *args: statements.append(args[2]))
        year = {"first_day": date(2020, 1, 1), "last_day": date(2020, 12, 31)}
        with app.test_request_context():
            timed("records() all time, every variant", records.records, statements)
            timed("records('penalty')", lambda: records.records("penalty"), statements)
            timed("records() of one season (2020)", lambda: records.records(**year),
                  statements)
            timed("player_records(1)", lambda: records.player_records(1), statements)
            timed("player_records(1) of 2020", lambda: records.player_records(1, **year),
                  statements)
            timed("night_records(newest night)", lambda: records.night_records(newest),
                  statements)
            timed("night_records(first night)", lambda: records.night_records(1), statements)
            timed("night_story(newest night)", lambda: story.night_story(newest), statements)
            timed("night_story(first night)", lambda: story.night_story(1), statements)
            timed("night_story(a night in 2021)", lambda: story.night_story(270), statements)
        client = app.test_client()
        timed("GET /players/1", lambda: client.get("/players/1"), statements)
        timed(f"GET /history/nights/{newest}",
              lambda: client.get(f"/history/nights/{newest}"), statements)


if __name__ == "__main__":
    main()
