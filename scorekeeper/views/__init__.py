"""Blueprints: thin views that parse, call storage, build a view-model, render or redirect."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import pkgutil
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, abort, current_app, render_template, request, url_for
from flask_babel import gettext
from markupsafe import Markup
from werkzeug.routing import IntegerConverter

from .. import bidi, charts, variants
from ..forms import ConfirmForm
from ..i18n import N_, language, reason
from ..passcode import OWN_FIELDS
from ..storage import Loaded, locked_game, read_game, stamp
from ..words import sentence


class IdConverter(IntegerConverter):
    """An id or hand number in a URL: one the database can hold, else the page is not found.

    Every `<int:...>` in a URL is one of these, so a number past 2^31 answers 404, not 500.
    """

    def __init__(self, map, *args, **kwargs) -> None:
        kwargs.setdefault("max", 2**31 - 1)
        super().__init__(map, *args, **kwargs)


def register_blueprints(app: Flask) -> None:
    """Attach the blueprint `bp` of every view module and of every variant's `views`."""
    app.url_map.converters["int"] = IdConverter
    app.extensions["drawn"] = Drawn()
    app.extensions["kept"] = stamp.Kept()
    modules = [f"{__name__}.{info.name}"
               for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name)]
    for home in variants.homes():
        package = sys.modules[type(home).__module__]
        # A home that is a package may have a `views` module: its web side.
        if hasattr(package, "__path__") and importlib.util.find_spec(
                f"{package.__name__}.views") is not None:
            modules.append(f"{package.__name__}.views")
    for name in modules:
        module = importlib.import_module(name)
        if hasattr(module, "bp"):
            app.register_blueprint(module.bp)
    _template_helpers(app)


def asset_url(filename: str) -> str:
    """Return a static file's URL named by its content, kept by a phone for good."""
    return current_app.extensions["asset"](filename)


# What an expired form did not do, and what to do instead (see expired()).
_NOT_DONE = {"saved": N_("saved"), "restored": N_("restored"), "started": N_("started"),
             "deleted": N_("deleted"), "imported": N_("imported"), "moved": N_("moved"),
             "merged": N_("merged"), "changed": N_("changed")}
_AGAIN = {"try again": N_("try again"), "tap again": N_("tap again"),
          "save again": N_("save again"), "tap Rematch again": N_("tap Rematch again")}


def expired(nothing: str = "saved", again: str = "try again") -> str:
    """Return the message for a form whose token had expired: nothing was done."""
    return gettext("This page had expired; nothing was %(nothing)s. Please %(again)s.",
                   nothing=gettext(_NOT_DONE.get(nothing, nothing)),
                   again=gettext(_AGAIN.get(again, again)))


def posted(form) -> bool:
    """Tell whether a form was posted with a live token; its own fields are read by the caller."""
    return form.is_submitted() and (form.validate() or "csrf_token" not in form.errors)


CONFIRMED = "confirmed"  # posted as "1" once a destructive button was confirmed


def unconfirmed(question: str, button: str, back: str, detail: str = "",
                keep: str | None = None):
    """Return the page that asks before a destructive button goes through, or None once asked.

    With JavaScript the page asks in place and app.js posts `confirmed=1` (forms marked
    `data-confirm`, or `data-quick` for an undo that needs no question); without it the
    button lands here first, and this page posts the same fields again, confirmed.
    """
    if request.form.get(CONFIRMED) == "1":
        return None
    fields = [(name, value) for name, value in request.form.items(multi=True)
              if name not in ("csrf_token", CONFIRMED, *OWN_FIELDS)]
    return render_template("confirm.html", question=question, button=button, back=back,
                           detail=detail, keep=keep or gettext("Cancel"), fields=fields,
                           action=request.path,
                           form=ConfirmForm())


def error_summary(errors: dict[str, str], place: Callable[[str], tuple],
                  is_input: Callable[[str], bool]) -> list[dict[str, str]]:
    """Return a refused form's errors in the order the page shows them, each with the id its
    summary link goes to: the input itself (the first of a row of taps), else the message.

    The first is the one the page focuses (autofocus): a refused save opens at it.
    """
    return [{"name": name, "message": message,
             "anchor": name if is_input(name) else f"{name}-error"}
            for name, message in sorted(errors.items(), key=lambda item: place(item[0]))]


def refusal(error: Exception) -> str:
    """Return a refusal of the rules or storage as a sentence."""
    return sentence(reason(error))


def game_or_404(game_id: int) -> Loaded:
    """Return a stored game, read once for the whole request, or answer 404."""
    game = read_game(game_id)
    if game is None:
        abort(404)
    bidi.remember_names(game.players)
    return game


def locked_or_404(game_id: int) -> Loaded:
    """Take a game's write lock and return it read inside the lock, or answer 404."""
    game = locked_game(game_id)
    if game is None:
        abort(404)
    bidi.remember_names(game.players)
    return game


class Drawn:
    """Parts of a game's pages drawn once per state of the game, kept for the next phone.

    After each change every phone at the table opens the same scoreboard: its standings,
    hand-by-hand table and chart are the same for all of them, so each is drawn once. The
    key is the game as read (`repr` of the whole Loaded game: every stored field, rounds,
    taps), so a game that changed in any way is drawn afresh, never shown from before, and
    the language it is drawn in: a Spanish phone is never shown an English board.
    """

    def __init__(self, size: int = 64) -> None:
        self._parts = stamp.Kept(size)

    def get(self, key: tuple, draw: Callable[[], str]) -> Markup:
        """Return the part kept under `key`, drawing and keeping it the first time."""
        return self._parts.lookup(key, lambda: Markup(draw()))


def game_view(game: Loaded, watching: bool = False) -> dict[str, Any]:
    """Return what every page of one game shows: its variant's view-model, banner, and the
    board (standings, hand by hand) and chart, drawn once per state of the game."""
    home = variants.get(game.variant)
    drawn: Drawn = current_app.extensions["drawn"]
    state = (repr(game), language())
    board = drawn.get(("board", watching, state), lambda: render_template(
        home.template("scoreboard"), game=game, home=home, result=game.result,
        vm=home.scoreboard(game), watching=watching))
    chart = drawn.get(("chart", state), lambda: charts.game_chart(game.core, game.result))
    return {"game": game, "home": home, "result": game.result, "board": board,
            "live": home.live(game), "banner_note": home.banner_note(game),
            "chart": chart, "chart_title": charts.game_chart_title(game.core),
            "watching": watching}


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
    app.jinja_env.globals["fresh_token"] = lambda: secrets.token_urlsafe(12)
    app.jinja_env.globals["homes"] = variants.homes
    app.jinja_env.filters["home"] = variants.get
    app.jinja_env.filters["variant_label"] = lambda name: variants.get(name).label
    bidi.register(app)
