"""Faults of the machine, against the real server: a full disk, a disk made read-only, a
PostgreSQL connection lost or its server stopped, a read-only instance folder at the start.

Each is told on a page (503) that keeps what was typed, with one "Save again" that works
once the fault is put right; the server goes on serving what it can read. The disks are
small tmpfs mounts of the test's own (root only: skipped elsewhere, failed under CI=true),
unmounted whatever happens.
"""

from __future__ import annotations

import contextlib
import html
import http.client
import os
import pwd
import re
import shlex
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.helpers import ROOT, hand_data, make_app, need, serve, start_game, stop, stop_serving

P = ["Ann", "Ben", "Cy"]
ES = {"Accept-Language": "es-ES,es;q=0.9"}
PG_URL = os.environ.get("TEST_DATABASE_URL", "")
FULL = "The machine&#39;s disk is full: nothing was saved. Free some space and save again."


# ---- Helpers: a phone over HTTP, a disk of our own ------------------------------------------

class Phone:
    """A browser without JavaScript: keeps its cookies, follows no redirect."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def send(self, method: str, path: str, fields=None, headers=None):
        """Send a request; return (status, headers, page)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = dict(headers or {})
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.request(method, path, body, sent)
            response = connection.getresponse()
            page = response.read().decode()
        finally:
            connection.close()
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        return response.status, response.headers, page

    def get(self, path: str, headers=None):
        return self.send("GET", path, headers=headers)

    def post(self, path: str, fields, headers=None):
        return self.send("POST", path, fields, headers)


def hidden(page: str, name: str) -> str:
    """Return the value of a page's hidden input `name`."""
    found = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', page)
    return html.unescape(found.group(1))


def kept(page: str) -> tuple[str, list[tuple[str, str]]]:
    """Return where a fault page's "Save again" posts, and the fields it posts."""
    form = re.search(r'<form method="post" action="([^"]+)" class="stack">(.*?)</form>', page,
                     re.S)
    assert form and ">Save again<" in form.group(2), page
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(2))
    return html.unescape(form.group(1)), [(n, html.unescape(v)) for n, v in fields]


def alert(page: str) -> str:
    return html.unescape(re.search(r'role="alert">([^<]+)<', page).group(1))


def as_root() -> None:
    need(os.geteuid() == 0 and shutil.which("mount") is not None,
         "root and mount (to mount a small tmpfs)")


@contextlib.contextmanager
def tmpfs(where: Path, size: str = "4m"):
    """Mount a tmpfs of `size` at `where` for the block; unmount it whatever happens."""
    as_root()
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs",
                              str(where)], capture_output=True, text=True)
    need(mounted.returncode == 0, f"mount -t tmpfs ({mounted.stderr.strip()})")
    try:
        yield where
    finally:
        remount(where, "rw", check=False)
        if subprocess.run(["umount", str(where)], capture_output=True).returncode:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


def remount(where: Path, mode: str, check: bool = True) -> None:
    done = subprocess.run(["mount", "-o", f"remount,{mode}", str(where)], capture_output=True,
                          text=True)
    assert done.returncode == 0 or not check, done.stderr


def fill(disk: Path) -> Path:
    """Fill a disk to its last byte with one file; return the file."""
    filler = disk / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for chunk in (1 << 20, 1 << 12, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(descriptor, bytes(chunk))
    finally:
        os.close(descriptor)
    return filler


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(database: Path, log: Path) -> tuple[subprocess.Popen, int]:
    """Start `python -m scorekeeper.server.serve` (what `make run` runs) on `database`."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "faults-test",
           "PYTHONUNBUFFERED": "1"}
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, "-m", "scorekeeper.server.serve", "--host",
                                    "127.0.0.1", "--port", str(port)],
                                   cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the server stopped: {log.read_text()}"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    pytest.fail("the server did not start within 60 s")




def a_game(database: Path) -> None:
    """Create the tables and start a game of P on a SQLite file, its connections closed."""
    app = make_app(database)
    start_game(app.test_client(), P)
    with app.app_context():
        db.engine.dispose()


# ---- A full disk ------------------------------------------------------------------------------

def test_a_full_disk_refuses_a_hand_with_a_page_that_keeps_it_and_saves_it_once_freed(tmp_path):
    with tmpfs(tmp_path / "disk") as disk:
        a_game(disk / "kc.sqlite")
        server, port = start_server(disk / "kc.sqlite", tmp_path / "serve.log")
        try:
            phone = Phone(port)
            status, _, form = phone.get("/games/1/hands/new")
            assert status == 200
            hand = {**hand_data(P, "Ben", {"Ann": (7, 1), "Cy": 2}, 1, hidden(form, "token")),
                    "csrf_token": hidden(form, "csrf_token")}
            filler = fill(disk)

            status, headers, page = phone.post("/games/1/hands/new", hand)
            assert status == 503
            assert "<h1>The disk is full</h1>" in page and FULL in page
            assert headers["Cache-Control"] == "no-store"
            action, fields = kept(page)
            assert action == "/games/1/hands/new"
            assert sorted(fields) == sorted(hand.items())  # the CSRF token among them
            # Nothing was written; the server is alive and every page that reads still opens.
            assert server.poll() is None
            for path in ("/games/1", "/", "/history/", "/games/1/hands/new"):
                assert phone.get(path)[0] == 200, path
            assert phone.get("/games/1/export.json")[2].count('"went_out"') == 0
            # In the phone's language; and a hand sent from offline.js's queue gets 503,
            # which it keeps and sends again (502-504: "waiting to send").
            status, _, page = phone.post("/games/1/hands/new", hand, ES)
            assert status == 503 and 'lang="es"' in page
            assert "El disco del equipo está lleno: no se guardó nada." in page
            queued = phone.post("/games/1/hands/new", hand, {"X-Hand-Queue": "1"})
            assert queued[0] == 503

            filler.unlink()
            status, headers, _ = phone.post(action, fields)
            assert status == 302 and headers["Location"] == "/games/1"
            board = phone.get("/games/1")[2]
            assert "Hand 1 saved" in board and "Record hand 2" in board
            assert phone.get("/games/1/export.json")[2].count('"went_out"') == 1
            assert server.poll() is None
        finally:
            stop(server)


def test_a_server_started_again_on_a_full_disk_says_so_on_every_page(tmp_path):
    """With no connection open, SQLite makes its -shm file afresh, which a full disk refuses
    even to read ("disk I/O error"): the page says the disk is full, not a disk error."""
    with tmpfs(tmp_path / "disk") as disk:
        app = make_app(disk / "kc.sqlite")
        start_game(app.test_client(), P)
        with app.app_context():
            db.engine.dispose()  # as after a restart: no connection open, no -shm file
        filler = fill(disk)
        server, base = serve(app)
        try:
            phone = Phone(int(base.rsplit(":", 1)[1]))
            status, _, page = phone.get("/games/1")
            assert status == 503 and "<h1>The disk is full</h1>" in page
            assert alert(page) == ("The machine's disk is full, so this page cannot be shown. "
                                   "Free some space, then try again.")
            status, _, page = phone.post("/games/1/hands/new", hand_data(P, "Cy", {"Ann": 1,
                                                                               "Ben": 2}))
            assert status == 503 and FULL in page
            filler.unlink()
            assert phone.get("/games/1")[0] == 200
        finally:
            stop_serving(server)
            with app.app_context():
                db.engine.dispose()


# ---- A disk made read-only under the running server ---------------------------------------

def test_a_disk_made_read_only_refuses_saves_with_a_page_and_goes_on_serving_reads(tmp_path):
    with tmpfs(tmp_path / "disk") as disk:
        app = make_app(disk / "kc.sqlite")
        setup = app.test_client()
        start_game(setup, P)
        assert setup.post("/settings/passcode", data={"passcode": "four 4 you"}).status_code == 302
        server, base = serve(app)
        try:
            port = int(base.rsplit(":", 1)[1])
            phone, locked = Phone(port), Phone(port)
            phone.cookies["kc_phone"] = setup.get_cookie("kc_phone").value  # it gave it
            token = hidden(phone.get("/games/1/hands/new")[2], "token")
            # A file open for writing keeps a tmpfs from being remounted read-only, so the
            # server's idle connections are closed first, as on a server left quiet.
            with app.app_context():
                db.engine.dispose()
            remount(disk, "ro")

            for path in ("/games/1", "/", "/history/", "/players", "/healthz"):
                assert phone.get(path)[0] == 200, path
            hand = hand_data(P, "Ann", {"Ben": 3, "Cy": (4, 1)}, 1, token)
            status, _, page = phone.post("/games/1/hands/new", hand)
            assert status == 503 and "<h1>The database is read-only</h1>" in page
            assert alert(page) == ("The database's file or disk is read-only: nothing was "
                                   "saved. Make it writable and save again.")
            action, fields = kept(page)
            assert action == "/games/1/hands/new" and sorted(fields) == sorted(hand.items())
            status, _, page = phone.post("/games/1/hands/new", hand, ES)
            assert status == 503 and "La base de datos es de solo lectura" in page

            # A passcode is never written into the page: a new one is typed again...
            status, _, page = phone.post("/settings/passcode", {"passcode": "a new one 5"})
            assert status == 503 and "a new one 5" not in page and ">Save again<" not in page
            assert "What was sent is not kept: go back and send it again." in page
            # ...and a phone unlocking to send a hand gets the hand back, without the
            # passcode or the unlock form's fields, sent to where it was going.
            status, _, page = locked.post("/unlock", {
                "unlock_passcode": "four 4 you", "unlock_next": "/games/1/hands/new",
                "unlock_again": "1", **hand})
            assert status == 503 and "four 4 you" not in page and "unlock_" not in page
            assert kept(page) == ("/games/1/hands/new", list(hand.items()))
            assert phone.get("/games/1")[0] == 200  # still alive, still reading

            remount(disk, "rw")
            status, headers, _ = phone.post(action, fields)
            assert status == 302 and headers["Location"] == "/games/1"
            assert "Record hand 2" in phone.get("/games/1")[2]
        finally:
            stop_serving(server)
            with app.app_context():
                db.engine.dispose()


# ---- PostgreSQL -------------------------------------------------------------------------------

def pg_app(url: str):
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        db.create_all()
    start_game(app.test_client(), P)
    return app


@pytest.mark.postgres
def test_a_postgresql_connection_lost_mid_save_gets_a_page_and_the_next_save_goes_through():
    need(bool(PG_URL), "TEST_DATABASE_URL (a PostgreSQL server to test against)")
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(PG_URL)
    name = f"kc_faults_{uuid.uuid4().hex[:10]}"

    def plain(database: str) -> str:
        return url.set(drivername="postgresql", database=database).render_as_string(False)

    with psycopg.connect(plain(url.database or "postgres"), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
        app = server = None
        try:
            app = pg_app(url.set(database=name).render_as_string(False))
            server, base = serve(app)
            phone = Phone(int(base.rsplit(":", 1)[1]))
            hand = hand_data(P, "Cy", {"Ann": 2, "Ben": 5}, 1)
            # Another connection holds the game's write lock, so the save waits inside its
            # transaction; its connection is then cut, as a server restart would.
            with psycopg.connect(plain(name)) as holder:
                holder.execute("SELECT id FROM game WHERE id = 1 FOR UPDATE")
                answer = {}
                saving = threading.Thread(target=lambda: answer.update(
                    got=phone.post("/games/1/hands/new", hand)))
                saving.start()
                waiting = []
                for _ in range(600):
                    waiting = admin.execute(
                        "SELECT pid FROM pg_stat_activity WHERE datname = %s "
                        "AND wait_event_type = 'Lock'", (name,)).fetchall()
                    if waiting:
                        break
                    time.sleep(0.05)
                assert waiting, "the save never waited for the lock"
                admin.execute("SELECT pg_terminate_backend(%s)", waiting[0])
                saving.join(60)
                holder.rollback()
            status, _, page = answer["got"]
            assert status == 503
            assert "<h1>The database server cannot be reached</h1>" in page
            assert alert(page).startswith("The connection to the database server was lost: "
                                          "nothing was saved.")
            action, fields = kept(page)
            assert "Record hand 1" in phone.get("/games/1")[2]  # reads go on
            status, headers, _ = phone.post(action, fields)
            assert status == 302 and headers["Location"] == "/games/1"
            assert "Record hand 2" in phone.get("/games/1")[2]
        finally:
            if server is not None:
                stop_serving(server)
            if app is not None:
                with app.app_context():
                    db.engine.dispose()
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def own_postgresql():
    """Start a PostgreSQL server of the test's own (as .ci/run does), to stop and start again;
    yield (its URL, a function taking "stop" or "start")."""
    as_root()
    binaries = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    need(bool(binaries), "PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)")
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        need(False, "the postgres user")
    bin_dir = binaries[-1].parent
    folder = Path(tempfile.mkdtemp(prefix="kc-faults-pg."))
    shutil.chown(folder, "postgres")
    port = free_port()

    def as_postgres(*command: str) -> None:
        done = subprocess.run(["su", "postgres", "-c", shlex.join(command)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr

    def server(action: str) -> None:
        if action == "start":
            as_postgres(str(bin_dir / "pg_ctl"), "-D", str(folder / "data"), "-w", "-l",
                        str(folder / "log"), "-o", f"-p {port} -k {folder} -c fsync=off "
                        "-c listen_addresses=127.0.0.1", "start")
        else:
            as_postgres(str(bin_dir / "pg_ctl"), "-D", str(folder / "data"), "-w", "-m",
                        "immediate", "stop")

    try:
        as_postgres(str(bin_dir / "initdb"), "-D", str(folder / "data"), "-A", "trust",
                    "-U", "postgres", "--no-sync")
        server("start")
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", server
    finally:
        subprocess.run(["su", "postgres", "-c", shlex.join(
            [str(bin_dir / "pg_ctl"), "-D", str(folder / "data"), "-m", "immediate", "stop"])],
            capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_postgresql_server_stopped_gets_a_page_and_saves_work_once_it_is_back(
        own_postgresql):
    url, postgresql = own_postgresql
    app = pg_app(url)
    server, base = serve(app)
    try:
        phone = Phone(int(base.rsplit(":", 1)[1]))
        token = hidden(phone.get("/games/1/hands/new")[2], "token")
        postgresql("stop")
        hand = hand_data(P, "Ben", {"Ann": 1, "Cy": 6}, 1, token)
        status, _, page = phone.post("/games/1/hands/new", hand)
        assert status == 503 and "<h1>The database server cannot be reached</h1>" in page
        action, fields = kept(page)
        assert sorted(fields) == sorted(hand.items())
        status, _, page = phone.get("/games/1")
        assert status == 503
        assert alert(page) == ("The connection to the database server was lost, so this page "
                               "cannot be shown. Check that the server is running, then try "
                               "again.")
        assert ">Try again<" in page and ">Save again<" not in page

        postgresql("start")
        status, headers, _ = phone.post(action, fields)
        assert status == 302 and headers["Location"] == "/games/1"
        assert "Record hand 2" in phone.get("/games/1")[2]
    finally:
        stop_serving(server)
        with app.app_context():
            db.engine.dispose()


# ---- At the start: `make run` and `flask db upgrade` ----------------------------------------

def run_in_own_mounts(script: str, *args: str) -> subprocess.CompletedProcess:
    """Run a shell script in a mount namespace of its own: what it mounts (over instance/,
    say) is seen by it alone, and gone when it ends."""
    as_root()
    need(shutil.which("unshare") is not None, "unshare (util-linux)")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                           script, "sh", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=180)


def one_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    assert "Traceback" not in output
    return lines[0]


def test_a_read_only_instance_folder_stops_the_start_with_one_line(tmp_path):
    instance = ROOT / "instance"
    instance.mkdir(exist_ok=True)
    script = ('mount -t tmpfs -o ro,size=1m tmpfs "$1" || exit 99\n'
              '"$2" -m flask --app app db upgrade >"$3" 2>&1; echo $? >"$3.rc"\n'
              '"$2" -m scorekeeper.server.serve --port "$4" >"$5" 2>&1; echo $? >"$5.rc"\n')
    done = run_in_own_mounts(script, str(instance), sys.executable, str(tmp_path / "upgrade"),
                             str(free_port()), str(tmp_path / "serve"))
    need(done.returncode != 99, f"a mount namespace of its own ({done.stderr.strip()})")
    for command in ("upgrade", "serve"):
        said = one_line((tmp_path / command).read_text())
        assert (tmp_path / f"{command}.rc").read_text().strip() == "1", command
        assert said.startswith(f"Error: Cannot write to {instance}: the folder is read-only")
        assert "Kings Corners keeps its database and secret key there" in said


def test_a_read_only_database_stops_flask_db_upgrade_with_one_line(tmp_path):
    with tmpfs(tmp_path / "disk") as disk:
        a_game(disk / "kc.sqlite")
        remount(disk, "ro")
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{disk / 'kc.sqlite'}",
               "SECRET_KEY": "faults-test"}
        done = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 1
        said = one_line(done.stdout + done.stderr)
        assert said.startswith(f"Error: Cannot write to {disk / 'kc.sqlite'}: the file is "
                               "read-only")


def test_a_full_disk_at_the_first_start_says_so_and_leaves_no_half_written_key(tmp_path):
    """The secret key is written once, at the first start: a full disk then is said in one
    line, and the start after space is freed makes a whole key (none read back empty)."""
    instance = ROOT / "instance"
    instance.mkdir(exist_ok=True)
    script = ('mount -t tmpfs -o size=4m tmpfs "$1" || exit 99\n'
              'cat /dev/zero >"$1/filler" 2>/dev/null\n'
              '"$2" -m flask --app app db upgrade >"$3.full" 2>&1; echo $? >"$3.full.rc"\n'
              'ls -A "$1" >"$3.files"\n'
              'rm "$1/filler"\n'
              '"$2" -m flask --app app db upgrade >"$3.freed" 2>&1; echo $? >"$3.freed.rc"\n'
              'wc -c <"$1/secret_key" >"$3.key"\n')
    done = run_in_own_mounts(script, str(instance), sys.executable, str(tmp_path / "run"))
    need(done.returncode != 99, f"a mount namespace of its own ({done.stderr.strip()})")
    said = one_line((tmp_path / "run.full").read_text())
    assert (tmp_path / "run.full.rc").read_text().strip() == "1"
    assert said == (f"Error: Cannot write to {instance / 'secret_key'}: the disk is full. "
                    "Free some space and start again.")
    assert (tmp_path / "run.files").read_text().split() == ["filler"]
    assert (tmp_path / "run.freed.rc").read_text().strip() == "0", (
        (tmp_path / "run.freed").read_text())
    assert "Database: created" in (tmp_path / "run.freed").read_text()
    assert int((tmp_path / "run.key").read_text()) == 64


def test_an_error_nobody_foresaw_gets_a_page_in_the_phones_language_and_is_logged(
        app, client, caplog):
    """Werkzeug's bare English 500 page was all a phone got; whoever runs the server finds
    the traceback on its screen."""
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as served: the test app re-raises it
    start_game(client, ["Ann", "Ben", "Cy"])
    with app.app_context():
        db.session.execute(db.text("UPDATE game SET settings = 'not json'"))  # by hand
        db.session.commit()
    answer = client.get("/games/1", headers={"Accept-Language": "es"})
    assert answer.status_code == 500
    page = html.unescape(answer.get_data(as_text=True))
    assert "<h1>Algo ha fallado</h1>" in page
    assert ("El servidor no ha podido responder. No se ha guardado nada a medias: vuelve "
            "atrás e inténtalo de nuevo.") in page
    assert [record.getMessage() for record in caplog.records
            if record.levelname == "ERROR"] == ["Exception on /games/1 [GET]"]


def test_a_database_removed_under_the_running_app_refuses_saves_until_it_is_put_back(
        app, client):
    """SQLite went on writing to a removed file: the saves were answered as saved, shown
    on the scoreboard, and gone at the next start, with nothing said. Now a save is refused
    with the page that says the database cannot be opened (the hand kept to save again), no
    new empty database is made in its place, and once the file is put back the same form
    saves."""
    players = ["Ann", "Ben", "Cy"]
    start_game(client, players)
    assert client.post("/games/1/hands/new", data=hand_data(
        players, "Ann", {"Ben": 3, "Cy": 4}, number=1)).status_code == 302
    path = Path(app.config["SQLALCHEMY_DATABASE_URI"][len("sqlite:///"):])
    with contextlib.closing(sqlite3.connect(path)) as side:
        side.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file, to copy
    kept = path.with_name("kept.sqlite")
    shutil.copyfile(path, kept)
    for part in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        part.unlink(missing_ok=True)
    second = hand_data(players, "Ben", {"Ann": 2, "Cy": 1}, number=2)
    refused = client.post("/games/1/hands/new", data=second)
    assert refused.status_code == 503
    assert "The database cannot be opened" in refused.get_data(as_text=True)
    assert not path.exists()
    shutil.copyfile(kept, path)
    assert client.post("/games/1/hands/new", data=second).status_code == 302
    with contextlib.closing(sqlite3.connect(path)) as side:
        assert side.execute("SELECT count(*) FROM round").fetchone() == (2,)


def test_a_fault_page_shows_a_locked_phone_its_padlock(app, client, monkeypatch):
    """The fault page draws the header from what the request read before the fault: with a
    passcode set, a phone that has not given it still sees the padlock (the way to unlock)."""
    from scorekeeper import play
    from scorekeeper.web.views import games

    start_game(client, ["Ann", "Ben", "Cy"])
    with app.app_context():
        play.set_passcode("four 4 Zoë")

    def gone(*_, **__):  # the disk fails once the page has read the seats and the passcode
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(games, "game_view", gone)
    page = app.test_client().get("/games/1")
    assert page.status_code == 503
    assert 'class="icon lock"' in page.get_data(as_text=True)
