"""Benchmark every page over 1, 5 and 10 years of weekly game nights, through the real server.

Run: .venv/bin/python bench/bench_years.py (part of `make bench`). For each size it fills a
fresh SQLite database (four games a night, 4-6 players, penalty and both chip sets, about
20 hands a game), fills the results cache and the ratings, serves the app with waitress on
loopback, and times each page against a bare route (/healthz) in the same run, interleaved;
history, the roster and a player's page for all time and for one season (the last year
filled), and that season's own page. Nothing is kept between requests: every visit reads
and draws its page afresh. It prints, per page: median, p99 and slowest ms, the ratio of
the median to the bare route's, SQL statements per request, bytes on the wire (compressed
as a phone asks), the first request's ms (templates compiled: not counted in the limits),
and whether it keeps within the limits: a page at most 5x the bare route, the "anything
new?" poll 2x, no request over 50 ms, a ten-year backup streamed in 3 s.
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

from bench_live import serve  # noqa: E402
from sqlalchemy import event, insert  # noqa: E402

from bench import fresh_app  # noqa: E402
from scorekeeper import rules  # noqa: E402
from scorekeeper.db import results  # noqa: E402
from scorekeeper.db.models import Game, Night, Player, Round, Seat  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.reports import ratings  # noqa: E402

YEARS = (1, 5, 10)
GAMES_A_NIGHT, HANDS_A_GAME = 4, 20
ROSTER = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ida", "Jo"]
FIRST = datetime(2016, 1, 8, 19, 30)
SETS = [("penalty", {"target": 2000}), ("chips", {"preset": "house", "start_chips": 500}),
        ("chips", {"preset": "jax", "target": None}), ("penalty", {"target": 2000})]
ASK = {"Accept-Encoding": "gzip, deflate, br"}
PART = {**ASK, "X-Fragment": "1"}  # a page's part, as app.js fetches it into place


def fill(years: int, rng: random.Random, cache: bool = True) -> None:
    """Insert `years` of weekly nights in bulk, then fill the results cache and the ratings
    (unless told not to: a backup of them needs neither)."""
    db.session.execute(insert(Player), [{"id": i + 1, "name": n, "name_key": n.casefold(),
                                         "created_at": FIRST} for i, n in enumerate(ROSTER)])
    nights, games, seats, rounds, hands = [], [], [], [], []
    for n in range(52 * years):
        start = FIRST + timedelta(weeks=n)
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
    # the hands, ints only, straight to the driver: 166,000 of them. Ten years fill in 3.1 s,
    # not 5.2.
    for model, rows in ((Night, nights), (Game, games), (Seat, seats), (Round, rounds)):
        db.session.execute(insert(model.__table__), rows)
    db.session.connection().exec_driver_sql(
        "INSERT INTO hand_entry (round_id, player_id, cards, kings) VALUES (?, ?, ?, ?)", hands)
    if cache:
        results.rebuild()
        ratings.rebuild()  # every finished game is rated when it is saved, as the app does
    db.session.commit()


def one(connection, path: str, headers: dict = ASK) -> tuple[float, int]:
    """GET a page on a kept-alive connection; return (ms, bytes on the wire)."""
    started = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    size = len(response.read())
    if response.status not in (200, 204):
        raise SystemExit(f"{path} answered {response.status}")
    return (time.perf_counter() - started) * 1000, size


LIMITS = {"anything new? (version, 204)": 2.0}  # the poll; every other page: PAGE_LIMIT
PAGE_LIMIT, SLOWEST_MS, BACKUP_MS = 5.0, 50.0, 3000.0


def measure(app, port: int, pages: list[tuple]) -> list[str]:
    """Time each page (label, path, visits, and the headers it is asked with, if not the
    usual) against the bare route, interleaved; return the table's rows."""
    statements: list[str] = []
    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2])
                 if args[2] != "BEGIN" else None)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    rows = []
    for label, path, repeat, *asked in pages:
        headers = asked[0] if asked else ASK
        bare, timed, size = [], [], 0
        # Asked once before it is timed: the first request after the server starts compiles
        # the page's templates (and the statements' SQL), which no later visit pays. Printed
        # apart ("first ms"); the limits are judged on the visits after it.
        first = one(connection, path, headers)[0] if not path.startswith("/backup") else 0.0
        for _ in range(repeat):
            bare.append(one(connection, "/healthz")[0])
            statements.clear()
            took, size = one(connection, path, headers)
            timed.append(took)
            counted = len(statements)
        timed.sort()
        median, floor = statistics.median(timed), statistics.median(bare)
        p99 = timed[min(len(timed) - 1, int(len(timed) * 0.99))]
        ratio = median / floor
        if path.startswith("/backup"):
            keeps = timed[-1] <= BACKUP_MS
        else:
            keeps = ratio <= LIMITS.get(label, PAGE_LIMIT) and timed[-1] <= SLOWEST_MS
        rows.append(f"{label:34} {median:9.1f} {p99:9.1f} {timed[-1]:9.1f} {ratio:8.1f}x "
                    f"{counted:6} {size:11,} {first:9.1f}  {'yes' if keeps else 'NO'}")
    return rows


def main() -> None:
    """Fill each size, serve it, time the pages, print one table per size.

    Arguments, if any, are the sizes in years to run (default: 1 5 10).
    """
    for years in [int(arg) for arg in sys.argv[1:]] or YEARS:
        app = fresh_app()
        started = time.perf_counter()
        with app.app_context():
            fill(years, random.Random(years))
            games = db.session.query(Game).count()
            hands = db.session.query(Round).count()
        print(f"\n{years} year{'s' if years > 1 else ''}: {games:,} games, {hands:,} hands "
              f"(filled in {time.perf_counter() - started:.1f} s)")
        port, server = serve(app)
        last = games
        season = str(FIRST.year + years - 1)  # the last year filled: a whole season
        pages = [("anything new? (version, 204)", f"/games/{last}/version?since=0", 60),
                 ("the frame alone (/trust)", "/trust", 30),
                 ("home", "/", 30),
                 ("history, all time, newest page", "/history/?season=all", 30),
                 ("history, all time, oldest page",
                  f"/history/?season=all&page={(52 * years + 19) // 20}", 30),
                 (f"history, season {season}", f"/history/?season={season}", 30),
                 ("a night", "/history/nights/1", 30),
                 ("a game's scoreboard", f"/games/{last}", 30),
                 ("a game's history page", f"/history/games/{last}", 30),
                 ("roster, all time", "/players?season=all", 30),
                 (f"roster, season {season}", f"/players?season={season}", 30),
                 ("a player's page, all time", "/players/1?season=all", 30),
                 ("  its part, all time", "/players/1/more?season=all", 30, PART),
                 (f"a player's page, season {season}", f"/players/1?season={season}", 30),
                 ("  its part, season", f"/players/1/more?season={season}", 30, PART),
                 (f"season {season}'s page", f"/seasons/{season}", 30),
                 ("backup download", "/backup/download", 3)]
        print(f"{'page':34} {'median ms':>9} {'p99 ms':>9} {'max ms':>9} {'ratio':>9} "
              f"{'stmts':>6} {'bytes':>11} {'first ms':>9}  within limits")
        for row in measure(app, port, pages):
            print(row)
        server.close()


if __name__ == "__main__":
    main()
