"""The app's languages: English, and Spanish for the tables that play with the Jax set.

A phone's language is the one it chose with the switch at the foot of every page (a
cookie), else the first of its Accept-Language that the app speaks (es, es-MX... give
Spanish), else English. Everything drawn once and kept for the next phone (a board, a
chart, a history page) is kept per language: `language()` is part of its key.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, has_request_context, request
from flask_babel import Babel, get_locale, get_translations
from jinja2 import pass_context
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

LANGUAGES = {"en": "English", "es": "Español"}  # each named in its own words
DEFAULT = "en"
COOKIE = "kc_lang"
REMEMBER = 400 * 24 * 3600  # the longest a browser keeps a cookie

babel = Babel()


def N_(text: str) -> str:
    """Mark words for the catalogue that are translated later, where they are shown (a
    rule's label, defined where no language is known): `pybabel extract -k N_`."""
    return text


def reason(error: Exception, *, where: bool = False) -> str:
    """Return why the rules or storage refused something, in the page's language.

    A RuleError says it in English with %(name)s slots (scorekeeper/rules/ knows no
    language); its sentence, and each `Word` put into it, is looked up in the catalogue
    here, where it is shown. `where` puts its place first, as the import and restore
    pages do: "round 3, hands.Ann.kings: …".
    """
    from flask_babel import gettext

    from .rules import RuleError, Word

    if not isinstance(error, RuleError):
        return str(error)
    words = {key: reason(value, where=True) if isinstance(value, RuleError) else
             gettext(value) if isinstance(value, Word) else value
             for key, value in error.words.items()}
    said = gettext(error.template, **words)
    if not where:
        return said
    place = [gettext("round %(number)s", number=error.round_number)
             ] if error.round_number is not None else []
    place += [error.field] if error.field else []
    return f"{', '.join(place)}: {said}" if place else said


def choose() -> str:
    """Return the language of this request: the phone's choice, else its Accept-Language;
    English outside a request (the command line, a page part drawn by a test)."""
    if not has_request_context():
        return DEFAULT
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT)


def language() -> str:
    """Return this request's language code ("en" or "es"), for a page and for cache keys."""
    return str(get_locale() or DEFAULT)


def here() -> str:
    """Return the page the switch comes back to without a referrer: this page's path for a
    GET (its query is not echoed into the page), else home."""
    from .passcode import local

    return local(request.path) if request.method == "GET" else "/"


def back(fallback: str | None) -> str:
    """Return the page the switch was tapped on: the referrer when it is this app (with its
    query: page 2 of history, a watch link), else the form's `next` path, else home."""
    from .passcode import local

    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path:
        return local(referrer.path + (f"?{referrer.query}" if referrer.query else ""))
    return local(fallback)


def _page_gettext(app: Flask) -> None:
    """Let a template's _() find its catalogue once per page, not once per word.

    Flask-Babel's own _() looks up the request, its locale and its catalogue for every word
    (a page says a hundred); the catalogue of the page's language is put in its context
    instead. A macro imported without the context asks Flask-Babel, as before.
    """

    def from_page(method: str):
        @pass_context
        def say(context, *args):
            return getattr(context.get("kc_translations") or get_translations(), method)(*args)
        return say

    app.jinja_env.install_gettext_callables(
        gettext=from_page("ugettext"), ngettext=from_page("ungettext"), newstyle=True,
        pgettext=from_page("upgettext"), npgettext=from_page("unpgettext"))


def init(app: Flask) -> None:
    """Bind Flask-Babel: catalogues in translations/ beside the package (compiled by
    `make install`), the language per request, and pages that say they vary by it."""
    folder = Path(app.root_path).parent / "translations"
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(folder))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    babel.init_app(app, locale_selector=choose)
    _page_gettext(app)
    said: dict[str, Markup] = {}  # the scripts' words as data-words, once per language

    def words_json() -> Markup:
        code = language()
        if code not in said or app.debug:
            said[code] = htmlsafe_json_dumps(js_words(), dumps=app.json.dumps)
        return said[code]

    @app.context_processor
    def _languages():
        return {"lang": language, "languages": LANGUAGES, "lang_here": here,
                "words_json": words_json, "kc_translations": get_translations()}

    app.jinja_env.filters["day"] = day
    app.jinja_env.filters["long_day"] = long_day

    @app.after_request
    def _vary(response):
        if response.mimetype == "text/html":
            response.vary.add("Accept-Language")
            response.vary.add("Cookie")
        return response


def _dated(when, english: str, cldr: str) -> str:
    """Return a date as English says it (strftime), else in the page's language (a CLDR
    pattern, through Babel); English outside a request."""
    from flask import has_request_context
    from flask_babel import format_date

    if not has_request_context() or language() == "en":
        return when.strftime(english)
    return format_date(when, cldr)


def day(when) -> str:
    """Return a day as history names one: "Sat 21 Nov 2026", "sáb 21 nov 2026"."""
    return _dated(when, "%a %d %b %Y", "EEE d MMM y")


def long_day(when) -> str:
    """Return a day in full: "Saturday 21 November 2026", "sábado, 21 de noviembre de 2026"."""
    return _dated(when, "%A %d %B %Y", "full")


def month(when) -> str:
    """Return a month and year: "November 2026", "noviembre de 2026"."""
    return _dated(when, "%B %Y", "LLLL 'de' y")


def short_month(when) -> str:
    """Return a month and year under a chart: "Nov 2026", "nov 2026"."""
    return _dated(when, "%b %Y", "LLL y")


def day_and_month(when) -> str:
    """Return a day of a month under a chart: "21 Nov", "21 nov"."""
    return _dated(when, f"{when.day} %b", "d MMM")  # "21", not strftime's "%d" ("07")


def decimal(text: str) -> str:
    """Return a number written with a decimal point ("2.5") as the page's language writes
    it ("2,5" in Spanish)."""
    return text if language() == "en" else text.replace(".", ",")


def js_words() -> dict[str, str]:
    """Return the words the page's scripts say, in its language, with {name} placeholders
    (base.html puts them in the body's data-words; the scripts read them there)."""
    from flask_babel import gettext

    return {
        "stalemate_chip": gettext("Stalemate ✎"),
        "went_out_chip": gettext("%(name)s went out ✎", name="{name}"),
        "nobody_went_out": gettext("Nobody went out (stalemate)"),
        "went_out": gettext("%(name)s went out", name="{name}"),
        "change_who": gettext("%(said)s: change who went out", said="{said}"),
        "fit_exact": gettext("⚠ For exactly %(min)s players; %(seated)s are seated",
                             min="{min}", seated="{seated}"),
        "fit_range": gettext("⚠ For %(min)s to %(max)s players; %(seated)s are seated",
                             min="{min}", max="{max}", seated="{seated}"),
        "fits": gettext("✓ Fits your %(seated)s players", seated="{seated}"),
        "tap": gettext("%(num)s tap", num="{n}"),
        "taps": gettext("%(num)s taps", num="{n}"),
        "taps_waiting": gettext("No connection: %(taps)s waiting, sent as soon as it is back.",
                                taps="{taps}"),
        "taps_saving": gettext("Saving %(taps)s…", taps="{taps}"),
        # offline.js: a hand kept on the phone while there is no connection.
        "off_copy": gettext("No connection: this page as it was at %(time)s.", time="{time}"),
        "off_refused": gettext("%(label)s was not saved: %(reason)s", label="{label}",
                               reason="{reason}"),
        "off_open": gettext("Open it"),
        "off_discard": gettext("Discard"),
        "off_discard_what": gettext("Discard %(label)s", label="{label}"),
        "off_taps_first": gettext("%(label)s waiting to send · the chips taps before it go "
                                  "first.", label="{label}"),
        "off_open_game": gettext("Open the game"),
        "off_locked": gettext("%(label)s waiting to send · this phone needs the table "
                              "passcode.", label="{label}"),
        "off_unlock": gettext("Unlock"),
        "off_waiting": gettext("%(label)s waiting to send · no connection. It is sent by "
                               "itself when the connection is back.", label="{label}"),
        "off_sending": gettext("Sending %(label)s…", label="{label}"),
        "off_sent": gettext("%(label)s (saved with no connection) sent at %(time)s.",
                            label="{label}", time="{time}"),
        "off_dismiss": gettext("Dismiss"),
        "off_answered": gettext("the server answered %(status)s.", status="{status}"),
        "off_edit": gettext("No connection: this correction is not saved. Save again when the "
                            "connection is back."),
        # spanish-rest: theme.js, the header's theme key (its aria-label and title).
        "theme_light": gettext("light"),
        "theme_dark": gettext("dark"),
        "theme_auto": gettext("Theme: as the phone is set (%(shown)s). Tap for %(next)s.",
                              shown="{shown}", next="{next}"),
        "theme_chosen": gettext("Theme: %(chosen)s. Tap for %(next)s.", chosen="{chosen}",
                                next="{next}"),
        "theme_back": gettext("Theme: %(chosen)s. Tap for the phone's setting.",
                              chosen="{chosen}"),
    }
