"""The room's board of a crowd night, for a TV or a laptop: every table at once, live, on
to the next round by itself, and the night's standings between rounds. Watch-only."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, render_template, request, url_for

from ... import variants
from ...db import crowds
from ...reports import board as reading
from ...words import points
from .. import own_phones, passcode

bp = Blueprint("room", __name__, url_prefix="/crowds")


@bp.route("/<int:crowd_id>/board")
def board(crowd_id: int):
    """Show every table of the round being played, or the night's standings between rounds
    and its winner once it is over, with the night's QR code in a corner."""
    # Its version read first: a change made while the board is read is news at the next ask.
    stamp = crowds.stamp(crowd_id)
    view = reading.board(crowd_id)
    if view is None or stamp is None:
        abort(404)
    return render_template(
        "crowds/board.html", board=view, night=view.night, points=points,
        home=variants.get(view.night.crowd.variant), stamp=stamp,
        join_to=url_for("crowds.join", crowd_id=crowd_id,
                        code=own_phones.crowd_code(crowd_id))
        if passcode.unlocked() else None)


@bp.route("/<int:crowd_id>/board/version")
def version(crowd_id: int):
    """Answer the board asking "anything new since version V?": 204 when nothing is."""
    now = crowds.stamp(crowd_id)
    if now is None:
        abort(404)
    if request.args.get("since") == now:
        response = current_app.response_class(status=204)
    else:
        response = jsonify(version=now)
    response.headers["Cache-Control"] = "no-store"
    return response
