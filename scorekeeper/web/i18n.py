"""The app's languages: English, and Spanish for the tables that play with the Jax set.

A phone's language is the one it chose with the switch at the foot of every page (a
cookie), else the first of its Accept-Language that the app speaks (es, es-MX... give
Spanish), else English. What is said in that language (words, dates, numbers) is in
scorekeeper/words.py; this module chooses it, binds Flask-Babel and gives the templates
their words.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from urllib.parse import urlsplit

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, g, has_request_context, request
from flask_babel import Babel, Domain, get_locale, get_translations
from jinja2 import pass_context
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup

from ..words import DEFAULT, day, language, long_day

LANGUAGES = {"en": "English", "es": "Español"}  # each named in its own words
COOKIE = "kc_lang"
REMEMBER = 400 * 24 * 3600  # the longest a browser keeps a cookie


class _PageDomain(Domain):
    """Flask-Babel's domain, finding the catalogue once per request, not once per word.

    Its own lookup (the locale's name, then its cache) is made for every gettext said in
    Python, and a page says dozens. The catalogue is kept for the request beside the locale
    it is for: a changed locale (force_locale, refresh) finds its own.
    """

    def get_translations(self):
        # Flask's g looked up once: each look-up through its proxy costs more than the word.
        state = g._get_current_object()
        locale = getattr(getattr(state, "_flask_babel", None), "babel_locale", None)
        said = getattr(state, "kc_catalogue", None)
        if locale is not None and said is not None and said[0] is locale:
            return said[1]
        translations = super().get_translations()
        state.kc_catalogue = (get_locale(), translations)
        return translations


class _Babel(Babel):
    @cached_property
    def domain_instance(self):
        return _PageDomain(domain=self.domain)


babel = _Babel()


def choose() -> str:
    """Return the language of this request: the phone's choice, else its Accept-Language;
    English outside a request (the command line, a page part drawn by a test)."""
    if not has_request_context():
        return DEFAULT
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default=DEFAULT)


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

    # A page says _() dozens of times. Jinja's newstyle gettext calls the catalogue's through
    # the context a second time and formats every sentence; this one finds the catalogue
    # itself and leaves a sentence with no % in it as it is (formatting it changes nothing).
    @pass_context
    def gettext(context, string: str, **variables):
        said = (context.get("kc_translations") or get_translations()).ugettext(string)
        if context.eval_ctx.autoescape:
            said = Markup(said)
        return said % variables if variables or "%" in said else said

    # _ is gettext itself: Jinja's own _() looks "gettext" up and calls it once more.
    app.jinja_env.globals.update(gettext=gettext, _=gettext)


def compiled(folder: Path, instance: Path) -> list[str]:
    """Return the folders to read the catalogues from, compiling any .po in `folder` whose
    .mo is missing or older: beside it, else (an installed package may be read-only) under
    instance/translations, which is then read first."""
    folders = [str(folder)]
    for po in sorted(folder.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalogue = read_po(source)
        for target in (mo, instance / "translations" / po.relative_to(folder).with_suffix(".mo")):
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                with target.open("wb") as out:
                    write_mo(out, catalogue)
            except OSError:
                continue
            if target != mo:
                folders.insert(0, str(instance / "translations"))
            break
    return list(dict.fromkeys(folders))


def init(app: Flask) -> None:
    """Bind Flask-Babel: the catalogues in translations/ beside this module (compiled on the
    first start), the language per request, and pages that say they vary by it."""
    folders = compiled(Path(__file__).parent / "translations", Path(app.instance_path))
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", ";".join(folders))
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
        "open_hand": gettext("Open hand %(number)s", number="{n}"),
        "next_game": gettext("A new game has started."),
        "cancel": gettext("Cancel"),
        # app.js: a tapped score's explanation, fetched from its hand's why page.
        "why_failed": gettext("The explanation could not be fetched (no connection?)."),
        # app.js: a player's own part of the hand, sent from their phone.
        "part_waits": gettext("No connection: your part waits on this phone and is sent as "
                              "soon as the connection is back."),
        "part_failed": gettext("Your part was not sent: tap it again."),
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
