"""The app the benchmarks time: on an empty SQLite file in a new temporary folder."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402

PLAYERS = ["Ann", "Ben", "Cy", "Di", "Ed", "Flo"]


def fresh_app():
    """Return an app on an empty SQLite file in a new temporary folder."""
    folder = tempfile.mkdtemp()
    app = create_app({"SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite"})
    with app.app_context():
        db.create_all()
    return app
