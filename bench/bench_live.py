"""Serve an app as `make run` does, and time saves while eight phones watch the game."""

from __future__ import annotations

import http.client
import logging
import socket
import sys
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from waitress.server import create_server  # noqa: E402

from bench import PLAYERS  # noqa: E402
from scorekeeper.server.serve import WAITRESS, ready  # noqa: E402

WATCHERS = 8
POLL_S = 0.7  # how often a phone asks "anything new?" (app.js)
SAVE_EVERY_S = 0.2  # far more often than a table, so that a minute gives a p99


def serve(app) -> tuple[int, object]:
    """Serve the app with waitress on a free loopback port; return the port and server."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    ready(app)  # as `make run` does before it serves
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # its notes are not figures
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


def hand(number: int) -> dict[str, str]:
    """Return the form of hand `number` of a six-player penalty game."""
    form = {"number": str(number), "token": f"live-{number}", "went_out": str(number % 6)}
    for seat in range(6):
        if seat != number % 6:
            form[f"cards-{seat}"] = str(1 + (seat + number) % 7)
    return form


def saves_watched(port: int, saves: int) -> list[float]:
    """Start a six-player game, then time `saves` hands saved while eight phones watch it
    (each asks "anything new?" every 0.7 s and reloads the scoreboard when it changed);
    return the saves' milliseconds."""
    phone = http.client.HTTPConnection("127.0.0.1", port)
    data = {"variant": "penalty", "dealer": "0", "rules-penalty-target-other": "10000"}
    data.update({f"seat-{i}": name for i, name in enumerate(PLAYERS)})
    phone.request("POST", "/games/new", urllib.parse.urlencode(data),
                  {"Content-Type": "application/x-www-form-urlencoded"})
    response = phone.getresponse()
    response.read()
    path = urllib.parse.urlsplit(response.getheader("Location")).path  # /games/<id>
    stop = threading.Event()

    def watch(path: str) -> None:
        seen = None
        connection = http.client.HTTPConnection("127.0.0.1", port)
        while not stop.is_set():
            status, body = request(connection, "GET", f"{path}/version?since={seen}")
            if status == 200:
                seen = body.decode().split(":")[1].strip(" }\n")
                request(connection, "GET", path)
            stop.wait(POLL_S)

    watchers = [threading.Thread(target=watch, args=(path,), daemon=True)
                for _ in range(WATCHERS)]
    for thread in watchers:
        thread.start()
    times = []
    for number in range(1, saves + 1):
        stop.wait(SAVE_EVERY_S)
        started = time.perf_counter()
        status, _ = request(phone, "POST", f"{path}/hands/new", hand(number))
        times.append((time.perf_counter() - started) * 1000)
        if status != 302:
            raise SystemExit(f"saving hand {number} answered {status}")
    stop.set()
    for thread in watchers:
        thread.join(5)
    return times
