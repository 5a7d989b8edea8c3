"""Time every page at one year and at twenty years of weekly game nights, and judge the limits.

Run: .venv/bin/python bench/bench_years.py [years]  (`make bench` runs 20). It fills two
fresh SQLite databases, one year and `years` of weekly nights (four games a night, 4-6
players, penalty and both chip sets, 20 hands a game; the results and ratings filled as the
app keeps them), serves both with waitress as `make run` does, in this one process, and asks
each page of both, and a bare route (/healthz), in turn. Nothing is kept between requests.
It prints each figure beside its limit:
- flat with history: each page's median at `years` at most 1.3x the same page at one year;
- a ceiling: each page's median at `years` at most 10x the bare route's (the poll 2x);
- a save at most 100 ms p99 while eight phones poll the game, at `years`;
- a ten-year backup streamed in at most 3 s (the slowest of three).
"""

from __future__ import annotations

import http.client
import random
import statistics
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_live import saves_watched, serve  # noqa: E402
from sqlalchemy import insert  # noqa: E402

from bench import fresh_app  # noqa: E402
from scorekeeper import rules  # noqa: E402
from scorekeeper.db import results  # noqa: E402
from scorekeeper.db.models import Game, Night, Player, Round, Seat  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.reports import ratings  # noqa: E402

GAMES_A_NIGHT, HANDS_A_GAME = 4, 20
ROSTER = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ida", "Jo"]
SETS = [("penalty", {"target": 2000}), ("chips", {"preset": "house", "start_chips": 500}),
        ("chips", {"preset": "jax", "target": None}), ("penalty", {"target": 2000})]
ASK = {"Accept-Encoding": "gzip, deflate, br"}
PART = {**ASK, "X-Fragment": "1"}  # a page's part, as app.js fetches it into place
SEASON = "2025"  # the last season every fill has whole
FLAT, CEILING, POLL, SAVE_P99_MS, BACKUP_S = 1.3, 10.0, 2.0, 100.0, 3.0
VISITS, SAVES, BACKUPS = 30, 100, 3


def first_night(years: int) -> datetime:
    """Return the first night of a fill of `years`: the last night falls late in 2025."""
    return datetime(2026 - years, 1, 8, 19, 30)


FIRST = first_night(10)


def fill(years: int, rng: random.Random, cache: bool = True) -> None:
    """Insert `years` of weekly nights in bulk, the last in 2025, then fill the results
    cache and the ratings (unless told not to: a backup of them needs neither)."""
    first = first_night(years)
    db.session.execute(insert(Player), [{"id": i + 1, "name": n, "name_key": n.casefold(),
                                         "created_at": first} for i, n in enumerate(ROSTER)])
    nights, games, seats, rounds, hands = [], [], [], [], []
    for n in range(52 * years):
        start = first + timedelta(weeks=n)
        nights.append({"id": n + 1, "started_at": start, "name": None, "notes": None})
        for g, (variant, given) in enumerate(SETS[:GAMES_A_NIGHT]):
            game_id = len(games) + 1
            players = rng.sample(range(1, len(ROSTER) + 1), rng.randint(4, 6))
            began = start + timedelta(minutes=45 * g)
            games.append({"id": game_id, "variant": variant, "ended": True, "night_id": n + 1,
                          "settings": rules.get_variant(variant).resolve_settings(given),
                          "first_dealer_seat": 0, "played_on": began.date(),
                          "created_at": began, "updated_at": began, "version": 0})
            seats += [{"game_id": game_id, "seat": s, "player_id": p}
                      for s, p in enumerate(players)]
            for h in range(1, HANDS_A_GAME + 1):
                round_id = len(rounds) + 1
                went_out = rng.choice(players)
                at = began + timedelta(minutes=2 * h)
                rounds.append({"id": round_id, "game_id": game_id, "number": h,
                               "went_out_id": went_out, "created_at": at, "updated_at": at})
                hands += [(round_id, p, rng.randint(1, 4), 0) for p in players
                          if p != went_out]
    # As table rows, not through the ORM's bulk path (which looks at each row's mapping);
    # the hands, ints only, straight to the driver: 332,000 of them at twenty years.
    for model, rows in ((Night, nights), (Game, games), (Seat, seats), (Round, rounds)):
        db.session.execute(insert(model.__table__), rows)
    db.session.connection().exec_driver_sql(
        "INSERT INTO hand_entry (round_id, player_id, cards, kings) VALUES (?, ?, ?, ?)", hands)
    if cache:
        results.rebuild()
        ratings.rebuild()  # every finished game is rated when it is saved, as the app does
    db.session.commit()


def one(connection, path: str, headers: dict = ASK) -> float:
    """GET a page on a kept-alive connection; return its milliseconds."""
    started = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    if response.status not in (200, 204):
        raise SystemExit(f"{path} answered {response.status}")
    return (time.perf_counter() - started) * 1000


def pages(years: int) -> list[tuple]:
    """Return each page timed: (label, path at one year, path at `years`, headers)."""
    last = 52 * GAMES_A_NIGHT  # the newest game of one year, then of `years`
    newest = last * years
    both = lambda path: (path.format(last=last), path.format(last=newest))  # noqa: E731
    return [("anything new? (the poll)", *both("/games/{last}/version?since=0"), ASK),
            ("home", *both("/"), ASK),
            ("history, all time", *both("/history/?season=all"), ASK),
            # Against one year's last full page: its oldest (page 3) lists 12 nights, not 20.
            ("history, all time, oldest page", "/history/?season=all&page=2",
             f"/history/?season=all&page={(52 * years + 19) // 20}", ASK),
            (f"history, season {SEASON}", *both(f"/history/?season={SEASON}"), ASK),
            ("a night", *both("/history/nights/1"), ASK),
            ("a game's page", *both("/history/games/{last}"), ASK),
            ("a game's scoreboard", *both("/games/{last}"), ASK),
            ("roster, all time", *both("/players?season=all"), ASK),
            (f"roster, season {SEASON}", *both(f"/players?season={SEASON}"), ASK),
            ("a player's page, all time", *both("/players/1?season=all"), ASK),
            ("  its part, all time", *both("/players/1/more?season=all"), PART),
            (f"a player's page, season {SEASON}", *both(f"/players/1?season={SEASON}"), ASK),
            (f"  its part, season {SEASON}", *both(f"/players/1/more?season={SEASON}"), PART),
            ("the seasons", *both("/seasons/"), ASK),
            (f"season {SEASON}'s page", *both(f"/seasons/{SEASON}"), ASK)]


def mark(keeps: bool) -> str:
    """Return the mark of a figure within its limit or not."""
    return "✓" if keeps else "✗"


def filled(years: int, cache: bool = True):
    """Return an app on a fresh database filled with `years` of nights."""
    app = fresh_app()
    with app.app_context():
        fill(years, random.Random(years), cache)
        db.engine.dispose()
    return app


def main() -> None:
    """Fill, serve, time and print every figure beside its limit."""
    years = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    started = time.perf_counter()
    small, big = serve(filled(1))[0], serve(filled(years))[0]
    print(f"one year and {years} years of weekly nights filled in "
          f"{time.perf_counter() - started:.0f} s; medians of {VISITS} visits, in turn")
    one_year = http.client.HTTPConnection("127.0.0.1", small, timeout=120)
    many = http.client.HTTPConnection("127.0.0.1", big, timeout=120)
    print(f"{'page':36} {'1 year':>7} {f'{years} years':>8} {'flat ≤1.3x':>11} "
          f"{'ceiling ≤10x':>13}")
    bare_all, failed = [], 0
    for label, path_small, path_big, headers in pages(years):
        one(one_year, path_small, headers), one(many, path_big, headers)  # templates compiled
        bare, at_one, at_many = [], [], []
        for _ in range(VISITS):
            bare.append(one(many, "/healthz"))
            at_one.append(one(one_year, path_small, headers))
            at_many.append(one(many, path_big, headers))
        bare_all += bare
        a, b = statistics.median(at_one), statistics.median(at_many)
        floor = statistics.median(bare)
        limit = POLL if "poll" in label else CEILING
        flat, ceiling = b / a, b / floor
        failed += (flat > FLAT) + (ceiling > limit)
        print(f"{label:36} {a:5.1f}ms {b:6.1f}ms {flat:9.2f}x {mark(flat <= FLAT)} "
              f"{ceiling:10.1f}x {mark(ceiling <= limit)}"
              f"{'  (limit 2x)' if limit == POLL else ''}")
    print(f"{'the bare route (/healthz)':36} {'':7} {statistics.median(bare_all):6.2f}ms")

    times = sorted(saves_watched(big, SAVES))
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    failed += p99 > SAVE_P99_MS
    print(f"a save while 8 phones poll, at {years} years: p99 {p99:.0f} ms "
          f"(median {statistics.median(times):.0f} ms), limit {SAVE_P99_MS:.0f} ms "
          f"{mark(p99 <= SAVE_P99_MS)}")

    backup = serve(filled(10, cache=False))[0]
    connection = http.client.HTTPConnection("127.0.0.1", backup, timeout=120)
    slowest = max(one(connection, "/backup/download") for _ in range(BACKUPS)) / 1000
    failed += slowest > BACKUP_S
    print(f"a ten-year backup streamed: slowest of {BACKUPS} {slowest:.1f} s, "
          f"limit {BACKUP_S:.0f} s {mark(slowest <= BACKUP_S)}")
    print("all within the limits" if not failed else f"{failed} figures over their limits")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
