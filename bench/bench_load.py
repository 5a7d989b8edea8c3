"""A crowd's load on the real server: a crowd night of N tables of five phones polling as
app.js does, the room's board on a TV, and a save at each table every few seconds; a save's
p99 and every other request's p99 against their limits. On SQLite served by one process
(`make run`), then, when TEST_DATABASE_URL or DATABASE_URL names a PostgreSQL server, by two
processes (`kings-corners serve --workers 2`) on a database of its own there, made afresh.
`python bench/bench_load.py [tables] [seconds]`; docs/performance.md."""

from __future__ import annotations

import http.client
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TABLES = 8
PHONES = 5  # at each table, each its player's own
POLL_S = 0.5  # how often a phone asks "anything new?" (app.js POLL_MS)
SAVE_EVERY_S = 3.0  # a hand saved at each table this often, far faster than a real table
SECONDS = 60
SAVE_P99_MS, OTHER_P99_MS = 150, 100
NAMES = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]


@dataclass(frozen=True)
class Table:
    """A table the load plays at: its board (what the phones show), the question its phones
    poll, and where a hand is saved; `hand(n)` is hand n's form."""

    board: str
    version: str
    save: str
    players: int

    def hand(self, number: int) -> dict[str, str]:
        """Return the form of hand `number`: one player out, the others' cards left."""
        out = number % self.players
        form = {"number": str(number), "token": f"load-{self.board}-{number}",
                "went_out": str(out)}
        form.update({f"cards-{seat}": str(1 + (seat + number) % 7)
                     for seat in range(self.players) if seat != out})
        return form


@dataclass(frozen=True)
class Night:
    """A crowd night the load plays: its tables, and the room's board (what its TV shows)
    with the question the TV polls."""

    tables: list[Table]
    board: str
    version: str


def crowd_night(port: int, count: int) -> Night:
    """Start a night for a crowd of `count` tables of five as a host does (new names, the
    target out of reach, rounds left open); return its tables, read off the night's page."""
    connection = connect(port)
    data = {"new_names": "\n".join(f"{NAMES[n % len(NAMES)]} {n + 1}"
                                   for n in range(count * PHONES)),
            "table_size": str(PHONES), "seating": "random", "moving": "progressive",
            "rounds": "", "variant": "penalty", "rules-penalty-target-other": "10000",
            "csrf_token": csrf(connection, "/crowds/new")}
    response, _ = send(connection, "POST", "/crowds/new", data)
    if response.status != 302:
        raise SystemExit(f"starting the crowd night answered {response.status}")
    night = urllib.parse.urlsplit(response.getheader("Location")).path  # /crowds/<id>
    _, body = send(connection, "GET", night)
    games = list(dict.fromkeys(re.findall(r'href="(/games/\d+)"', body.decode())))
    connection.close()
    if len(games) != count:
        raise SystemExit(f"the crowd night has {len(games)} tables, not {count}")
    return Night([Table(game, f"{game}/version", f"{game}/hands/new", PHONES)
                  for game in games], f"{night}/board", f"{night}/board/version")


class Timings:
    """Every request's milliseconds, by kind, from every thread."""

    def __init__(self) -> None:
        self.kinds: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self._lock = threading.Lock()

    def ask(self, connection, kind: str, method: str, path: str,
            data: dict | None = None) -> tuple[int, bytes]:
        """Send one request on a kept-alive connection, timed; return (status, body)."""
        started = time.perf_counter()
        response, read = send(connection, method, path, data)
        took = (time.perf_counter() - started) * 1000
        with self._lock:
            self.kinds[kind].append(took)
            if response.status >= 400:
                self.errors.append(f"{method} {path}: {response.status}")
        return response.status, read


class Phone(http.client.HTTPConnection):
    """A kept-alive connection with its phone's cookie (its session, for the CSRF token)."""

    cookie = ""


def connect(port: int) -> Phone:
    return Phone("127.0.0.1", port, timeout=60)


def send(connection: Phone, method: str, path: str, data: dict | None = None):
    """Send one request with the phone's cookie, keeping any new one; return the response
    and its body."""
    headers = {"Cookie": connection.cookie} if connection.cookie else {}
    if data:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path, urllib.parse.urlencode(data) if data else None, headers)
    response = connection.getresponse()
    body = response.read()
    if response.getheader("Set-Cookie"):
        connection.cookie = response.getheader("Set-Cookie").split(";")[0]
    return response, body


def csrf(connection: Phone, page: str) -> str:
    """Open a form's page as the phone does; return its CSRF token."""
    _, body = send(connection, "GET", page)
    return re.search(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"',
                     body.decode()).group(1)


def opened(connection: Phone, board: str) -> str:
    """Open a board as a phone does (not timed); return the version it shows."""
    _, body = send(connection, "GET", board)
    return re.search(r'data-live-version="(\d+)"', body.decode()).group(1)


def phone(port: int, table: Table, timings: Timings, stop: threading.Event,
          ready: threading.Barrier) -> None:
    """Poll as app.js does: "anything new since V?" every POLL_S, the board when there is.
    The board is opened first, as a phone opens it, before the clock starts."""
    connection = connect(port)
    seen = opened(connection, table.board)
    ready.wait()
    stop.wait(random.uniform(0, POLL_S))
    while not stop.is_set():
        status, body = timings.ask(connection, "poll", "GET", f"{table.version}?since={seen}")
        if status == 200:
            seen = body.decode().split('"version":')[1].strip(" }\n").split(",")[0]
            timings.ask(connection, "board", "GET", table.board)
        stop.wait(POLL_S)


def tv(port: int, night: Night, timings: Timings, stop: threading.Event,
       ready: threading.Barrier) -> None:
    """Watch the night as the room's TV does: its board's question, the board when new."""
    connection = connect(port)
    _, body = send(connection, "GET", night.board)
    seen = re.search(r'data-live-version="([^"]+)"', body.decode()).group(1)
    ready.wait()
    while not stop.is_set():
        status, body = timings.ask(connection, "tv poll", "GET",
                                   f"{night.version}?since={urllib.parse.quote(seen)}")
        if status == 200:
            seen = re.search(r'"version": *"?([^",}]+)', body.decode()).group(1)
            timings.ask(connection, "tv board", "GET", night.board)
        stop.wait(POLL_S)


def scorer(port: int, table: Table, timings: Timings, stop: threading.Event,
           ready: threading.Barrier) -> None:
    """Save a hand at this table every SAVE_EVERY_S, the first at a random moment."""
    connection, number = connect(port), 1
    token = csrf(connection, table.save)
    ready.wait()
    stop.wait(random.uniform(0, SAVE_EVERY_S))
    while not stop.is_set():
        status, _ = timings.ask(connection, "save", "POST", table.save,
                                {**table.hand(number), "csrf_token": token})
        if status != 302:
            timings.errors.append(f"hand {number} at {table.board}: {status}")
        number += 1
        stop.wait(SAVE_EVERY_S)


def load(port: int, count: int, seconds: float) -> Timings:
    """Start a crowd night of `count` tables, then play the load against the server on
    `port` for `seconds`."""
    night = crowd_night(port, count)
    timings, stop = Timings(), threading.Event()
    ready = threading.Barrier(1 + count * (1 + PHONES) + 1)  # every page open
    both = (timings, stop, ready)
    threads = [threading.Thread(target=tv, args=(port, night, *both))]
    for table in night.tables:
        threads.append(threading.Thread(target=scorer, args=(port, table, *both)))
        threads += [threading.Thread(target=phone, args=(port, table, *both))
                    for _ in range(PHONES)]
    for thread in threads:
        thread.start()
    ready.wait()
    stop.wait(seconds)
    stop.set()
    for thread in threads:
        thread.join(60)
    return timings


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def started(command: list[str], env: dict, port: int) -> subprocess.Popen:
    """Start a server process and wait until it answers."""
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server stopped: {' '.join(command)}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start within 120 s")


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def served(url: str, workers: int):
    """Start the real server on `url` (upgraded as `kings-corners serve` does), in `workers`
    processes; return the process and its port."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "INSTANCE_PATH": tempfile.mkdtemp(),
           "SECRET_KEY": "bench", "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", "from scorekeeper.server.serve import main; main()",
               "serve", "--host", "127.0.0.1", "--port", str(port)]
    if workers > 1:
        command += ["--workers", str(workers)]
    return started(command, env, port), port


def postgres_database() -> str | None:
    """Return the URL of a fresh database for the bench on the PostgreSQL server named by
    TEST_DATABASE_URL or DATABASE_URL, or None when neither names one."""
    given = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL", "")
    if not given.startswith("postgresql"):
        return None
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    url = make_url(given).set(database="kings_corners_bench_load")
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text('DROP DATABASE IF EXISTS "kings_corners_bench_load"'))
        connection.execute(text('CREATE DATABASE "kings_corners_bench_load"'))
    admin.dispose()
    return url.render_as_string(hide_password=False)


def run(label: str, url: str, workers: int, count: int, seconds: float) -> int:
    """Serve, load, print the figures beside their limits; return how many are over."""
    process, port = served(url, workers)
    try:
        timings = load(port, count, seconds)
    finally:
        process.terminate()
        process.wait(60)
    saves = timings.kinds.pop("save", [])
    others = [t for times in timings.kinds.values() for t in times]
    print(f"\n{label}: {count} tables of {PHONES} phones and a TV for {seconds:.0f} s, "
          f"{len(saves) + len(others)} requests (the machine's load after: "
          f"{os.getloadavg()[0]:.1f})")
    for kind, times in sorted(timings.kinds.items()) + [("save", saves)]:
        print(f"  {kind:9} {len(times):6}  median {statistics.median(times):5.1f} ms  "
              f"p99 {p99(times):6.1f} ms  most {max(times):6.1f} ms")
    over = (p99(saves) > SAVE_P99_MS) + (p99(others) > OTHER_P99_MS) + bool(timings.errors)
    print(f"  a save: p99 {p99(saves):.0f} ms, limit {SAVE_P99_MS} ms "
          f"{'✓' if p99(saves) <= SAVE_P99_MS else '✗'}")
    print(f"  every other request: p99 {p99(others):.0f} ms, limit {OTHER_P99_MS} ms "
          f"{'✓' if p99(others) <= OTHER_P99_MS else '✗'}")
    if timings.errors:
        print(f"  {len(timings.errors)} refused, the first: {timings.errors[0]}")
    return over


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else TABLES
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else SECONDS
    folder = tempfile.mkdtemp()
    over = run("SQLite, one process", f"sqlite:///{folder}/load.sqlite", 1, count, seconds)
    postgres = postgres_database()
    if postgres:
        over += run("PostgreSQL, two processes", postgres, 2, count, seconds)
    else:
        print("\nPostgreSQL left out: set TEST_DATABASE_URL (a server to make a database on)")
    print("\nall within the limits" if not over else f"\n{over} figures over their limits")
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
