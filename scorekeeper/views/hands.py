"""Record a hand, edit a past one, delete the last one."""

from __future__ import annotations

import secrets

from flask import Blueprint, flash, redirect, render_template, request, url_for

from .. import rules, store
from ..entry import CARD_BUTTONS, KING_BUTTONS, READERS, REFILLERS, Errors, input_for
from ..extensions import csrf, db
from ..forms import HandForm
from ..models import Game

bp = Blueprint("hands", __name__, url_prefix="/games/<int:game_id>/hands")


def _form_page(game: Game, form: HandForm, number: int, errors: Errors, values, editing: bool):
    """Render the hand form, keeping what was typed."""
    core = store.core_game(game)
    outcome = rules.play(core)
    if editing:
        dealer = outcome.rounds[number - 1].dealer
    else:
        dealer = outcome.next_dealer
    return render_template(
        "hand_form.html", game=game, core=core, result=outcome, form=form, number=number,
        errors=errors.by_input, values=values, editing=editing, dealer=dealer,
        card_buttons=CARD_BUTTONS, king_buttons=KING_BUTTONS,
        variant=rules.get_variant(game.variant)), 422 if errors else 200


def _saved(game: Game, number: int, editing: bool):
    """Try to store the posted hand; return the error list (empty when saved)."""
    errors = Errors()
    players = store.core_game(game).players
    entry = READERS[game.variant](request.form, players, errors)
    if errors:
        return errors
    try:
        if editing:
            store.edit_round(game, number, entry)
        else:
            store.record_round(game, number, entry, request.form.get("token"))
        db.session.commit()
    except rules.RuleError as error:
        db.session.rollback()
        errors.add(input_for(error, players), error.message[:1].upper() + error.message[1:])
    return errors


@bp.route("/new", methods=["GET", "POST"])
# This form checks its own CSRF token, so an expired one is answered on the form,
# keeping what was typed, instead of with the bare CSRF error page.
@csrf.exempt
def record(game_id: int):
    """Record the next hand: who went out, what everyone else held."""
    game = db.get_or_404(Game, game_id)
    form = HandForm()
    if form.validate_on_submit():
        number = int(form.number.data) if (form.number.data or "").isdigit() else 0
        repeat = store.round_with_token(form.token.data)
        errors = _saved(game, number, editing=False)
        if not errors:
            if repeat is not None:  # the back button, or a second tap: nothing changed
                flash(f"Hand {repeat.number} was saved already; tap ✎ to change it.")
            return redirect(url_for("games.scoreboard", game_id=game.id))
        return _form_page(game, form, number, errors, request.form, editing=False)
    errors = Errors()
    if request.method == "POST":
        errors.add("general", "This form had expired; nothing was saved. Please save again.")
    if store.result(game).over and request.method == "GET":
        flash("The game is over; reopen it or edit a hand to play on.")
        return redirect(url_for("games.scoreboard", game_id=game.id))
    number = len(game.rounds) + 1
    form.number.data = str(number)
    form.token.data = secrets.token_urlsafe(16)
    return _form_page(game, form, number, errors, request.form, editing=False)


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@csrf.exempt  # as record()
def edit(game_id: int, number: int):
    """Correct a past hand; totals, dealers and the end of the game follow."""
    game = db.get_or_404(Game, game_id)
    if not 1 <= number <= len(game.rounds):
        flash(f"There is no hand {number} in this game.")
        return redirect(url_for("games.scoreboard", game_id=game.id))
    form = HandForm()
    if form.validate_on_submit():
        errors = _saved(game, number, editing=True)
        if not errors:
            flash(f"Hand {number} changed.")
            return redirect(url_for("games.scoreboard", game_id=game.id))
        return _form_page(game, form, number, errors, request.form, editing=True)
    errors, values = Errors(), _stored_values(game, number)
    if request.method == "POST":
        errors.add("general", "This form had expired; nothing was saved. Please save again.")
        values = request.form
    form.number.data = str(number)
    return _form_page(game, form, number, errors, values, editing=True)


def _stored_values(game: Game, number: int) -> dict[str, str]:
    """Return a stored hand as the form's inputs."""
    core = store.core_game(game)
    return REFILLERS[game.variant](core.players, core.rounds[number - 1])


@bp.route("/last/delete", methods=["POST"])
def delete_last(game_id: int):
    """Delete the last hand entered."""
    game = db.get_or_404(Game, game_id)
    form = HandForm()
    # The hand's number is posted so a double tap cannot delete the hand before it too.
    if form.validate_on_submit() and form.number.data == str(len(game.rounds)):
        number = store.delete_last_round(game)
        db.session.commit()
        flash(f"Hand {number} deleted.")
    return redirect(url_for("games.scoreboard", game_id=game.id))
