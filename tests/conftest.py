"""Fixtures: an app on a fresh temporary database, its client and CLI runner."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import settings

from scorekeeper import create_app
from scorekeeper.extensions import db

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# No property test has a time limit: what it checks is the rules, and a busy machine (CI, or
# a second suite running) once failed one for taking over hypothesis' default 200 ms.
settings.register_profile("steady", deadline=None)
settings.load_profile("steady")


def need(condition: bool, what: str) -> None:
    """Skip when something the test needs is missing here; in CI, fail instead."""
    if not condition:
        if IN_CI:
            pytest.fail(f"CI=true and {what} is missing")
        pytest.skip(f"{what} is missing")


def make_app(path, csrf: bool = False):
    """Return an app on an empty SQLite file at `path`, CSRF protection on or off."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": csrf,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        db.create_all()
    return app


def serve(app, threads: int = 4):
    """Serve an app with waitress on a free loopback port; return (server, base URL)."""
    import socket
    import threading

    from waitress.server import create_server

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    from scorekeeper.serve import WAITRESS

    server = create_server(app, host="127.0.0.1", port=port, **{**WAITRESS, "threads": threads})
    threading.Thread(target=server.run, daemon=True).start()
    return server, f"http://127.0.0.1:{port}"


def disposed(app):
    """Yield the app, then close its database connections (for a fixture)."""
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def app(tmp_path):
    """Return an app on an empty SQLite file of its own, CSRF off."""
    yield from disposed(make_app(tmp_path / "test.sqlite"))


@pytest.fixture
def guarded_app(tmp_path):
    """Return an app with CSRF protection on, as in production."""
    yield from disposed(make_app(tmp_path / "csrf.sqlite", csrf=True))


@pytest.fixture
def guarded(guarded_app):
    """Return a client of the app with CSRF protection on."""
    return guarded_app.test_client()


def csrf_token(html: str) -> str:
    """Return the CSRF token of a page's form."""
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


@pytest.fixture
def client(app):
    """Return a test client."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """Return a CLI runner."""
    return app.test_cli_runner()


def form_token(html: str) -> str:
    """Return the once-only token of a record-hand page."""
    return re.search(r'name="token" type="hidden" value="([^"]+)"', html).group(1)


def alerts(html: str) -> list[str]:
    """Return the error messages a page shows."""
    return re.findall(r'role="alert">([^<]+)<', html)


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
    from scorekeeper.storage import create_game

    return create_game(core.variant, dict(core.settings), list(core.players),
                       core.players.index(core.first_dealer), played_on, rounds=core.rounds,
                       ended=core.ended)


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
