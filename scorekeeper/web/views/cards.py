"""Share cards: a game's or a night's result as a picture, to send from the phone."""

from __future__ import annotations

from flask import Blueprint, Response, abort

from ...db import Unreadable, read_games
from ...db.models import Night
from ...extensions import db
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
    found = db.session.get(Night, night_id)
    if found is None:
        abort(404)
    loaded = read_games([g.id for g in found.games]).values()
    games = [g for g in loaded if not isinstance(g.outcome, Unreadable)]  # one needing repair
    games.sort(key=lambda g: g.id)
    return _png(share_card.night_card(history.label(found), found.started_at, games,
                                      story.night_story(night_id)),
                f"kings-corners-night-{night_id}")
