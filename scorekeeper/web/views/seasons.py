"""Seasons: each season's page (its standings, ratings at its end and records), and the
seasons the table names itself."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from ... import play, rules, variants
from ...db import named_seasons as named
from ...db import roster as stored
from ...reports import calendar, ratings, records
from ...reports import figures as figures
from ...words import day, reason
from ..forms import ConfirmForm, SeasonForm
from ..pages import expired, posted, unconfirmed

bp = Blueprint("seasons", __name__, url_prefix="/seasons")
FIELDS = {"name": "Name", "first_day": "First day", "last_day": "Last day"}
TOP = 5  # the players a variant's ratings show on a season's page
LIST = 50  # the newest seasons each list shows, unless all are asked for (?all=1)


@dataclass(frozen=True)
class SeasonRow:
    """A season as the list shows it: its name, its days in words and its page."""

    key: str
    days: str
    href: str
    current: bool


def _days(days: calendar.Days) -> str:
    """Return a season's days in words: "1 Jan 2025 – 31 Oct 2025" (each run)."""
    return " · ".join(day(first) if first == last else f"{day(first)} – {day(last)}"
                      for first, last in days)


def _index(form: SeasonForm, errors: dict[str, str], status: int = 200):
    choice = calendar.choose(None)
    whole = request.args.get("all") == "1"
    rows = [SeasonRow(key, _days(choice.calendar.days_of(key)),
                      url_for("seasons.season", key=key), key == choice.current)
            for key in (choice.seasons if whole else choice.seasons[:LIST])]
    listed = named.listed(None if whole else LIST)
    return render_template(
        "seasons/index.html", rows=rows, played=len(choice.seasons), named=listed,
        named_count=len(listed) if whole else named.count(),
        everything=url_for("seasons.index", all=1), form=form, errors=errors,
        confirm=ConfirmForm()), status


@bp.route("/")
def index():
    """List the seasons that hold games, and the ones the table named (the newest LIST of
    each, unless all are asked for), with a form to name another."""
    return _index(SeasonForm(formdata=None), {})


@bp.route("/", methods=["POST"])
def add():
    """Name a season from its first day to its last; every rating is worked out again."""
    form = SeasonForm()
    if not posted(form):
        return _index(form, {"name": expired(again="save again")}, 400)
    try:
        name = play.name_season(form.name.data, form.first_day.data, form.last_day.data)
    except rules.RuleError as error:
        field = error.field if error.field in FIELDS else "name"
        return _index(form, {field: f"{gettext(FIELDS[field])} {reason(error)}."}, 422)
    flash(gettext("Season “%(name)s” named. Its games count in it from now on.", name=name))
    return redirect(url_for("seasons.index"))


@bp.route("/<int:season_id>/forget", methods=["POST"])
def forget(season_id: int):
    """Forget a named season: its days go back to their years."""
    if not posted(ConfirmForm()):
        flash(expired("changed"))
        return redirect(url_for("seasons.index"))
    asked = unconfirmed(gettext("Forget this season?"), gettext("Forget season"),
                        url_for("seasons.index"),
                        gettext("Its games stay; they count in their years' seasons again."))
    if asked is not None:
        return asked
    try:
        name = play.forget_season(season_id)
    except play.Gone:
        abort(404)
    flash(gettext("Season “%(name)s” forgotten.", name=name))
    return redirect(url_for("seasons.index"))


@dataclass(frozen=True)
class Standing:
    """A player's line in a season's standings."""

    player_id: int
    name: str
    played: int
    wins: int
    rate: int  # %


@bp.route("/<key>")
def season(key: str):
    """Show a season: who won most, the ratings as they stood at its end, the records set
    in it."""
    choice = calendar.choose(key)
    if choice is None or choice.shown.all_time:
        abort(404)
    shown = choice.shown
    record = figures.records_by_id(shown)
    standings = sorted(
        (Standing(player_id, name, record[player_id].played, record[player_id].wins,
                  round(100 * record[player_id].win_rate))
         for player_id, name in stored.roster() if player_id in record),  # all: few
        key=lambda s: (-s.wins, -s.rate, s.name.casefold()))
    ends = ratings.season_rosters(shown.key)
    ladders = [(home.name, ends.get(home.name, [])[:TOP]) for home in variants.homes()]
    return render_template(
        "seasons/season.html", key=shown.key, days=_days(shown.days or ()),
        standings=standings, ladders=[(name, rows) for name, rows in ladders if rows],
        records=records.records(season=shown),
        current=shown.key == choice.current, provisional=ratings.PROVISIONAL,
        history=url_for("history.index", season=shown.key))
