"""Settings: the table passcode, the unlock form that asks for it, the watch-only link."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext

from ... import rules
from ...words import capital, reason
from .. import passcode
from ..forms import ConfirmForm, PasscodeForm
from ..pages import expired, posted, unconfirmed
from ..passcode import asks, open_to_all

bp = Blueprint("settings", __name__)


def _page(form: PasscodeForm, error: str | None = None, status: int = 200):
    """Render the settings page, with the passcode form's error if any."""
    on = passcode.is_on()
    return render_template("settings.html", form=form, confirm=ConfirmForm(), error=error,
                           on=on, phones=passcode.phones() if on else [],
                           this_phone=passcode.this_phone(), shortest=passcode.SHORTEST,
                           longest=passcode.LONGEST), status


@bp.route("/settings")
@asks
def page():
    """Show the passcode (off, or on with change and remove), the phones that know it, and
    the watch-only link."""
    return _page(PasscodeForm(formdata=None))


@bp.route("/settings/passcode", methods=["POST"])
def set_passcode():
    """Set or change the table passcode; every other phone is forgotten, this one kept."""
    form = PasscodeForm()
    if not posted(form):
        return _page(form, expired(), 400)
    try:
        was_on = passcode.store(form.passcode.data)
    except rules.RuleError as error:
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
    flash(gettext("Passcode removed. Every phone at the table can change things."))
    return passcode.forget(redirect(url_for("settings.page")))


@bp.route("/settings/forget", methods=["POST"])
@open_to_all
def forget():
    """Make this phone a reader: it asks for the passcode again before a change."""
    passcode.forget_phone()
    flash(gettext("This phone is read-only now, until the passcode is given again."))
    return passcode.forget(redirect(url_for("main.home")))


@bp.route("/settings/phones/<int:phone_id>/forget", methods=["POST"])
def forget_phone(phone_id: int):
    """Forget another phone: a lost one, or one that should only watch from now on."""
    if not posted(ConfirmForm()):
        flash(expired("changed"))
        return redirect(url_for("settings.page"))
    passcode.forget_phone(phone_id)
    flash(gettext("That phone is read-only now, until the passcode is given on it again."))
    return redirect(url_for("settings.page") + "#phones")


@bp.route("/unlock", methods=["GET", "POST"])
@open_to_all
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
    address = request.remote_addr or ""
    wait, everyone = passcode.take_guess(address)  # counted before it is checked
    if wait:
        page, _ = passcode.unlock_page(target, again, gettext(
            "Too many wrong passcodes at this table just now. Try again in %(wait)s s.",
            wait=wait) if everyone else gettext(
            "Too many wrong passcodes from this phone. Try again in %(wait)s s.", wait=wait),
            429)
        return page, 429, {"Retry-After": str(wait)}
    if passcode.matches(request.form.get(passcode.FIELD)):
        passcode.give_back_guess(address)  # a right passcode never counts
        return passcode.remember(redirect(target, code))
    return passcode.unlock_page(target, again, gettext("That is not the table's passcode."),
                                401)
