"""The live pot of a chips game on the web: tap a pass or a penalty, undo the last tap."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from ... import play, rules
from ...extensions import csrf
from ...variants.chips import HOME
from ...variants.chips.live import kind_word, label
from .. import own_phones, passcode
from ..forms import ConfirmForm, TapForm, UndoForm
from ..pages import expired, game_or_404, game_view, refusal

bp = Blueprint("chips", __name__, url_prefix="/games/<int:game_id>/chips")
bp.add_app_template_global(kind_word)
PARTIAL = "X-Live-Panel"  # header sent by chips.js: answer with the panel, not a redirect


def _answer(game_id: int, error: str | None = None):
    """Answer a tap: the panel for chips.js, else back to the scoreboard (422 on an error)."""
    status = 422 if error else 200
    game = game_or_404(game_id)  # read again: the tap changed it
    if request.headers.get(PARTIAL):
        return _panel(game, error), status
    if error is None:
        return redirect(url_for("games.scoreboard", game_id=game.id, _anchor="live"))
    view = game_view(game)
    if view["live"] is None:
        flash(error)  # no live pot to show it in: the game is over
    return render_template("scoreboard.html", form=ConfirmForm(), live_error=error,
                           table=own_phones.seats_view(game), join_to=own_phones.join_path(game),
                           **view), status


def _expired(game_id: int):
    """Answer a tap whose form had expired: nothing was saved."""
    message = expired(again="tap again")
    if request.headers.get(PARTIAL):
        return _answer(game_id, message)
    flash(message)
    return redirect(url_for("games.scoreboard", game_id=game_id, _anchor="live"))


@bp.route("/events", methods=["POST"])
@csrf.exempt  # checked below, so a stale page is answered with the live pot, not an error page
@passcode.lets(lambda: own_phones.own_seat("player"))  # a seated phone taps its own keys
def tap(game_id: int):
    """Record one pass, king held or missed draw in the hand in progress."""
    form = TapForm()
    if not form.validate_on_submit():
        if "csrf_token" in form.errors:
            return _expired(game_id)
        if "player" in form.errors:
            return _answer(game_id, gettext("There is no player at seat %(seat)s, so nothing "
                                            "was saved.",
                                            seat=repr(request.form.get("player", ""))))
        return _answer(game_id, gettext("That tap could not be read, so nothing was saved: tap "
                                        "again."))
    try:
        play.tap(game_id, form.number.data or 0, form.player.data, form.kind.data or "",
                 form.token.data or None)
    except play.NoSuchGame:
        abort(404)
    except play.Crossed:
        return _answer(game_id, gettext("Another phone tapped at the same moment: tap again."))
    except rules.RuleError as error:
        return _answer(game_id, refusal(error))
    return _answer(game_id)


@bp.route("/undo", methods=["POST"])
@csrf.exempt  # checked below, as for a tap
@passcode.lets(own_phones.own_tap)  # a seated phone takes back its own tap
def undo(game_id: int):
    """Take back the last event of the hand in progress."""
    form = UndoForm()
    if not form.validate_on_submit():
        if "csrf_token" in form.errors:
            return _expired(game_id)
        return _answer(game_id, gettext("That undo could not be read, so nothing was undone."))
    try:
        undone = play.untap(game_id, form.number.data or 0, form.event.data)
    except play.NoSuchGame:
        abort(404)
    except rules.RuleError as error:
        return _answer(game_id, refusal(error))
    if undone is not None and not request.headers.get(PARTIAL):
        flash(gettext("Undone: %(name)s, %(what)s.", name=undone.player,
                      what=label(undone.kind).lower()))
    return _answer(game_id)


@bp.route("/live")
def panel(game_id: int):
    """Show the live pot alone, for a phone that refreshes it while the hand goes on."""
    return _panel(game_or_404(game_id))


def _panel(game, error: str | None = None) -> str:
    """Render the live pot alone."""
    return render_template("variants/chips/live.html", game=game, live=HOME.live(game),
                           live_error=error, live_mine=own_phones.my_seat(game.id))
