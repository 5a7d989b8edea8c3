"""Share cards: a game's or a night's result as a picture, to send from the phone."""

from __future__ import annotations

from flask import Blueprint, Response, abort

from ...reports import history, ratings, share_card, story
from ..pages import game_or_404

bp = Blueprint("cards", __name__)


def _png(card: share_card.Card, name: str) -> Response:
    response = Response(share_card.png(card), mimetype="image/png")
    response.headers["Content-Disposition"] = f'inline; filename="{name}.png"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.route("/games/<int:game_id>/card.png")
def game(game_id: int):
    """A game's standings as a picture, in this phone's language."""
    game = game_or_404(game_id)
    changes = ratings.game_changes(game_id) if game.result.over else []
    return _png(share_card.game_card(game, changes), f"kings-corners-game-{game_id}")


@bp.route("/history/nights/<int:night_id>/card.png")
def night(night_id: int):
    """A night's result as a picture: who won most, and each game's winner."""
    summary = history.night_summary(night_id)
    if summary is None:
        abort(404)
    card = share_card.night_card(summary, story.night_story(night_id, summary.results))
    return _png(card, f"kings-corners-night-{night_id}")
