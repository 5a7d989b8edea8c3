"""Fixtures: an app on a fresh temporary database, its client and CLI runner, and the same on
PostgreSQL. Every test under tests/browser/ is marked `browser`, and every test on PostgreSQL
(`pg_app`, or a parameter "postgres") `postgres`: `-m 'not browser and not postgres'` is the
fast suite."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

from scorekeeper.extensions import db
from tests.helpers import disposed, emptied_app, fresh

# No property test has a time limit: what it checks is the rules, and a busy machine (CI, or
# a second suite running) once failed one for taking over hypothesis' default 200 ms.
settings.register_profile("steady", deadline=None)
settings.load_profile("steady")

BROWSER = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(items) -> None:
    """Mark the browser tests and the PostgreSQL ones (a mark in a conftest.py's `pytestmark`
    applies to nothing: only a test module's does)."""
    for item in items:
        if item.path.is_relative_to(BROWSER):
            item.add_marker(pytest.mark.browser)
        params = getattr(getattr(item, "callspec", None), "params", {}).values()
        if "pg_app" in getattr(item, "fixturenames", ()) or "postgres" in params:
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(scope="session")
def kept_apps(tmp_path_factory) -> dict:
    """The folder of the apps `app` and `guarded_app` hand out, a new one a test (`fresh`)."""
    return {"folder": tmp_path_factory.mktemp("apps")}


def gone(app):
    """Yield the app, then close its connections and remove its database file."""
    yield from disposed(app)
    path = Path(app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))
    for left in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        left.unlink(missing_ok=True)


@pytest.fixture
def app(kept_apps):
    """Return an app on an empty SQLite file, CSRF off."""
    yield from gone(fresh(kept_apps, csrf=False))


@pytest.fixture
def guarded_app(kept_apps):
    """Return an app with CSRF protection on, as in production."""
    yield from gone(fresh(kept_apps, csrf=True))


@pytest.fixture
def guarded(guarded_app):
    """Return a client of the app with CSRF protection on."""
    return guarded_app.test_client()


@pytest.fixture
def client(app):
    """Return a test client."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """Return a CLI runner."""
    return app.test_cli_runner()


@pytest.fixture
def pg_app():
    """Return an app on an emptied PostgreSQL schema, upgraded by the migrations."""
    app = emptied_app()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
