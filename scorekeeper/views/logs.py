"""The game log in the app: export a game as JSON, import one."""

from __future__ import annotations

import json

from flask import Blueprint, Response, redirect, render_template, request, url_for

from .. import gamelog, rules, store
from ..extensions import csrf, db
from ..forms import ImportForm
from ..models import Game

bp = Blueprint("logs", __name__)


def export_document(game: Game) -> dict:
    """Return a stored game's log."""
    return gamelog.render(store.core_game(game), game.played_on)


@bp.route("/games/<int:game_id>/export.json")
def export(game_id: int):
    """Download the game's log."""
    game = db.get_or_404(Game, game_id)
    body = json.dumps(export_document(game), indent=2, ensure_ascii=False)
    filename = f"kings-corners-game-{game.id}-{game.played_on.isoformat()}.json"
    return Response(body + "\n", mimetype="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def import_text(text: str) -> Game:
    """Check a game-log text and store it as a new game (not committed); raise RuleError."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise rules.RuleError(f"this is not JSON: {error.msg} at line {error.lineno}, "
                              f"column {error.colno}") from None
    parsed = gamelog.parse(doc)
    return store.import_game(parsed.game, parsed.played_on)


@bp.route("/import", methods=["GET", "POST"])
# This form checks its own CSRF token, so an expired one is answered on the form,
# keeping what was typed, instead of with the bare CSRF error page.
@csrf.exempt
def import_game():
    """Take a game log, uploaded or pasted, and add it as a new game."""
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        upload = form.file.data
        text = upload.read().decode("utf-8", errors="replace") if upload else form.text.data
        if not (text or "").strip():
            error = "Choose a file or paste a game log."
        else:
            try:
                game = import_text(text)
                db.session.commit()
                return redirect(url_for("games.scoreboard", game_id=game.id))
            except rules.RuleError as refused:
                db.session.rollback()
                error = f"Nothing was imported. {_capital(str(refused))}"
    elif request.method == "POST":
        error = ("This form had expired; nothing was imported. Please try again."
                 if "csrf_token" in form.errors else
                 "Nothing was imported. " + " ".join(m for ms in form.errors.values() for m in ms))
    return render_template("import.html", form=form, error=error), 422 if error else 200


def _capital(text: str) -> str:
    """Return text with its first letter in capitals."""
    return text[:1].upper() + text[1:]
