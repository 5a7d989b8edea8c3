"""What the database tests share: a real server on SQLite or PostgreSQL, for the races."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from tests.helpers import fresh, serve, stop_serving


@pytest.fixture(params=["sqlite", "postgres"])
def server(request):
    """Serve an app on SQLite or PostgreSQL with waitress on a loopback port."""
    if request.param == "postgres":
        app = request.getfixturevalue("pg_app")
    else:
        app = fresh(request.getfixturevalue("kept_apps"), csrf=False)
    serving, base = serve(app, threads=8)
    yield app, int(base.rsplit(":", 1)[1])
    stop_serving(serving)  # its threads too: the app and its database file are the next test's
    if request.param == "sqlite":
        with app.app_context():
            db.engine.dispose()
