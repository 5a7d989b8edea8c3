"""What the views share: reading a change's body first, the expired and confirm pages, a game
read for a page, and what its pages show of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_to_bytes

from flask import abort, current_app, render_template, request, url_for
from flask_babel import gettext
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge
from werkzeug.formparser import FormDataParser

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


FRAGMENT = "X-Fragment"  # app.js asks for a page's part with it: the part alone, no frame


_ANY = 2**31 - 1  # a value no id, round or page reaches, put in a link to be replaced


def link(endpoint: str, key: str, **values) -> tuple[str, str]:
    """Return a link to an endpoint cut where the value of `key` goes: built once for a
    page, each id (or number) put between the two halves, as url_for would write it."""
    # Cut at the first: the value sits in the path, before any query (a season's name).
    before, _, after = url_for(endpoint, **{key: _ANY}, **values).partition(str(_ANY))
    return before, after


def board_page(game: Loaded) -> variants.Page:
    """Return what a game's page gives its variant's board: the links that correct a round
    and explain its scores, built once and given each number."""
    return variants.Page(*link("hands.edit", "number", game_id=game.id),
                         *link("hands.why", "number", game_id=game.id))


def game_view(game: Loaded, watching: bool = False) -> dict[str, Any]:
    """Return what every page of one game shows: its variant's view-model and the page its
    board is drawn for (the board, standings and hand by hand, is the variant's template,
    included by the page), the banner's line, the hand in progress, the chart and the game's
    rules in words. A round's scores are explained on their own address, when tapped."""
    home = variants.get(game.variant)
    page = board_page(game)
    return {"game": game, "home": home, "result": game.result, "page": page,
            "vm": home.scoreboard(game, page), "live": home.live(game),
            "rules_lines": home.rules_lines(game.core),
            "banner_note": home.banner_note(game),
            "chart": charts.game_chart(game.core, game.result),
            "chart_title": charts.game_chart_title(game.core), "watching": watching}


def body_limit(config_key: str, fields: bool = False):
    """Mark a POST view that takes a file bigger than a form may be: a multipart body of up
    to `config_key` bytes, its file going to a temporary file as it comes; its text fields
    too when `fields` (a game log pasted). Any other body it gets is a form's."""
    def mark(view):
        view.body_limit = (config_key, fields)
        return view
    return mark


def read_body() -> None:
    """Read a change's whole body before anything else is done with it.

    A phone on a poor connection may take seconds to send its form; it is read here, before
    the CSRF check, the passcode or the database, so no lock is held while it arrives. Every
    body is bounded before a byte of it is parsed: by MAX_CONTENT_LENGTH (a form), or, for a
    view that takes a file (`body_limit`), by its own limit when it comes as a file does
    (multipart). Werkzeug refuses one bigger from its Content-Length, or as it streams in.
    A form's fields are kept in memory (taken apart by BoundedFormParser), a file goes to a
    temporary file as it comes. A request for no page at all is not read.
    """
    if request.method in ("GET", "HEAD", "OPTIONS") or request.routing_exception:
        return
    view = current_app.view_functions.get(request.endpoint or "")
    limit, fields = getattr(view, "body_limit", (None, False))
    if limit and request.mimetype == "multipart/form-data":
        request.max_content_length = current_app.config[limit]
        if fields:
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


_SLICE = 4096  # bytes of a field decoded at a time


class BoundedFormParser(FormDataParser):
    """Werkzeug's form parser, with a form's fields (application/x-www-form-urlencoded)
    taken apart in memory a small multiple of the body's size.

    Werkzeug decodes such a body whole with Python's parse_qsl, which splits each field at
    every "%": a body of "%25" repeated took about 85 bytes of memory per byte sent (a 20 MB
    one, 1.7 GB). Here each field is decoded a slice at a time, and a body of more fields
    than MAX_FORM_PARTS is refused (413) before any is decoded, as Werkzeug refuses such a
    multipart body.
    """

    def _parse_urlencoded(self, stream, mimetype, content_length, options):
        body = stream.read()  # bounded: it stops at max_content_length...
        if stream.read(1):  # ...where one sent without its length goes on: 413 (Werkzeug)
            raise RequestEntityTooLarge()
        if self.max_form_parts is not None and body.count(b"&") >= self.max_form_parts:
            raise RequestEntityTooLarge()
        items = []
        for pair in body.split(b"&"):
            if pair:
                name, _, value = pair.partition(b"=")
                items.append((_unquoted(name), _unquoted(value)))
        return stream, self.cls(items), self.cls()


def _unquoted(raw: bytes) -> str:
    """Return a form's name or value decoded ("+" a space, "%XX" a byte, UTF-8; a byte that
    is not UTF-8 kept as its %XX, as Werkzeug keeps it), a slice at a time."""
    raw = raw.replace(b"+", b" ")
    if b"%" not in raw:
        return raw.decode("utf-8", "werkzeug.url_quote")
    decoded = bytearray()
    start = 0
    while start < len(raw):
        end = min(start + _SLICE, len(raw))
        cut = raw.rfind(b"%", end - 2, end)  # a "%XX" is never cut in two
        if cut != -1 and end < len(raw):
            end = cut
        decoded += unquote_to_bytes(raw[start:end])
        start = end
    return decoded.decode("utf-8", "werkzeug.url_quote")
