"""The season a page is seen for (`?season=`), and the row of seasons it offers to switch to."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

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
    """The season a page shows, and the links to the others (worked out when a page draws
    them: a page's part fetched into place draws none)."""

    choice: calendar.Choice
    endpoint: str
    values: dict

    @property
    def shown(self) -> calendar.Shown:
        """The season shown (its key and days), or all time."""
        return self.choice.shown

    @property
    def current(self) -> str:
        """The season today falls in."""
        return self.choice.current

    @property
    def asked(self) -> str | None:
        """`season=` for a link that keeps the season shown: None for the usual season."""
        return None if self.shown.key == self.choice.usual else self.shown.key

    @property
    def label(self) -> str:
        """The season's name as a page says it: "2025", "Winter league" or "All time"."""
        return gettext("All time") if self.shown.all_time else self.shown.key

    @property
    def now(self) -> bool:
        """Whether it is all time or the season going on today (a run "now" means now)."""
        return self.shown.all_time or self.shown.key == self.current

    @cached_property
    def links(self) -> tuple[SeasonLink, ...]:
        """The links to the same page for the ROW newest seasons that hold games (and the
        one shown), then for all time; the usual season's link asks for none."""
        choice, shown = self.choice, self.shown

        def link(label: str, key: str) -> SeasonLink:
            season = {} if key == choice.usual else {"season": key}
            return SeasonLink(label, url_for(self.endpoint, **self.values, **season),
                              key == shown.key)

        newest = choice.seasons[:ROW]
        links = [link(key, key) for key in newest]
        if choice.seasons and not shown.all_time and shown.key not in newest:
            if shown.key in choice.seasons:
                links.append(link(shown.key, shown.key))  # an older season, asked for
            else:
                links.insert(0, link(shown.key, shown.key))  # a season with no games yet
        if links:
            links.append(link(gettext("All time"), calendar.ALL))
        return tuple(links)

    @cached_property
    def more(self) -> str | None:
        """The Seasons page, when the row leaves some seasons out."""
        return url_for("seasons.index") if len(self.choice.seasons) > ROW else None


def seen(endpoint: str, **values) -> Seen:
    """Return the season the request asks for (404 for a season that does not exist), and
    how to link to the same page (`endpoint` with `values`) for the others."""
    choice = calendar.choose(request.args.get("season"))
    if choice is None:
        abort(404)
    return Seen(choice, endpoint, values)
