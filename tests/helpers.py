"""What many tests share: an app on a fresh database, a real server, the forms a phone posts,
and a few games and histories to play with. Fixtures are in conftest.py; no test module
imports another."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import date, datetime, timedelta
from html import unescape
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_migrate import upgrade
from hypothesis import strategies as st
from jinja2.bccache import Bucket, BytecodeCache
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorekeeper import create_app, play, rules
from scorekeeper.db import add_game, results
from scorekeeper.db.models import Night
from scorekeeper.db.roster import player_for
from scorekeeper.extensions import db
from scorekeeper.rules import Event, Game, Hand, Round
from tests.reports.oracle import played

ROOT = Path(__file__).resolve().parents[1]  # the checkout
PACKAGE = ROOT / "scorekeeper"
WEB = PACKAGE / "web"  # its translations/
TEMPLATES, STATIC = ROOT / "templates", ROOT / "static"  # the pages, beside app.py

NAMES = ("Ann", "Ben", "Cy", "Zoë")  # fill(): four players, every week
FRI, SAT = date(2026, 11, 20), date(2026, 11, 21)  # two_nights()
PENALTY = rules.get_variant("penalty").resolve_settings({"target": 1000})
PENALTY_25 = rules.get_variant("penalty").resolve_settings({})
HOUSE = rules.get_variant("chips").resolve_settings({"preset": "house", "start_chips": 3})
JAX = rules.get_variant("chips").resolve_settings({"preset": "jax"})
CORONATION = rules.get_variant("coronation").resolve_settings({"deals_to_win": 2})

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def need(condition: bool, what: str) -> None:
    """Skip when something the test needs is missing here; in CI, fail instead."""
    if not condition:
        if IN_CI:
            pytest.fail(f"CI=true and {what} is missing")
        pytest.skip(f"{what} is missing")


_EMPTY: list[bytes] = []  # this process's empty database, its schema made once


def empty_database() -> bytes:
    """Return an SQLite database holding the schema and nothing else, as bytes: made once a
    process by `db.create_all()` and marked as the newest revision (models and migrations
    agree: tests/db/test_migrations.py), so a command that upgrades first finds nothing to
    do. Writing it costs a millisecond, making the schema 25-40. It is kept in memory, not
    as a file every test copies: a shared file was once found damaged mid-run ("file is not
    a database" for every test after), and each earlier copy had its own way to tear."""
    if not _EMPTY:
        with tempfile.TemporaryDirectory(prefix="kc-empty-") as folder:
            path = Path(folder) / "empty.sqlite"
            app = create_app({"TESTING": True, "SECRET_KEY": "test",
                              "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
            head = ScriptDirectory(str(PACKAGE / "db" / "migrations")).get_current_head()
            with app.app_context():
                db.create_all()
                db.session.execute(text("CREATE TABLE alembic_version (version_num "
                                        "VARCHAR(32) NOT NULL PRIMARY KEY)"))  # as alembic
                db.session.execute(text("INSERT INTO alembic_version VALUES (:head)"),
                                   {"head": head})
                db.session.commit()
                db.engine.dispose()
            with contextlib.closing(sqlite3.connect(path)) as made:
                _EMPTY.append(made.serialize())  # one consistent image, whatever its log
    return _EMPTY[0]


class _Compiled(BytecodeCache):
    """The templates as this process compiled them, shared by the apps its tests make.

    The server compiles each template once for its life; a test's app is new, and compiling
    its pages afresh took half the time of the web tests. Jinja checks each template's
    source against what was kept, so an edited template is compiled again.
    """

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


COMPILED = _Compiled()


def make_app(path, csrf: bool = False):
    """Return an app on an empty SQLite file at `path` (a copy of the schema made once; a
    file already there is opened as it is, as a restart would; ":memory:" is made afresh),
    CSRF protection on or off."""
    there = str(path) == ":memory:" or Path(path).exists()
    if not there:
        Path(path).write_bytes(empty_database())
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": csrf,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    app.jinja_env.bytecode_cache = COMPILED
    if there:
        with app.app_context():
            db.create_all()  # what it lacks, as before
    return app


def fresh(kept: dict, csrf: bool):
    """Return a new app, CSRF protection on or off, on a new copy of the empty database in
    this process's folder (`kept["folder"]`): nothing of an earlier test's app, its
    configuration, its guesses or a connection a server thread still holds, can reach it."""
    kept["made"] = kept.get("made", 0) + 1
    return make_app(kept["folder"] / f"app-{kept['made']}.sqlite", csrf=csrf)


def serve(app, threads: int = 4):
    """Serve an app with waitress on a free loopback port; return (server, base URL)."""
    import socket
    import threading

    from waitress.server import create_server

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    from scorekeeper.server.serve import WAITRESS

    server = create_server(app, host="127.0.0.1", port=port, **{**WAITRESS, "threads": threads})
    server.thread = threading.Thread(target=server.run, daemon=True)
    server.thread.start()
    return server, f"http://127.0.0.1:{port}"


def stop_serving(server):
    """Stop a server from `serve`: let the requests it is running finish, then close every
    connection from its own loop's thread and wait for that thread to end. Closed from
    outside, a request finishing late writes to a closed pipe and its logged traceback
    runs on into the next test (Python 3.11 parses source to draw a traceback, and two
    threads parsing at once raise SystemError in the other one)."""
    from waitress import wasyncore

    server.task_dispatcher.shutdown()
    server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
    server.thread.join(10)
    assert not server.thread.is_alive(), "the server's loop did not stop"


def disposed(app):
    """Yield the app, then close its database connections (for a fixture)."""
    yield app
    with app.app_context():
        db.engine.dispose()


def csrf_token(html: str) -> str:
    """Return the CSRF token of a page's form."""
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def form_token(html: str) -> str:
    """Return the once-only token of a record-hand page."""
    return re.search(r'name="token" type="hidden" value="([^"]+)"', html).group(1)


def alerts(html: str) -> list[str]:
    """Return the error messages a page shows."""
    return re.findall(r'role="alert">([^<]+)<', html)


PART_SLOT = re.compile(r'<div class="more-part" data-slot="more" data-more="([^"]+)">.*?</div>',
                       re.S)


def with_part(client, path: str, headers: dict | None = None):
    """GET a page that keeps a slot for a part of itself (a player's page: their charts,
    rivals and head-to-head) and return it as a phone shows it once app.js has fetched
    the part into place: the slot filled with what the part answers to app.js's request.
    Fails if the page has no such slot or the part does not answer 200."""
    page = client.get(path, headers=headers)
    html = page.get_data(as_text=True)
    slot = PART_SLOT.search(html)
    assert slot, f"{path} keeps no slot for its part"
    part = client.get(unescape(slot.group(1)), headers={**(headers or {}), "X-Fragment": "1"})
    assert part.status_code == 200, (slot.group(1), part.status_code)
    filled = part.get_data(as_text=True)
    assert "<html" not in filled  # the part alone, as app.js puts it in place
    page.set_data(html[:slot.start()] + filled + html[slot.end():])
    return page


def start_game(client, names=("Ann", "Ben", "Cy"), dealer=0, variant="penalty", **rules) -> int:
    """Start a game through the new-game form; return its id."""
    data = {"variant": variant, "dealer": str(dealer)}
    for seat, name in enumerate(names):
        data[f"seat-{seat}"] = name
    for key, value in rules.items():
        data[f"rules-{variant}-{key}"] = str(value)
    response = client.post("/games/new", data=data)
    assert response.status_code == 302, alerts(response.get_data(as_text=True))
    return int(response.headers["Location"].rsplit("/", 1)[1])


def store_log(core, played_on=None):
    """Store a checked game log's game (gamelog.parse(...).game) as a new game; not committed."""
    from scorekeeper.db import create_game

    game = create_game(core.variant, dict(core.settings), list(core.players),
                       core.players.index(core.first_dealer), played_on, rounds=core.rounds,
                       ended=core.ended)
    results.refresh([game.id])  # cached as play.changing would, not rated
    return game


def hand_data(players, went_out=None, hands=None, number=1, token=None) -> dict:
    """Return the record-hand form data for a hand: hands maps name -> cards or (cards, kings)."""
    data = {"number": str(number), "token": token or f"t-{number}-{os.urandom(4).hex()}",
            "went_out": "stalemate" if went_out is None else str(players.index(went_out))}
    for name, held in (hands or {}).items():
        cards, kings = held if isinstance(held, tuple) else (held, 0)
        seat = players.index(name)
        data[f"cards-{seat}" if cards <= 10 else f"cards_more-{seat}"] = str(cards)
        data[f"kings-{seat}"] = str(kings)
    return data


def schema_drift(engine) -> list:
    """Return what autogenerate would add to a migration: [] when the models match."""
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, db.metadata)


def migrated_app(url: str):
    """Return an app on `url`, upgraded to the newest migration."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
    return app


def _worker_database(url: str) -> str:
    """Return TEST_DATABASE_URL with a database of this test worker's own (pytest-xdist runs
    the suite in several processes; each empties and fills its own database)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    parsed = make_url(url)
    return parsed.set(database=f"{parsed.database or 'postgres'}_{worker}").render_as_string(
        hide_password=False)


PG_URL = _worker_database(os.environ.get("TEST_DATABASE_URL", ""))


def _database_exists(url: str) -> None:
    """Create the worker's database on the server if it is not there yet."""
    parsed = make_url(url)
    admin = create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        if not connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                  {"name": parsed.database}).first():
            connection.execute(text(f'CREATE DATABASE "{parsed.database}"'))
    admin.dispose()


def emptied_app():
    """Return an app on an emptied PostgreSQL schema, upgraded by the migrations (skip, or in
    CI fail, without TEST_DATABASE_URL)."""
    need(bool(PG_URL), "TEST_DATABASE_URL (a PostgreSQL server to test against)")
    _database_exists(PG_URL)
    engine = create_engine(PG_URL)
    with engine.begin() as connection:  # a rerun starts from nothing, whatever was left
        connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    app = migrated_app(PG_URL)
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_side_open(port: int) -> int:
    """Return how many connections the server on `port` has not closed yet (established, or
    closed by the other end only), read from /proc/net/tcp."""
    rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return sum(1 for row in rows
               if int(row.split()[1].split(":")[1], 16) == port and row.split()[3] in ("01", "08"))


def start_http(database: Path | str) -> tuple[subprocess.Popen, int]:
    """Start `python -m scorekeeper.server.serve` (what `make run` runs) on a free port, on
    this SQLite file (or database URL); return the process and its port."""
    port = free_port()
    url = database if isinstance(database, str) else f"sqlite:///{database}"
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "test", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1",
         "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server stopped"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return process, port
        except OSError:
            time.sleep(0.2)
    process.kill()
    pytest.fail("the server did not start within 60 s")


def sit(client, game_id, seat, **more):
    """Take a seat of a game from this client, as a tap on a name does."""
    return client.post(f"/games/{game_id}/seat", data={"seat": str(seat), **more})


def send(client, game_id, number, seat, **fields):
    """Send a seat's part of hand `number` from this client, as a phone's script does."""
    return client.post(f"/games/{game_id}/hands/{number}/part",
                       data={"seat": str(seat), **{k: str(v) for k, v in fields.items()}},
                       headers={"X-Part": "1"})


def start_https(tmp_path: Path, folder: Path) -> tuple[subprocess.Popen, int, str]:
    """Start `python -m scorekeeper.server.serve --https` (what `make run HTTPS=1` runs) on a free
    port; return the process, the port and what it printed once it answers and says so."""
    port = free_port()
    if not (tmp_path / "https.sqlite").exists():
        disposed_app(tmp_path / "https.sqlite")  # the tables, as `make run` migrates them
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'https.sqlite'}",
           "SECRET_KEY": "test", "PYTHONUNBUFFERED": "1"}
    out = open(tmp_path / f"serve-{port}.log", "w+")
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.server.serve", "--https", "--host", "127.0.0.1",
         "--port", str(port), "--tls-folder", str(folder)],
        cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            out.seek(0)
            pytest.fail(f"the HTTPS server stopped: {out.read()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail("the HTTPS server did not start within 30 s")
    # Its banner may follow the port by a moment: what it printed is taken once it is whole.
    said = ""
    while time.monotonic() < deadline:
        out.seek(0)
        said = out.read()
        if "Press Ctrl+C to stop." in said:
            return process, port, said
        time.sleep(0.1)
    process.kill()
    pytest.fail(f"the HTTPS server did not say it was running within 30 s: {said}")


def disposed_app(path: Path) -> None:
    app = make_app(path)
    with app.app_context():
        db.engine.dispose()


def stop(process: subprocess.Popen) -> None:
    """Stop a server started as a process of its own, killing it if it will not stop."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def trusting(ca: Path) -> ssl.SSLContext:
    """A client that trusts nothing but the table's certificate authority."""
    return ssl.create_default_context(cafile=str(ca))  # given a file: that file only


P = ["Ann", "Ben", "Cy"]


class Phone:
    """A phone with its own session: a CSRF token from the hand form, and its cookies."""

    def __init__(self, connect):
        self.connect = connect
        self.cookies: dict[str, str] = {}

    def send(self, method: str, path: str, data: dict | None = None):
        connection = self.connect()
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if data is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urllib.parse.urlencode(data)
        connection.request(method, path, body, headers)
        response = connection.getresponse()
        text = response.read().decode()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        connection.close()
        return response.status, text

    def token(self, path: str) -> str:
        _, html = self.send("GET", path)
        return re.search(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"', html).group(1)

    def save(self, game_id: int, number: int) -> tuple[int, float]:
        """Record hand `number` with this phone's token; return (status, seconds taken)."""
        data = hand_data(P, "Ann", {"Ben": 2, "Cy": 1}, number=number)
        data["csrf_token"] = self.token(f"/games/{game_id}/hands/new")
        started = time.perf_counter()
        status, _ = self.send("POST", f"/games/{game_id}/hands/new", data)
        return status, time.perf_counter() - started

    def save_hands(self, game_id: int, numbers) -> list[float]:
        """Record hands one after another, each saved (302); return the seconds each took."""
        took = []
        for number in numbers:
            status, seconds = self.save(game_id, number)
            assert status == 302, status
            took.append(seconds)
        return took


# The example of docs/gamelog.md: a king and two other cards left cost Ann 10 + 2 = 12.
EXAMPLE = {
    "format": "kings-corners-game/1", "variant": "penalty", "rules": {"target": 50},
    "players": ["Ann", "Ben", "Cy"], "first_dealer": "Ann", "played_on": "2026-11-21",
    "ended": False,
    "rounds": [
        {"went_out": "Ben", "hands": {"Ann": {"cards": 3, "kings": 1}, "Cy": {"cards": 5}}},
        {"went_out": None, "hands": {"Ann": {"cards": 2}, "Ben": {"cards": 4},
                                     "Cy": {"cards": 2, "kings": 1}}},
    ],
}


def deal_data(corners, dragon, number=1, players=("Ann", "Ben")) -> dict:
    """Return the record-deal form data: corners and dragon as names or None for nobody."""
    seat = {None: "none", **{name: str(i) for i, name in enumerate(players)}}
    data = {"number": str(number), "token": f"deal-{number}-{corners}-{dragon}",
            "dragon": seat[dragon]}
    for index, who in enumerate(corners):
        data[f"corner-{index}"] = seat[who]
    return data


# What a phone may send: a hand (valid or not), a correction, a delete, end, reopen, a tap.
cards = st.integers(min_value=1, max_value=9)
kings = st.integers(min_value=0, max_value=2)
hand = st.fixed_dictionaries({"went_out": st.sampled_from(["0", "1", "2", "stalemate"]),
                              "cards": st.lists(st.tuples(cards, kings), min_size=3,
                                                max_size=3)})
deal = st.fixed_dictionaries({"corners": st.lists(st.sampled_from(["0", "1", "none"]),
                                                  min_size=4, max_size=4),
                              "dragon": st.sampled_from(["0", "1", "none"])})


def form(variant: str, drawn_hand: dict, drawn_deal: dict, number: int) -> dict:
    """Return the round form a phone would post for what was drawn."""
    if variant == "coronation":
        data = {f"corner-{i}": who for i, who in enumerate(drawn_deal["corners"])}
        data["dragon"] = drawn_deal["dragon"]
    else:
        data = {"went_out": drawn_hand["went_out"]}
        for seat, (count, king) in enumerate(drawn_hand["cards"]):
            if str(seat) != drawn_hand["went_out"]:  # the one who went out holds nothing
                data[f"cards-{seat}"], data[f"kings-{seat}"] = str(count), str(min(king, count))
    return {**data, "number": str(number), "token": ""}


def fill(app, nights: int, hands: int = 6, ended: bool = False) -> None:
    """Store `nights` weekly nights of two penalty games of `hands` hands each (ended by
    hand, if `ended`)."""
    with app.app_context():
        players = [player_for(name) for name in NAMES]
        added = []
        for n in range(nights):
            night = Night(started_at=datetime(2016, 1, 8, 19, 30) + timedelta(weeks=n))
            db.session.add(night)
            for g in range(2):
                rounds = tuple(rules.Round(went_out=NAMES[(n + g + h) % 4], hands={
                    name: rules.Hand(1 + (h + i) % 5, int(h % 7 == i))
                    for i, name in enumerate(NAMES) if name != NAMES[(n + g + h) % 4]})
                    for h in range(hands))
                core = rules.Game("penalty", NAMES, NAMES[g], PENALTY, rounds, ended)
                added.append(add_game(core, players, played_on=night.started_at.date(),
                                      night=night,
                                      created_at=night.started_at + timedelta(hours=g)))
        results.refresh(added)  # cached as play.changing would, not rated
        db.session.commit()


def two_nights():
    """Return six games over two nights, in the order played."""
    # Night 1, game 1, penalty to 25 (king 10, card 1):
    #   hand 1: Ben out; Ann 3 cards 1 king = 10 + 2 = 12; Cy 5 cards = 5
    #   hand 2: Ann out; Ben 4 cards 1 king = 10 + 3 = 13; Cy 6 cards 2 kings = 20 + 4 = 24
    #   totals Ann 12, Ben 13, Cy 29: Cy reached 25, the game is over, Ann (12) wins.
    g1 = Game("penalty", ("Ann", "Ben", "Cy"), "Ann", PENALTY_25, (
        Round("Ben", {"Ann": Hand(3, 1), "Cy": Hand(5)}),
        Round("Ann", {"Ben": Hand(4, 1), "Cy": Hand(6, 2)})))
    # Game 2: a stalemate, Ann 2 cards, Ben 2 cards 1 king: both fewest, both 0 points;
    #   ended by hand at 0-0, so Ann and Ben share the win.
    g2 = Game("penalty", ("Ann", "Ben"), "Ann", PENALTY_25, (
        Round(None, {"Ann": Hand(2), "Ben": Hand(2, 1)}),), ended=True)
    # Game 3, unfinished: Cy out, Ann 7 cards = 7 points.
    g3 = Game("penalty", ("Ann", "Cy"), "Ann", PENALTY_25, (Round("Cy", {"Ann": Hand(7)}),))
    # Night 2, game 4, chips house with 3 chips each:
    #   antes: Ann 2, Ben 2, pot 2; Ben passes: Ben 1, pot 3;
    #   Ann out; Ben holds 2 cards 1 king, owes 2, pays his last 1: pot 4, Ben 0 and out.
    #   Ann takes 4: Ann 6. Only Ann holds chips: over, Ann wins.
    #   Ann won 4, paid 1; Ben won 0, paid 3.
    g4 = Game("chips", ("Ann", "Ben"), "Ann", HOUSE, (
        Round("Ann", {"Ben": Hand(2, 1)}, (Event("Ben", "pass"),)),))
    # Game 5, chips jax: 80 chips split 26 each; antes 1 each, pot 3;
    #   Cy caught holding a king pays 3 (pot 6), Ben missed a draw pays 1 (pot 7);
    #   Ben out; Ann 3 cards 1 king pays 2 + 1 = 3 (pot 10); Cy 4 cards pays 4 (pot 14).
    #   Ben wins the pot: scores Ben 14, Ann 0, Cy 0; ended by hand, Ben wins.
    #   Ann paid 1 + 3 = 4; Ben paid 1 + 1 = 2, won 14; Cy paid 1 + 3 + 4 = 8.
    g5 = Game("chips", ("Ann", "Ben", "Cy"), "Ann", JAX, (
        Round("Ben", {"Ann": Hand(3, 1), "Cy": Hand(4)},
              (Event("Cy", "king_held"), Event("Ben", "missed_draw"))),), ended=True)
    # Game 6, coronation, first to 2 deals:
    #   deal 1: corners Ann, Ann, Ben, none; dragon Ann: Ann 3, Ben 1, Ann's deal
    #   deal 2: every corner Ben, dragon Ben: Ben 5-0, Ben's deal
    #   deal 3: corners Ann, Ann, Ann, Ben; dragon Ann: Ann 4, Ben 1; Ann has 2 deals and wins.
    #   Ann crowned 2 + 0 + 3 = 5 corners, slew 2 dragons; Ben crowned 1 + 4 + 1 = 6, slew 1.
    g6 = Game("coronation", ("Ann", "Ben"), "Ann", CORONATION, (
        Round(corners=("Ann", "Ann", "Ben", None), dragon="Ann"),
        Round(corners=("Ben", "Ben", "Ben", "Ben"), dragon="Ben"),
        Round(corners=("Ann", "Ann", "Ann", "Ben"), dragon="Ann")))
    return [played(g1, FRI, 1, "Friday"), played(g2, FRI, 1, "Friday"),
            played(g3, FRI, 1, "Friday"), played(g4, SAT, 2, "Saturday"),
            played(g5, SAT, 2, "Saturday"), played(g6, SAT, 2, "Saturday")]


# Finished games in a chosen order on a chosen day (ratings, seasons).
DAY = date(2025, 3, 7)


def stalemate(order: list[list[str]]) -> rules.Round:
    """Return a penalty hand (a stalemate) that puts the players in this finishing order: the
    first group holds 1 card each (0 points), the next 2 cards, and so on; a group ties."""
    return rules.Round(None, {name: rules.Hand(1 + rank) for rank, group in enumerate(order)
                              for name in group})


def add(order: list[list[str]], on: date = DAY, ended: bool = True, at: int = 0,
        seats: list[str] | None = None) -> int:
    """Store a penalty game (to 1000) played on a day in this finishing order (seated in
    that order too, unless told), finished by hand (or not yet); not committed, and not
    rated: `play` rates what it changes."""
    names = tuple(seats or [name for group in order for name in group])
    core = rules.Game("penalty", names, names[0], PENALTY, (stalemate(order),), ended)
    game_id = add_game(core, [player_for(name) for name in names], played_on=on, night=None,
                       created_at=datetime.combine(on, datetime.min.time()) + timedelta(
                           hours=20, minutes=at))
    results.refresh([game_id])  # cached as play.changing would
    return game_id


def finished(order: list[list[str]], on: date = DAY, at: int = 0) -> int:
    """Add a game in this finishing order and end it through `play`, as the end button does;
    return its id."""
    game_id = add(order, on, ended=False, at=at)
    db.session.commit()
    play.set_ended(game_id, True)
    return game_id


def import_log(app, variant: str, players, rounds, played_on: str, ended: bool = False,
               **settings) -> int:
    """Add a game from its game log, as *Import a game log* does, played on `played_on`
    (YYYY-MM-DD: a night of that day); return its id."""
    from scorekeeper.reports import gamelog

    doc = {"format": "kings-corners-game/1", "variant": variant, "rules": settings,
           "players": list(players), "played_on": played_on, "ended": ended,
           "rounds": list(rounds)}
    with app.test_request_context():
        return play.import_game(gamelog.parse(doc))


class DrawnTable:
    """A table driven through the app by steps hypothesis draws (the cache's and the
    ratings' property tests): games started, hands played or corrected, games ended,
    reopened, deleted, players merged."""

    def __init__(self, client, settings: dict[str, dict]):
        self.client, self.settings = client, settings  # each variant's settings
        self.games: list[tuple[int, str, list[str]]] = []  # (id, variant, players) not deleted
        self.played: dict[int, int] = {}

    def pick(self, index: int):
        """Return one of the games still there, by a drawn index (None when none is)."""
        return self.games[index % len(self.games)] if self.games else None

    def start(self, variant: str, names: list[str]) -> None:
        """Start a game of these players (two for coronation), unless two names clash."""
        names = names[:2] if variant == "coronation" else names
        if len({n.casefold() for n in names}) == len(names):
            game_id = start_game(self.client, names, variant=variant,
                                 **self.settings.get(variant, {}))
            self.games.append((game_id, variant, names))
            self.played[game_id] = 0

    def hand(self, pick, drawn_hand: dict, drawn_deal: dict, edit: bool = False):
        """Record the next hand of a game, or correct its last one; return the answer."""
        game_id, variant, names = pick
        number = max(self.played[game_id], 1) if edit else self.played[game_id] + 1
        data = form(variant, drawn_hand, drawn_deal, number)
        if variant != "coronation" and len(names) == 2:
            data = {k: v for k, v in data.items() if not k.endswith("-2")}
            data["went_out"] = "0" if data["went_out"] == "2" else data["went_out"]
        answer = self.client.post(
            f"/games/{game_id}/hands/{f'{number}/edit' if edit else 'new'}", data=data)
        self.played[game_id] += not edit and answer.status_code == 302
        return answer

    def merge(self, kept: int, other: int):
        return self.client.post(f"/players/{kept}/merge",
                                data={"other": str(other), "confirmed": "1"})

    def delete(self, pick) -> None:
        self.client.post(f"/games/{pick[0]}/delete")
        self.games.remove(pick)


def play_out(game_id: int, order=None) -> list[str]:
    """Finish a game in one hand, inside an app context: the first of `order` (its players
    in finishing order; seat order if None) goes out, the others hold 1, 2, 3... cards,
    and the game is ended by hand. Return the finishing order."""
    from scorekeeper import play
    from scorekeeper.db import read_game

    players = list(read_game(game_id).players)
    order = list(order or players)
    held = {name: place for place, name in enumerate(order) if place}
    play.record(game_id, 1, hand_data(players, order[0], held), None)
    play.set_ended(game_id, True)
    return order


ELEVEN = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit"]  # a crowd


def together(*calls) -> list:
    """Run the calls in threads released at once by a barrier; return what each returned."""
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def run(index: int, call) -> None:
        barrier.wait()
        answers[index] = call()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers
