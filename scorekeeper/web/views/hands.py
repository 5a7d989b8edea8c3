"""Record a hand, correct a past one, delete the last one, preview one as it is tapped."""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from ... import play, rules, variants
from ...db import (
    Changed,
    Conflict,
    Loaded,
    Taken,
    fingerprint,
    read_game,
    round_times,
)
from ...db.writer import once_only
from ...extensions import csrf
from ...words import capital, reason
from ..forms import HandForm, UndoHandForm, whole
from ..pages import (
    CONFIRMED,
    FRAGMENT,
    error_summary,
    expired,
    game_or_404,
    posted,
    refusal,
    unconfirmed,
)
from ..passcode import asks

bp = Blueprint("hands", __name__, url_prefix="/games/<int:game_id>/hands")


def _form_page(game: Loaded, form: HandForm, number: int, errors: variants.Errors, values,
               editing: bool, conflict: dict | None = None):
    """Render the round form, keeping what was typed; a refused one opens at its first error,
    under a summary of every error."""
    home = variants.get(game.variant)
    status = 422 if errors else 200
    inputs = home.form_inputs(game.players)
    summary = error_summary(errors.by_input,
                            lambda name: inputs.index(name) + 1 if name in inputs else 0,
                            inputs.__contains__)
    return render_template(
        "hand_form.html", game=game, home=home, result=game.result, form=form, number=number,
        errors=errors.by_input, values=values, editing=editing, conflict=conflict,
        summary=summary, focus=summary[0]["anchor"] if summary else "",
        vm=home.hand_form(game, number, editing)), status


def _moved_on(game: Loaded, number: int, changed: bool, way: str = "save") -> dict:
    """Say what another phone did to round `number` since this form was opened, and the way on.

    `way` is where this is said: after a refused save ("save"), on a form being filled in
    or opened from a stale link ("notice"), or with no way on ("none").
    """
    home = variants.get(game.variant)
    word, Word = home.word(), capital(home.word())
    after = game.next_number
    if number >= after:
        what = gettext("%(Round)s %(number)s was deleted on another phone, so the next "
                       "%(round)s is %(number)s again.", Round=Word, round=word, number=after)
        ways = {"save": gettext("Save again to record what you entered as %(round)s "
                                "%(number)s.", round=word, number=after)}
        edit = None
    else:
        times = round_times(game.id, number)
        at = (times[1] if changed else times[0]).strftime("%H:%M")
        said = home.describe(game.players, game.core.rounds[number - 1])
        edit = url_for("hands.edit", game_id=game.id, number=number)
        if changed:
            what = gettext("%(Round)s %(number)s was changed on another phone at %(at)s: it "
                           "is now %(said)s.", Round=Word, number=number, at=at, said=said)
            ways = {"save": gettext("Save again to replace it with what you entered here.")}
        else:
            what = gettext("%(Round)s %(number)s was recorded on another phone at %(at)s: "
                           "%(said)s.", Round=Word, number=number, at=at, said=said)
            same = gettext("or correct %(round)s %(number)s if it is the same %(round)s.",
                           round=word, number=number)
            ways = {"save": gettext("Save again to record what you entered as %(round)s "
                                    "%(after)s, %(same)s", round=word, after=after, same=same)}
    ways["notice"] = gettext("Saving will ask what to do.")
    text = f"{what} {ways[way]}" if way in ways else what
    return {"text": text, "edit": edit, "number": number}


def _save(game_id: int, number: int, editing: bool
          ) -> tuple[variants.Errors, dict | None, play.Saved | None]:
    """Save the posted round; return the errors, what moved on (another phone saved
    first), and what was saved (nothing when there are errors)."""
    if number < 1:
        _, errors = play.read_round(game_or_404(game_id), number, request.form)
        errors.add("number", gettext("This form's hand number could not be read: reload the "
                                     "page and enter the hand again."))
        return errors, None, None
    errors = variants.Errors()
    try:
        if editing:
            saved = play.correct(game_id, number, request.form, request.form.get("was"))
        else:
            saved = play.record(game_id, number, request.form, request.form.get("token"))
        return errors, None, saved
    except play.NoSuchGame:
        abort(404)
    except play.Unread as unread:
        return unread.errors, None, None
    except (Taken, Changed) as moved:
        errors.add("number", capital(reason(moved)))
        return errors, _moved_on(game_or_404(game_id), number, isinstance(moved, Changed)), None
    except rules.RuleError as error:
        game = game_or_404(game_id)
        home = variants.get(game.variant)
        errors.add(home.input_for(error, game.players), capital(reason(error)))
        return errors, None, None


@bp.route("/new", methods=["GET", "POST"])
@asks  # a phone without the table passcode is asked for it first
# This form checks its own CSRF token, so an expired one is answered on the form,
# keeping what was typed, instead of with the bare CSRF error page.
@csrf.exempt
def record(game_id: int):
    """Record the next round: who went out and what everyone else held (or the deal)."""
    form = HandForm()
    if posted(form):
        number = form.number.data or 0
        errors, moved, saved = _save(game_id, number, editing=False)
        if saved is not None:
            word = capital(saved.word)
            if saved.repeat is not None:  # the back button, or a second tap: nothing changed
                flash(gettext("%(Round)s %(number)s was saved already; tap ✎ to change it.",
                              Round=word, number=saved.repeat))
            elif once_only(form.token.data):
                # "Hand 3 saved · Undo" on the scoreboard: the undo names the hand by the
                # once-only token it was saved with, so it can only ever take back this one.
                flash({"text": gettext("%(Round)s %(number)s saved", Round=word,
                                       number=number), "number": number,
                       "token": form.token.data}, "saved")
            return redirect(url_for("games.scoreboard", game_id=game_id))
        game = game_or_404(game_id)
        if moved:
            # What was typed stays, now for the next round, with a new once-only token.
            number = form.number.data = game.next_number
            form.number.raw_data = [str(number)]  # drawn from what was sent, else
            form.token.data = secrets.token_urlsafe(16)
        return _form_page(game, form, number, errors, request.form, False, moved)
    game = game_or_404(game_id)
    errors = variants.Errors()
    if request.method == "POST":
        errors.add("general", expired(again="save again"))
    elif game.result.over:
        flash(gettext("The game is over; reopen it or edit a hand to play on."))
        return redirect(url_for("games.scoreboard", game_id=game.id))
    number = game.next_number
    # A link from a scoreboard that had not caught up opens the hand it named, saying what
    # changed since: saving it asks first, as a form left open while another phone saved
    # does, so one tap never records a second copy of a hand.
    seen = request.args.get("hand", type=whole)
    moved = None
    if seen is not None and 1 <= seen < 10_000 and seen != number:
        moved = _moved_on(game, seen, changed=False, way="notice")
        number = seen
    form.number.data = number
    form.token.data = secrets.token_urlsafe(16)
    return _form_page(game, form, number, errors, request.form, False, moved)


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
@asks  # a phone without the table passcode is asked for it first
@csrf.exempt  # as record()
def edit(game_id: int, number: int):
    """Correct a past round; totals, dealers and the end of the game follow."""
    form = HandForm()
    game = game_or_404(game_id)
    home = variants.get(game.variant)
    if not 1 <= number < game.next_number:
        flash(gettext("There is no %(round)s %(number)s in this game.", round=home.word(),
                      number=number))
        return redirect(url_for("games.scoreboard", game_id=game.id))
    if posted(form):
        errors, moved, saved = _save(game_id, number, editing=True)
        if saved is not None:
            flash(gettext("%(Round)s %(number)s changed.", Round=capital(home.word()),
                          number=number))
            return redirect(url_for("games.scoreboard", game_id=game.id))
        if moved:
            game = read_game(game.id)
            if number >= game.next_number:  # deleted meanwhile: nothing left to correct
                flash(_moved_on(game, number, changed=True, way="none")["text"])
                return redirect(url_for("games.scoreboard", game_id=game.id))
            # Saving again replaces what is there now, on purpose.
            form.was.data = fingerprint(game.core.rounds[number - 1], game.players)
        return _form_page(game, form, number, errors, request.form, True, moved)
    errors = variants.Errors()
    values = home.round_values(game.players, game.core.rounds[number - 1])
    if request.method == "POST":
        errors.add("general", expired(again="save again"))
        values = request.form
    form.number.data = number
    form.was.data = fingerprint(game.core.rounds[number - 1], game.players)
    return _form_page(game, form, number, errors, values, editing=True)


@bp.route("/<int:number>/preview", methods=["POST"])
@csrf.exempt  # writes nothing: it only scores what is tapped so far
def preview(game_id: int, number: int):
    """Return the round form's preview for what is tapped so far, as an HTML fragment."""
    game = game_or_404(game_id)
    home = variants.get(game.variant)
    if not 1 <= number <= game.next_number:
        return "", 204
    entry, errors = play.read_round(game, number, request.form)
    # What is impossible among what was typed is flagged as you tap; what is not tapped yet
    # is not an error until Save.
    flags = {name: message for name, message in errors.by_input.items()
             if (request.form.get(name) or "").strip()}
    return render_template(home.template("preview"), game=game, home=home, number=number,
                           flags=flags,
                           pv=home.preview(game, number, variants.Entry(entry, errors)))


@bp.route("/<int:number>/notice")
def notice(game_id: int, number: int):
    """Say what another phone changed since a round form was opened (nothing if nothing).

    The form asks when the game's version moves on; `was` is the fingerprint a correction
    was opened with. Nothing is replayed: this only compares what is stored.
    """
    game = game_or_404(game_id)
    was = request.args.get("was")
    moved = None
    if number < 1:
        pass
    elif was and (number >= game.next_number
                  or fingerprint(game.core.rounds[number - 1], game.players) != was):
        moved = _moved_on(game, number, changed=True, way="notice")
    elif not was and number != game.next_number:
        moved = _moved_on(game, number, changed=False, way="notice")
    text = moved["text"] if moved else ""
    return render_template("notice.html", text=text, edit=moved and moved.get("edit"),
                           number=number, home=variants.get(game.variant))


@bp.route("/<int:number>/why")
def why(game_id: int, number: int):
    """Show how each score of a round was worked out: a page of its own (a score's link,
    without JavaScript), or the list alone for app.js when a score is tapped."""
    game = game_or_404(game_id)
    if not 1 <= number <= len(game.result.rounds):
        abort(404)
    home = variants.get(game.variant)
    said = home.explain(game)[number - 1]
    lines = [(name, said[name]) for name in game.players if name in said]
    fragment = request.headers.get(FRAGMENT) == "1"
    page = render_template("_why.html" if fragment else "why.html", game=game, home=home,
                           number=number, lines=lines)
    return page, 200, {"Vary": FRAGMENT}  # one address: the page, or its list alone


@bp.route("/last/delete", methods=["POST"])
def delete_last(game_id: int):
    """Delete the last round entered."""
    form = HandForm()
    if form.validate_on_submit():
        asked = _ask(game_id, form.number.data or 0, "Delete")
        if asked is not None:
            return asked
        # The round's number is posted so a double tap cannot delete the one before it too.
        try:
            done = play.delete_last(game_id, form.number.data or 0)
        except play.NoSuchGame:
            abort(404)
        word = done.word
        if done.deleted is not None:
            flash(gettext("%(Round)s %(number)s deleted.", Round=capital(word),
                          number=done.deleted))
        elif done.number > done.last:
            flash(gettext("%(Round)s %(number)s was deleted already (from another phone?): "
                          "nothing more was deleted.", Round=capital(word),
                          number=done.number))
        else:
            flash(gettext("%(Round)s %(number)s is no longer the last: %(round)s %(last)s was "
                          "recorded since (on another phone?), so nothing was deleted.",
                          Round=capital(word), number=done.number, round=word,
                          last=done.last))
    return redirect(url_for("games.scoreboard", game_id=game_id))


def _ask(game_id: int, number: int, verb: str):
    """Return the page asking before round `number` is deleted or undone (without JavaScript),
    or None once it was confirmed."""
    if request.form.get(CONFIRMED) == "1":
        return None  # asked already: the game is read once, inside its lock
    game = game_or_404(game_id)
    home = variants.get(game.variant)
    word = home.word()
    detail = gettext("It cannot be brought back, but it can be recorded again.")
    if 1 <= number <= len(game.core.rounds):
        said = home.describe(game.players, game.core.rounds[number - 1])
        detail = f"{capital(word)} {number}: {said}. {detail}"
    if verb == "Delete":
        question = gettext("Delete %(round)s %(number)s?", round=word, number=number)
        button = gettext("Delete %(round)s %(number)s", round=word, number=number)
    else:
        question = gettext("Undo %(round)s %(number)s?", round=word, number=number)
        button = gettext("Undo %(round)s %(number)s", round=word, number=number)
    return unconfirmed(question, button, url_for("games.scoreboard", game_id=game_id), detail,
                       keep=gettext("Keep %(round)s %(number)s", round=word, number=number))


@bp.route("/<int:number>/undo", methods=["POST"])
def undo(game_id: int, number: int):
    """Take back the round this phone has just saved, only while it is still the last."""
    form = UndoHandForm()  # an expired page is answered by the app's CSRF error page
    if not form.validate_on_submit():
        flash(gettext("That undo could not be read, so nothing was undone."))
        return redirect(url_for("games.scoreboard", game_id=game_id))
    asked = _ask(game_id, number, "Undo")
    if asked is not None:
        return asked
    try:
        done = play.undo(game_id, number, form.token.data)
        flash(gettext("%(Round)s %(number)s undone: record it again when you are ready.",
                      Round=capital(done.word), number=number))
    except play.NoSuchGame:
        abort(404)
    except Conflict as refused:
        flash(refusal(refused))
    return redirect(url_for("games.scoreboard", game_id=game_id))
