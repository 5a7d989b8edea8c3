"""Record a hand, correct a past one, delete the last one, preview one as it is tapped."""

from __future__ import annotations

import secrets

from flask import Blueprint, flash, redirect, render_template, request, url_for

from .. import rules, variants
from ..extensions import csrf, db
from ..forms import HandForm
from ..storage import Loaded, delete_last_round, edit_round, record_round, round_with_token
from ..words import capital
from . import expired, game_or_404, locked_or_404, posted

bp = Blueprint("hands", __name__, url_prefix="/games/<int:game_id>/hands")


def _form_page(game: Loaded, form: HandForm, number: int, errors: variants.Errors, values,
               editing: bool):
    """Render the round form, keeping what was typed."""
    home = variants.get(game.variant)
    return render_template(
        "hand_form.html", game=game, home=home, result=game.result, form=form, number=number,
        errors=errors.by_input, values=values, editing=editing,
        vm=home.hand_form(game, number, editing)), 422 if errors else 200


def _read(game: Loaded, number: int) -> tuple[rules.Round, variants.Errors]:
    """Return the round the posted form describes, and what could not be read."""
    home = variants.get(game.variant)
    errors = variants.Errors()
    entry = home.read_round(request.form, game.players, errors)
    return entry, errors


def _saved(game: Loaded, number: int, editing: bool) -> variants.Errors:
    """Try to store the posted round; return the errors (none when saved)."""
    entry, errors = _read(game, number)
    if errors:
        return errors
    try:
        if editing:
            edit_round(game, number, entry)
        else:
            record_round(game, number, entry, request.form.get("token"))
        db.session.commit()
    except rules.RuleError as error:
        db.session.rollback()
        home = variants.get(game.variant)
        errors.add(home.input_for(error, game.players), capital(error.message))
    return errors


@bp.route("/new", methods=["GET", "POST"])
# This form checks its own CSRF token, so an expired one is answered on the form,
# keeping what was typed, instead of with the bare CSRF error page.
@csrf.exempt
def record(game_id: int):
    """Record the next round: who went out and what everyone else held (or the deal)."""
    form = HandForm()
    if posted(form):
        game = locked_or_404(game_id)
        number = form.number.data or 0
        repeat = round_with_token(form.token.data)
        errors = _saved(game, number, editing=False)
        if not errors:
            if repeat is not None:  # the back button, or a second tap: nothing changed
                flash(f"{capital(variants.get(game.variant).word())} {repeat.number} was "
                      "saved already; tap ✎ to change it.")
            return redirect(url_for("games.scoreboard", game_id=game.id))
        return _form_page(game, form, number, errors, request.form, editing=False)
    game = game_or_404(game_id)
    errors = variants.Errors()
    if request.method == "POST":
        errors.add("general", expired(again="save again"))
    elif game.result.over:
        flash("The game is over; reopen it or edit a hand to play on.")
        return redirect(url_for("games.scoreboard", game_id=game.id))
    number = game.next_number
    form.number.data = number
    form.token.data = secrets.token_urlsafe(16)
    return _form_page(game, form, number, errors, request.form, editing=False)


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@csrf.exempt  # as record()
def edit(game_id: int, number: int):
    """Correct a past round; totals, dealers and the end of the game follow."""
    form = HandForm()
    game = locked_or_404(game_id) if posted(form) else game_or_404(game_id)
    home = variants.get(game.variant)
    if not 1 <= number < game.next_number:
        flash(f"There is no {home.word()} {number} in this game.")
        return redirect(url_for("games.scoreboard", game_id=game.id))
    if posted(form):
        errors = _saved(game, number, editing=True)
        if not errors:
            flash(f"{capital(home.word())} {number} changed.")
            return redirect(url_for("games.scoreboard", game_id=game.id))
        return _form_page(game, form, number, errors, request.form, editing=True)
    errors = variants.Errors()
    values = home.round_values(game.players, game.core.rounds[number - 1])
    if request.method == "POST":
        errors.add("general", expired(again="save again"))
        values = request.form
    form.number.data = number
    return _form_page(game, form, number, errors, values, editing=True)


@bp.route("/<int:number>/preview", methods=["POST"])
@csrf.exempt  # writes nothing: it only scores what is tapped so far
def preview(game_id: int, number: int):
    """Return the round form's preview for what is tapped so far, as an HTML fragment."""
    game = game_or_404(game_id)
    home = variants.get(game.variant)
    if not 1 <= number <= game.next_number:
        return "", 204
    entry, errors = _read(game, number)
    return render_template(home.template("preview"), game=game, home=home, number=number,
                           pv=home.preview(game, number, variants.Entry(entry, errors)))


@bp.route("/last/delete", methods=["POST"])
def delete_last(game_id: int):
    """Delete the last round entered."""
    form = HandForm()
    if form.validate_on_submit():
        game = locked_or_404(game_id)
        word = variants.get(game.variant).word()
        # The round's number is posted so a double tap cannot delete the one before it too.
        if form.number.data == len(game.core.rounds):
            number = delete_last_round(game)
            db.session.commit()
            flash(f"{capital(word)} {number} deleted.")
        elif (form.number.data or 0) > len(game.core.rounds):
            flash(f"{capital(word)} {form.number.data} was deleted already (from another "
                  "phone?): nothing more was deleted.")
        else:
            flash(f"{capital(word)} {form.number.data} is no longer the last: "
                  f"{word} {len(game.core.rounds)} was recorded since (on another phone?), "
                  "so nothing was deleted.")
    return redirect(url_for("games.scoreboard", game_id=game_id))
