"""Benchmark history: five years of weekly game nights, each of three games of ten hands.

Run: .venv/bin/python bench/bench_history.py  Fills a temporary SQLite database with 260
nights (780 games, 7,800 hands), then prints median and 95th percentile milliseconds and the
SQL statements per request for the history pages, through the Flask test client (no network).
"""

from __future__ import annotations

import random
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import event, insert, select

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper import rules  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Game, HandEntry, Night, Player, Round, Seat  # noqa: E402
from scorekeeper.storage import read_game, read_games, results  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import fresh_app, timed  # noqa: E402

NIGHTS, GAMES, HANDS = 260, 3, 10
ROSTER = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
FIRST = datetime(2021, 1, 8, 19, 30)


def settings(variant: str) -> dict:
    """Return a variant's full settings: no game ends before its tenth hand."""
    given = {"penalty": {"target": 500}, "chips": {"preset": "house"}}[variant]
    return rules.get_variant(variant).resolve_settings(given)


def fill(rng: random.Random) -> None:
    """Insert the nights, games, seats, rounds and hands in bulk."""
    db.session.execute(insert(Player), [{"id": i + 1, "name": n, "name_key": n.casefold(),
                                         "created_at": FIRST} for i, n in enumerate(ROSTER)])
    nights, games, seats, rounds, hands = [], [], [], [], []
    for n in range(NIGHTS):
        start = FIRST + timedelta(weeks=n)
        nights.append({"id": n + 1, "started_at": start, "name": None, "notes": None})
        players = rng.sample(range(1, len(ROSTER) + 1), 4)
        for g in range(GAMES):
            game_id = len(games) + 1
            # Two penalty games and one chips game a night; each ended by hand after 10 hands.
            variant = "chips" if g == 2 else "penalty"
            began = start + timedelta(minutes=40 * g)
            games.append({"id": game_id, "variant": variant, "settings": settings(variant),
                          "first_dealer_seat": 0, "played_on": began.date(), "ended": True,
                          "night_id": n + 1, "created_at": began, "updated_at": began})
            seats += [{"game_id": game_id, "seat": s, "player_id": p}
                      for s, p in enumerate(players)]
            for h in range(1, HANDS + 1):
                round_id = len(rounds) + 1
                went_out = rng.choice(players)
                at = began + timedelta(minutes=3 * h)
                rounds.append({"id": round_id, "game_id": game_id, "number": h,
                               "went_out_id": went_out, "created_at": at, "updated_at": at})
                # At most 3 cards left: a chips stack of 50 can never run out in 10 hands.
                hands += [{"round_id": round_id, "player_id": p, "cards": rng.randint(1, 3),
                           "kings": 0} for p in players if p != went_out]
    for model, rows in ((Night, nights), (Game, games), (Seat, seats), (Round, rounds),
                        (HandEntry, hands)):
        db.session.execute(insert(model), rows)
    results.rebuild()  # rows put in by hand: fill the results cache as an upgrade would
    db.session.commit()


def main() -> None:
    """Fill five years of nights, then time the history pages."""
    app = fresh_app()
    with app.app_context():
        started = time.perf_counter()
        fill(random.Random(5))
        print(f"filled {NIGHTS} nights, {NIGHTS * GAMES} games, {NIGHTS * GAMES * HANDS} hands "
              f"in {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        every = db.session.scalars(select(Game.id)).all()
        over = sum(game.result.over for game in read_games(every).values())
        print(f"every game's result at once, as an unpaged page would need: "
              f"{(time.perf_counter() - started) * 1000:.0f} ms ({over} games over)")
        db.session.expunge_all()
        started = time.perf_counter()
        over = sum(read_game(game_id).result.over for game_id in every)
        print(f"the same, one game at a time: "
              f"{(time.perf_counter() - started) * 1000:.0f} ms")
        engine = db.engine
    client = app.test_client()
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute",
                 lambda *args: statements.append(args[2]))
    latest = NIGHTS
    pages = [("history, newest page", "/history/"),
             ("history, a middle page", "/history/?page=7"),
             ("history, oldest page", f"/history/?page={(NIGHTS + 19) // 20}"),
             ("a night", f"/history/nights/{latest}"),
             ("a game's page (chart)", f"/history/games/{NIGHTS * GAMES}"),
             ("a game's scoreboard (chart)", f"/games/{NIGHTS * GAMES}"),
             ("a game as CSV", f"/history/games/{NIGHTS * GAMES}/export.csv"),
             ("the roster (every game scored)", "/players"),
             ("a player's page", "/players/1")]
    print(f"{'page':32} {'median ms':>10} {'p95 ms':>8} {'queries':>8}")
    for label, url in pages:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        statements.clear()
        client.get(url)
        queries = len(statements)
        median, p95 = timed(lambda url=url: client.get(url), 10 if "players" in url else 30)
        print(f"{label:32} {median:10.1f} {p95:8.1f} {queries:8d}")
    data = {"variant": "penalty", "dealer": "0", "seat-0": "Ann", "seat-1": "Ben"}
    median, p95 = timed(lambda: client.post("/games/new", data=data), 30)
    print(f"{'start a game (finds its night)':32} {median:10.1f} {p95:8.1f}")


if __name__ == "__main__":
    main()
