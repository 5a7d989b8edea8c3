"""`flask --app app games import FILE` prints the new id; `games export ID` prints the log."""

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from alembic.script import ScriptDirectory

from scorekeeper import create_app
from scorekeeper.db.models import Game
from scorekeeper.extensions import db
from tests.helpers import EXAMPLE, PACKAGE, hand_data, start_game

ROOT = Path(__file__).resolve().parents[1]


def test_import_prints_the_new_games_id_and_export_prints_its_log(runner, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    imported = runner.invoke(args=["games", "import", str(path)])
    assert imported.exit_code == 0, imported.output
    assert imported.output == "1\n"
    exported = runner.invoke(args=["games", "export", "1"])
    assert exported.exit_code == 0
    log = json.loads(exported.output)
    assert log["players"] == ["Ann", "Ben", "Cy"]
    assert log["result"]["totals"] == {"Ann": 12, "Ben": 4, "Cy": 5}


def test_the_command_line_export_is_the_web_export(client, runner):
    start_game(client, ["Ann", "Zoë", "🂡 Ace"])
    client.post("/games/1/hands/new",
                data=hand_data(["Ann", "Zoë", "🂡 Ace"], "Zoë", {"Ann": (12, 1), "🂡 Ace": 2}))
    exported = runner.invoke(args=["games", "export", "1"])
    assert json.loads(exported.output) == client.get("/games/1/export.json").get_json()
    assert "Zoë" in exported.output  # readable, not \u escapes


def test_import_reads_standard_input_given_a_dash(runner):
    imported = runner.invoke(args=["games", "import", "-"], input=json.dumps(EXAMPLE))
    assert imported.exit_code == 0 and imported.output.strip() == "1"


def test_a_refused_import_says_where_on_stderr_and_writes_nothing(runner, app, tmp_path):
    bad = {**EXAMPLE, "rounds": [EXAMPLE["rounds"][0],
                                 {"went_out": "Ann", "hands": {"Ben": {"cards": 1, "kings": 2},
                                                               "Cy": {"cards": 1}}}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    refused = runner.invoke(args=["games", "import", str(path)])
    assert refused.exit_code == 1
    assert refused.stdout == ""
    assert "refused, nothing imported: round 2, hands.Ben.kings:" in refused.stderr
    with app.app_context():
        assert db.session.query(Game).count() == 0


def test_exporting_a_game_that_does_not_exist_fails(runner):
    missing = runner.invoke(args=["games", "export", "7"])
    assert missing.exit_code == 1 and "no game 7" in missing.stderr


def test_the_real_flask_command_imports_and_exports_on_an_upgraded_database(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite'}",
           "SECRET_KEY": "cli-test"}
    flask = [sys.executable, "-m", "flask", "--app", "app"]

    def run(*args):
        return subprocess.run(flask + list(args), cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=120)

    assert run("db", "upgrade").returncode == 0
    path = tmp_path / "game.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    imported = run("games", "import", str(path))
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == "1"
    exported = run("games", "export", imported.stdout.strip())
    assert exported.returncode == 0
    assert json.loads(exported.stdout)["rounds"][0]["hands"]["Ann"] == {"cards": 3, "kings": 1}


def commands(database):
    """Return a runner of the app's commands (as `kings-corners …` runs them, in this
    process) on `database`, a file not made yet, as on a fresh install."""
    app = create_app({"TESTING": True, "SECRET_KEY": "cli-test",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    runner = app.test_cli_runner()
    yield lambda *args: runner.invoke(args=list(args))
    with app.app_context():
        db.engine.dispose()


def test_a_backup_restores_on_a_fresh_install_before_the_database_exists(tmp_path):
    """On a new machine the database is made first (as `serve` makes it), not a traceback
    saying "no such table: player"; it is then the same as one made by an upgrade."""
    run = next(commands(tmp_path / "new.sqlite"))
    old = ROOT / "tests" / "reports" / "fixtures" / "backup-first-version.json"
    restored = run("restore", str(old))
    assert restored.exit_code == 0, restored.output
    assert restored.stderr.startswith("Database: created")
    assert restored.stdout == "restored 4 players, 1 night and 3 games\n"
    checked = run("results", "check")
    assert checked.exit_code == 0, checked.output
    assert checked.stderr == ""  # already the newest revision: nothing said of it
    with contextlib.closing(sqlite3.connect(tmp_path / "new.sqlite")) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (ScriptDirectory(str(PACKAGE / "db" / "migrations")).get_current_head(),)]


def test_a_command_that_writes_makes_or_upgrades_the_database_and_one_that_reads_does_not(
        tmp_path):
    """On a fresh install a command that writes makes the database first, as `serve` does,
    and says so on stderr; one that only reads changes nothing and says in one line why it
    did nothing (a mistyped folder is not backed up as an empty database), and reads a
    database a newer version left as far as it knows it."""
    database = tmp_path / "cli.sqlite"
    run = next(commands(database))
    nothing = run("backup", "-")
    assert (nothing.exit_code, nothing.stdout) == (1, "")
    assert nothing.stderr == (f"no database at sqlite:///{database} yet: start the app once "
                              "(kings-corners serve), or restore a backup into it\n")
    cleared = run("passcode", "clear")
    assert cleared.exit_code == 0, cleared.output
    assert cleared.stderr.startswith("Database: created (revision ")
    assert cleared.stdout == "there was no passcode\n"
    assert run("db", "downgrade", "0016").exit_code == 0  # as the version before left it
    older = run("results", "check")
    assert (older.exit_code, older.stdout) == (1, "")
    assert "is at revision 0016, older than this version reads" in older.stderr
    assert run("db", "upgrade").exit_code == 0
    with contextlib.closing(sqlite3.connect(database)) as connection:  # as a newer version
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
        connection.commit()
    backed_up = run("backup", "-")
    assert backed_up.exit_code == 0, backed_up.output
    assert json.loads(backed_up.stdout) == {"format": "kings-corners-backup/1", "roster": [],
                                            "nights": [], "games_without_night": []}
