"""The live pot of a chips game: tap a pass or a penalty, undo the last tap."""

from __future__ import annotations

import secrets

from flask import Blueprint, flash, redirect, render_template, request, url_for
from sqlalchemy.exc import IntegrityError

from .. import live, rules, store
from ..extensions import csrf, db
from ..forms import ConfirmForm
from ..models import Event, Game

bp = Blueprint("chips", __name__, url_prefix="/games/<int:game_id>/chips")
PARTIAL = "X-Live-Panel"  # header sent by chips.js: answer with the panel, not a redirect


@bp.app_template_global()
def fresh_token() -> str:
    """Return a new once-only token for a tap button."""
    return secrets.token_urlsafe(12)


@bp.app_template_global()
def chips_panel(game: Game, result: rules.GameResult | None = None):
    """Return what the live pot shows for a game."""
    return live.panel(game, result)


@bp.app_template_global()
def chips_stories(game: Game, result: rules.GameResult):
    """Return each played hand's payments, in words the table uses."""
    return live.stories(game, result)


@bp.app_template_global()
def chips_preview(game: Game, number: int):
    """Return the pot of a hand before its cards are paid, for the record-hand page."""
    return live.preview(game, number)


def _number() -> int:
    """Return the hand number a tap was meant for (0 when missing)."""
    raw = request.form.get("number", "")
    return int(raw) if raw.isdigit() else 0


def _answer(game: Game, error: str | None = None):
    """Answer a tap: the panel for chips.js, else back to the scoreboard (422 on an error)."""
    status = 422 if error else 200
    if request.headers.get(PARTIAL):
        return render_template("chips/live.html", game=game, form=ConfirmForm(),
                               panel=live.panel(game), live_error=error), status
    if error is None:
        return redirect(url_for("games.scoreboard", game_id=game.id, _anchor="live"))
    core = store.core_game(game)
    outcome = rules.play(core)
    if live.panel(game, outcome) is None:
        flash(error)  # no live pot to show it in: the game is over
    return render_template("scoreboard.html", game=game, core=core, result=outcome,
                           variant=rules.get_variant(game.variant), form=ConfirmForm(),
                           live_error=error), status


def _expired(game: Game):
    """Answer a tap whose form had expired: nothing was saved."""
    message = "This page had expired, so that tap was not saved. Please tap again."
    if request.headers.get(PARTIAL):
        return _answer(game, message)
    flash(message)
    return redirect(url_for("games.scoreboard", game_id=game.id, _anchor="live"))


@bp.route("/events", methods=["POST"])
@csrf.exempt  # checked below, so a stale page is answered with the live pot, not an error page
def tap(game_id: int):
    """Record one pass, king held or missed draw in the hand in progress."""
    game = db.get_or_404(Game, game_id)
    if not ConfirmForm().validate_on_submit():
        return _expired(game)
    players = store.core_game(game).players
    seat = request.form.get("player", "")
    token = request.form.get("token") or None
    try:
        if not seat.isdigit() or int(seat) >= len(players):
            raise rules.RuleError(f"there is no player at seat {seat!r}", "player")
        live.add_event(game, _number(), players[int(seat)], request.form.get("kind", ""), token)
        db.session.commit()
    except rules.RuleError as error:
        db.session.rollback()
        return _answer(game, _sentence(error.message))
    except IntegrityError:
        # Two phones tapped at once: the same tap twice is saved once, two taps need a retry.
        db.session.rollback()
        if token is None or db.session.query(Event.id).filter_by(token=token).first() is None:
            return _answer(game, "Another phone tapped at the same moment: tap again.")
    return _answer(game)


@bp.route("/undo", methods=["POST"])
@csrf.exempt  # checked below, as for a tap
def undo(game_id: int):
    """Take back the last event of the hand in progress."""
    game = db.get_or_404(Game, game_id)
    if not ConfirmForm().validate_on_submit():
        return _expired(game)
    raw = request.form.get("event", "")
    try:
        undone = live.undo_last(game, _number(), int(raw) if raw.isdigit() else None)
        db.session.commit()
    except rules.RuleError as error:
        db.session.rollback()
        return _answer(game, _sentence(error.message))
    if undone is not None and not request.headers.get(PARTIAL):
        flash(f"Undone: {undone.player.name}, {live.KIND_LABELS[undone.kind].lower()}.")
    return _answer(game)


@bp.route("/live")
def panel(game_id: int):
    """Show the live pot alone, for a phone that refreshes it while the hand goes on."""
    game = db.get_or_404(Game, game_id)
    return render_template("chips/live.html", game=game, form=ConfirmForm(),
                           panel=live.panel(game))


def _sentence(message: str) -> str:
    """Return a rules message as a sentence."""
    return message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
