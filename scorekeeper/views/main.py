"""Home: the game in progress, a new game, recent games."""

from flask import Blueprint, render_template
from sqlalchemy import select

from ..extensions import db
from ..models import Game
from ..store import result

bp = Blueprint("main", __name__)
RECENT = 8


@bp.route("/")
def home():
    """Show the game in progress first, then the latest games."""
    games = db.session.scalars(
        select(Game).order_by(Game.updated_at.desc(), Game.id.desc()).limit(RECENT + 4)).all()
    rows = [(game, result(game)) for game in games]
    in_progress = [(g, r) for g, r in rows if not r.over][:3]
    recent = [(g, r) for g, r in rows if r.over][:RECENT]
    return render_template("home.html", in_progress=in_progress, recent=recent)


@bp.route("/healthz")
def healthz():
    """Answer a liveness probe."""
    return {"ok": True}
