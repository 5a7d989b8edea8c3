"""A club's server: two server processes (`python -m scorekeeper.server.serve`, each a
waitress of its own) on one PostgreSQL database, and every promise holds across them: a hand
recorded once, the live board, the passcode's guess limit, the seats. And `kings-corners
serve --workers`, refused on SQLite, serving from several processes on PostgreSQL."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from scorekeeper.db import phone_parts
from scorekeeper.db.models import Night, Player, Round
from scorekeeper.extensions import db
from scorekeeper.web import own_phones
from tests.helpers import (
    PG_URL,
    ROOT,
    Phone,
    free_port,
    hand_data,
    start_game,
    start_http,
    stop,
    together,
)

P = ["Ann", "Ben", "Cy"]
TRIALS = 20
KINGS_CORNERS = [sys.executable, "-c", "from scorekeeper.server.serve import main; main()"]


@pytest.fixture
def two(pg_app):
    """Two server processes on one PostgreSQL database; yield the app (for setting up and
    reading back) and the two ports."""
    first, second = start_http(PG_URL), start_http(PG_URL)
    try:
        yield pg_app, first[1], second[1]
    finally:
        stop(first[0])
        stop(second[0])


def phone(port: int, address: str = "127.0.0.1") -> Phone:
    """Return a phone of its own (cookies, CSRF token) talking to the process on `port`."""
    return Phone(lambda: http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                                    source_address=(address, 0)))


def test_two_phones_saving_one_hand_through_two_processes_record_it_once(two):
    app, first, second = two
    client = app.test_client()
    for trial in range(TRIALS):
        game_id = start_game(client, P)
        ann, ben = phone(first), phone(second)
        forms = []
        for one, went_out in ((ann, "Ann"), (ben, "Ben")):
            data = hand_data(P, went_out, {name: 2 for name in P if name != went_out})
            data["csrf_token"] = one.token(f"/games/{game_id}/hands/new")
            forms.append((one, data))
        path = f"/games/{game_id}/hands/new"
        answers = together(*[lambda one=one, data=data, path=path: one.send("POST", path, data)
                             for one, data in forms])
        statuses = sorted(status for status, _ in answers)
        assert statuses == [302, 422], (trial, statuses)
        refused = next(page for status, page in answers if status == 422)
        assert "Hand 1 was recorded on another phone" in refused
        with app.app_context():
            assert db.session.scalar(select(func.count()).select_from(Round)
                                     .where(Round.game_id == game_id)) == 1
            db.session.remove()


def test_a_board_polling_one_process_sees_a_save_made_through_the_other(two):
    app, first, second = two
    game_id = start_game(app.test_client(), P)
    scorer, board = phone(first), phone(second)
    for number in range(1, 6):
        status, said = board.send("GET", f"/games/{game_id}/version")
        seen = re.search(r'"version":\s*(\d+)', said).group(1)
        assert board.send("GET", f"/games/{game_id}/version?since={seen}")[0] == 204
        saved_at = time.monotonic()
        assert scorer.save(game_id, number)[0] == 302
        while board.send("GET", f"/games/{game_id}/version?since={seen}")[0] == 204:
            assert time.monotonic() - saved_at < 1, f"hand {number} not seen within 1 s"
            time.sleep(0.05)  # a phone asks twice a second; this board asks more often


def test_the_passcode_guess_limit_is_counted_across_both_processes(two):
    app, first, second = two
    scorer = phone(first)
    csrf = scorer.token("/settings")
    assert scorer.send("POST", "/settings/passcode",
                       {"passcode": "open sesame", "csrf_token": csrf})[0] == 302
    statuses = []
    for n in range(8):  # one phone's wrong guesses, sent to each process in turn
        guesser = phone(first if n % 2 else second, "127.0.0.7")
        token = guesser.token("/unlock")
        statuses.append(guesser.send("POST", "/unlock", {
            "unlock_passcode": f"guess {n}", "unlock_next": "/", "csrf_token": token})[0])
    assert statuses == [401] * 5 + [429] * 3, statuses
    # Sent together from many addresses to both: the table's ceiling of 30 holds for both.
    guessers = []
    for n in range(16):
        one = phone(first if n % 2 else second, f"127.0.1.{n + 1}")
        guessers.append((one, one.token("/unlock")))
    answers = together(*[lambda one=one, token=token: [one.send("POST", "/unlock", {
        "unlock_passcode": "wrong", "unlock_next": "/", "csrf_token": token})[0]
        for _ in range(3)] for one, token in guessers])
    checked = sum(row.count(401) for row in answers)
    assert checked == 30 - 5 and {s for row in answers for s in row} == {401, 429}


def test_a_seat_taken_through_one_process_is_refused_through_the_other(two):
    app, first, second = two
    client = app.test_client()
    for trial in range(TRIALS):
        game_id = start_game(client, P)
        with app.test_request_context():
            code = own_phones.join_code(game_id)
        ann, stranger = phone(first), phone(second)
        tokens = []
        for one in (ann, stranger):
            assert one.send("GET", f"/games/{game_id}/join/{code}")[0] == 302
            tokens.append(one.token(f"/games/{game_id}/seat"))
        path = f"/games/{game_id}/seat"
        answers = together(*[lambda one=one, token=token, path=path: one.send(
            "POST", path, {"seat": "0", "csrf_token": token})
            for one, token in zip((ann, stranger), tokens)])
        assert sorted(status for status, _ in answers) == [200, 302], (trial, answers)
        asked = next(page for status, page in answers if status == 200)
        assert "Ann" in asked and re.search(r'name="take"', asked), trial
        with app.app_context():
            assert list(phone_parts.holders(game_id)) == [0]
            db.session.remove()


def test_several_workers_are_refused_on_sqlite_in_one_line(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'one.sqlite'}",
           "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "test"}
    done = subprocess.run([*KINGS_CORNERS, "serve", "--workers", "2", "--port",
                           str(free_port())],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "Error: Several server processes need PostgreSQL (DATABASE_URL=postgresql+psycopg://"
        "...): SQLite is served by one process. Leave --workers out, or set DATABASE_URL "
        "(docs/server.md)."]


def test_serve_with_two_workers_answers_from_two_processes_and_stops_them_all(pg_app):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": PG_URL, "SECRET_KEY": "test",
           "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([*KINGS_CORNERS, "serve", "--workers", "2", "--host",
                               "127.0.0.1", "--port", str(port)],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None and time.monotonic() < deadline
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        assert len(children) == 2
        game_id = start_game(pg_app.test_client(), P)
        for _ in range(20):  # each connection is taken by whichever process is free
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/{game_id}") as page:
                assert page.status == 200
    finally:
        server.terminate()
        said, _ = server.communicate(timeout=60)
    assert server.returncode == 0, said
    assert "running in 2 processes" in said
    assert not any(Path(f"/proc/{child}").exists() for child in children)


def test_several_workers_are_refused_over_https_in_one_line(tmp_path):
    env = {**os.environ, "DATABASE_URL": PG_URL or "postgresql+psycopg://nobody@127.0.0.1/none",
           "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "test"}
    done = subprocess.run([*KINGS_CORNERS, "serve", "--workers", "2", "--https", "--port",
                           str(free_port())],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "Error: Several server processes serve plain HTTP only: leave --https or --workers "
        "out (docs/server.md)."]
    assert not (tmp_path / "tls").exists()


def test_two_tables_starting_at_once_share_one_night_and_one_roster(two):
    """The first games of a crowd night, started together through both processes with a
    player new to the roster at each: one night holds both, and each name is one player."""
    app, first, second = two
    for trial in range(TRIALS):
        with app.app_context():
            for table in ("seat", "game", "night", "player"):
                db.session.execute(text(f"TRUNCATE {table} RESTART IDENTITY CASCADE"))
            db.session.commit()
        forms = []
        for port, names in ((first, ("Zed", "Yan")), (second, ("Zed", "Xu"))):
            one = phone(port)
            data = {"variant": "penalty", "dealer": "0", "seat-0": names[0],
                    "seat-1": names[1], "csrf_token": one.token("/games/new")}
            forms.append((one, data))
        answers = together(*[lambda one=one, data=data: one.send("POST", "/games/new", data)
                             for one, data in forms])
        assert [status for status, _ in answers] == [302, 302], (trial, answers)
        with app.app_context():
            assert db.session.scalar(select(func.count()).select_from(Night)) == 1, trial
            assert db.session.scalar(select(func.count()).select_from(Player)) == 3, trial
            db.session.remove()
