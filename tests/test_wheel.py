"""The app runs without its checkout: a wheel built from it, installed into a fresh virtual
environment, serves every page in English and Spanish from a folder of its own, with its
data in the folder it names (`kings-corners serve`)."""

from __future__ import annotations

import http.cookiejar
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.helpers import ROOT, free_port

PAGES = ["/", "/games/new", "/history/", "/players", "/settings", "/backup", "/import",
         "/join", "/trust", "/offline", "/watch", "/manifest.webmanifest", "/sw.js",
         "/static/app.css"]
# Words of each language that the other does not say: on home, and on a penalty game's board.
SAYS = {"en": ("New game", "Penalty points"), "es": ("Nueva partida", "Puntos de castigo")}


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """Build a wheel from a copy of the sources (no compiled catalogue, as in a fresh clone),
    install it into a new virtual environment, and return that environment's folder."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for folder in ("scorekeeper", "templates", "static"):
        shutil.copytree(ROOT / folder, source / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(work / "dist"), str(source)],
        capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    wheel = next((work / "dist").glob("*.whl"))
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True).stdout.strip())
    # The app's dependencies are the test environment's (no network needed); its own
    # folder is added as a plain path, so the checkout its .pth files name is not.
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    installing = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", str(wheel)], capture_output=True, text=True, timeout=300)
    assert installing.returncode == 0, installing.stderr
    return venv


def test_the_wheel_holds_the_pages_the_catalogue_and_the_migrations(installed):
    found = subprocess.run(
        [installed / "bin" / "python", "-c",
         "import scorekeeper, pathlib; print(pathlib.Path(scorekeeper.__file__).parent)"],
        cwd=installed, capture_output=True, text=True, check=True).stdout.strip()
    package = Path(found)
    assert package.is_relative_to(installed), f"imported from {package}, not the wheel"
    for part in ("templates/base.html", "static/app.js",
                 "web/translations/es/LC_MESSAGES/messages.po", "db/migrations/env.py",
                 "db/migrations/alembic.ini"):
        assert (package / part).is_file(), part
    assert len(list((package / "db/migrations/versions").glob("*.py"))) >= 6


def test_kings_corners_serve_runs_every_page_in_both_languages_from_any_folder(installed,
                                                                               tmp_path):
    port = free_port()
    data = tmp_path / "our table"
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "SECRET_KEY", "PYTHONPATH", "FLASK_APP")}
    env.update(INSTANCE_PATH=str(data), PYTHONUNBUFFERED="1")
    log = open(tmp_path / "serve.log", "w+")
    server = subprocess.Popen([installed / "bin" / "kings-corners", "serve", "--host",
                               "127.0.0.1", "--port", str(port)],
                              cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2)
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, (
                    log.seek(0), log.read())[1]
                time.sleep(0.2)
        log.seek(0)
        said = log.read()
        assert "Database: created" in said and str(data) in said
        assert (data / "scorekeeper.sqlite").exists() and (data / "secret_key").exists()

        for language, (word, variant) in SAYS.items():
            jar = http.cookiejar.CookieJar()
            phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
            phone.addheaders = [("Accept-Language", language)]
            for path in PAGES:
                with phone.open(base + path, timeout=10) as answer:
                    assert answer.status == 200, path
            home = phone.open(base + "/", timeout=10).read().decode()
            assert f'lang="{language}"' in home and word in home
            # A game started and a hand recorded, as a phone would.
            form = phone.open(base + "/games/new", timeout=10).read().decode()
            token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form)[1]
            fields = {"csrf_token": token, "variant": "penalty", "dealer": "0",
                      "seat-0": "Ann", "seat-1": "Ben"}
            started = phone.open(base + "/games/new", timeout=10,
                                 data=urllib.parse.urlencode(fields).encode())
            board = started.read().decode()
            assert re.search(r"/games/\d+$", started.url), started.url
            assert f'lang="{language}"' in board and variant in board
            game = started.url.rsplit("/", 1)[1]
            for path in (f"/games/{game}/hands/new", f"/history/games/{game}",
                         f"/history/games/{game}/export.csv", f"/games/{game}/export.json",
                         "/players/1", "/players/1/more", "/history/nights/1"):
                with phone.open(base + path, timeout=10) as answer:
                    assert answer.status == 200, path
    finally:
        server.terminate()
        server.wait(timeout=30)
