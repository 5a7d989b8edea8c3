"""Faults of the machine, not of the game: a page that says so, and keeps what was typed.

A full disk, a database file or disk made read-only, a file that cannot be opened, a disk
error, a database held by another program, a database server that went away: each is
answered 503 with a page in the phone's language that names the fault and what to do
(docs/faults.md). The request's transaction is rolled back, so nothing half-done is kept.
A posted form comes back in hidden inputs (never a passcode, nor the unlock form's own
fields) under a "Save again" button that posts them to the same address, its CSRF token
among them: once the space is freed, one tap saves it. Pages that only read go on
being served when they can (a full disk does not stop them).

A disk made read-only under a running server: SQLite cannot open a WAL database there once
its -wal and -shm files are gone (SQLITE_CANTOPEN, even to read), so a connection made then
opens the file as immutable, to read; it is dropped as soon as the disk is writable again.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from pathlib import Path
from urllib.parse import quote

from flask import Flask, current_app, g, render_template, request
from flask_babel import gettext
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.pool import Pool

from ..db.engine import file_to_open
from ..extensions import db
from . import passcode

# What SQLite's error names (and, for a driver without them, its messages) say.
_SQLITE = (("SQLITE_FULL", "database or disk is full", "full"),
           ("SQLITE_READONLY", "readonly database", "read-only"),
           ("SQLITE_CANTOPEN", "unable to open database file", "cannot-open"),
           ("SQLITE_IOERR", "disk i/o error", "disk-error"),
           ("SQLITE_BUSY", "database is locked", "busy"),
           ("SQLITE_LOCKED", "database table is locked", "busy"))
# PostgreSQL's SQLSTATEs: disk full, read-only transaction, I/O error, a lock not had.
_POSTGRESQL = {"53100": "full", "25006": "read-only", "58030": "disk-error",
               "55P03": "busy", "40P01": "busy", "40001": "busy",
               "57P01": "connection", "57P02": "connection", "57P03": "connection"}
_SECRET = re.compile(r"pass(code|word)", re.IGNORECASE)  # never written into a page
_IMMUTABLE = "kc_immutable"  # in a connection record's info: opened read-only, as immutable


def _said() -> dict[str, tuple[str, str, str]]:
    """Return each fault's title, what a save is told, and what a page that reads is told."""
    return {
        "full": (
            gettext("The disk is full"),
            gettext("The machine's disk is full: nothing was saved. Free some space and save "
                    "again."),
            gettext("The machine's disk is full, so this page cannot be shown. Free some "
                    "space, then try again.")),
        "read-only": (
            gettext("The database is read-only"),
            gettext("The database's file or disk is read-only: nothing was saved. Make it "
                    "writable and save again."),
            gettext("The database's file or disk is read-only, so this page cannot be shown. "
                    "Make it writable, then try again.")),
        "cannot-open": (
            gettext("The database cannot be opened"),
            gettext("The database file cannot be opened: nothing was saved. Check that it "
                    "and its folder are in place and writable, then save again."),
            gettext("The database file cannot be opened, so this page cannot be shown. Check "
                    "that it and its folder are in place and writable, then try again.")),
        "disk-error": (
            gettext("The disk gave an error"),
            gettext("The disk gave an error while saving: nothing was saved. Check the disk, "
                    "then save again."),
            gettext("The disk gave an error while reading the database, so this page cannot "
                    "be shown. Check the disk, then try again.")),
        "busy": (
            gettext("The database is busy"),
            gettext("Another program is holding the database: nothing was saved. Wait a "
                    "moment and save again."),
            gettext("Another program is holding the database, so this page cannot be shown. "
                    "Wait a moment, then try again.")),
        "connection": (
            gettext("The database server cannot be reached"),
            gettext("The connection to the database server was lost: nothing was saved. "
                    "Check that the server is running, then save again."),
            gettext("The connection to the database server was lost, so this page cannot be "
                    "shown. Check that the server is running, then try again.")),
    }


def kind(error: BaseException) -> str | None:
    """Return which fault of the machine a database error is ("full", "read-only",
    "cannot-open", "disk-error", "busy", "connection"), or None for any other error."""
    original = getattr(error, "orig", None) or error
    if isinstance(original, sqlite3.Error):
        name = getattr(original, "sqlite_errorname", "") or ""
        message = str(original).lower()
        for prefix, words, fault in _SQLITE:
            if name.startswith(prefix) or (not name and words in message):
                return fault
        return None
    if type(original).__module__.split(".")[0] == "psycopg":
        state = getattr(original, "sqlstate", None) or ""
        if state in _POSTGRESQL:
            return _POSTGRESQL[state]
        import psycopg

        # No SQLSTATE: the client's own error (refused, reset, timed out); 08: a connection's.
        if isinstance(original, psycopg.OperationalError) and (not state
                                                               or state.startswith("08")):
            return "connection"
    if getattr(error, "connection_invalidated", False):
        return "connection"
    return None


def _on_its_disk(fault: str) -> str:
    """Name a SQLite disk error or unopenable file by its disk when that says more.

    With no -shm file yet (the server's first connection), a full disk is "disk I/O error"
    (SQLITE_IOERR_SHMSIZE), even to read; a read-only disk is "unable to open".
    """
    if fault not in ("disk-error", "cannot-open"):
        return fault
    try:
        url = db.engine.url
        if url.get_backend_name() != "sqlite" or not url.database:
            return fault
        disk = os.statvfs(Path(url.database).parent)
    except Exception:  # a folder gone: said as it was
        return fault
    if disk.f_flag & os.ST_RDONLY:
        return "read-only"
    return "full" if disk.f_bavail == 0 else fault


def _form_fields() -> tuple[list[tuple[str, str]] | None, str]:
    """Return a posted form's fields to post again, and where: None when there is none to
    carry (a page read, a file sent, a passcode form).

    Never a passcode, nor the unlock form's own fields: the unlock form carrying another
    form sends that one again to its own address (the phone is asked to unlock again
    there); a form whose passcode cannot be written into the page is not offered again.
    """
    here = request.script_root + (request.full_path if request.query_string else request.path)
    if request.method != "POST" or request.mimetype != "application/x-www-form-urlencoded":
        return None, here
    form = request.form
    fields = [(name, value) for name, value in form.items(multi=True)
              if name not in passcode.OWN_FIELDS and not _SECRET.search(name)]
    if not any(_SECRET.search(name) for name in form):
        return fields, here
    if form.get(passcode.AGAIN) == "1":
        return fields, passcode.local(form.get(passcode.NEXT))
    return None, here


def _back() -> str | None:
    """Return the page a form was sent from (this app's, by its referrer), for Back."""
    referrer = request.referrer or ""
    host = request.host_url.rstrip("/")
    if request.method == "POST" and referrer.startswith(host + "/"):
        return passcode.local(referrer[len(host):], default="") or None
    return None


def _padlock_as_read() -> bool:
    """Tell whether to show the padlock, from what this request read before the fault: the
    page asks the database nothing more (it may be the very thing that is gone)."""
    if g.get("kc_passcode") is None:  # no passcode, or not read before the fault
        return False
    if "kc_phone" in g:  # this phone's key, as read
        return g.kc_phone is None
    return not request.cookies.get(passcode.COOKIE)  # no key at all: locked for sure


def answer(error: BaseException):
    """Answer a fault of the machine with its page (503); any other error goes on as it was."""
    fault = kind(error)
    if fault is None:
        raise error
    fault = _on_its_disk(fault)
    try:
        db.session.rollback()
    except Exception:  # the connection may be the very thing that is gone
        current_app.logger.debug("rollback after a fault failed", exc_info=True)
    fields, action = _form_fields()
    saving = request.method not in ("GET", "HEAD")
    title, on_save, on_read = _said()[fault]
    said = (str(getattr(error, "orig", None) or error).strip().splitlines() or [""])[0]
    current_app.logger.warning("%s %s: %s (%s)", request.method, request.path, fault, said)
    page = render_template("fault.html", title=title, message=on_save if saving else on_read,
                           fields=fields, action=action, saving=saving, back=_back(),
                           table_locked=_padlock_as_read)
    return page, 503, {"Cache-Control": "no-store"}


def register(app: Flask) -> None:
    """Answer the machine's faults with their page instead of a bare 500, and an error
    nobody foresaw with a page of the app's own."""
    app.register_error_handler(DBAPIError, answer)
    app.register_error_handler(sqlite3.Error, answer)  # one the driver raised unwrapped
    app.register_error_handler(500, went_wrong)


def went_wrong(error):
    """Answer an error nobody foresaw with a page in the phone's language, not Werkzeug's
    bare English one; the traceback is on the server's screen (Flask logs it first). What
    the request had begun is rolled back: nothing half-done is kept. The page asks the
    database nothing more (it may be what failed)."""
    with contextlib.suppress(Exception):
        db.session.rollback()
    try:
        page = render_template("error.html", title=gettext("Something went wrong"),
                               message=gettext("The server could not answer. Nothing "
                                               "half-done was kept: go back and try again."),
                               table_locked=_padlock_as_read)
    except Exception:  # the page itself cannot be drawn: Werkzeug's plain one, then
        current_app.logger.exception("the error page could not be drawn either")
        return error
    return page, 500


def _read_only_disk(folder: Path) -> bool:
    """Tell whether a folder is on a file system mounted read-only."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


@event.listens_for(Engine, "do_connect")
def _immutable_on_a_read_only_disk(dialect, record, cargs, cparams):
    """Open a SQLite file on a read-only disk as immutable, so its pages can still be read.

    Only when nothing can be lost by it: the disk is read-only (nobody can write the file
    meanwhile) and no write-ahead log holds more than the file (an immutable file is read
    without it). Otherwise the file is opened as always.
    """
    record.info.pop(_IMMUTABLE, None)
    path = file_to_open(dialect, cargs)
    if path is None or not path.is_file() or not _read_only_disk(path.parent):
        return None
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        return None
    record.info[_IMMUTABLE] = path
    return dialect.loaded_dbapi.connect(f"file:{quote(str(path))}?immutable=1", *cargs[1:],
                                        **{**cparams, "uri": True})


@event.listens_for(Pool, "checkout")
def _writable_again(_dbapi_connection, record, _proxy) -> None:
    """Drop a connection opened as immutable once its disk is writable again: the next
    one is an ordinary one, that saves."""
    path = record.info.get(_IMMUTABLE)
    if path is not None and not _read_only_disk(path.parent):
        raise DisconnectionError("the disk is writable again")
