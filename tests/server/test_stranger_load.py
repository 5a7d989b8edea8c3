"""What a stranger on the Wi-Fi can send never costs the table its server: against the real
servers (`python -m scorekeeper.server.serve`, waitress over HTTP, cheroot over HTTPS), a
hostile form body is refused or read in memory a small multiple of its size."""

from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from scorekeeper.extensions import db
from tests.helpers import (
    ROOT,
    P,
    Phone,
    disposed_app,
    free_port,
    make_app,
    need,
    server_side_open,
    start_game,
    start_https,
    stop,
    trusting,
)

FORM = "application/x-www-form-urlencoded"
MB = 1024 ** 2


def start_http(tmp_path: Path, host: str = "127.0.0.1") -> tuple[subprocess.Popen, int, Path]:
    """Start `python -m scorekeeper.server.serve` (what `make run` runs) on a free port;
    return the process, the port and the file its screen goes to."""
    port = free_port()
    database = tmp_path / "stranger.sqlite"
    if not database.exists():
        disposed_app(database)  # the tables, as `make run` migrates them
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "test",
           "PYTHONUNBUFFERED": "1"}
    screen = tmp_path / f"serve-{port}.log"
    with open(screen, "w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.server.serve", "--host", host,
             "--port", str(port)], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    here = "::1" if ":" in host else "127.0.0.1"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server stopped: {screen.read_text()}")
        try:
            socket.create_connection((here, port), timeout=2).close()
            if "Press Ctrl+C" in screen.read_text():
                return process, port, screen
        except OSError:
            pass
        time.sleep(0.2)
    stop(process)
    pytest.fail("the server did not start within 60 s")


def peak_mb(process: subprocess.Popen) -> float:
    """The server's largest resident memory so far (VmHWM), in MB."""
    status = Path(f"/proc/{process.pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024


def post_raw(connect, path: str, body: bytes, chunked: bool = False) -> int:
    """Post `body` as a form, as a stranger's script would; return the answer's status. The
    server may answer and close before all of it is sent: what it said is read anyway."""
    head = f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {FORM}\r\n"
    head += ("Transfer-Encoding: chunked\r\n\r\n" if chunked
             else f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    sock = connect()
    try:
        sock.sendall(head.encode())
        step = 256 * 1024
        try:
            for start in range(0, len(body), step):
                piece = body[start:start + step]
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            if chunked:
                sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # refused before it was all sent
        answer = b""
        while b"\r\n" not in answer:
            got = sock.recv(4096)
            if not got:
                break
            answer += got
        return int(answer.split(b" ", 2)[1])
    finally:
        sock.close()


def escapes(size: int) -> bytes:
    """A form body of `size` bytes of percent-escapes (the issue's: x=%25%25%25...)."""
    return b"x=" + b"%25" * ((size - 2) // 3)


def test_a_20_mb_form_body_of_percent_escapes_is_refused_before_it_is_decoded(tmp_path):
    process, port, _ = start_http(tmp_path)
    try:
        def connect():
            return socket.create_connection(("127.0.0.1", port), timeout=60)

        before = peak_mb(process)
        for path in ("/unlock", "/games/new", "/settings/passcode", "/backup/restore"):
            assert post_raw(connect, path, escapes(20 * MB)) == 413, path
        # Before: +1.7 GB for each of the first three, +17 GB were it 200 MB to the restore.
        grown = peak_mb(process) - before
        assert grown < 40, f"the server grew by {grown:.0f} MB for a 20 MB body"
        # A form as big as a form may be (1 MB) is read, in a few times its size (it was
        # 85 times: +85 MB).
        before = peak_mb(process)
        assert post_raw(connect, "/unlock", escapes(MB - 100)) != 413
        grown = peak_mb(process) - before
        assert grown < 8, f"the server grew by {grown:.0f} MB for a 1 MB body"
        assert process.poll() is None
    finally:
        stop(process)


def test_a_form_body_sent_without_its_length_is_refused_as_it_streams_in(tmp_path):
    process, port, _ = start_https(tmp_path, tmp_path / "tls")
    try:
        context = trusting(tmp_path / "tls" / "ca.crt")

        def connect():
            raw = socket.create_connection(("127.0.0.1", port), timeout=60)
            return context.wrap_socket(raw, server_hostname="localhost")

        before = peak_mb(process)
        assert post_raw(connect, "/unlock", escapes(20 * MB), chunked=True) == 413
        grown = peak_mb(process) - before
        assert grown < 40, f"the server grew by {grown:.0f} MB for a 20 MB body"
    finally:
        stop(process)


def immutable(files, on: bool) -> None:
    """Make files unwritable even by root (chattr +i), or writable again."""
    for file in files:
        if file.exists():
            done = subprocess.run(["chattr", "+i" if on else "-i", str(file)],
                                  capture_output=True, text=True)
            need(done.returncode == 0, f"chattr ({done.stderr.strip()})")


def test_a_save_goes_through_once_the_database_files_are_writable_again(tmp_path):
    database = tmp_path / "stranger.sqlite"
    app = make_app(database)
    game_id = start_game(app.test_client(), P)
    with app.app_context():
        db.engine.dispose()
    process, port, _ = start_http(tmp_path)
    files = [database]  # (its -shm made immutable too, SQLite stops the process: SIGBUS)
    try:
        phone = Phone(lambda: http.client.HTTPConnection("127.0.0.1", port, timeout=30))
        assert phone.save_hands(game_id, (1,))
        immutable(files, True)
        try:
            # Phones keep reading meanwhile, several at once: the server opens connections.
            with ThreadPoolExecutor(8) as pool:
                list(pool.map(lambda _: Phone(phone.connect).send("GET", f"/games/{game_id}"),
                              range(24)))
        finally:
            immutable(files, False)
        statuses = []
        for _ in range(10):
            statuses.append(phone.save(game_id, 2 + statuses.count(302))[0])
        assert statuses == [302] * 10  # before: 9 of 10 refused (503) until a restart
    finally:
        stop(process)


def test_200_connections_that_never_begin_their_tls_handshake_do_not_stop_a_save(tmp_path):
    app = make_app(tmp_path / "https.sqlite")  # the tables, as `make run` migrates them
    game_id = start_game(app.test_client(), P)
    with app.app_context():
        db.engine.dispose()
    process, port, said = start_https(tmp_path, tmp_path / "tls")
    context = trusting(tmp_path / "tls" / "ca.crt")
    idle = []
    try:
        for _ in range(200):  # a port scanner, or phones that connect and say nothing
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        phone = Phone(lambda: http.client.HTTPSConnection("localhost", port, timeout=15,
                                                          context=context))
        took = phone.save_hands(game_id, (1, 2, 3))
        # Before: each held the next connection 10 s (cheroot shook hands in the thread
        # that accepts them all): no answer within minutes.
        assert max(took) <= 1.0, took
        # Each handshake never begun is given up within seconds, and not said on the screen.
        deadline = time.monotonic() + 30
        while server_side_open(port) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not server_side_open(port), "the server still holds them"
        screen = (tmp_path / f"serve-{port}.log").read_text()
        assert screen.splitlines()[len(said.splitlines()):] == []
    finally:
        for sock in idle:
            sock.close()
        stop(process)


def test_with_host_ipv6_every_interface_the_banners_own_address_answers(tmp_path):
    try:
        socket.create_server(("::1", 0), family=socket.AF_INET6).close()
    except OSError:
        need(False, "IPv6 on loopback")
    process, port, screen = start_http(tmp_path, host="::")
    try:
        address = re.search(r"On this machine:\s+(\S+)", screen.read_text())[1]
        assert address == f"http://[::1]:{port}/"
        with urllib.request.urlopen(address, timeout=30) as page:  # before: 400
            assert page.status == 200 and "Kings Corners" in page.read().decode()
    finally:
        stop(process)


def test_200_https_phones_that_go_away_mid_request_leave_the_screen_quiet(tmp_path):
    process, port, said = start_https(tmp_path, tmp_path / "tls")
    screen = tmp_path / f"serve-{port}.log"
    context = trusting(tmp_path / "tls" / "ca.crt")
    try:
        for half in (b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n",  # its head cut short
                     b"POST /unlock HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + FORM.encode()
                     + b"\r\nContent-Length: 1000\r\n\r\nx=1"):  # its body cut short
            gone = []
            for _ in range(100):
                raw = socket.create_connection(("127.0.0.1", port), timeout=10)
                phone = context.wrap_socket(raw, server_hostname="localhost")
                phone.sendall(half)
                gone.append(phone)
            for phone in gone:
                phone.close()
        # Each is read by a worker that finds it gone: wait until the server has closed them.
        deadline = time.monotonic() + 60
        while server_side_open(port) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not server_side_open(port), "the server still holds them"
        with urllib.request.urlopen(f"https://localhost:{port}/healthz", timeout=30,
                                    context=context) as page:
            assert page.status == 200
        # Before: about 21,900 lines of tracebacks for 200.
        assert screen.read_text().splitlines()[len(said.splitlines()):] == []
    finally:
        stop(process)
