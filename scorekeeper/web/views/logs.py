"""The game log in the app: export a game as JSON, import one."""

from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import gettext

from ... import play, rules
from ...extensions import csrf
from ...reports import exchange
from ...words import refused_where
from ..forms import ImportForm
from ..pages import body_limit, expired, game_or_404
from ..passcode import asks

bp = Blueprint("logs", __name__)


@bp.route("/games/<int:game_id>/export.json")
def export(game_id: int):
    """Download the game's log."""
    game = game_or_404(game_id)
    filename = f"kings-corners-game-{game.id}-{game.played_on.isoformat()}.json"
    return Response(exchange.export_text(game), mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.route("/import", methods=["GET", "POST"])
@asks  # a phone without the table passcode is asked for it first
# This form checks its own CSRF token, so an expired one is answered on the form,
# keeping what was typed, instead of with the bare CSRF error page.
@csrf.exempt
# Refused before it is read when bigger than any game log (errors.py says so).
@body_limit("LOG_MAX_BYTES", fields=True)  # a log pasted is a field
def import_game():
    """Take a game log, uploaded or pasted, and add it as a new game."""
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        upload = form.file.data
        text = upload.read().decode("utf-8", errors="replace") if upload else form.text.data
        if not (text or "").strip():
            error = gettext("Choose a file or paste a game log.")
        else:
            try:
                parsed = exchange.read_log(text)  # read and checked before any lock is taken
                game_id = play.import_game(parsed)
                return redirect(url_for("games.scoreboard", game_id=game_id))
            except rules.RuleError as refused:
                error = gettext("Nothing was imported. %(why)s",
                                why=refused_where(refused))
    elif request.method == "POST":
        error = (expired("imported") if "csrf_token" in form.errors else
                 gettext("Nothing was imported. %(why)s",
                         why=" ".join(m for ms in form.errors.values() for m in ms)))
    return render_template("import.html", form=form, error=error), 422 if error else 200
