"""Players' names kept apart from the text around them, for names in right-to-left scripts.

Bare in a line of English, "دانة 1" reads as "1 دانة" and "Ann · دانة · Ben" can swap its
dots about: a name in <bdi> is laid out on its own, whatever its script. Templates use the
filters `bdi` (one name), `bdi_join` (a list) and `isolate` (a sentence that names players).
A name written left to right only ("Ann", "Zoë", "李小龙") cannot move anything in these
left-to-right pages, so it is left bare: the markup, and every test that reads it, stay plain.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from flask import g, has_app_context
from markupsafe import Markup, escape

from ..words import needs_isolating


def bdi(name: object) -> Markup:
    """Return a name as HTML, isolated where it needs it: <bdi>دانة</bdi>, Ann."""
    if needs_isolating(str(name)):
        return Markup("<bdi>%s</bdi>") % name
    return escape(name)


def bdi_join(names: Iterable[object], separator: str = ", ") -> Markup:
    """Return names joined by a separator, each isolated."""
    return escape(separator).join(bdi(name) for name in names)


def isolate(text: object, names: Iterable[str] | None = None) -> Markup:
    """Return a sentence as HTML with each player's name in it isolated (by default the
    names of the game this request read)."""
    if names is None:
        names = g.get("player_names", ()) if has_app_context() else ()
    html = str(escape(text))
    wanted = sorted({str(escape(n)) for n in names if n and needs_isolating(n)}, key=len,
                    reverse=True)
    if not wanted:
        return Markup(html)
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, wanted)) + r")(?!\w)")
    return Markup(pattern.sub(r"<bdi>\1</bdi>", html))


def remember_names(names: Iterable[str]) -> None:
    """Note the players of the game this request shows, for `isolate` in its messages."""
    g.player_names = tuple(names)


def register(app) -> None:
    """Add the filters to the app's templates."""
    app.jinja_env.filters.update(bdi=bdi, bdi_join=bdi_join, isolate=isolate)
