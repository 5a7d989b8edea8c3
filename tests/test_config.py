"""Where the app keeps its data, as whoever runs it sets it: INSTANCE_PATH and DATABASE_URL."""

from __future__ import annotations

import click
import pytest

from scorekeeper import create_app


def test_a_relative_sqlite_file_is_kept_private_in_the_data_folder(tmp_path, monkeypatch):
    """The file made private was the one in the folder the app was started from, and the
    one opened the one in the data folder (where Flask-SQLAlchemy puts a relative path):
    a stray empty file, and the real one readable by anyone on the machine."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INSTANCE_PATH", "data")  # relative: from where it was started
    monkeypatch.setenv("DATABASE_URL", "sqlite:///games.sqlite")
    monkeypatch.setenv("SECRET_KEY", "config-test")
    app = create_app()
    kept = tmp_path / "data" / "games.sqlite"
    assert app.instance_path == str(tmp_path / "data")
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{kept}"
    assert kept.stat().st_mode & 0o777 == 0o600
    assert not (tmp_path / "games.sqlite").exists()


def test_a_database_the_app_cannot_keep_games_in_is_said_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("DATABASE_URL", "mysql://ann:secret@db.local/cards")
    monkeypatch.setenv("SECRET_KEY", "config-test")
    with pytest.raises(click.ClickException) as refused:
        create_app()
    assert refused.value.message == (
        "DATABASE_URL: mysql is not a database Kings Corners keeps its games in. Use "
        "sqlite:///path/to/games.sqlite, or postgresql://user:password@host/database.")
