"""Faults of the machine at the start: `make run` and `flask db upgrade` on a read-only
instance folder or database, or a full disk, say so in one line and exit 1.

The disks are small tmpfs mounts of the test's own (root only: skipped elsewhere, failed
under CI=true), unmounted whatever happens.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

from scorekeeper.extensions import db
from tests.conftest import make_app, need, start_game

ROOT = Path(__file__).resolve().parents[1]
P = ["Ann", "Ben", "Cy"]


# ---- Helpers: a disk of our own --------------------------------------------------------------

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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def a_game(database: Path) -> None:
    """Create the tables and start a game of P on a SQLite file, its connections closed."""
    app = make_app(database)
    start_game(app.test_client(), P)
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
              '"$2" -m scorekeeper.serve --port "$4" >"$5" 2>&1; echo $? >"$5.rc"\n')
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
