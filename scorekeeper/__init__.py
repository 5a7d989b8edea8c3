"""Kings Corners Scorekeeper: a Flask app for the phones around a real card table."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, current_app, has_request_context, request
from sqlalchemy import event
from sqlalchemy.engine import Engine
from werkzeug.exceptions import BadRequest

from . import i18n, passcode
from .extensions import compress, csrf, db, migrate
from .security import guard, private_file, private_folder


def _secret_key(instance: Path) -> str:
    """Return SECRET_KEY from the environment, else one generated once and kept in instance/."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = instance / "secret_key"
    private_file(path, secrets.token_hex(32))  # written only if there was none
    return path.read_text().strip()


def _database_url(instance: Path) -> str:
    """Return DATABASE_URL, or the SQLite file in instance/."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres://"):  # the form some hosts hand out
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url or f"sqlite:///{instance / 'scorekeeper.sqlite'}"


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure the app."""
    app = Flask(__name__, instance_relative_config=True,
                template_folder="../templates", static_folder="../static")
    instance = Path(app.instance_path)
    private_folder(instance)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=_database_url(instance),
        MAX_CONTENT_LENGTH=20 * 1024 * 1024,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        WTF_CSRF_TIME_LIMIT=None,  # a game night is long; a token must outlive it
        # On a home network the server's time matters more than a few hundred bytes: brotli
        # at its default level 4 took 0.6 ms a page, at 1 it takes 0.06 (5.0 KB, not 4.1).
        COMPRESS_BR_LEVEL=1,
        LOG_MAX_BYTES=2 * 1024 ** 2,  # a game log to import (a 300-hand game is about 150 KB)
        RESTORE_MAX_BYTES=200 * 1024 ** 2,  # a backup upload (ten years is about 51 MB)
        PUBLIC_URL=os.environ.get("PUBLIC_URL") or None,  # what the join QR code points at
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config["SECRET_KEY"] = app.config.get("SECRET_KEY") or _secret_key(instance)
    else:
        app.config.from_mapping(test_config)

    database = app.config["SQLALCHEMY_DATABASE_URI"]
    if database.startswith("sqlite:///") and database != "sqlite:///:memory:":
        # Created readable by its owner only; SQLite gives its -wal and -shm files the same.
        private_file(Path(database[len("sqlite:///"):]))
    guard(app)
    app.before_request(_read_body)  # first: before CSRF, the passcode or any database read
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # A server's connection may have gone away between two hands; a file cannot.
        app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {"pool_pre_ping": True})
    db.init_app(app)
    migrate.init_app(app, db, directory=str(Path(app.root_path).parent / "migrations"))
    csrf.init_app(app)
    passcode.guard(app)
    compress.init_app(app)
    i18n.init(app)
    app.after_request(_cache_versioned_static)

    from . import cli, models  # noqa: F401  (models registers the tables)
    from .views import register_blueprints

    register_blueprints(app)
    cli.register(app)
    from . import faults

    faults.register(app)  # a full disk, a read-only database, a lost server: a page, 503
    return app


def _cache_versioned_static(response):
    """Let a phone keep a static file named with its content's hash for good."""
    if request.endpoint == "static" and request.args.get("v"):
        response.cache_control.public = True
        response.cache_control.max_age = 365 * 24 * 3600
        response.cache_control.immutable = True
    return response


@event.listens_for(Engine, "connect")
def _on_sqlite_connect(dbapi_connection, _record) -> None:
    """Set SQLite up for several phones at once: foreign keys enforced, readers never waiting
    on the writer (WAL), every commit on disk before it is answered, a writer waiting its
    turn instead of failing, and transactions begun by SQLAlchemy, not by the driver."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        # The driver would begin a transaction only before a write, so a read then a write
        # would not be one transaction: SQLAlchemy's "begin" (below) takes that over.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()


@event.listens_for(Engine, "begin")
def _on_sqlite_begin(connection) -> None:
    """Begin SQLite transactions; one that will write takes the write lock at once.

    A transaction that read first and wrote later could otherwise find that another phone
    wrote in between, and SQLite would refuse it at once ("database is locked") instead of
    waiting its turn. So every change takes `storage.lock` before it reads what it checks
    (BEGIN IMMEDIATE: one writer at a time, readers never wait), and only then: a request's
    body is read and its passcode checked first, so no phone holds the lock while it is
    still sending, or while a passcode is hashed.
    """
    if connection.dialect.name == "sqlite":
        immediate = connection.get_execution_options().get("write_lock")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@event.listens_for(Engine, "before_cursor_execute")
def _no_write_without_lock(connection, _cursor, statement, _parameters, _context, _many):
    """Under test, refuse a page's write to SQLite that did not take `storage.lock` first.

    Such a write would race another phone's; the tests would not see it, as they seldom
    write at the same moment, so they are told here.
    """
    if (has_request_context() and current_app.testing
            and connection.dialect.name == "sqlite"
            and statement.lstrip().upper().startswith(_WRITES)
            and not connection.get_execution_options().get("write_lock")):
        raise RuntimeError(f"{request.endpoint} writes without storage.lock(): {statement}")


def body_limit(config_key: str):
    """Mark a POST view whose body may be bigger than a form's: up to `config_key` bytes."""
    def mark(view):
        view.body_limit = config_key
        return view
    return mark


def _read_body() -> None:
    """Read a change's whole body before anything else is done with it.

    A phone on a poor connection may take seconds to send its form; it is read here, before
    the CSRF check, the passcode or the database, so no lock is held while it arrives. A
    form's fields are kept in memory, a file goes to a temporary file as it comes, and the
    size allowed is the view's own (`body_limit`), else MAX_CONTENT_LENGTH.
    """
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    view = current_app.view_functions.get(request.endpoint or "")
    limit = getattr(view, "body_limit", None)
    if limit:
        request.max_content_length = current_app.config[limit]
        request.max_form_memory_size = current_app.config[limit]
    try:
        if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            request.form  # noqa: B018  (parsing it reads the body)
        else:
            request.get_data(cache=True)
    except BadRequest:
        # A body cut short or garbled: what was read is all the view gets, and it says so.
        # (RequestEntityTooLarge, a BadRequest's cousin, is not caught: it answers 413.)
        pass
