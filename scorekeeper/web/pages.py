"""What the views share: reading a change's body first, the expired and confirm pages, a game
read for a page, and what its pages show of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, current_app, render_template, request, url_for
from flask_babel import gettext
from werkzeug.exceptions import BadRequest

from .. import variants
from ..db import Loaded, read_game
from ..reports import charts
from ..words import N_, reason, sentence
from . import bidi
from .forms import ConfirmForm
from .passcode import OWN_FIELDS


def asset_url(filename: str) -> str:
    """Return a static file's URL named by its content, kept by a phone for good."""
    return current_app.extensions["asset"](filename)


# What an expired form did not do, and what to do instead (see expired()).
_NOT_DONE = {"saved": N_("saved"), "restored": N_("restored"), "started": N_("started"),
             "deleted": N_("deleted"), "imported": N_("imported"), "moved": N_("moved"),
             "merged": N_("merged"), "changed": N_("changed"), "taken": N_("taken"),
             "sent": N_("sent")}
_AGAIN = {"try again": N_("try again"), "tap again": N_("tap again"),
          "save again": N_("save again"), "tap Rematch again": N_("tap Rematch again"),
          "tap your name again": N_("tap your name again"), "tap it again": N_("tap it again")}


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


_ANY = 2**31 - 1  # a value no id, round or page reaches, put in a link to be replaced


def link(endpoint: str, key: str, **values) -> tuple[str, str]:
    """Return a link to an endpoint cut where the value of `key` goes: built once for a
    page, each id (or number) put between the two halves, as url_for would write it."""
    # Cut at the first: the value sits in the path, before any query (a season's name).
    before, _, after = url_for(endpoint, **{key: _ANY}, **values).partition(str(_ANY))
    return before, after


def board_page(game: Loaded, watching: bool = False) -> variants.Page:
    """Return what a game's page gives its variant's board: each name isolated once for the
    page, and the link that corrects a round built once and given each number."""
    before, after = link("hands.edit", "number", game_id=game.id)
    return variants.Page({name: bidi.bdi(name) for name in game.players}, before, after,
                         watching)


def game_view(game: Loaded, watching: bool = False) -> dict[str, Any]:
    """Return what every page of one game shows: its variant's view-model and the page its
    board is drawn for (the board, standings and hand by hand, is the variant's template,
    included by the page), the banner's line, the hand in progress and the chart."""
    home = variants.get(game.variant)
    page = board_page(game, watching)
    return {"game": game, "home": home, "result": game.result, "page": page,
            "vm": home.scoreboard(game, page), "live": home.live(game),
            "banner_note": home.banner_note(game),
            "chart": charts.game_chart(game.core, game.result),
            "chart_title": charts.game_chart_title(game.core), "watching": watching}


def body_limit(config_key: str):
    """Mark a POST view whose body may be bigger than a form's: up to `config_key` bytes."""
    def mark(view):
        view.body_limit = config_key
        return view
    return mark


def read_body() -> None:
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
