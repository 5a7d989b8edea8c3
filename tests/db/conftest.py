"""What the database tests share: a real server on SQLite or PostgreSQL, for the races."""

from __future__ import annotations

import pytest

from scorekeeper.extensions import db
from tests.helpers import fresh, serve


@pytest.fixture(params=["sqlite", "postgres"])
def server(request):
    """Serve an app on SQLite or PostgreSQL with waitress on a loopback port."""
    if request.param == "postgres":
        app = request.getfixturevalue("pg_app")
    else:
        app = fresh(request.getfixturevalue("kept_apps"), csrf=False)
    serving, base = serve(app, threads=8)
    yield app, int(base.rsplit(":", 1)[1])
    serving.close()
    # Its threads too, and any request still running on them: the app and its database
    # file are the next test's.
    serving.task_dispatcher.shutdown()
    if request.param == "sqlite":
        with app.app_context():
            db.engine.dispose()
