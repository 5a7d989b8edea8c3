"""The language switch: one tap at the foot of every page, remembered by this phone."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request
from flask_babel import gettext

from ...extensions import csrf
from ..i18n import COOKIE, LANGUAGES, REMEMBER, back
from ..passcode import open_to_all

bp = Blueprint("language", __name__)


@bp.route("/language", methods=["POST"])
@open_to_all  # a phone's own language, not a change to the table: no passcode
@csrf.exempt  # nothing stored; a page kept offline with an old token still switches
def choose():
    """Remember this phone's language and open the page it was on again, in that language."""
    chosen = request.form.get("lang", "")
    if chosen not in LANGUAGES:
        return render_template("error.html", title=gettext("Unknown language"),
                               message=gettext("Choose one of: %(names)s.",
                                               names=", ".join(LANGUAGES.values()))), 400
    response = redirect(back(request.form.get("next")), 303)
    response.set_cookie(COOKIE, chosen, max_age=REMEMBER, httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response
