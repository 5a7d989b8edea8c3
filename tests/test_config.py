"""Where the app keeps its data, as whoever runs it sets it: INSTANCE_PATH and DATABASE_URL."""

from __future__ import annotations

import click
import pytest
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.extensions import db


@pytest.mark.parametrize("given, opened", [("games.sqlite", "games.sqlite"),
                                            ("games.sqlite?timeout=30", "games.sqlite")])
def test_a_relative_sqlite_file_is_kept_private_in_the_data_folder(
        tmp_path, monkeypatch, given, opened):
    """The file made private was the one in the folder the app was started from, and the
    one opened the one in the data folder (where Flask-SQLAlchemy puts a relative path):
    a stray empty file, and the real one readable by anyone on the machine. A URL's
    options (?timeout=30) are not part of the file's name."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INSTANCE_PATH", "data")  # relative: from where it was started
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{given}")
    monkeypatch.setenv("SECRET_KEY", "config-test")
    app = create_app()
    kept = tmp_path / "data" / opened
    assert app.instance_path == str(tmp_path / "data")
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'data' / given}"
    assert kept.stat().st_mode & 0o777 == 0o600
    with app.app_context():
        assert db.session.execute(text("PRAGMA database_list")).all()[0][2] == str(kept)
        db.engine.dispose()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["data"]  # nothing stray


def test_a_database_the_app_cannot_keep_games_in_is_said_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", "mysql://ann:secret@db.local/cards")
    monkeypatch.setenv("SECRET_KEY", "config-test")
    with pytest.raises(click.ClickException) as refused:
        create_app()
    assert refused.value.message == (
        "DATABASE_URL: mysql is not a database Kings Corners keeps its games in. Use "
        "sqlite:///path/to/games.sqlite, or postgresql://user:password@host/database.")
