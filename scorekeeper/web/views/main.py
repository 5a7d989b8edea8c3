"""Home: the game in progress, a new game, recent games."""

from dataclasses import dataclass

from flask import (
    Blueprint,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_translations, gettext
from flask_wtf.csrf import CSRFError
from markupsafe import Markup

from ... import variants
from ...db import Unreadable, read_game, read_games
from ...db.reader import game_to_watch, latest_game_ids
from ...reports import history
from ...words import N_, day, language, reason
from ..bidi import bdi_join
from ..forms import HandForm

bp = Blueprint("main", __name__)
RECENT = 8
# The manifest's words, said in the phone's language when it asks (N_: marked here).
NAME = N_("Kings Corners Scorekeeper")
DESCRIPTION = N_("The score of tonight's Kings Corners game on every phone at the table: "
                 "penalty points, a chip pot or the two-player coronation game.")


@bp.route("/")
def home():
    """Show the game in progress first, then the latest games."""
    return render_template("home.html", **_home())


def _home() -> dict:
    """Read and draw the games home shows."""
    ids = latest_game_ids(RECENT + 4)
    listed = history.summaries(ids)
    games = [(listed[i], variants.get(listed[i].variant)) for i in ids if i in listed]
    broken = [(g, home) for g, home in games if not g.readable]
    recent = [(g, home) for g, home in games if g.readable and g.over][:RECENT]
    # Only the games still being played are read and replayed: who deals next.
    going = [g.id for g, _ in games if g.readable and not g.over][:3]
    loaded = read_games(going)
    in_progress = [(loaded[i], variants.get(loaded[i].variant)) for i in going
                   if i in loaded and loaded[i].readable]
    return {"games": Markup(render_template("_home_games.html", in_progress=in_progress,
                                            recent=_recent(recent), broken=broken))}


@dataclass(frozen=True)
class RecentGame:
    """A line of home's recent games with its link and words worked out for the page."""

    href: str
    won: Markup  # "Ann & Ben won", the names isolated
    label: str  # the variant's name
    players: str  # "5 players"
    day: str  # "Sat 21 Nov 2026"


def _recent(games: list) -> list[RecentGame]:
    """Return the recent games as home lists them: the sentences looked up once for the
    page (as the template's _() says them)."""
    if not games:
        return []
    say = get_translations()
    won = Markup(say.ugettext("%(names)s won"))
    return [RecentGame(url_for("games.scoreboard", game_id=game.id),
                       won % {"names": bdi_join(game.winners, " & ")}, home.label,
                       Markup(say.ungettext("%(num)d player", "%(num)d players",
                                            len(game.players))) % {"num": len(game.players)},
                       day(game.played_on))
            for game, home in games]


@bp.route("/watch")
def watch():
    """Open the game being played, else the last one, watch-only: for a TV or onlookers.

    Its page has no buttons and follows the game; once the game is over it comes back here
    now and then, so the screen moves on to the next game when one starts.
    """
    game_id = game_to_watch()
    if game_id is None:
        return render_template("watch_empty.html")
    return redirect(url_for("games.scoreboard", game_id=game_id, watch=1))


@bp.route("/how-to-play")
def how_to_play():
    """Show how Kings Corners is played: the deal, the moves, going out, house variations."""
    return render_template("how_to_play.html")


@bp.route("/manifest.webmanifest")
def manifest():
    """Describe the app to a phone's "Add to Home Screen": a name, icons, its own window."""
    from ..pages import asset_url

    icons = [{"src": asset_url(f"icons/{kind}-{size}.png"), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": purpose}
             for kind, purpose in (("icon", "any"), ("maskable", "maskable"))
             for size in (192, 512)]
    response = jsonify(name=gettext(NAME), short_name="Kings Corners",
                       description=gettext(DESCRIPTION), lang=language(), dir="ltr",
                       start_url=url_for("main.home"), scope="/",
                       display="standalone", orientation="portrait",
                       background_color="#11161d", theme_color="#11161d", icons=icons)
    response.mimetype = "application/manifest+json"
    response.headers["Cache-Control"] = "no-cache"
    # In the phone's language, as a page is: a cache keeps one copy per language.
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


@bp.route("/healthz")
def healthz():
    """Answer a liveness probe."""
    return {"ok": True}


@bp.app_errorhandler(CSRFError)
def expired_form(error):
    """Explain a refused form (its token was missing or stale) instead of a bare 400."""
    return render_template("error.html", title=gettext("This page had expired"),
                           message=gettext("Nothing was saved. Go back, reload the page and "
                                           "try again.")), 400


@bp.app_errorhandler(Unreadable)
def needs_repair(error: Unreadable):
    """Show a game the rules refuse on its own pages, with the way to repair it."""
    game = read_game(error.game_id)
    return render_template("repair.html", game=game, home=variants.get(game.variant),
                           problem=reason(error.error, where=True),
                           form=HandForm(formdata=None)), 409


@bp.app_errorhandler(413)
def too_big(error):
    """Say what was too big and how big it may be; nothing was read or written."""
    limits = {"logs.import_game": (gettext("A game log"), "LOG_MAX_BYTES",
                                   url_for("logs.import_game")),
              "backup.restore": (gettext("A backup"), "RESTORE_MAX_BYTES",
                                 url_for("backup.page"))}
    form = (gettext("A form"), "MAX_CONTENT_LENGTH", "/")
    # A page that takes a file takes it as a file (multipart); any other body is a form's.
    what, key, back = (limits.get(request.endpoint, form)
                       if request.mimetype == "multipart/form-data" else form)
    limit = current_app.config[key]
    size = f"{limit / 1024 ** 2:g} MB" if limit >= 1024 ** 2 else f"{limit // 1024 or 1} KB"
    return render_template(
        "error.html", title=gettext("Too big"),
        message=gettext("Nothing was read or saved. %(what)s can be at most %(size)s; this "
                        "one is bigger.", what=what, size=size), back=back), 413


@bp.app_errorhandler(404)
def not_found(error):
    """Say plainly that there is nothing here, and why a game's address may have gone."""
    a_game = request.path.startswith(("/games/", "/history/games/"))
    return render_template("error.html", title=gettext("Not found"), message=gettext(
        "There is nothing here: the game may have been deleted.") if a_game else gettext(
        "There is nothing at this address.")), 404
