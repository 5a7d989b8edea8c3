"""History: game nights newest first, a night's games, a game's chart; CSV export; moving."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext

from ... import play, rules
from ...db import Loaded, night_list, nights
from ...db.models import Night
from ...extensions import db
from ...reports import crowd as crowd_reading
from ...reports import csv_export, history, share_card, story
from ...words import capital, day, reason
from ..forms import ConfirmForm, MoveGameForm, NightForm, whole
from ..nights import Pages, listed_months, night_games, year_links
from ..pages import expired, game_or_404, game_view, refusal
from ..season_picker import Seen, seen

bp = Blueprint("history", __name__, url_prefix="/history")
PER_PAGE = 20


@bp.app_template_filter("night_label")
def night_label(night: Night) -> str:
    """Return a night's name, else its date."""
    return history.label(night)


@bp.route("/")
def index():
    """List the game nights, newest first, a page at a time, grouped by month."""
    page = request.args.get("page", 1, type=whole)
    season = seen("history.index")
    listing = _listing(page, season)
    if listing is None:
        abort(404)
    return render_template("history/index.html", season=season, **listing)


def _listing(page: int, season: Seen) -> dict | None:
    """Read a page of the list of nights of a season as the page draws it (None if there
    is no such page)."""
    bound = season.shown.bound
    years, total = night_list.year_pages(PER_PAGE, bound)
    pages = Pages.of(page, -(-total // PER_PAGE), total, season.asked)
    if not 1 <= page <= max(1, pages.last):
        return None
    # Read as plain rows; the years' counts add up to the total: no second count of
    # every night. The pages as Flask-SQLAlchemy's Pagination would count them.
    shown = [history.NightRow(*row)
             for row in night_list.page_rows(PER_PAGE, (page - 1) * PER_PAGE, bound)]
    return {"pages": pages, "months": listed_months(history.night_lines(shown)),
            "years": (year_links(years, page, season.asked)
                      if season.shown.all_time and len(years) > 1 else [])}


def _night_page(summary: history.NightSummary, form: NightForm, errors: dict[str, str],
                status: int = 200):
    """Render a night: its story, its games' final standings and the name-and-notes form."""
    night = summary.night
    crowded = crowd_reading.of_night(night.id)  # read once: the story and card tell it too
    told = story.night_story(night.id, summary.results, crowded)
    return render_template("history/night.html", summary=summary, crowd=_crowd(crowded),
                           games=night_games(summary.games), form=form, errors=errors,
                           label=history.label(night), story=told,
                           share_text=share_card.text(share_card.night_card(summary, told,
                                                                            crowded))
                           if any(g.readable for g in summary.games) else None), status


@bp.route("/nights/<int:night_id>", methods=["GET", "POST"])
def night(night_id: int):
    """Show a night's games; rename it or change its notes."""
    # Read with its games as plain rows (the page changes nothing of them), before a change
    # is checked: a change that is saved is answered with a redirect.
    summary = history.night_summary(night_id)
    if summary is None:
        abort(404)
    found = summary.night
    form = NightForm(obj=found) if request.method == "GET" else NightForm()
    errors: dict[str, str] = {}
    if form.validate_on_submit():
        try:
            play.rename_night(night_id, form.name.data, form.notes.data)
            flash(gettext("Night saved."))
            return redirect(url_for("history.night", night_id=night_id))
        except play.Gone:
            abort(404)
        except rules.RuleError as error:
            field = error.field or "name"
            label = {"name": gettext("Name"), "notes": gettext("Notes")}.get(field, capital(field))
            errors[field] = f"{label} {reason(error)}."
    elif request.method == "POST":
        errors["name"] = expired(again="save again")
    return _night_page(summary, form, errors, 422 if errors else 200)


def _crowd(found: crowd_reading.Night | None) -> dict | None:
    """Return what a night's page shows of it as a night for a crowd (`found`; None: an
    ordinary night): its rounds and tables, its winners, and each game's round and table."""
    if found is None:
        return None
    return {"id": found.crowd.id, "rounds": found.round, "tables": found.count,
            "winners": found.winners,
            "at": {t.game_id: t for tables in found.rounds.values() for t in tables}}


def _move_form(offered: Sequence[history.NightRow], formdata=None) -> MoveGameForm:
    """Return the move form offering these nights."""
    form = MoveGameForm(formdata=formdata)
    form.night.choices = [(str(other.id), history.label(other)) for other in offered]
    form.night.choices.append(("new", "A night of its own"))
    return form


def _offered(night: Night | None) -> list[history.NightRow]:
    """Return the nights a game of this night may move to."""
    return [history.NightRow.of(other) for other in nights.neighbours(night)] if night else []


@dataclass(frozen=True)
class Offered:
    """A night a game may move to, as the move form offers it."""

    id: int
    label: str  # its name, else its day
    said: str  # "4 games", after its day when it has a name: "Sat 21 Nov 2026 · 4 games"


def _whereabouts(game: Loaded) -> dict:
    """Read the game's night, which game of it this one is, and the nights it may move to
    with their games (as plain rows: nothing here is changed), in two statements."""
    row = nights.night_of(game.night_id, game.id) if game.night_id else None
    night_ = history.NightRow(*row[:4]) if row else None
    offered = []
    for *columns, games in (nights.neighbours_counted(night_) if night_ else ()):
        other = history.NightRow(*columns)
        count = ngettext("%(num)d game", "%(num)d games", games)
        offered.append(Offered(other.id, history.label(other),
                               f"{day(other.started_at)} · {count}" if other.name else count))
    return {"night": night_, "night_label": history.label(night_) if night_ else None,
            "number": row[5] if row else None, "neighbours": offered}


def _game_page(game: Loaded, form: MoveGameForm | None = None, error: str | None = None):
    """Render a game's page: result, chart, hand by hand, exports, and moving it."""
    where = _whereabouts(game)
    # The page draws the move form's choices from `neighbours` itself, and of the form only
    # its CSRF field, which every form of the page writes alike: a shown page needs no
    # MoveGameForm (a form refused on posting is shown with its own).
    confirm = ConfirmForm()
    return render_template(
        "history/game.html", form=confirm, move_form=form or confirm,
        move_error=error, **where, **game_view(game)), 422 if error else 200


@bp.route("/games/<int:game_id>")
def game(game_id: int):
    """Show one game from history: winners, chart, hand by hand, exports."""
    return _game_page(game_or_404(game_id))


@bp.route("/games/<int:game_id>/move", methods=["POST"])
def move(game_id: int):
    """Move a game to another night, or to a night of its own."""
    found = game_or_404(game_id)
    form = _move_form(_offered(db.session.get(Night, found.night_id) if found.night_id else None),
                      request.form)
    if not form.validate_on_submit():
        if "csrf_token" in form.errors:
            return _game_page(found, form, expired("moved"))
        return _game_page(found, form, gettext("Choose the night to move this game to."))
    try:
        night_id = play.move_game(game_id, None if form.night.data == "new"
                                  else int(form.night.data))
    except play.NoSuchGame:
        abort(404)
    except rules.RuleError as error:
        return _game_page(game_or_404(game_id), form, refusal(error))
    # Said as the form offered it: the night chosen, or the new one, which begins when the
    # game did; the night is not read again.
    label = (day(nights.started_at(found)) if form.night.data == "new"
             else dict(form.night.choices)[form.night.data])
    flash(gettext("Game moved to %(night)s.", night=label))
    return redirect(url_for("history.night", night_id=night_id))


@bp.route("/games/<int:game_id>/export.csv")
def game_csv(game_id: int):
    """Download a game as CSV: a row per hand and player."""
    found = game_or_404(game_id)
    body = csv_export.to_csv(found.core, found.result)
    filename = f"kings-corners-game-{found.id}-{found.played_on.isoformat()}.csv"
    # The byte-order mark lets spreadsheet programs read accented names as UTF-8.
    return Response("\ufeff" + body, mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
