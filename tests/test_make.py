"""The make targets a user is told about, run as a user runs them. `make test` and `make
install` are what CI runs (.ci/run); these are the others: `make run`, `make lighthouse` as far
as Lighthouse itself (an npm devDependency the suite does not install), and `make clean`."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.helpers import ROOT, free_port, need

BIN = str(Path(sys.executable).parent)


def make(*args: str, cwd: Path = ROOT, **kwargs) -> subprocess.Popen:
    """Start `make ARGS` with this environment's tools; the app's packages counted as
    installed already (the suite runs inside them), so nothing is installed."""
    need(shutil.which("make") is not None, "make (apt-get install make)")
    return subprocess.Popen(["make", "--no-print-directory", f"BIN={BIN}",
                             "-o", ".venv/.installed", *args],
                            cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kwargs)


def answer(url: str, process: subprocess.Popen, seconds: float = 60) -> int:
    """Return the status of `url` once the server answers (failing if it stops first)."""
    deadline = time.monotonic() + seconds
    while True:
        assert process.poll() is None, process.communicate()
        try:
            with urllib.request.urlopen(url, timeout=5) as page:
                return page.status
        except (urllib.error.URLError, ConnectionError):
            assert time.monotonic() < deadline, f"{url} never answered"
            time.sleep(0.1)  # polled until it answers, with the deadline above


def test_make_run_serves_the_app_on_the_port_asked_for(tmp_path):
    port = free_port()
    env = {**os.environ, "INSTANCE_PATH": str(tmp_path / "instance"), "SECRET_KEY": "test"}
    env.pop("DATABASE_URL", None)
    started = make("run", f"PORT={port}", env=env)
    try:
        assert answer(f"http://127.0.0.1:{port}/", started) == 200
        assert (tmp_path / "instance").is_dir()  # its data where it was told
    finally:
        os.killpg(started.pid, signal.SIGINT)  # Ctrl+C, as at the terminal
        out, err = started.communicate(timeout=30)
    assert f"On this machine:  http://127.0.0.1:{port}" in out  # what it says to open


def test_make_lighthouse_seeds_a_table_and_serves_every_page_it_audits():
    """The script behind `make lighthouse` up to its first audit: the games seeded, the
    server up, each page it audits answering."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "lighthouse.py"), "--pages"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    pages = [re.sub(r"^200 http://127\.0\.0\.1:\d+", "", line)
             for line in done.stdout.splitlines()]
    assert [re.sub(r"/\d+", "/N", page) for page in pages] == [
        "/", "/games/N", "/games/N/hands/new", "/history/", "/players"], done.stdout


def test_make_clean_removes_what_was_made_and_keeps_the_data(tmp_path):
    need(shutil.which("make") is not None, "make (apt-get install make)")
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    made = [".venv/bin", ".pytest_cache", ".hypothesis", ".ruff_cache"]
    for folder in [*made, "instance"]:
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "instance" / "kings-corners.sqlite").write_text("the table's games")
    cleaned = subprocess.run(["make", "--no-print-directory", "clean"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=60)
    assert cleaned.returncode == 0, cleaned.stderr
    assert [f for f in made if (tmp_path / f).exists()] == []
    assert (tmp_path / "instance" / "kings-corners.sqlite").read_text() == "the table's games"
