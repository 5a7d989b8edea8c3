"""SQLite set up for several phones at once, on every connection the app opens, and kept
on the file the app started with."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import Pool

_FILE = "kc_file"  # in a connection record's info: (path, device, inode) of the file it opened
_READ_ONLY = "kc_read_only"  # in a connection record's info: its files were read-only then


@event.listens_for(Engine, "connect")
def _on_sqlite_connect(dbapi_connection, record) -> None:
    """Set SQLite up for several phones at once: foreign keys enforced, readers never waiting
    on the writer (WAL), every commit on disk before it is answered, a writer waiting its
    turn instead of failing, and transactions begun by SQLAlchemy, not by the driver. The
    file it opened is remembered, and whether it could be written then (below)."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        # The driver would begin a transaction only before a write, so a read then a write
        # would not be one transaction: SQLAlchemy's "begin" (below) takes that over.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        path = next((file for _, name, file in cursor.execute("PRAGMA database_list")
                     if name == "main"), "")
        cursor.close()
        if path:  # not a database in memory
            found = os.stat(path)
            record.info[_FILE] = (path, found.st_dev, found.st_ino)
            record.info[_READ_ONLY] = not _writable(path)


def _writable(path: str) -> bool:
    """Tell whether a database file and the write-ahead files beside it can be written."""
    return all(os.access(file, os.W_OK) for file in (path, path + "-wal", path + "-shm")
               if os.path.exists(file))


def file_to_open(dialect, cargs) -> Path | None:
    """Return the SQLite file a connection is about to open (do_connect's arguments), or
    None: another database, one in memory, or a file named by an SQLite URI ("file:...")."""
    if dialect.name != "sqlite" or not cargs or not isinstance(cargs[0], str):
        return None
    if cargs[0] in ("", ":memory:") or cargs[0].startswith("file:"):
        return None
    return Path(cargs[0])


@event.listens_for(Engine, "do_connect")
def _no_new_file_under_a_running_app(dialect, _record, cargs, _cparams):
    """Refuse to open a SQLite file that is not there. The app made it when it started
    (config.private_file), so one missing now was removed, or its folder, while the app
    ran: SQLite would make a new, empty one, and the saves after would go into it and
    be lost with it. The phone is told the database cannot be opened (web/faults.py)."""
    path = file_to_open(dialect, cargs)
    if path is not None and not path.exists():
        raise sqlite3.OperationalError("unable to open database file: it is not there")


@event.listens_for(Pool, "checkout")
def _still_the_same_file(_dbapi_connection, record, _proxy) -> None:
    """Drop a connection whose file was removed or replaced since it was opened: SQLite goes
    on writing to a removed file, unseen, and every save after it would be lost with it.
    The connection made instead opens the file now there, or is refused (above).

    Drop one opened while its files were read-only, once they can be written: SQLite
    opened it read-only for good, and each save that drew it would be refused."""
    known = record.info.get(_FILE)
    if known is None:
        return
    path, device, inode = known
    try:
        found = os.stat(path)
    except OSError:
        raise DisconnectionError("the database file was removed") from None
    if (found.st_dev, found.st_ino) != (device, inode):
        raise DisconnectionError("the database file was replaced")
    if record.info.get(_READ_ONLY) and _writable(path):
        raise DisconnectionError("the database file is writable again")


@event.listens_for(Engine, "begin")
def _on_sqlite_begin(connection) -> None:
    """Begin SQLite transactions; one that will write takes the write lock at once.

    A transaction that read first and wrote later could otherwise find that another phone
    wrote in between, and SQLite would refuse it at once ("database is locked") instead of
    waiting its turn. So every change takes `lock` before it reads what it checks
    (BEGIN IMMEDIATE: one writer at a time, readers never wait), and only then: a request's
    body is read and its passcode checked first, so no phone holds the lock while it is
    still sending, or while a passcode is hashed.
    """
    if connection.dialect.name == "sqlite":
        immediate = connection.get_execution_options().get("write_lock")
        # Straight to the driver: every request begins one, and SQLAlchemy's way round
        # (events, a result) cost more than the BEGIN. A refusal comes as the driver's own
        # error, which the fault pages know (web/faults.py).
        connection.connection.dbapi_connection.execute(
            "BEGIN IMMEDIATE" if immediate else "BEGIN")
