"""Start a game, show its scoreboard, end, reopen or delete it."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from sqlalchemy import select

from .. import rules, store
from ..entry import MAX_SEATS, Errors, input_for, read_new_game
from ..extensions import csrf, db
from ..forms import ConfirmForm, NewGameForm
from ..models import Game, Player

bp = Blueprint("games", __name__, url_prefix="/games")


def roster() -> list[Player]:
    """Return every player on the roster, by name."""
    return list(db.session.scalars(select(Player).order_by(Player.name_key)))


@bp.route("/new", methods=["GET", "POST"])
# This form checks its own CSRF token, so an expired one is answered on the form,
# keeping what was typed, instead of with the bare CSRF error page.
@csrf.exempt
def new():
    """Pick players, seats, first dealer, variant and settings; start the game."""
    form = NewGameForm()
    errors = Errors()
    if form.validate_on_submit():
        wanted = read_new_game(request.form, errors)
        if not errors:
            try:
                game = store.create_game(wanted.variant, wanted.settings, wanted.names,
                                         wanted.first_dealer_seat)
                db.session.commit()
                return redirect(url_for("games.scoreboard", game_id=game.id))
            except rules.RuleError as error:
                db.session.rollback()
                errors.add(_new_game_input(error, wanted),
                           error.message[:1].upper() + error.message[1:])
    elif request.method == "POST":
        errors.add("general", "This form had expired; nothing was saved. Please try again.")
    status = 422 if errors else 200
    return render_template("new_game.html", form=form, errors=errors.by_input,
                           values=request.form, roster=roster(), seats=range(MAX_SEATS),
                           variants=rules.VARIANTS), status


def _new_game_input(error: rules.RuleError, wanted) -> str:
    """Return the new-game input an error is about."""
    name = input_for(error, wanted.names)
    if name.startswith("seat-"):
        index = int(name.split("-")[1])
        return f"seat-{wanted.seats[index]}" if index < len(wanted.seats) else "seat-0"
    if name.startswith("rules-"):
        return f"rules-{wanted.variant}-{name[len('rules-'):]}"
    if name == "players":
        return "seat-0"
    return name


@bp.route("/<int:game_id>")
def scoreboard(game_id: int):
    """Show standings, the hand-by-hand table, who deals next, and the winner once over."""
    game = db.get_or_404(Game, game_id)
    core = store.core_game(game)
    outcome = rules.play(core)
    variant = rules.get_variant(game.variant)
    return render_template("scoreboard.html", game=game, core=core, result=outcome,
                           variant=variant, form=ConfirmForm())


def _set_ended(game_id: int, ended: bool, said: str):
    """Mark a game ended by hand (or not), then go back to its scoreboard."""
    game = db.get_or_404(Game, game_id)
    if ConfirmForm().validate_on_submit():
        game.ended = ended
        db.session.commit()
        flash(said)
    return redirect(url_for("games.scoreboard", game_id=game.id))


@bp.route("/<int:game_id>/end", methods=["POST"])
def end(game_id: int):
    """End a game by hand: the best total(s) win now."""
    return _set_ended(game_id, True, "Game ended.")


@bp.route("/<int:game_id>/reopen", methods=["POST"])
def reopen(game_id: int):
    """Undo ending a game by hand."""
    return _set_ended(game_id, False, "Game reopened.")


@bp.route("/<int:game_id>/delete", methods=["GET", "POST"])
def delete(game_id: int):
    """Ask, then delete a game and every hand in it."""
    game = db.get_or_404(Game, game_id)
    form = ConfirmForm()
    if form.validate_on_submit():
        db.session.delete(game)
        db.session.commit()
        flash("Game deleted.")
        return redirect(url_for("main.home"))
    if request.method == "POST":
        abort(400)
    return render_template("delete_game.html", game=game, form=form)
