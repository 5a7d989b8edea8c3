"""Benchmark several phones on one game, through the real server (waitress on loopback).

Run: .venv/bin/python bench/bench_live.py  (part of `make bench`). Prints, in one run:
- the "anything new since version V?" request against a bare route (/healthz), as a ratio;
- saving a hand alone, then while eight phones watch the game (each asks every 0.7 s, and
  reloads the scoreboard when it changed), as the seventh phone records hands.
"""

from __future__ import annotations

import http.client
import socket
import statistics
import sys
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from waitress.server import create_server  # noqa: E402

from bench import PLAYERS, fresh_app  # noqa: E402
from scorekeeper.server.serve import WAITRESS, ready  # noqa: E402

WATCHERS = 8
POLL_S = 0.7


def serve(app) -> tuple[int, object]:
    """Serve the app with waitress on a free loopback port; return the port and server."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    ready(app)  # as `make run` does before it serves
    server = create_server(app, host="127.0.0.1", port=port, **WAITRESS)  # as `make run`
    threading.Thread(target=server.run, daemon=True).start()
    return port, server


def request(connection, method: str, path: str, data: dict | None = None):
    """Send one request on a kept-alive connection; return (status, body)."""
    body = urllib.parse.urlencode(data) if data else None
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if data else {}
    connection.request(method, path, body, headers)
    response = connection.getresponse()
    return response.status, response.read()


def timed_ms(fn, repeat: int) -> list[float]:
    """Return the times of `repeat` calls, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def hand(number: int) -> dict[str, str]:
    """Return the form of hand `number` of a six-player penalty game."""
    form = {"number": str(number), "token": f"live-{number}", "went_out": str(number % 6)}
    for seat in range(6):
        if seat != number % 6:
            form[f"cards-{seat}"] = str(1 + (seat + number) % 7)
    return form


def main() -> None:
    """Time the version request against a bare route, then saves with and without watchers."""
    app = fresh_app()
    port, server = serve(app)
    phone = http.client.HTTPConnection("127.0.0.1", port)
    data = {"variant": "penalty", "dealer": "0", "rules-penalty-target-other": "10000"}
    data.update({f"seat-{i}": name for i, name in enumerate(PLAYERS)})
    request(phone, "POST", "/games/new", data)
    numbers = iter(range(1, 10**6))
    for _ in range(30):
        request(phone, "POST", "/games/1/hands/new", hand(next(numbers)))
    version = request(phone, "GET", "/games/1/version")[1].decode().split(":")[1].strip(" }\n")
    bare, ask = [], []
    for _ in range(10):  # interleaved, so drift hits both alike
        bare += timed_ms(lambda: request(phone, "GET", "/healthz"), 50)
        ask += timed_ms(lambda: request(phone, "GET", f"/games/1/version?since={version}"), 50)
    b, a = statistics.median(bare), statistics.median(ask)
    print(f"bare route (/healthz):                median {b:.2f} ms")
    print(f"anything new? (204, nothing new):     median {a:.2f} ms  ({a / b:.2f}x the bare route)")

    stop, watching = threading.Event(), threading.Event()
    reloads = [0]

    def watch() -> None:
        seen = None
        connection = http.client.HTTPConnection("127.0.0.1", port)
        while not stop.is_set():
            if not watching.is_set():
                watching.wait(0.1)
                continue
            status, body = request(connection, "GET", f"/games/1/version?since={seen}")
            if status == 200:
                seen = body.decode().split(":")[1].strip(" }\n")
                request(connection, "GET", "/games/1")
                reloads[0] += 1
            stop.wait(POLL_S)

    watchers = [threading.Thread(target=watch, daemon=True) for _ in range(WATCHERS)]
    for thread in watchers:
        thread.start()
    # A hand takes minutes at a table: saves come well apart while the phones keep asking.
    # Saves alone and watched take turns, so both see a game of the same length.
    alone, watched = [], []
    for turn in range(24):
        watching.set() if turn % 2 else watching.clear()
        time.sleep(1.0)
        took = timed_ms(lambda: request(phone, "POST", "/games/1/hands/new",
                                        hand(next(numbers))), 1)
        (watched if turn % 2 else alone).extend(took)
    stop.set()
    watching.set()
    for thread in watchers:
        thread.join(5)
    print(f"save a hand, nobody watching:         median {statistics.median(alone):.1f} ms")
    print(f"save a hand, {WATCHERS} phones watching:       "
          f"median {statistics.median(watched):.1f} ms ({reloads[0]} scoreboard reloads)")
    server.close()


if __name__ == "__main__":
    main()
