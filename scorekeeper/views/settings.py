"""Settings: the table passcode, the unlock form that asks for it, the watch-only link."""

from __future__ import annotations

import time

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_limiter import RateLimitExceeded

from .. import passcode, rules
from ..extensions import db, limiter
from ..forms import ConfirmForm, PasscodeForm
from ..i18n import reason
from ..passcode import asks, open_to_all
from ..words import capital
from . import expired, posted, unconfirmed

bp = Blueprint("settings", __name__)
# Wrong passcodes a phone may try (by its address) before it waits; right ones never count.
GUESSES = "5 per minute; 20 per hour"


def _page(form: PasscodeForm, error: str | None = None, status: int = 200):
    """Render the settings page, with the passcode form's error if any."""
    return render_template("settings.html", form=form, confirm=ConfirmForm(), error=error,
                           on=passcode.is_on(), shortest=passcode.SHORTEST,
                           longest=passcode.LONGEST), status


@bp.route("/settings")
@asks
def page():
    """Show the passcode (off, or on with change and remove) and the watch-only link."""
    return _page(PasscodeForm(formdata=None))


@bp.route("/settings/passcode", methods=["POST"])
def set_passcode():
    """Set or change the table passcode; this phone stays able to change things."""
    form = PasscodeForm()
    if not posted(form):
        return _page(form, expired(), 400)
    was_on = passcode.is_on()
    try:
        passcode.store(form.passcode.data)
        db.session.commit()
    except rules.RuleError as error:
        db.session.rollback()
        return _page(form, capital(reason(error)) + ".", 422)
    flash(gettext("Passcode changed. Every other phone asks for the new one before a change.")
          if was_on else gettext("Passcode set. Other phones now ask for it before they "
                                 "change anything; this one is remembered."))
    return passcode.remember(redirect(url_for("settings.page")))


@bp.route("/settings/passcode/remove", methods=["POST"])
def remove_passcode():
    """Remove the passcode: every phone may change things again."""
    if not posted(ConfirmForm()):
        flash(expired("changed"))
        return redirect(url_for("settings.page"))
    asked = unconfirmed(gettext("Remove the passcode?"), gettext("Remove passcode"),
                        url_for("settings.page"),
                        gettext("Every phone on the Wi-Fi could change things again."),
                        keep=gettext("Keep the passcode"))
    if asked is not None:
        return asked
    passcode.clear()
    db.session.commit()
    flash(gettext("Passcode removed. Every phone at the table can change things."))
    return passcode.forget(redirect(url_for("settings.page")))


@bp.route("/settings/forget", methods=["POST"])
@open_to_all
def forget():
    """Make this phone a reader: it asks for the passcode again before a change."""
    flash(gettext("This phone is read-only now, until the passcode is given again."))
    return passcode.forget(redirect(url_for("main.home")))


def _wrong(response) -> bool:
    return response.status_code == 401


@bp.route("/unlock", methods=["GET", "POST"])
@open_to_all
@limiter.limit(GUESSES, methods=["POST"], deduct_when=_wrong)
def unlock():
    """Ask for the table passcode, then carry on: to the page, or the form sent again."""
    if request.method == "GET":
        target = passcode.local(request.args.get("next"))
        if passcode.unlocked():
            return redirect(target)
        return passcode.unlock_page(target)
    target = passcode.local(request.form.get(passcode.NEXT))
    again = request.form.get(passcode.AGAIN) == "1"
    # 307 sends the carried form again to where it was going; 303 opens the page.
    code = 307 if again else 303
    if not passcode.is_on():
        return redirect(target, code)
    if passcode.matches(request.form.get(passcode.FIELD)):
        return passcode.remember(redirect(target, code))
    return passcode.unlock_page(target, again, gettext("That is not the table's passcode."),
                                401)


@bp.app_errorhandler(RateLimitExceeded)
def guessing(error):
    """Stop a phone that keeps guessing: say how long it waits. Nothing was changed."""
    limit = limiter.current_limit
    wait = max(1, int(limit.reset_at - time.time())) if limit else 60
    target = passcode.local(request.form.get(passcode.NEXT))
    response = passcode.unlock_page(
        target, request.form.get(passcode.AGAIN) == "1",
        gettext("Too many wrong passcodes from this phone. Try again in %(wait)s s.",
                wait=wait), 429)
    return response[0], 429, {"Retry-After": str(wait)}
