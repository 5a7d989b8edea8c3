"""Benchmark the pages used at the table: scoreboard, record-hand form, saving a hand.

Run: .venv/bin/python bench/bench.py  (or `make bench`). Prints median and 95th percentile
milliseconds per request on a temporary SQLite database, through the Flask test client
(no network), for a 6-player penalty game of 60 hands.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402

PLAYERS = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]


def timed(fn, repeat: int) -> tuple[float, float]:
    """Return the median and 95th percentile of `repeat` calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[max(0, int(len(times) * 0.95) - 1)]


def fresh_app():
    """Return an app on an empty SQLite file in a new temporary folder."""
    folder = tempfile.mkdtemp()
    app = create_app({"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite"})
    with app.app_context():
        db.create_all()
    return app


def main() -> None:
    """Fill a game, then time the pages."""
    app = fresh_app()
    client = app.test_client()
    data = {"variant": "penalty", "dealer": "0", "rules-penalty-target-other": "10000"}
    data.update({f"seat-{i}": name for i, name in enumerate(PLAYERS)})
    client.post("/games/new", data=data)
    counter = iter(range(1, 10**6))

    def save_hand():
        number = next(counter)
        form = {"number": str(number), "token": f"bench-{number}", "went_out": str(number % 6)}
        for seat in range(6):
            if seat != number % 6:
                form[f"cards-{seat}"] = str(1 + (seat + number) % 7)
                form[f"kings-{seat}"] = "1" if seat == (number + 1) % 6 else "0"
        response = client.post("/games/1/hands/new", data=form)
        assert response.status_code == 302, response.status_code

    cases = [("save a hand (growing to 60 hands)", save_hand, 60),
             ("scoreboard, 60 hands", lambda: client.get("/games/1"), 100),
             ("record-hand form, 60 hands", lambda: client.get("/games/1/hands/new"), 100),
             ("home page", lambda: client.get("/"), 100)]
    for label, fn, repeat in cases:
        median, p95 = timed(fn, repeat)
        print(f"{label + ':':36} median {median:.1f} ms, p95 {p95:.1f} ms")


if __name__ == "__main__":
    main()
