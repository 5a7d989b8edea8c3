"""The change stamp: one value in `setting` that every transaction which writes changes.

Pages that read much and change seldom (the history list, a night, a game's history page,
a player's figures) keep what they read under the stamp they read it at, so the next phone
that opens them reads one row, not the history. Every session transaction that wrote
anything sets a new stamp as its last statement, in that same transaction, so what a page
kept is never shown once a change is committed.

The stamp is read first in a request, with the passcode, in one statement. Whatever the
request reads after it is at least as new as the stamp, so a page kept under a stamp never
shows less than that stamp's state.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, g, has_app_context
from sqlalchemy import event, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from ..extensions import db
from .models import Setting

NAME = "stamp"  # its row in `setting`
_WROTE = "kc_wrote"  # set in a session's info once it has written in this transaction
_STAMPED = "kc_stamped"  # set once its commit has set a new stamp
T = TypeVar("T")


_SETTINGS = select(Setting.name, Setting.value)


def settings() -> dict[str, str]:
    """Return the install's settings rows (passcode hash, stamp), read once per request."""
    if "kc_settings" not in g:
        g.kc_settings = dict(db.session.connection().execute(_SETTINGS).all())
    return g.kc_settings


def now() -> str | None:
    """Return the stamp this request reads at (None before anything was ever written)."""
    return settings().get(NAME)


def forget_read() -> None:
    """Forget the settings this request read (it just changed them)."""
    if has_app_context():
        g.pop("kc_settings", None)


class Kept:
    """The newest `size` things read or drawn, each under its key, shared by every request
    (a least-recently-used cache). What is returned is shared: treat it as read-only."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._kept: OrderedDict[tuple, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple, read: Callable[[], T]) -> T:
        """Return what is kept under `key` at this request's stamp, reading it the first time."""
        key = (*key, now())
        return self.lookup(key, read, keep=lambda: _unmoved(key[-1]))

    def lookup(self, key: tuple, read: Callable[[], T],
               keep: Callable[[], bool] = lambda: True) -> T:
        """Return what is kept under `key` as it is, else `read()`, kept if `keep()` says so."""
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        value = read()
        if not keep():
            return value  # e.g. a write landed while it was read: shown, not kept
        with self._lock:
            self._kept[key] = value
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget everything kept (to time a page cold, or to compare with a fresh read)."""
        with self._lock:
            self._kept.clear()


def _unmoved(stamp: str | None) -> bool:
    """Tell whether the stamp is still the one a reading began at.

    SQLite reads a request in one snapshot, so it always is. A database server reads each
    statement as committed at that moment, so a write may land between two of a reading's
    statements: such a reading is shown but not kept.
    """
    connection = db.session.connection()
    if connection.dialect.name == "sqlite":
        return True
    return connection.execute(_STAMP).scalar() == stamp


_STAMP = select(Setting.value).where(Setting.name == NAME)


def kept(key: tuple, read: Callable[[], T]) -> T:
    """Return `read()`, kept under `key`, this request's language (what is kept may hold
    words: a page drawn, a day named) and its stamp by the app."""
    from ..words import language

    return current_app.extensions["kept"].get((*key, language()), read)


def wrote(session: Session) -> None:
    """Mark that this session's transaction wrote with a statement the session does not see
    (one run on its connection), so its commit sets a new stamp."""
    session.info[_WROTE] = True


@event.listens_for(Session, "after_flush")
def _flushed(session, context) -> None:
    session.info[_WROTE] = True  # a flush only runs when something changed


@event.listens_for(Session, "do_orm_execute")
def _executed(state) -> None:
    if state.is_insert or state.is_update or state.is_delete:
        state.session.info[_WROTE] = True


@event.listens_for(Session, "before_commit")
def _stamp(session) -> None:
    session.flush()  # what the commit would flush counts too
    if not session.info.pop(_WROTE, False):
        return
    connection = session.connection()  # not session.execute: that would mark it again
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    value = uuid.uuid4().hex
    connection.execute(dialect.insert(Setting).values(name=NAME, value=value)
                       .on_conflict_do_update(index_elements=["name"], set_={"value": value}))
    session.info[_STAMPED] = True


@event.listens_for(Session, "after_commit")
def _committed(session) -> None:
    session.info.pop(_WROTE, None)
    if session.info.pop(_STAMPED, False):
        forget_read()  # the rest of this request reads what it just wrote


@event.listens_for(Session, "after_rollback")
def _rolled_back(session) -> None:
    session.info.pop(_WROTE, None)
    session.info.pop(_STAMPED, None)
