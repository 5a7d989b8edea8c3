"""Where the app keeps its data and how it is set up: instance/, the secret key, the database,
and the settings a table may change (instance/config.py or the environment).

instance/ is readable by its owner only, and the secret key and the database file are
created so. One that cannot be written (a read-only disk, another user's folder, a full
disk) stops the app at its start with one line that says so (`Unwritable`), not a traceback.
"""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

import click
from flask import Flask
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

DEFAULTS = dict(
    # Any body but a file a page takes (a game log, a backup): a form is a few KB; one of
    # 1 MB is refused from its Content-Length (413) before it is read.
    MAX_CONTENT_LENGTH=1024 ** 2,
    SEND_FILE_MAX_AGE_DEFAULT=3600,
    WTF_CSRF_TIME_LIMIT=None,  # a game night is long; a token must outlive it
    # On a home network the server's time matters more than a few hundred bytes: brotli
    # at level 1, not its default 4 (docs/performance.md).
    COMPRESS_BR_LEVEL=1,
    LOG_MAX_BYTES=2 * 1024 ** 2,  # a game log to import (a 300-hand game is about 150 KB)
    RESTORE_MAX_BYTES=200 * 1024 ** 2,  # a backup upload (ten years is about 51 MB)
)


def biggest_body(config) -> int:
    """Return the most bytes any page takes in one request (a backup to restore): the
    servers refuse a body bigger than that before reading it."""
    return max(config[key] for key in ("MAX_CONTENT_LENGTH", "LOG_MAX_BYTES",
                                       "RESTORE_MAX_BYTES"))


def configure(app: Flask, test_config: dict | None) -> None:
    """Set the app's configuration: the defaults, then instance/config.py and the environment
    (or, for a test, what it gives); make instance/ and the database file private."""
    instance = Path(app.instance_path)
    private_folder(instance)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(instance),
        PUBLIC_URL=os.environ.get("PUBLIC_URL") or None,  # what the join QR code points at
        **DEFAULTS)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config["SECRET_KEY"] = app.config.get("SECRET_KEY") or secret_key(instance)
    else:
        app.config.from_mapping(test_config)
    database = app.config["SQLALCHEMY_DATABASE_URI"]
    file = sqlite_file(database, instance)
    if file is not None:
        # Created readable by its owner only; SQLite gives its -wal and -shm files the same.
        private_file(file)
    if not database.startswith("sqlite"):
        # A server's connection may have gone away between two hands; a file cannot.
        app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {"pool_pre_ping": True})


def secret_key(instance: Path) -> str:
    """Return SECRET_KEY from the environment, else one generated once and kept in instance/."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    private_file(path, secrets.token_hex(32))  # written only if there was none
    return path.read_text().strip()


def database_url(instance: Path) -> str:
    """Return DATABASE_URL, or the SQLite file in instance/. A SQLite file given by a
    relative path is in instance/ (as Flask-SQLAlchemy would open it), said here as a whole
    path, so that the file made private is the one opened. A database the app does not
    keep its games in is said in one line."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres://"):  # the form some hosts hand out
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    if not url:
        return f"sqlite:///{instance / 'scorekeeper.sqlite'}"
    try:
        parsed = make_url(url)
    except ArgumentError:
        parsed = None
    if parsed is None or parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise click.ClickException(
            f"DATABASE_URL: {url.split(':', 1)[0]} is not a database Kings Corners keeps its "
            "games in. Use sqlite:///path/to/games.sqlite, or "
            "postgresql://user:password@host/database.")
    file = sqlite_file(url, instance)
    return url if file is None else parsed.set(database=str(file)).render_as_string(
        hide_password=False)


def sqlite_file(url: str, instance: Path) -> Path | None:
    """Return the SQLite file a database URL opens (a relative path is in `instance`, as
    Flask-SQLAlchemy opens it), or None: another database, one in memory, or a file named
    by an SQLite URI ("file:...", uri=true), left as it is given."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    name = parsed.database or ""
    if (parsed.get_backend_name() != "sqlite" or name in ("", ":memory:")
            or name.startswith("file:") or parsed.query.get("uri")):
        return None
    return instance / name  # a whole path stays as it is


class Unwritable(click.ClickException):
    """A folder or file the app keeps its data in cannot be written: said in one line.

    A ClickException, so `flask ...` (which creates the app while finding its command)
    prints "Error: " and the line, and exits 1; `python -m scorekeeper.server.serve`
    does the same.
    """


def _unwritable(path: Path, error: OSError, kind: str) -> Unwritable:
    """Return the one line that says why `path` (a "folder" or a "file") cannot be written."""
    keeps = ("Kings Corners keeps its database and secret key there" if kind == "folder"
             else "Kings Corners must be able to write it")
    if error.errno == errno.EROFS:
        why = (f"the {kind} is read-only (its disk is mounted read-only). {keeps}; "
               "make the disk writable (remount it read-write) and start again.")
    elif error.errno in (errno.EACCES, errno.EPERM):
        why = (f"permission denied (the {kind} belongs to another user?). {keeps}; start "
               f"Kings Corners as the user who owns it, or give that user the {kind}.")
    elif error.errno in (errno.ENOSPC, errno.EDQUOT):
        why = "the disk is full. Free some space and start again."
    else:
        why = f"{error.strerror or error}. {keeps}."
    return Unwritable(f"Cannot write to {path}: {why}")


def private_folder(path: Path) -> None:
    """Make a folder (instance/) that only its owner may open, tightening an old one;
    raise `Unwritable` if it cannot be written."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        path.chmod(0o700)
    except OSError as error:
        raise _unwritable(path, error, "folder") from error


def private_file(path: Path, text: str | None = None) -> None:
    """Create a file readable by its owner only from the first moment (with `text`, if
    given), or make an existing one so; raise `Unwritable` if it cannot be written."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        try:
            path.chmod(0o600)
        except OSError as error:
            raise _unwritable(path, error, "file") from error
        return
    except OSError as error:
        raise _unwritable(path, error, "file") from error
    try:
        with os.fdopen(descriptor, "w") as file:
            if text is not None:
                file.write(text)
    except OSError as error:
        path.unlink(missing_ok=True)  # never half a secret key, read as the whole one later
        raise _unwritable(path, error, "file") from error
