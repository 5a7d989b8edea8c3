"""Share cards: a game's or a night's result as a picture, to send from the phone."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, Response, abort
from flask_babel import gettext

from ...reports import crowd as crowd_reading
from ...reports import history, ratings, renderer, share_card, story
from ..pages import game_or_404

bp = Blueprint("cards", __name__)


def _png(draw: Callable[[], share_card.Card], name: str) -> Response:
    """Answer with the card `draw` returns as a picture, or, while the renderer has no room,
    with 503 and when to come back (before the card is worked out: a refusal costs little)."""
    try:
        with renderer.turn():
            picture = share_card.png(draw())
    except renderer.Busy:  # pictures for other phones are being drawn: a save comes first
        return Response(gettext("Other phones' pictures are being drawn: try again in a "
                                "moment."), 503, {"Retry-After": str(renderer.RETRY_AFTER)},
                        mimetype="text/plain")
    response = Response(picture, mimetype="image/png")
    response.headers["Content-Disposition"] = f'inline; filename="{name}.png"'
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.route("/games/<int:game_id>/card.png")
def game(game_id: int):
    """A game's standings as a picture, in this phone's language."""
    game = game_or_404(game_id)

    def draw() -> share_card.Card:
        changes = ratings.game_changes(game_id) if game.result.over else []
        return share_card.game_card(game, changes)
    return _png(draw, f"kings-corners-game-{game_id}")


@bp.route("/history/nights/<int:night_id>/card.png")
def night(night_id: int):
    """A night's result as a picture: who won most, and each game's winner."""
    summary = history.night_summary(night_id)
    if summary is None:
        abort(404)
    crowded = crowd_reading.of_night(night_id)  # read once: the story and card tell it
    return _png(lambda: share_card.night_card(
        summary, story.night_story(night_id, summary.results, crowded), crowded),
                f"kings-corners-night-{night_id}")
