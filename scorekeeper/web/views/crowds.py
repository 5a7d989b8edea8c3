"""A night for a crowd: start it, its page (tables, standings, Next round), and its one QR
code: a phone taps its name once and is taken to its table every round."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from ... import crowd, play, rules, variants
from ...db import crowds
from ...db.roster import roster
from ...extensions import csrf
from ...reports import crowd as reading
from ...words import capital, points, reason
from .. import own_phones, passcode
from ..forms import ConfirmForm, NewGameForm, whole
from ..pages import error_summary, expired
from .setup import input_for, read_new_game, setting_fields

bp = Blueprint("crowds", __name__, url_prefix="/crowds")

INPUTS = ["players", "new_names", "variant", "table_size", "seating", "tables", "moving",
          "rounds"]


def _lines(text: str | None) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def _input(error: rules.RuleError, wanted) -> str:
    """Return the input of the form a refusal is about."""
    field = (error.field or "").split("[")[0]
    if field in INPUTS:
        return field
    return input_for(error, wanted)


@bp.route("/new", methods=["GET", "POST"])
@passcode.asks
@csrf.exempt  # checked here, so an expired form keeps what was typed
def new():
    """Start a night for a crowd: the players present, the game, the tables, the rounds."""
    form = NewGameForm()
    errors = variants.Errors()
    if form.validate_on_submit():
        wanted = read_new_game(request.form, errors)  # the game and its rules
        names = request.form.getlist("player") + _lines(request.form.get("new_names"))
        tables = [[name.strip() for name in line.split(",")]
                  for line in _lines(request.form.get("tables"))]
        if not errors:
            try:
                crowd_id = crowd.start(crowd.Plan(
                    names, wanted.variant, wanted.settings, request.form.get("table_size"),
                    request.form.get("seating", ""), request.form.get("moving", ""),
                    request.form.get("rounds"), tables))
                return redirect(url_for("crowds.night", crowd_id=crowd_id))
            except rules.RuleError as error:
                errors.add(_input(error, wanted), capital(reason(error)))
    elif request.method == "POST":
        errors.add("general", expired())
    order = INPUTS + ["general"]
    summary = error_summary(errors.by_input,
                            lambda name: order.index(name) if name in order else 0,
                            lambda name: name in INPUTS and name != "players")
    return render_template(
        "crowds/new.html", form=form, errors=errors.by_input, values=request.form,
        chosen={name.casefold() for name in request.form.getlist("player")},
        roster=roster(), homes=variants.homes(), fields=setting_fields(request.form),
        open_rules=set(), summary=summary,
        focus=summary[0]["anchor"] if summary else ""), 422 if errors else 200


def _night_or_404(crowd_id: int) -> reading.Night:
    """Return the night as its pages show it (every game read), or answer 404."""
    view = reading.night(crowd_id)
    if view is None:
        abort(404)
    return view


def _there_or_404(crowd_id: int) -> None:
    """Answer 404 for a night there is not (nothing else of it read)."""
    if crowds.get(crowd_id) is None:
        abort(404)


@bp.route("/<int:crowd_id>")
def night(crowd_id: int):
    """Show the round being played, every table's game, the standings, and what the host
    does next."""
    view = _night_or_404(crowd_id)
    me = crowds.player_of(crowd_id, own_phones.phone())
    names = dict(view.players)
    return render_template("crowds/night.html", view=view, form=ConfirmForm(), points=points,
                           home=variants.get(view.crowd.variant),
                           me=reading.seat_of(view, names[me]) if me in names else None,
                           held=told_waiting(view, names[me]) if me in names else None,
                           join_to=url_for("crowds.join", crowd_id=crowd_id,
                                           code=own_phones.crowd_code(crowd_id))
                           if passcode.unlocked() else None)


def _back(crowd_id: int):
    return redirect(url_for("crowds.night", crowd_id=crowd_id))


@bp.route("/<int:crowd_id>/next", methods=["POST"])
def next_round(crowd_id: int):
    """Seat the next round, once every table's game is over (the host's tap)."""
    _there_or_404(crowd_id)
    if not ConfirmForm().validate_on_submit():
        flash(expired("seated", "tap Next round again"))
        return _back(crowd_id)
    after = request.form.get("after", type=whole)
    try:
        done = crowd.next_round(crowd_id, after if after is not None else -1)
    except play.Gone:
        abort(404)
    except rules.RuleError as error:
        flash(capital(reason(error)))
        return _back(crowd_id)
    if done.started and not done.waiting:
        flash(gettext("Round %(round)s is seated: everyone to their table.", round=done.round))
    elif done.started:
        flash(gettext("Round %(round)s, tables seated: %(tables)s, to your tables. Still "
                      "waiting for a game to end: %(waiting)s; tap Next round again once it "
                      "has.", round=done.round, tables=", ".join(map(str, done.seated)),
                      waiting=", ".join(map(str, done.waiting))))
    else:
        flash(gettext("Round %(round)s was seated already (on another phone?): nothing more "
                      "was changed.", round=done.round))
    return _back(crowd_id)


@bp.route("/<int:crowd_id>/rounds", methods=["POST"])
def rounds(crowd_id: int):
    """Decide how many rounds the night has, or that the round being played is the last."""
    _there_or_404(crowd_id)
    if not ConfirmForm().validate_on_submit():
        flash(expired("changed"))
        return _back(crowd_id)
    try:
        if request.form.get("last") == "1":
            last = crowd.end_after_this_round(crowd_id)
            flash(gettext("Round %(round)s is the night's last.", round=last))
        else:
            wanted = crowd.set_rounds(crowd_id, request.form.get("rounds", ""))
            flash(gettext("The night has %(rounds)s rounds.", rounds=wanted) if wanted else
                  gettext("The rounds are decided as the night goes."))
    except play.Gone:
        abort(404)
    except rules.RuleError as error:
        flash(gettext("Rounds: %(why)s", why=reason(error)))
    return _back(crowd_id)


@bp.route("/<int:crowd_id>/join/<code>")
def join(crowd_id: int, code: str):
    """The night's QR code: this phone may say which player it is. A wrong code counts as
    a wrong passcode does, against the same limit."""
    _there_or_404(crowd_id)
    checked = passcode.join_code_checked(lambda: own_phones.crowd_join(crowd_id, code[:40]))
    if checked is not True:
        flash(checked or gettext("That join code is not this night's: scan its QR code again."))
        return _back(crowd_id)
    return redirect(url_for("crowds.who", crowd_id=crowd_id))


@bp.route("/<int:crowd_id>/who", methods=["GET", "POST"])
@passcode.lets(own_phones.crowd_joined)  # a phone that came by the night's QR code
def who(crowd_id: int):
    """Ask "Which one are you?" with the night's players; one tap makes this phone theirs
    for the night. A player another phone is already is taken only once this phone says so,
    and, with a passcode, only by a phone that knows it."""
    _there_or_404(crowd_id)
    ask, status = None, 200
    if request.method == "POST":
        if not ConfirmForm().validate_on_submit():
            flash(expired("taken", "tap your name again"))
            return redirect(request.path)
        player = request.form.get("player", type=whole)
        may_take = passcode.unlocked()
        try:
            joined = crowd.join(crowd_id, player if player is not None else -1,
                                own_phones.phone(create=True), own_phones.label(),
                                force=request.form.get("take") == "1" and may_take)
        except play.Gone:
            abort(404)
        except rules.RuleError as error:
            flash(capital(reason(error)))
            return redirect(request.path)
        if joined.taken:
            own_phones.remember_me(player)
            return own_phones.keep_key(redirect(url_for("crowds.me", crowd_id=crowd_id)))
        ask = {"player": player, "name": joined.name, "holder": joined.holder,
               "may_take": may_take}
        status = 200 if may_take or request.form.get("take") != "1" else 403
    return render_template("crowds/who.html", crowd_id=crowd_id,
                           players=crowds.players(crowd_id), form=ConfirmForm(), ask=ask,
                           mine=crowds.player_of(crowd_id, own_phones.phone()),
                           taken=set(crowds.phones(crowd_id)),
                           may=passcode.unlocked() or own_phones.crowd_joined(),
                           unlock=url_for("settings.unlock", next=request.path)), status


def where(view: reading.Night, name: str) -> str:
    """Return where a player sits this round, in words: "Round 3: table 2, seat 3 — you
    deal", and whether they moved since the round before."""
    at = reading.seat_of(view, name)
    said = gettext("Round %(round)s: table %(table)s, seat %(seat)s", round=at.round,
                   table=at.table, seat=at.seat)
    if at.deals:
        said = gettext("%(where)s — you deal", where=said)
    before = next((t.number for t in view.rounds.get(at.round - 1, ()) if name in t.players),
                  None)
    if before is not None and before > at.table:
        said += " · " + gettext("you moved up from table %(table)s", table=before)
    elif before is not None and before < at.table:
        said += " · " + gettext("you moved down from table %(table)s", table=before)
    return said


def told_waiting(view: reading.Night, name: str) -> str | None:
    """Return what a player of the night is told while their next table waits for another
    still playing (`waiting`), or None when it does not wait."""
    held = reading.waits_for(view, name)
    return waiting(held) if held is not None else None


def waiting(held: list[int]) -> str:
    """Return what a player whose next table is not seated yet is told: which table it
    waits for, or that the next tap of Next round seats it."""
    if held:
        return ngettext("Waiting for table %(tables)s to finish: your next table is seated "
                        "then.", "Waiting for tables %(tables)s to finish: your next table "
                        "is seated then.", len(held), tables=", ".join(map(str, held)))
    return gettext("Your next table is seated at the next tap of Next round.")


@bp.route("/<int:crowd_id>/me")
def me(crowd_id: int):
    """Take this phone to its player's table and seat in the round being played."""
    view = _night_or_404(crowd_id)
    player = crowds.player_of(crowd_id, own_phones.phone())
    names = dict(view.players)
    if player not in names:
        return redirect(url_for("crowds.who", crowd_id=crowd_id))
    at = reading.seat_of(view, names[player])
    if view.over or at is None:
        return _back(crowd_id)
    flash(told_waiting(view, names[player]) or where(view, names[player]))
    return redirect(url_for("games.scoreboard", game_id=at.game_id))
