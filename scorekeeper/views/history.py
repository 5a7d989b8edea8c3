"""History: game nights newest first, a night's games, a game's chart; CSV export; moving."""

from __future__ import annotations

from itertools import groupby

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import charts, csv_export, nights, rules, store
from ..extensions import db
from ..forms import ConfirmForm, MoveGameForm, NightForm
from ..models import Game, Night

bp = Blueprint("history", __name__, url_prefix="/history")
PER_PAGE = 20
# A night's games in one query; nights.core_games reads their hands in four more.
NIGHT_GAMES = selectinload(Night.games)


@bp.app_template_global()
def game_chart(core: rules.Game, result: rules.GameResult):
    """Return the SVG line chart of a game's running totals (empty before the first hand)."""
    return charts.game_chart(core, result)


@bp.app_template_global()
def game_chart_title(core: rules.Game) -> str:
    """Return the heading of a game's chart, e.g. "Penalty points by hand"."""
    return charts.game_chart_title(core)


@bp.app_template_filter("night_label")
def night_label(night: Night) -> str:
    """Return a night's name, else its date."""
    return nights.label(night)


@bp.route("/")
def index():
    """List the game nights, newest first, a page at a time, grouped by month."""
    page = request.args.get("page", 1, type=int)
    pages = db.paginate(nights.listed().options(NIGHT_GAMES), page=page, per_page=PER_PAGE,
                        error_out=True, count=True)
    summaries = nights.summarise_all(pages.items)
    months = [(month, list(group)) for month, group in
              groupby(summaries, key=lambda s: s.night.started_at.strftime("%B %Y"))]
    return render_template("history/index.html", pages=pages, months=months,
                           years=nights.year_pages(PER_PAGE))


def _night_page(night: Night, form: NightForm, errors: dict[str, str], status: int = 200):
    """Render a night: its games' final standings and the name-and-notes form."""
    return render_template("history/night.html", summary=nights.summarise(night), form=form,
                           errors=errors, label=nights.label(night)), status


@bp.route("/nights/<int:night_id>", methods=["GET", "POST"])
def night(night_id: int):
    """Show a night's games; rename it or change its notes."""
    found = db.session.scalar(select(Night).where(Night.id == night_id).options(NIGHT_GAMES))
    if found is None:
        abort(404)
    form = NightForm(obj=found) if request.method == "GET" else NightForm()
    errors: dict[str, str] = {}
    if form.validate_on_submit():
        try:
            nights.rename(found, form.name.data, form.notes.data)
            db.session.commit()
            flash("Night saved.")
            return redirect(url_for("history.night", night_id=found.id))
        except rules.RuleError as error:
            db.session.rollback()
            field = error.field or "name"
            errors[field] = f"{field.capitalize()} {error.message}."
    elif request.method == "POST":
        errors["name"] = "This form had expired; nothing was saved. Please save again."
    return _night_page(found, form, errors, 422 if errors else 200)


def _game_page(game: Game, form: MoveGameForm, error: str | None = None):
    """Render a game's page: result, chart, hand by hand, exports, and moving it."""
    core = store.core_game(game)
    night_ = game.night
    return render_template(
        "history/game.html", game=game, core=core, result=rules.play(core),
        variant=rules.get_variant(game.variant), form=ConfirmForm(), move_form=form,
        move_error=error, night=night_, night_label=nights.label(night_) if night_ else None,
        number=night_.games.index(game) + 1 if night_ else None,
        neighbours=nights.neighbours(night_) if night_ else [],
        ), 422 if error else 200


@bp.route("/games/<int:game_id>")
def game(game_id: int):
    """Show one game from history: winners, chart, hand by hand, exports."""
    return _game_page(db.get_or_404(Game, game_id), MoveGameForm())


@bp.route("/games/<int:game_id>/move", methods=["POST"])
def move(game_id: int):
    """Move a game to another night, or to a night of its own."""
    found = db.get_or_404(Game, game_id)
    form = MoveGameForm()
    if not form.validate_on_submit():
        return _game_page(found, form, "This form had expired; nothing was moved. Try again.")
    chosen = (form.night.data or "").strip()
    target = None
    if chosen != "new":
        target = db.session.get(Night, int(chosen)) if chosen.isdigit() else None
        if target is None:
            return _game_page(found, form, "Choose the night to move this game to.")
    try:
        target = nights.move_game(found, target)
        db.session.commit()
    except rules.RuleError as error:
        db.session.rollback()
        return _game_page(found, form, error.message[:1].upper() + error.message[1:] + ".")
    flash(f"Game moved to {nights.label(target)}.")
    return redirect(url_for("history.night", night_id=target.id))


@bp.route("/games/<int:game_id>/export.csv")
def game_csv(game_id: int):
    """Download a game as CSV: a row per hand and player."""
    found = db.get_or_404(Game, game_id)
    core = store.core_game(found)
    body = csv_export.to_csv(core, rules.play(core))
    filename = f"kings-corners-game-{found.id}-{found.played_on.isoformat()}.csv"
    # The byte-order mark lets spreadsheet programs read accented names as UTF-8.
    return Response("\ufeff" + body, mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
