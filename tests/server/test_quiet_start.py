"""`make run` says what it does in a line each: the database upgrade is one line, not alembic's."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from alembic.script import ScriptDirectory

from tests.helpers import PACKAGE, free_port

SCRIPTS = ScriptDirectory(str(PACKAGE / "db" / "migrations"))
HEAD = SCRIPTS.get_current_head()
BEFORE_HEAD = SCRIPTS.get_revision(HEAD).down_revision


def flask_db(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Run `kings-corners db ARGS` (`make run` upgrades the same way first) on a database of
    the test's own, from a folder of its own."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'quiet.sqlite'}",
           "SECRET_KEY": "quiet-test", "INSTANCE_PATH": str(tmp_path / "instance")}
    return subprocess.run([str(Path(sys.executable).parent / "kings-corners"), "db", *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_an_upgrade_says_in_one_line_what_it_did_and_nothing_else(tmp_path):
    created = flask_db(tmp_path, "upgrade")
    assert created.returncode == 0, created.stderr
    assert (created.stdout, created.stderr) == (f"Database: created (revision {HEAD})\n", "")
    again = flask_db(tmp_path, "upgrade")
    assert (again.stdout, again.stderr) == (f"Database: up to date (revision {HEAD})\n", "")


def test_an_upgrade_that_applies_a_migration_names_where_it_went_from(tmp_path):
    assert flask_db(tmp_path, "upgrade").returncode == 0
    back = flask_db(tmp_path, "downgrade", BEFORE_HEAD)
    assert back.stdout == f"Database: downgraded from {HEAD} to {BEFORE_HEAD}\n"
    forward = flask_db(tmp_path, "upgrade")
    assert (forward.stdout, forward.stderr) == (
        f"Database: upgraded from {BEFORE_HEAD} to {HEAD}\n", "")


def test_an_upgrade_that_fails_still_says_why(tmp_path):
    failed = flask_db(tmp_path, "upgrade", "9999")
    assert failed.returncode != 0
    assert "Can't locate revision" in failed.stderr and "9999" in failed.stderr
    assert "Database:" not in failed.stdout


def test_asking_where_the_database_stands_reports_no_upgrade(tmp_path):
    assert flask_db(tmp_path, "upgrade").returncode == 0
    current = flask_db(tmp_path, "current")
    assert current.stdout.strip() == f"{HEAD} (head)" and "INFO" not in current.stderr


def test_the_servers_own_warnings_show_with_their_time_after_the_start_upgrades(tmp_path):
    """`kings-corners serve` upgrades the database, then serves. Setting up alembic's logging
    must not silence the loggers made before it: waitress's says when phones' requests queue
    up, or a socket fails, and a table whose server struggles would never hear of it. Each
    line says when it happened, for whoever looks back at the server's window."""
    warn = ("import logging, sys; import scorekeeper.server.serve as serve\n"
            "serve.run = lambda app, *args, **kwargs: "
            "logging.getLogger('waitress.queue').warning('Task queue depth is 9')\n"
            f"sys.argv = ['kings-corners', 'serve', '--port', '{free_port()}']; serve.main()")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'quiet.sqlite'}",
           "SECRET_KEY": "quiet-test", "INSTANCE_PATH": str(tmp_path / "instance")}
    served = subprocess.run([sys.executable, "-c", warn], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert served.returncode == 0, served.stderr
    assert served.stdout == f"Database: created (revision {HEAD})\n"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d WARNING \[waitress\.queue\] "
                        r"Task queue depth is 9\n", served.stderr), served.stderr
