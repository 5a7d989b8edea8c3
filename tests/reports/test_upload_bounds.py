"""An upload is bounded before it is trusted, against the real server (`python -m
scorekeeper.server.serve`, as `make run` starts it): a backup nested 100,000 deep is refused
with the server's memory flat; a restore asks for an empty database before it reads a byte;
ten years of history (a 50 MB backup) restores in the app and on the command line."""

from __future__ import annotations

import http.client
import http.cookiejar
import os
import random
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import func, select

from scorekeeper.db.models import Game, Round
from scorekeeper.extensions import db
from scorekeeper.reports import backup
from tests.helpers import ROOT, make_app, start_game

sys.path.insert(0, str(ROOT / "bench"))


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`python -m scorekeeper.server.serve` on a database file of its own, CSRF on as at home."""

    def __init__(self, folder: Path, database: Path):
        self.port = free_port()
        self.log = open(folder / f"serve-{self.port}.log", "w+")
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "test",
               "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1",
             "--port", str(self.port)], cwd=ROOT, env=env, stdout=self.log,
            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.output()
            try:
                with urllib.request.urlopen(self.url("/healthz"), timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("the server did not start within 60 s")
        jar = http.cookiejar.CookieJar()
        self.browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        self.jar = jar

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def peak_mb(self) -> float:
        """The server's largest resident memory so far (VmHWM), in MB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024

    def token(self, path: str) -> str:
        with self.browser.open(self.url(path), timeout=30) as page:
            html = page.read().decode()
        return re.search(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"', html).group(1)

    def upload(self, path: str, field: str, content: bytes, token: str) -> tuple[int, str]:
        """Post a file as a phone's browser does (multipart), with the session's cookie."""
        boundary = "----kcboundary" + os.urandom(8).hex()
        body = b"".join([
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
            f'{token}\r\n'.encode(),
            f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; '
            f'filename="backup.json"\r\nContent-Type: application/json\r\n\r\n'.encode(),
            content, f"\r\n--{boundary}--\r\n".encode()])
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        connection.request("POST", path, body, {
            "Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": cookie})
        response = connection.getresponse()
        text = response.read().decode()
        connection.close()
        return response.status, text

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture
def server(tmp_path):
    database = tmp_path / "bounds.sqlite"
    app = make_app(database)  # the tables, as `make run` migrates them
    with app.app_context():
        db.engine.dispose()
    running = Server(tmp_path, database)
    yield running, app
    running.stop()


def alert(html: str) -> str:
    return " ".join(re.findall(r'role="alert">([^<]+)<', html))


def test_a_backup_nested_100000_deep_is_refused_with_the_servers_memory_flat(server):
    running, _ = server
    token = running.token("/backup")
    before = running.peak_mb()
    deep = b'{"format": "kings-corners-backup/1", "roster": ' + b"[" * 100_000 + b"]" * 100_000
    deep += b"}"
    status, html = running.upload("/backup/restore", "file", deep, token)
    assert status == 422, html[:300]
    assert "nested more than 32 levels deep" in alert(html)
    # A game log nested 16,000 deep, pasted, is refused the same way.
    token = running.token("/import")
    status, html = running.upload("/import", "file", b"[" * 16_000 + b"]" * 16_000, token)
    assert status == 422 and "nested more than 32 levels deep" in alert(html)
    grown = running.peak_mb() - before
    assert grown < 30, f"the server grew by {grown:.0f} MB"  # it grew by gigabytes before
    assert running.process.poll() is None


def test_a_restore_into_a_database_that_holds_games_is_refused_before_it_is_read(server):
    running, app = server
    with app.app_context():
        client = app.test_client()
        start_game(client, ["Ann", "Ben"])
        db.engine.dispose()
    token = running.token("/backup")
    # Not even JSON, and deep: the database is asked first, so this is what is said.
    status, html = running.upload("/backup/restore", "file", b"[" * 100_000 + b"nonsense",
                                  token)
    assert status == 422
    assert "a backup is restored only into an empty database" in alert(html)


def test_a_backup_with_a_number_of_5000_digits_is_refused_naming_where(server):
    running, _ = server
    token = running.token("/backup")
    text = ('{"format": "kings-corners-backup/1", "roster": [{"name": "Ann", "created_at": '
            '"2026-11-20T19:30:00"}], "nights": [{"name": ' + "7" * 5000 + "}]}")
    status, html = running.upload("/backup/restore", "file", text.encode(), token)
    assert status == 422
    assert ("Nothing was restored. nights[0].name: a number can be at most 15 digits long."
            in alert(html))


@pytest.fixture(scope="session")
def ten_years(tmp_path_factory) -> Path:
    """Return a backup file of ten years of weekly game nights (2,080 games, ~50 MB), made
    once: a module's fixture was made again when the worker ran another module between the
    two tests that restore it."""
    from bench_years import fill

    from bench import fresh_app

    app = fresh_app()
    path = tmp_path_factory.mktemp("ten-years") / "ten-years.json"
    with app.app_context():
        fill(10, random.Random(7), cache=False)
        with open(path, "w", encoding="utf-8") as file:
            for chunk in backup.chunks():
                file.write(chunk)
        db.engine.dispose()
    return path


def counts(app) -> tuple[int, int]:
    with app.app_context():
        found = (db.session.scalar(select(func.count()).select_from(Game)),
                 db.session.scalar(select(func.count()).select_from(Round)))
        db.engine.dispose()
    return found


@pytest.mark.xdist_group("ten_years")  # one worker makes the backup once
def test_ten_years_of_history_restores_in_the_app_with_memory_flat(server, ten_years):
    running, app = server
    size = ten_years.stat().st_size
    assert size > 50_000_000  # bigger than the 20 MB that every other form may be
    token = running.token("/backup")
    before = running.peak_mb()
    status, html = running.upload("/backup/restore", "file", ten_years.read_bytes(), token)
    assert status == 302, alert(html) or html[:300]
    assert counts(app) == (2080, 41600)
    grown = running.peak_mb() - before
    assert grown < 150, f"the server grew by {grown:.0f} MB restoring {size >> 20} MB"


@pytest.mark.xdist_group("ten_years")  # one worker makes the backup once
def test_ten_years_of_history_restores_on_the_command_line(tmp_path, ten_years):
    database = tmp_path / "cli.sqlite"
    app = make_app(database)
    with app.app_context():
        db.engine.dispose()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "test"}
    done = subprocess.run(
        # The peak is read from /proc (VmHWM): ru_maxrss would keep pytest's own from the fork.
        [sys.executable, "-c", "import re, sys; from flask.cli import main; "
         "sys.argv = ['flask', '--app', 'app', 'restore', sys.argv[1]]; "
         "code = 0\ntry: main()\nexcept SystemExit as e: code = e.code or 0\n"
         "status = open('/proc/self/status').read(); "
         "print('peak', int(re.search(r'VmHWM:\\s+(\\d+)', status).group(1)) // 1024); "
         "sys.exit(code)", str(ten_years)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "restored 10 players, 520 nights and 2080 games" in done.stdout
    peak = int(re.search(r"peak (\d+)", done.stdout).group(1))
    assert peak < 250, f"the command peaked at {peak} MB for {ten_years.stat().st_size >> 20} MB"
    assert counts(app) == (2080, 41600)
