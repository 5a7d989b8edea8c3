"""The season a page is seen for (`?season=`), and the row of seasons it offers to switch to."""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, request, url_for
from flask_babel import gettext

from ..reports import calendar

ROW = 6  # the newest seasons a page's row offers; every season is on the Seasons page


@dataclass(frozen=True)
class SeasonLink:
    """One season a page can be seen for: its name as shown, its link, and whether the page
    shows it now."""

    label: str
    href: str
    shown: bool


@dataclass(frozen=True)
class Seen:
    """The season a page shows, the links to the others, and what links that keep it ask."""

    shown: calendar.Shown
    links: tuple[SeasonLink, ...]
    current: str  # the season today falls in
    asked: str | None  # `season=` for a link that keeps it: None for the usual season
    more: str | None = None  # the Seasons page, when the row leaves some seasons out

    @property
    def label(self) -> str:
        """The season's name as a page says it: "2025", "Winter league" or "All time"."""
        return gettext("All time") if self.shown.all_time else self.shown.key

    @property
    def now(self) -> bool:
        """Whether it is all time or the season going on today (a run "now" means now)."""
        return self.shown.all_time or self.shown.key == self.current


def seen(endpoint: str, **values) -> Seen:
    """Return the season the request asks for (404 for a season that does not exist), and
    the links to the same page for the ROW newest seasons that hold games (and the one
    shown), then for all time; the usual season's link asks for none."""
    choice = calendar.choose(request.args.get("season"))
    if choice is None:
        abort(404)
    shown = choice.shown
    def link(label: str, key: str) -> SeasonLink:
        season = {} if key == choice.usual else {"season": key}
        return SeasonLink(label, url_for(endpoint, **values, **season), key == shown.key)

    newest = choice.seasons[:ROW]
    links = [link(key, key) for key in newest]
    if choice.seasons and not shown.all_time and shown.key not in newest:
        if shown.key in choice.seasons:
            links.append(link(shown.key, shown.key))  # an older season, asked for
        else:
            links.insert(0, link(shown.key, shown.key))  # a season with no games yet
    if links:
        links.append(link(gettext("All time"), calendar.ALL))
    more = url_for("seasons.index") if len(choice.seasons) > ROW else None
    return Seen(shown, tuple(links), choice.current,
                None if shown.key == choice.usual else shown.key, more)
