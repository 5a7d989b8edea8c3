"""The words the app shows, in the phone's language: words marked for the catalogue, the
refusals of the rules put into sentences, dates and numbers as the language writes them,
and small helpers (a capital, a sentence, a name that needs isolating).

A page's language is chosen by the web side (scorekeeper/web/i18n.py); outside a request
everything here is English."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from flask import g, has_request_context
from flask_babel import format_date, get_locale, gettext

from .rules import RuleError, Word
from .rules.base import N_  # noqa: F401  (words marked for the catalogue: said in the rules)

DEFAULT = "en"  # the language outside a request, and of a phone that asks for none we speak

# Bidirectional classes that can reorder the text around them.
MOVING = {"R", "AL", "AN", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"}


def plural(count: int, one: str, many: str | None = None) -> str:
    """Return "1 hand", "2 hands" (or the plural given)."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def signed(number: int) -> str:
    """Return a change with its sign, the minus a true one: "+41", "−12", "+0"."""
    return f"{number:+d}".replace("-", "\u2212")


def together(names) -> str:
    """Return names as a list is said: "Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + gettext(" and ") + names[-1]


def sentence(text: str) -> str:
    """Return text as a sentence: a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def refused_where(error: Exception) -> str:
    """Return why a file was refused, its place first, as a sentence: "Round 3,
    hands.Ann.kings: …." A place that is the file's own key ("nights[0].name: …",
    "players: …") is kept as the file writes it, not given a capital it does not have."""
    said = reason(error, where=True)
    if isinstance(error, RuleError) and error.field and error.round_number is None:
        return said + ("" if said.endswith((".", "!", "?")) else ".")
    return sentence(said)


def capital(text: str) -> str:
    """Return text with its first letter in capitals."""
    return text[:1].upper() + text[1:]


@lru_cache(maxsize=1024)  # the roster's names, asked about on every line that shows one
def needs_isolating(name: str) -> bool:
    """Tell whether a name could reorder a left-to-right line around it: it has a
    right-to-left letter, an Arabic digit or a direction mark, or no left-to-right letter."""
    classes = {unicodedata.bidirectional(ch) for ch in name}
    return bool(classes & MOVING) or "L" not in classes


def reason(error: Exception, *, where: bool = False) -> str:
    """Return why the rules or storage refused something, in the page's language.

    A RuleError says it in English with %(name)s slots (scorekeeper/rules/ knows no
    language); its sentence, and each `Word` put into it, is looked up in the catalogue
    here, where it is shown. `where` puts its place first, as the import and restore
    pages do: "round 3, hands.Ann.kings: …".
    """
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


def language() -> str:
    """Return this request's language code ("en" or "es"), worked out once per request."""
    if not has_request_context():
        return str(get_locale() or DEFAULT)
    state = g._get_current_object()  # once: each look-up through the proxy costs more
    said = getattr(state, "kc_language", None)
    if said is None:
        said = state.kc_language = str(get_locale() or DEFAULT)
    return said


def _dated(when, english: str, cldr: str) -> str:
    """Return a date as English says it (strftime), else in the page's language (a CLDR
    pattern, through Babel); English outside a request."""
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


def points(value) -> str:
    """Return a crowd night's points as the page's language writes them: 7.5, 3, 2.25
    (7,5 in Spanish)."""
    return decimal(f"{float(value):.2f}".rstrip("0").rstrip("."))
