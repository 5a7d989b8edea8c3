"""200 slow connections from one address never stop the table: against the real servers
(`python -m scorekeeper.server.serve`, waitress over HTTP and cheroot over HTTPS), a phone's save
still answers within a second while they trickle their requests a byte at a time."""

from __future__ import annotations

import http.client
import socket
import ssl
import statistics
import threading
import time

import pytest

from scorekeeper.extensions import db
from tests.helpers import (
    P,
    Phone,
    make_app,
    start_game,
    start_http,
    start_https,
    stop,
    trusting,
)

SLOW = 200




def hold_slowly(port: int, context: ssl.SSLContext | None, stop_sending: threading.Event,
                opened: list) -> None:
    """Open SLOW connections that send a request's headers a byte every second."""
    head = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"x" * 200
    sockets = []
    try:
        for _ in range(SLOW):
            raw = socket.create_connection(("127.0.0.1", port), timeout=30)
            conn = context.wrap_socket(raw, server_hostname="localhost") if context else raw
            conn.sendall(head[:20])
            sockets.append(conn)
        opened.append(len(sockets))
        for byte in head[20:]:
            if stop_sending.wait(1.0):
                return
            for conn in sockets:
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    pass  # closed by the server's own deadline: fine
    finally:
        for conn in sockets:
            conn.close()


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_200_slow_connections_from_one_address_do_not_stop_a_phones_save(tmp_path, scheme):
    app = make_app(tmp_path / "https.sqlite")  # the tables, as `make run` migrates them
    game_id = start_game(app.test_client(), P)
    with app.app_context():
        db.engine.dispose()
    if scheme == "https":
        process, port, _ = start_https(tmp_path, tmp_path / "tls")
        context = trusting(tmp_path / "tls" / "ca.crt")

        def connect():
            return http.client.HTTPSConnection("localhost", port, timeout=30, context=context)
    else:
        process, port = start_http(tmp_path / "https.sqlite")
        context = None

        def connect():
            return http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    stop_sending, opened = threading.Event(), []
    holder = threading.Thread(target=hold_slowly, args=(port, context, stop_sending, opened),
                              daemon=True)
    try:
        holder.start()
        deadline = time.monotonic() + 60
        while not opened and time.monotonic() < deadline and holder.is_alive():
            time.sleep(0.1)
        assert opened == [SLOW], "the slow connections were not all opened"
        phone = Phone(connect)
        took = phone.save_hands(game_id, (1, 2, 3))
        # Before: 8 of these stopped the HTTPS server, about 100 the plain one.
        assert statistics.median(took) <= 1.0, took
        assert phone.send("GET", f"/games/{game_id}")[0] == 200
        assert holder.is_alive()  # they were all still being held open
    finally:
        stop_sending.set()
        holder.join(30)
        stop(process)
