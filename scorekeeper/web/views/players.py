"""The roster and each player's page: statistics, head-to-head, rename, merge."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext, ngettext
from markupsafe import Markup

from ... import play, rules, variants
from ...db import roster as stored
from ...db.models import Player
from ...extensions import db
from ...reports import figures as roster
from ...reports import ratings, records, rivals
from ...reports.charts import line_chart
from ...words import day_and_month, decimal, reason, short_month
from ..bidi import bdi
from ..forms import MergeForm, RenameForm
from ..pages import FRAGMENT, expired, refusal, unconfirmed
from ..passcode import asks
from ..season_picker import seen

bp = Blueprint("players", __name__, url_prefix="/players")


@bp.route("", endpoint="roster")
def list_players():
    """List everyone on the roster with their finished games and wins: for a season, those
    who sat down to a game of it; for all time, everyone."""
    season = seen("players.roster")
    record = roster.records_by_id(season.shown)
    players = stored.roster(season.shown.bound)
    listed = Markup(render_template(  # the page's part, as app.js fetches it alone
        "players/_roster_list.html", players=players, rows=roster_rows(players, record),
        season=season))
    return render_template("players/roster.html", listed=listed, season=season)


@dataclass(frozen=True)
class RosterRow:
    """One line of the roster: its link, name, finished games and wins, and win rate."""

    href: str
    name: str
    played: int
    wins: int
    rate: str  # "42%", or "–" before a finished game


def roster_rows(players: Sequence, record: dict[int, roster.Record]) -> list[RosterRow]:
    """Return the roster's lines, the rate rounded as the template's `round` rounds."""
    empty = roster.Record()
    rows = []
    for p in players:
        r = record.get(p.id, empty)
        rows.append(RosterRow(url_for("players.player", player_id=p.id), p.name, r.played,
                              r.wins, f"{int(round(100 * r.win_rate, 0))}%" if r.played else "–"))
    return rows


@dataclass(frozen=True)
class VersusRow:
    """One line of head-to-head: its link, the other player, games, ahead, level, behind."""

    href: str
    other: str
    games: int
    ahead: int
    level: int
    behind: int


def versus_rows(figures: roster.Details, season: str | None = None) -> list[VersusRow]:
    """Return the head-to-head lines, each linking to the other player's page for the same
    season."""
    return [VersusRow(url_for("players.player", player_id=row.other_id, season=season),
                      row.other, row.games, row.ahead, row.level, row.behind)
            for row in figures.head_to_head]


def _page(player: Player, form: RenameForm, error: str | None = None):
    """Render a player's page for a season (or all time), with the rename form as typed and
    its error, if any: their record, ratings and hands. The charts, rivals, records and
    head-to-head are a part of their own (`more`), fetched into place by app.js; without
    it, a link to that part."""
    season = seen("players.player", player_id=player.id)
    shown = season.shown
    return render_template(
        "players/player.html", player=player, stats=roster.summary(player, shown), form=form,
        error=error, merge_candidates=stored.anyone_else(player),
        ratings=ratings.player_ratings(player.id, None if shown.all_time else shown.key),
        # The season shown, named even when it is the usual one: the part must show the
        # same, were a new season to begin between the two requests.
        more=url_for("players.more", player_id=player.id, season=shown.key),
        provisional=ratings.PROVISIONAL, season=season), 422 if error else 200


@bp.route("/<int:player_id>/more")
def more(player_id: int):
    """Show a player's rivals, charts, records, best night and head-to-head for a season (or
    all time): fetched into the player's page (the cards alone), or opened by its link (a
    page of its own)."""
    player = stored.player_row(player_id)
    if player is None:
        abort(404)
    season = seen("players.more", player_id=player.id)
    shown = season.shown
    figures = roster.details(player, shown)
    rated_in = None if shown.all_time else shown.key  # the season ratings were rated in
    played = ratings.played(player.id, rated_in, shown.span)
    fragment = request.headers.get(FRAGMENT) == "1"
    page = render_template(
        "players/_more.html" if fragment else "players/more.html", player=player,
        stats=figures, chart=_chart(figures.form, player.name, figures.nights),
        versus=versus_rows(figures, season.asked),
        rating_chart=_rating_chart(player, played, rated_in, shown.span),
        rivals=rivals.rivals(figures.head_to_head, played, now=season.now),
        records=records.player_records(player.id, season=shown),
        page=url_for("players.player", player_id=player.id, season=season.asked),
        season=season)
    return page, 200, {"Vary": FRAGMENT}  # one address: the page, or its part alone


def _rating_chart(player: Player, played: ratings.Played, season: str | None,
                  days: tuple[date, date] | None) -> Markup | None:
    """Return the player's rating in each variant after each of their finished games (all
    time, or a season's) as an SVG line chart: a line a variant, flat between its games (the
    rating did not move), at most CHART_POINTS games drawn, spread evenly, and only those
    read."""
    if len(played.numbers) < 2:
        return None
    numbers = [played.numbers[i] for i in roster.spread(len(played.numbers))]
    days_drawn, after = ratings.chart_points(player.id, numbers, season, days)
    series = {home.label: [None if rating is None else ratings.figure(*rating)
                           for rating in after[home.name]]
              for home in variants.homes() if home.name in after}
    last = {label: next(v for v in reversed(line) if v is not None)
            for label, line in series.items()}
    name = player.name
    return line_chart(
        series, labels=_Labels(days_drawn),
        title=gettext("%(name)s's rating", name=name),
        desc=gettext("%(name)s's rating after each of %(games)s finished games: now %(now)s.",
                     name=name, games=len(played.numbers),
                     now=", ".join(f"{label} {value}" for label, value in last.items())),
        x_label=gettext("games, oldest first"), chart_id="rating-chart", from_zero=False)


def _chart(points, name: str, nights: int) -> Markup | None:
    """Return the player's win rate after each night as an SVG line chart."""
    if len(points) < 2:
        return None
    labels = _Labels([day for day, _ in points])
    rates = [round(rate, 1) for _, rate in points]
    return line_chart({gettext("Win rate %"): rates}, 100, labels=labels,
                      title=gettext("%(name)s's win rate", name=name),
                      desc=gettext("%(name)s's win rate after each of %(nights)s game nights, "
                                   "from %(first)s%% to %(last)s%%.", name=name, nights=nights,
                                   first=decimal(f"{rates[0]:g}"),
                                   last=decimal(f"{rates[-1]:g}")),
                      x_label=gettext("game nights, oldest first"),
                      target_label=gettext("won every game"),
                      chart_id="form-chart")


class _Labels(Sequence):
    """The chart's labels under its points: a date under the first point of each month
    only, so the axis stays readable. Worked out as the chart asks for one: it shows a
    few of a hundred."""

    def __init__(self, days: list[date]):
        self.days = days
        self.say = short_month if len(days) > 24 else day_and_month

    def __len__(self) -> int:
        return len(self.days)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = range(len(self.days))[i]  # a negative index counts from the end; past it: IndexError
        said = self.say(self.days[i])
        return said if i == 0 or said != self.say(self.days[i - 1]) else ""


@bp.route("/")
def roster_with_slash():
    """Open the roster at its address without the slash, as typed by analogy with /history/."""
    return redirect(url_for("players.roster"), 308)


@bp.route("/<int:player_id>")
def player(player_id: int):
    """Show a player's statistics, best night and head-to-head."""
    player = stored.player_row(player_id)  # id and name: the page changes nothing of them
    if player is None:
        abort(404)
    return _page(player, RenameForm(formdata=None, name=player.name))


@bp.route("/<int:player_id>/rename", methods=["POST"])
def rename(player_id: int):
    """Give a player a new name; their games and statistics stay with them."""
    player = db.get_or_404(Player, player_id)
    form = RenameForm()
    if not form.validate_on_submit():
        return _page(player, form, expired())
    try:
        old, new = play.rename_player(player.id, form.name.data or "")
    except play.Gone:
        abort(404)
    except rules.RuleError as error:
        return _page(player, form, gettext("Name: %(why)s", why=reason(error)))
    if old != new:
        flash(gettext("%(old)s is now called %(new)s.", old=old, new=new))
    return redirect(url_for("players.player", player_id=player.id))


@bp.route("/<int:player_id>/merge", methods=["GET", "POST"])
@asks  # a phone without the table passcode is asked for it first
def merge(player_id: int):
    """Pick a duplicate roster entry and fold it into this player."""
    player = db.get_or_404(Player, player_id)
    others = [(p, stored.games_of(p)) for p in stored.roster() if p.id != player.id]
    form = MergeForm()
    form.other.choices = [(p.id, bdi(p.name) + " · " + ngettext("%(num)d game", "%(num)d games",
                                                               games))
                          for p, games in others]
    error = None
    if form.validate_on_submit():
        chosen = dict(form.other.choices)[form.other.data]
        asked = unconfirmed(
            gettext("Merge %(other)s into %(name)s?", other=chosen, name=player.name),
            gettext("Merge into %(name)s", name=player.name),
            url_for("players.player", player_id=player.id),
            gettext("Its games, hands, chips and corners move over to %(name)s, and it leaves "
                    "the roster. This cannot be undone.", name=player.name))
        if asked is not None:
            return asked
        try:
            name, kept, moved = play.merge_players(player.id, form.other.data)
        except play.Gone:
            flash(gettext("That entry was merged or changed on another phone meanwhile: look "
                          "again."))
            return redirect(url_for("players.roster"))
        except rules.RuleError as refused:
            error = refusal(refused)
        else:
            flash(ngettext("%(old)s merged into %(new)s: %(num)d game moved over.",
                           "%(old)s merged into %(new)s: %(num)d games moved over.", moved,
                           old=name, new=kept))
            return redirect(url_for("players.player", player_id=player.id))
    elif form.is_submitted():
        error = (expired("merged") if "csrf_token" in form.errors
                 else gettext("Tap the entry to fold into this one."))
    return render_template("players/merge.html", player=player, form=form,
                           error=error), 422 if error else 200
