"""Starting and stopping the server as whoever runs it at home does: a mistake at the start
is said in one line, and a stop (Ctrl+C, or a service manager's SIGTERM) is quiet."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from scorekeeper.server.serve import banner
from tests.helpers import free_port, server_side_open

KINGS_CORNERS = str(Path(sys.executable).parent / "kings-corners")


def serve(tmp_path: Path, *args: str) -> subprocess.Popen:
    """Start `kings-corners serve ARGS` on a data folder of the test's own."""
    env = {**os.environ, "INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "test"}
    env.pop("DATABASE_URL", None)
    return subprocess.Popen([KINGS_CORNERS, "serve", "--host", "127.0.0.1", *args],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_a_taken_port_is_said_in_one_line_before_anything_is_made(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = serve(tmp_path, "--https", "--port", str(port))
        out, err = started.communicate(timeout=60)
    assert started.returncode == 1
    assert err == (f"Error: Port {port} is taken: another program, or another Kings Corners, "
                   f"is serving there. Stop it, or start this one on another port "
                   f"(make run PORT={port + 1}).\n")
    assert out == ""  # not "running", and the database not even upgraded
    assert not (tmp_path / "instance" / "tls").exists()  # no certificate authority made


@pytest.mark.parametrize("scheme, stop", [("http", signal.SIGTERM), ("https", signal.SIGINT)])
def test_a_stopped_server_exits_quietly_and_says_nothing_of_each_phone(tmp_path, scheme, stop):
    """Ctrl+C over HTTPS ended with "Keyboard Interrupt: shutting down", "Aborted!" and exit
    1, and a service manager's SIGTERM killed the server mid-answer; a phone that has not
    trusted the certificate yet (or asks for http:// on the HTTPS port) got a line on the
    server's screen for each of its connections."""
    port = free_port()
    started = serve(tmp_path, "--port", str(port), *(["--https"] if scheme == "https" else []))
    try:
        out, err = _asked_then_stopped(started, scheme, port, stop)
    finally:
        if started.poll() is None:  # a failed check leaves no server behind
            started.kill()
            started.communicate()
    assert (started.returncode, err) == (0, "")
    assert "Press Ctrl+C to stop." in out


def _asked_then_stopped(started, scheme: str, port: int, stop) -> tuple[str, str]:
    """Ask the server for a page (and, over HTTPS, as two phones that cannot talk to it
    yet), stop it with `stop`; return what it printed and said on stderr."""
    context = ssl._create_unverified_context()
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{scheme}://127.0.0.1:{port}/healthz",
                                        context=context, timeout=2) as answered:
                assert answered.status == 200
            break
        except OSError:
            assert started.poll() is None and time.monotonic() < deadline, started.stderr.read()
            time.sleep(0.2)
    if scheme == "https":
        with (socket.create_connection(("127.0.0.1", port)) as plain,  # http:// asked of it
              contextlib.suppress(ConnectionResetError)):
            plain.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            plain.recv(100)
        refused = ssl.create_default_context()  # a phone that does not trust it yet
        with socket.create_connection(("127.0.0.1", port)) as raw:
            with pytest.raises(ssl.SSLCertVerificationError):
                refused.wrap_socket(raw, server_hostname="localhost")
        deadline = time.monotonic() + 30
        while server_side_open(port):  # until the server has dealt with both and closed them
            assert time.monotonic() < deadline, "the server still holds them"
            time.sleep(0.1)
    started.send_signal(stop)
    return started.communicate(timeout=60)


def test_the_start_gives_a_phones_address_only_when_a_phone_can_reach_it(monkeypatch):
    monkeypatch.setattr("scorekeeper.server.serve.lan_addresses", lambda: ("192.168.1.23",))
    assert banner("http", 8000) == ["  On this machine:  http://127.0.0.1:8000/",
                                    "  On a phone on the same Wi-Fi:  http://192.168.1.23:8000/"]
    assert banner("http", 8000, "127.0.0.1") == ["  On this machine:  http://127.0.0.1:8000/"]
    assert banner("https", 8000, "192.168.1.23") == [
        "  On this machine and a phone:  https://192.168.1.23:8000/"]
    assert banner("http", 8000, "::") == ["  On this machine:  http://[::1]:8000/"]
