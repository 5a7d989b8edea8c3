"""The app on the web: every page's blueprint, registered here by name, and what each request
goes through (the Host allow-list and headers, its body read first, CSRF, the passcode, the
phone's language) before a view parses it, calls the layers below and renders the answer."""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path

from flask import Flask, Request, current_app, has_request_context, request, url_for
from sqlalchemy import event
from sqlalchemy.engine import Engine
from werkzeug.routing import IntegerConverter

from .. import variants
from ..extensions import compress, csrf
from ..words import signed
from . import bidi, faults, i18n, passcode
from .pages import BoundedFormParser, read_body
from .security import guard, trusted_ipv6
from .views import (
    backup,
    cards,
    chips,
    crowds,
    games,
    hands,
    history,
    join,
    languages,
    logs,
    main,
    offline,
    players,
    room,
    seasons,
    seats,
    settings,
    trust,
)

BLUEPRINTS = (backup, cards, crowds, games, hands, history, join, languages, logs, main, offline,
              players, room, seasons, seats, settings, trust, chips)


def init(app: Flask) -> None:
    """Put the web side on the app: the checks every request goes through, the blueprints,
    the templates' helpers and the pages for a machine's faults."""
    app.request_class = TableRequest
    guard(app)
    app.before_request(read_body)  # first: before CSRF, the passcode or any database read
    csrf.init_app(app)
    passcode.guard(app)
    compress.init_app(app)
    i18n.init(app)
    app.after_request(_cache_versioned_static)
    app.url_map.converters["int"] = IdConverter
    for module in BLUEPRINTS:
        app.register_blueprint(module.bp)
    _template_helpers(app)
    faults.register(app)  # a full disk, a read-only database, a lost server: a page, 503


class TableRequest(Request):
    """Flask's request, its form taken apart in bounded memory (pages.BoundedFormParser),
    answered on a trusted IPv6 address too (security.trusted_ipv6)."""

    form_data_parser_class = BoundedFormParser

    _trusted: list[str] | None = None

    @property
    def trusted_hosts(self) -> list[str] | None:
        """The hosts Werkzeug checks the Host header against (Flask sets TRUSTED_HOSTS):
        none left to check when it is a trusted IPv6 address, checked here."""
        if trusted_ipv6(self.headers.get("host"), self._trusted):
            return None
        return self._trusted

    @trusted_hosts.setter
    def trusted_hosts(self, hosts: list[str] | None) -> None:
        self._trusted = hosts


class IdConverter(IntegerConverter):
    """An id or hand number in a URL: one the database can hold, else the page is not found.

    Every `<int:...>` in a URL is one of these, so a number past 2^31 answers 404, not 500.
    """

    def __init__(self, map, *args, **kwargs) -> None:
        kwargs.setdefault("max", 2**31 - 1)
        super().__init__(map, *args, **kwargs)


def _cache_versioned_static(response):
    """Let a phone keep a static file named with its content's hash for good."""
    if request.endpoint == "static" and request.args.get("v"):
        response.cache_control.public = True
        response.cache_control.max_age = 365 * 24 * 3600
        response.cache_control.immutable = True
    return response


# What base.html links to on every page (see frame_links below).
FRAME_FILES = ("theme.js", "icon.svg", "icons/apple-touch-icon.png", "app.css", "words.js",
               "app.js", "wakelock.js", "offline.css", "offline.js", "forms.css", "forms.js",
               "language.css")
FRAME_PAGES = ("main.manifest", "offline.worker", "main.healthz", "main.home", "history.index",
               "players.roster", "settings.page", "language.choose")


def _template_helpers(app: Flask) -> None:
    """Add `asset()` (a cache-busting static URL), `fresh_token()` and the variant filters."""
    versions: dict[tuple[str, str], str] = {}

    def asset(filename: str) -> str:
        key = (request.script_root, filename)  # the same file, the same URL, until a restart
        if key not in versions or app.debug:
            path = Path(app.static_folder) / filename
            version = hashlib.sha1(path.read_bytes()).hexdigest()[:10]
            versions[key] = url_for("static", filename=filename, v=version)
        return versions[key]

    app.extensions["asset"] = asset
    app.jinja_env.globals["asset"] = asset
    frames: dict[str, dict[str, str]] = {}

    def frame_links() -> dict[str, str]:
        # The addresses every page's frame (base.html) links to: its static files by content
        # and the header's pages. They change only with a restart, as asset()'s do, so they
        # are worked out once, not a dozen url_for and asset calls on every page.
        root = request.script_root
        if root not in frames or app.debug:
            links = {name: asset(name) for name in FRAME_FILES}
            links.update({endpoint: url_for(endpoint) for endpoint in FRAME_PAGES})
            frames[root] = links
        return frames[root]

    app.jinja_env.globals["frame_links"] = frame_links
    app.jinja_env.globals["fresh_token"] = lambda: secrets.token_urlsafe(12)
    app.jinja_env.globals["homes"] = variants.homes
    app.jinja_env.filters["home"] = variants.get
    app.jinja_env.filters["variant_label"] = lambda name: variants.get(name).label
    app.jinja_env.filters["signed"] = signed  # a rating's change: "+41", "−12"
    bidi.register(app)


_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@event.listens_for(Engine, "before_cursor_execute")
def _no_write_without_lock(connection, _cursor, statement, _parameters, _context, _many):
    """Under test, refuse a page's write to SQLite that did not take `db.lock` first.

    Such a write would race another phone's; the tests would not see it, as they seldom
    write at the same moment, so they are told here.
    """
    if (has_request_context() and current_app.testing
            and connection.dialect.name == "sqlite"
            and statement.lstrip().upper().startswith(_WRITES)
            and not connection.get_execution_options().get("write_lock")):
        raise RuntimeError(f"{request.endpoint} writes without db.lock(): {statement}")
