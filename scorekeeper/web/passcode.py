"""The table passcode: off until someone sets it, then only a phone that knows it changes things.

- Stored hashed (werkzeug's scrypt) in the `setting` table, never in a backup.
- A phone that gives it once gets a random key of its own in a cookie; the server keeps
  the key's digest with when it expires (REMEMBER), so each phone can be forgotten alone on
  the settings page, and a copied cookie stops working when its phone is forgotten, when
  it expires, or when the passcode changes or goes (every key is dropped then).
- Wrong guesses (of the passcode or of a game's join code) are counted in the database
  (every server process counts them together) before they are checked, per phone address
  (GUESSES) and for the whole table (CEILING), so guesses sent together, or from many
  addresses, cannot slip past the limit; a right one is given back.
- The hash is checked outside any write lock, one check at a time: a burst of guesses
  never makes another phone's save wait on a hash. Counting each guess is one short write
  of its own, though, so a flood of them takes turns with the saves (one row each).
- Without it a phone reads everything: scoreboards stay live, history and statistics
  open. Every change (any POST) and the pages that only lead to one (`asks`) first ask for
  the passcode, then carry on: a GET goes on to its page, a posted form is sent again,
  but only a form that carried its own valid CSRF token (never one forged elsewhere).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable
from datetime import timedelta
from urllib.parse import urlsplit

from flask import Flask, current_app, g, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf.csrf import ValidationError, validate_csrf

from .. import play
from ..db import access
from ..db.access import LONGEST, SHORTEST  # noqa: F401  (the settings page's)
from ..db.models import UnlockedPhone, table_time

COOKIE = "kc_phone"
REMEMBER = timedelta(days=180)  # how long a phone stays unlocked without giving it again
FIELD = "unlock_passcode"  # the unlock form's own fields, apart from any form it carries
NEXT = "unlock_next"
AGAIN = "unlock_again"
OWN_FIELDS = (FIELD, NEXT, AGAIN)  # never carried on to another form or page
WRITING = ("POST", "PUT", "PATCH", "DELETE")
LIVE = "X-Live-Panel"  # a background tap (chips.js): told where to unlock, not shown a page
# Wrong passcodes a phone may try (by its address) before it waits: (how many, in seconds).
GUESSES = ((5, 60), (20, 3600))
# Wrong passcodes and join codes from every address together: (how many, in seconds).
CEILING = ((30, 60), (300, 3600))


def asks(view):
    """Mark a view whose GET only leads to a change (a form), so it asks first."""
    view.asks_passcode = True
    return view


def lets(check):
    """Mark a view that a phone without the passcode may still use when `check()` says so
    (a player's own seat, taken by the table's QR code): checked before the passcode."""
    def mark(view):
        view.lets_through = check
        return view
    return mark


def open_to_all(view):
    """Mark a POST view any phone may use (the unlock form itself)."""
    view.open_to_all = True
    return view


def _hash() -> str | None:
    """Return the stored hash (read once per request), or None when there is no passcode."""
    if "kc_passcode" not in g:
        g.kc_passcode = access.passcode()
    return g.kc_passcode


def is_on() -> bool:
    """Tell whether the table has a passcode."""
    return _hash() is not None


def store(text: str) -> bool:
    """Set the passcode (checked as typed), replacing any other and forgetting every phone;
    return whether there was one."""
    was_on = play.set_passcode(text)
    g.pop("kc_passcode", None)
    return was_on


def clear() -> bool:
    """Remove the passcode and every phone's key: every phone may change things again;
    return whether there was one."""
    was_on = play.clear_passcode()
    g.pop("kc_passcode", None)
    return was_on


def matches(text: str | None) -> bool:
    """Tell whether `text` is the table's passcode (no lock is held while it is hashed)."""
    return access.matches(_hash(), text)


def take_guess(address: str) -> tuple[int, bool]:
    """Count a guess from `address` before it is checked; return (0, False), or the seconds
    to wait (nothing counted) and whether the whole table waits (its ceiling reached) or
    this phone. Counted in the database, one at a time, so guesses sent together, or to
    several server processes, are counted one by one: no more than the limit is ever
    checked. The table's own ceiling (CEILING) stops a stranger with many addresses (a home
    network gives IPv6 ones freely); a phone that knows the passcode is never asked it
    again, so it keeps working meanwhile."""
    return play.count_guess(address, GUESSES, CEILING)


def give_back_guess(address: str) -> None:
    """Uncount the guess just taken from `address`: it was right."""
    play.right_guess(address)


def join_code_checked(right: Callable[[], bool]) -> bool | str:
    """Check a join code a phone brought (`right()` says whether it is the game's or the
    night's) as a guess of the passcode is: counted before it is checked, given back when
    right. Return whether it was right, or, when the phone must wait first (nothing is
    checked), what to tell it."""
    address = request.remote_addr or ""
    wait, everyone = take_guess(address)
    if wait:
        return gettext("Too many wrong codes at this table just now. Try again in %(wait)s s.",
                       wait=wait) if everyone else gettext(
            "Too many wrong codes from this phone. Try again in %(wait)s s.", wait=wait)
    if not right():
        return False
    give_back_guess(address)  # a right code never counts
    return True


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def this_phone() -> UnlockedPhone | None:
    """Return this phone's key row, if its cookie holds a key that has not expired."""
    if "kc_phone" not in g:
        key = request.cookies.get(COOKIE, "")
        g.kc_phone = (access.phone(_digest(key), table_time())
                      if 20 <= len(key) <= 100 else None)
    return g.kc_phone


def unlocked() -> bool:
    """Tell whether this phone may change things: no passcode, or it gave the current one."""
    return _hash() is None or this_phone() is not None


def phones() -> list[UnlockedPhone]:
    """Return the phones that may change things now, the latest first."""
    return access.phones(table_time())


def describe(agent: str) -> str:
    """Return a phone's kind in a few words from its User-Agent ("iPhone · Safari")."""
    device = next((name for pattern, name in (
        (r"iPhone", "iPhone"), (r"iPad", "iPad"), (r"Android", "Android"),
        (r"Macintosh|Mac OS X", "Mac"), (r"Windows", "Windows"), (r"CrOS", "Chromebook"),
        (r"Linux", "Linux")) if re.search(pattern, agent)), "")
    browser = next((name for pattern, name in (
        (r"Edg/", "Edge"), (r"Firefox/|FxiOS/", "Firefox"), (r"SamsungBrowser/", "Samsung"),
        (r"Chrome/|CriOS/", "Chrome"), (r"Safari/", "Safari")) if re.search(pattern, agent)),
        "")
    return " · ".join(part for part in (device, browser) if part)[:80]


def remember(response):
    """Give this phone a key of its own, kept REMEMBER long.

    Only the digest is stored: the database alone cannot unlock a phone.
    """
    key = secrets.token_urlsafe(32)
    play.remember_phone(_digest(key), describe(request.headers.get("User-Agent", "")),
                        REMEMBER)
    g.pop("kc_phone", None)
    response.set_cookie(COOKIE, key, max_age=int(REMEMBER.total_seconds()), httponly=True,
                        samesite="Lax", secure=request.is_secure)
    return response


def forget_phone(phone_id: int | None = None) -> None:
    """Drop a phone's key (this phone's, without an id)."""
    mine = this_phone()
    target = phone_id if phone_id is not None else (mine.id if mine else None)
    if target is not None:
        play.forget_phone(target)
    g.pop("kc_phone", None)


def forget(response):
    """Make this phone a reader again (its cookie goes; `forget_phone` drops its key)."""
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
    return [(k, v) for k, v in request.form.items(multi=True) if k not in OWN_FIELDS]


def own_token() -> bool:
    """Tell whether a posted form carries this phone's own CSRF token.

    Views that check their token themselves (to answer a stale page on its form) are exempt
    from Flask-WTF's check, so the passcode guard checks it before anything else: a form
    posted from another site has no token of this phone's, and must never be carried on.
    """
    if not current_app.config.get("WTF_CSRF_ENABLED", True):
        return True
    try:
        validate_csrf(request.form.get("csrf_token"))
    except ValidationError:
        return False
    return True


def unlock_page(next_url: str, again: bool = False, error: str | None = None,
                status: int = 200, note: str | None = None):
    """Render the form that asks for the passcode; `again` carries the posted form, to be
    sent again to `next_url` once unlocked. The form's own token goes with it: a form is
    carried only when it brought one (see `own_token`), so no other token is added."""
    fields = carried() if again else []
    return render_template("unlock.html", next_url=next_url, fields=fields, again=again,
                           error=error, note=note, field=FIELD, next_field=NEXT,
                           again_field=AGAIN,
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
        check = getattr(view, "lets_through", None)
        if check is not None and check():
            return None
        if request.method not in WRITING:
            return redirect(url_for("settings.unlock", next=_here()))
        return refuse_write()

    @app.context_processor
    def _lock():
        # Asked only by a page that shows the lock (every page, through base.html).
        return {"table_locked": lambda: not unlocked()}


def refuse_write():
    """Answer a change asked by a phone without the passcode: where to unlock (a background
    tap), or the unlock form carrying what was posted, to be sent again once unlocked."""
    if request.headers.get(LIVE):
        # chips.js keeps the tap queued, and opens the unlock page with this address.
        where = url_for("settings.unlock", next=_back())
        return gettext("This phone needs the table passcode."), 403, {"X-Unlock": where}
    if not own_token():
        # Not this phone's form (another site's, or a page from before its session):
        # nothing is carried, so nothing can be sent on with a token it never had.
        return unlock_page(_back(), status=403, note=gettext(
            "Nothing was sent: that form was not this phone's own, or its page had "
            "expired. Give the passcode, then do it again."))
    again = request.mimetype == "application/x-www-form-urlencoded"
    return unlock_page(_here() if again else _back(), again, status=403)
