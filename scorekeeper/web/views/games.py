"""Start a game, show its scoreboard, end, reopen or delete it."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from ... import play, rules, variants
from ...db import crowds, version_of
from ...db.roster import roster
from ...extensions import csrf
from ...reports import bgstats, ratings, share_card
from ...reports import crowd as crowd_reading
from ...rules.seats import rematch_dealer
from ...words import N_, capital, reason
from .. import own_phones
from ..forms import ConfirmForm, NewGameForm, whole
from ..pages import error_summary, expired, game_or_404, game_view
from ..passcode import asks
from .crowds import told_waiting
from .setup import (
    MAX_SEATS,
    check_new_game,
    input_for,
    new_game_inputs,
    read_new_game,
    setting_fields,
)

bp = Blueprint("games", __name__, url_prefix="/games")


@bp.route("/new", methods=["GET", "POST"])
@asks  # a phone without the table passcode is asked for it first
# This form checks its own CSRF token, so an expired one is answered on the form,
# keeping what was typed, instead of with the bare CSRF error page.
@csrf.exempt
def new():
    """Pick players, seats, first dealer, variant and settings; start the game."""
    form = NewGameForm()
    errors = variants.Errors()
    if form.validate_on_submit():
        wanted = read_new_game(request.form, errors)
        check_new_game(request.form, wanted, errors)  # every refusal at once
        if not errors:
            try:
                game_id = play.new_game(wanted.variant, wanted.settings, wanted.names,
                                        wanted.first_dealer_seat)
                return redirect(url_for("games.scoreboard", game_id=game_id))
            except rules.RuleError as error:
                errors.add(input_for(error, wanted), capital(reason(error)))
    elif request.method == "POST":
        errors.add("general", expired())
    inputs = new_game_inputs()
    summary = error_summary(errors.by_input,
                            lambda name: inputs.index(name) + 1 if name in inputs else 0,
                            inputs.__contains__)
    open_rules = {home.name for home in variants.homes()
                  if any(name.startswith(f"rules-{home.name}-") for name in errors.by_input)}
    return render_template("new_game.html", form=form, errors=errors.by_input,
                           values=request.form, roster=roster(), seats=range(MAX_SEATS),
                           homes=variants.homes(), fields=setting_fields(request.form),
                           summary=summary, open_rules=open_rules,
                           focus=summary[0]["anchor"] if summary else ""), 422 if errors else 200


@bp.route("/<int:game_id>/version")
def version(game_id: int):
    """Answer a phone asking "anything new since version V?": 204 when nothing is; once the
    game is over, the next game started after it (a rematch) is news too; for a table of a
    crowd night, its next round seated (the phone is taken to its own table of it)."""
    now = version_of(game_id)
    if now is None:
        abort(404)
    url = None
    if now.next is not None:
        url = _next_url(game_id, now.next)
    if request.args.get("since", type=whole) == now.version and url is None:
        response = current_app.response_class(status=204)
    elif url is None:
        response = jsonify(version=now.version)
    else:
        response = jsonify(version=now.version, next=now.next, url=url)
    response.headers["Cache-Control"] = "no-store"
    return response


def _next_url(game_id: int, next_id: int) -> str | None:
    """Return where a phone on a finished game goes next: the next game; for a table of a
    crowd night, not another table's game, but, once the next round is seated (a player's
    phone: their own table of it), that table (crowds.me), and nowhere before."""
    found = crowds.crowd_of_game(game_id)
    if found is None:
        return url_for("games.scoreboard", game_id=next_id)
    crowd_id, table = found
    player = crowds.player_of(crowd_id, own_phones.phone())
    seated = (crowds.latest_round_of(crowd_id, player) if player is not None
              else crowds.current_round(crowd_id))
    if seated > table.round:
        return url_for("crowds.me", crowd_id=crowd_id)
    return None


def _crowd_wait(found: tuple[int, crowds.Table] | None) -> str | None:
    """Return, for a table of a crowd night whose game is over (`found`: its night and
    table), what this phone's player is told while their next table waits for another
    still playing; else None."""
    player = crowds.player_of(found[0], own_phones.phone()) if found else None
    view = crowd_reading.night(found[0]) if player is not None else None
    names = dict(view.players) if view is not None else {}
    return told_waiting(view, names[player]) if player in names else None


@bp.route("/<int:game_id>")
def scoreboard(game_id: int):
    """Show standings, the hand-by-hand table, who deals next, and the winner once over."""
    game = game_or_404(game_id)
    result = game.result
    crowd_at = crowds.crowd_of_game(game_id)  # a table of a crowd night: its night, table
    rematch = None
    if result.over and crowd_at is None:  # who deals first in a rematch: the deal passes on
        rematch = rematch_dealer(game.players, game.core.first_dealer,
                                 result.rounds[-1].dealer if result.rounds else None)
    home = variants.get(game.variant)
    changes = ratings.game_changes(game.id) if result.over else []
    # The seats' phones and parts are shown only while the game is on: a finished game's
    # page does not read them.
    return render_template("scoreboard.html", rematch=rematch,
                           table=None if result.over else own_phones.seats_view(game),
                           join_to=own_phones.join_path(game),
                           bgstats=bgstats.link(game, home.label) if result.over else None,
                           share_text=(share_card.text(share_card.game_card(game, changes))
                                       if result.over else None),
                           moves=changes, crowd_at=crowd_at,
                           crowd_wait=_crowd_wait(crowd_at) if result.over else None,
                           **game_view(game, watching=request.args.get("watch") == "1"))


@bp.route("/<int:game_id>/rematch", methods=["POST"])
def rematch(game_id: int):
    """Start a rematch of a finished game: same seats and rules, the deal passed on."""
    if not ConfirmForm().validate_on_submit():
        flash(expired("started", "tap Rematch again"))
        return redirect(url_for("games.scoreboard", game_id=game_id))
    try:
        found = play.rematch(game_id)
    except play.NoSuchGame:
        abort(404)
    except rules.RuleError as error:  # a seat renamed into a clash meanwhile, say
        flash(gettext("The rematch could not start: %(why)s.", why=reason(error)))
        return redirect(url_for("games.scoreboard", game_id=game_id))
    if found.started is None:
        flash(gettext("This game is not over yet, so there is no rematch to start."))
        return redirect(url_for("games.scoreboard", game_id=game_id))
    flash(gettext("Rematch! %(name)s deals first.", name=found.dealer) if found.started
          else gettext("The rematch had started already (another tap or phone): here it is."))
    return redirect(url_for("games.scoreboard", game_id=found.game_id))


def _set_ended(game_id: int, ended: bool, said: str):
    """Mark a game ended by hand (or not), then go back to its scoreboard."""
    if ConfirmForm().validate_on_submit():
        try:
            play.set_ended(game_id, ended)
        except play.NoSuchGame:
            abort(404)
        flash(gettext(said))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.route("/<int:game_id>/end", methods=["POST"])
def end(game_id: int):
    """End a game by hand: the best total(s) win now."""
    return _set_ended(game_id, True, N_("Game ended."))


@bp.route("/<int:game_id>/reopen", methods=["POST"])
def reopen(game_id: int):
    """Undo ending a game by hand."""
    return _set_ended(game_id, False, N_("Game reopened."))


@bp.route("/<int:game_id>/delete", methods=["GET", "POST"])
@asks  # a phone without the table passcode is asked for it first
def delete(game_id: int):
    """Ask, then delete a game and every hand in it."""
    form = ConfirmForm()
    if form.validate_on_submit():
        try:
            play.delete_game(game_id)
        except play.NoSuchGame:
            abort(404)
        flash(gettext("Game deleted."))
        return redirect(url_for("main.home"))
    game = game_or_404(game_id)
    error = expired("deleted") if request.method == "POST" else None
    return render_template("delete_game.html", game=game, form=form, error=error,
                           home=variants.get(game.variant)), 400 if error else 200
