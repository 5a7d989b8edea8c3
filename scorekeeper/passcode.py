"""The table passcode: off until someone sets it, then only a phone that knows it changes things.

- Stored hashed (werkzeug's scrypt) in the `setting` table, never in a backup.
- A phone that gives it once is remembered for 400 days by a signed cookie. The cookie
  holds a stamp of the hash, so a new passcode, or none, forgets every phone at once.
- Without it a phone reads everything: scoreboards stay live, history and statistics
  open. Every change (any POST) and the pages that only lead to one (`asks`) first ask for
  the passcode, then carry on: a GET goes on to its page, a posted form is sent again.
"""

from __future__ import annotations

import hashlib
import unicodedata
from urllib.parse import urlsplit

from flask import Flask, current_app, redirect, render_template, request, url_for
from flask_babel import gettext
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import delete
from werkzeug.security import check_password_hash, generate_password_hash

from .extensions import db
from .models import Setting
from .rules import RuleError
from .storage import stamp

NAME = "passcode"  # its row in `setting`
COOKIE = "kc_table"
REMEMBER = 400 * 24 * 3600  # the longest a browser keeps a cookie
SHORTEST, LONGEST = 4, 64
FIELD = "unlock_passcode"  # the unlock form's own fields, apart from any form it carries
NEXT = "unlock_next"
AGAIN = "unlock_again"
WRITING = ("POST", "PUT", "PATCH", "DELETE")
LIVE = "X-Live-Panel"  # a background tap (chips.js): told where to unlock, not shown a page


def asks(view):
    """Mark a view whose GET only leads to a change (a form), so it asks first."""
    view.asks_passcode = True
    return view


def open_to_all(view):
    """Mark a POST view any phone may use (the unlock form itself)."""
    view.open_to_all = True
    return view


def clean(text: str | None, field: str = "passcode") -> str:
    """Return a passcode as typed, trimmed and in one Unicode spelling, or refuse it."""
    text = unicodedata.normalize("NFC", (text or "").strip())
    if len(text) < SHORTEST:
        raise RuleError("a passcode needs at least %(count)s characters", field,
                        count=SHORTEST)
    if len(text) > LONGEST:
        raise RuleError("a passcode can be at most %(count)s characters", field, count=LONGEST)
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise RuleError("a passcode cannot hold control characters", field)
    return text


def _hash() -> str | None:
    """Return the stored hash (read once per request, with the change stamp), or None when
    there is no passcode."""
    return stamp.settings().get(NAME)


def _changed() -> None:
    """Forget what this request read: the passcode was just changed."""
    stamp.forget_read()


def is_on() -> bool:
    """Tell whether the table has a passcode."""
    return _hash() is not None


def store(text: str) -> None:
    """Set the passcode (checked by `clean`), replacing any other; the caller commits."""
    hashed = generate_password_hash(clean(text))
    row = db.session.get(Setting, NAME)
    if row is None:
        db.session.add(Setting(name=NAME, value=hashed))
    else:
        row.value = hashed
    _changed()


def clear() -> None:
    """Remove the passcode: every phone may change things again; the caller commits."""
    db.session.execute(delete(Setting).where(Setting.name == NAME))
    _changed()


def matches(text: str | None) -> bool:
    """Tell whether `text` is the table's passcode."""
    hashed = _hash()
    typed = unicodedata.normalize("NFC", (text or "").strip())
    return hashed is not None and bool(typed) and check_password_hash(hashed, typed)


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt="table passcode")


def _stamp(hashed: str) -> str:
    return hashlib.sha256(hashed.encode()).hexdigest()[:16]


def unlocked() -> bool:
    """Tell whether this phone may change things: no passcode, or it gave the current one."""
    hashed = _hash()
    if hashed is None:
        return True
    try:
        return _signer().loads(request.cookies.get(COOKIE, "")) == _stamp(hashed)
    except BadSignature:
        return False


def remember(response):
    """Remember this phone as one that knows the current passcode."""
    response.set_cookie(COOKIE, _signer().dumps(_stamp(_hash() or "")), max_age=REMEMBER,
                        httponly=True, samesite="Lax", secure=request.is_secure)
    return response


def forget(response):
    """Make this phone a reader again."""
    response.delete_cookie(COOKIE, httponly=True, samesite="Lax")
    return response


def local(target: str | None, default: str = "/") -> str:
    """Return `target` if it is a page of this app (a path, perhaps with a query), else
    `default`: the unlock form never sends a phone to another site."""
    target = target or ""
    parts = urlsplit(target)
    if (not target.startswith("/") or target.startswith("//") or "\\" in target
            or parts.scheme or parts.netloc or len(target) > 2000
            or any(ord(c) < 32 for c in target)):
        return default
    return target


def _here() -> str:
    """Return the page this request asked for, as a local path with its query."""
    return local(request.full_path.rstrip("?") if request.query_string else request.path)


def _back() -> str:
    """Return the page a form was on: where a phone goes on once it has unlocked."""
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path:
        return local(referrer.path + (f"?{referrer.query}" if referrer.query else ""))
    rule = request.url_rule
    return _here() if rule is not None and "GET" in rule.methods else "/"


def carried() -> list[tuple[str, str]]:
    """Return the fields of a posted form to send again once unlocked (not a file upload)."""
    if request.mimetype != "application/x-www-form-urlencoded":
        return []
    return [(k, v) for k, v in request.form.items(multi=True)
            if k not in (FIELD, NEXT, AGAIN)]


def unlock_page(next_url: str, again: bool = False, error: str | None = None,
                status: int = 200):
    """Render the form that asks for the passcode; `again` carries the posted form, to be
    sent again to `next_url` once unlocked."""
    fields = carried() if again else []
    return render_template("unlock.html", next_url=next_url, fields=fields, again=again,
                           error=error, field=FIELD, next_field=NEXT, again_field=AGAIN,
                           carries_token=any(k == "csrf_token" for k, _ in fields)), status


def guard(app: Flask) -> None:
    """Ask for the passcode before any change when the table has one."""

    @app.before_request
    def _ask():
        view = app.view_functions.get(request.endpoint or "")
        if view is None or getattr(view, "open_to_all", False):
            return None
        if request.method not in WRITING and not getattr(view, "asks_passcode", False):
            return None
        if unlocked():
            return None
        if request.method not in WRITING:
            return redirect(url_for("settings.unlock", next=_here()))
        if request.headers.get(LIVE):
            # chips.js keeps the tap queued, and opens the unlock page with this address.
            where = url_for("settings.unlock", next=_back())
            return gettext("This phone needs the table passcode."), 403, {"X-Unlock": where}
        again = request.mimetype == "application/x-www-form-urlencoded"
        return unlock_page(_here() if again else _back(), again, status=403)

    @app.context_processor
    def _lock():
        # Asked only by a page that shows the lock (every page, through base.html).
        return {"table_locked": lambda: not unlocked()}
