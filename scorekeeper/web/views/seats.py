"""Every player on their own phone: join by the table's QR, take a seat, send your part."""

from __future__ import annotations

import secrets

from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from ... import play, rules, variants
from ...db import phone_parts
from ...rules.parts import NOBODY, Part
from ...words import capital, reason, sentence
from .. import own_phones, passcode
from ..forms import ConfirmForm, whole
from ..pages import expired, game_or_404

bp = Blueprint("seats", __name__, url_prefix="/games/<int:game_id>")


def _board(game_id: int):
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.route("/join/<code>")
def join(game_id: int, code: str):
    """The table's QR code: this phone may take a seat of the game, then "Which one are you?".
    A wrong code counts as a wrong passcode does, against the same limit."""
    game = game_or_404(game_id)
    if game.result.over:
        flash(gettext("This game is over: its join code seats no one. Scan the QR code of "
                      "the game being played."))
        return _board(game_id)
    checked = passcode.join_code_checked(lambda: own_phones.join(game, code[:40]))
    if checked is not True:
        flash(checked or gettext(
            "That join code is not this game's: scan the table's QR code again."))
        return _board(game_id)
    return redirect(url_for("seats.choose", game_id=game_id))


@bp.route("/join-code", methods=["POST"])
def new_code(game_id: int):
    """Give the game a new join code (behind the passcode): the QR code shown until now, and
    any copy of it, seats no one from now on; the phones seated keep their seats."""
    game = game_or_404(game_id)
    if not ConfirmForm().validate_on_submit():
        flash(expired("changed"))
    else:
        try:
            play.new_join_code(game_id, secrets.token_hex(8))
        except play.NoSuchGame:
            abort(404)
        flash(gettext("New join code: scan this QR code to take a seat. The old one seats no "
                      "one now."))
    return redirect(url_for("join.page", to=own_phones.join_path(game) or f"/games/{game_id}"))


@bp.route("/seat", methods=["GET", "POST"])
@passcode.lets(own_phones.came_by_qr)  # a phone that came by the QR code may take a seat
def choose(game_id: int):
    """Ask "Which one are you?" with the seats' names; one tap takes a seat on this phone.
    A seat another phone holds is taken only once this phone says so, and, with a table
    passcode, only by a phone that knows it: a join code alone takes a free seat."""
    game = game_or_404(game_id)
    form = ConfirmForm()
    holders = phone_parts.holders(game_id)
    ask = None
    status = 200
    if request.method == "POST":
        if not form.validate_on_submit():
            flash(expired("taken", "tap your name again"))
            return redirect(request.path)
        seat = request.form.get("seat", type=whole)
        if seat is None or not 0 <= seat < len(game.players):
            flash(gettext("Tap your name to take your seat."))
            return redirect(request.path)
        may_take = passcode.unlocked()  # a held seat: not by the join code alone
        try:
            seated = play.take_seat(game_id, seat, own_phones.phone(create=True),
                                    own_phones.label(),
                                    force=request.form.get("take") == "1" and may_take)
        except play.NoSuchGame:
            abort(404)
        if seated.taken:
            own_phones.remember_me(game.player_ids[seat])
            flash(gettext("This phone is %(name)s's now.", name=game.players[seat]))
            return own_phones.keep_key(_board(game_id))
        ask = {"seat": seat, "name": game.players[seat], "holder": seated.holder,
               "may_take": may_take}
        status = 200 if may_take or request.form.get("take") != "1" else 403
    return render_template("seats/choose.html", game=game, form=form, ask=ask,
                           holders=holders, mine=phone_parts.seat_of(game_id, own_phones.phone()),
                           remembered=own_phones.remembered(), may_sit=own_phones.may_sit(game_id),
                           home=variants.get(game.variant),
                           unlock=url_for("settings.unlock", next=request.path)), status


@bp.route("/seat/leave", methods=["POST"])
@passcode.lets(own_phones.seated)  # giving its own seat back takes nothing from anyone
def leave(game_id: int):
    """Give this phone's seat back: it watches, as any phone without a seat does."""
    if ConfirmForm().validate_on_submit():
        try:
            seat = play.give_seat(game_id, own_phones.phone() or "")
        except play.NoSuchGame:
            abort(404)
        if seat is not None:
            flash(gettext("Seat given back: this phone watches now."))
    return _board(game_id)


def _fill_in(game, number: int):
    """Show one player's keys to a phone that may change things, to fill in their part."""
    if not passcode.unlocked():  # a GET: the passcode's guard let it through
        return redirect(url_for("settings.unlock", next=request.full_path.rstrip("?")))
    seat = request.args.get("seat", type=whole)
    if number != game.next_number or game.result.over or seat is None \
            or not 0 <= seat < len(game.players):
        return _board(game.id)
    view = own_phones.seats_view(game)
    sent = phone_parts.parts_of(game.id, number)
    got = sent.get(seat)
    deal = None
    if variants.get(game.variant).part_kind == "deal":
        theirs = sent.get(1 - seat)
        deal = {"other": game.players[1 - seat], "deal": list(got.part.deal) if got else None,
                "theirs": list(theirs.part.deal) if theirs else None,
                "theirs_said": own_phones.part_words(game, theirs.part) if theirs else ""}
    return render_template("seats/part.html", game=game, table=view, seat=seat,
                           name=game.players[seat], coronation=deal,
                           sent=own_phones.part_words(game, got.part) if got else "",
                           kings=got.part.kings if got else 0)


def _number(raw: str) -> int | None:
    """Return a number typed in ASCII digits, or None (so "³" or "①" is refused by name)."""
    try:
        return whole(raw)
    except ValueError:
        return None


def _read_part(game, seat: int, errors: dict[str, str]) -> Part:
    """Return the part a phone sent; note what could not be read in `errors`."""
    form = request.form
    if variants.get(game.variant).part_kind == "deal":
        deal = []
        for name in [f"corner-{i}" for i in range(4)] + ["dragon"]:
            raw = (form.get(name) or "").strip()
            seat_tapped = _number(raw)
            if raw in ("none", str(NOBODY)):
                deal.append(NOBODY)
            elif seat_tapped is not None and 0 <= seat_tapped < len(game.players):
                deal.append(seat_tapped)
            else:
                errors.setdefault(name, gettext("Tap who crowned each corner and who slew the "
                                                "dragon, or Nobody."))
        return Part(seat, deal=tuple(deal))
    if form.get("went_out") == "1":
        return Part(seat, went_out=True)
    # A key tapped (1-10) says the count; else the 11+ box.
    raw = (form.get("cards") or "").strip() or (form.get("cards_more") or "").strip()
    kings_raw = (form.get("kings") or "0").strip() or "0"
    cards, kings = _number(raw), _number(kings_raw)
    if cards is None or not 1 <= cards <= 52:
        errors["cards"] = gettext("Cards left: tap how many, from 1 to 52 (or tap "
                                  "“went out”).")
    if kings is None or not 0 <= kings <= 4:
        errors["kings"] = gettext("Kings: tap how many, from 0 to 4.")
    elif cards is not None and kings > cards:
        errors["kings"] = gettext("Kings: there cannot be more kings than cards left.")
    return Part(seat, cards=cards, kings=kings or 0)


@bp.route("/hands/<int:number>/part", methods=["GET", "POST"])
@passcode.lets(lambda: own_phones.own_seat("seat"))  # a player's own part, from their seat
def part(game_id: int, number: int):
    """Take one player's part of hand `number` (their own, from a seated phone; anyone's,
    from a phone that may change things): the hand records itself once every part is in
    and they agree. Answers the scoreboard, or, asked by a script, a line of JSON. A GET
    shows one player's keys, for a phone filling in the part of a player without one."""
    game = game_or_404(game_id)
    if request.method == "GET":
        return _fill_in(game, number)
    wants_json = request.headers.get("X-Part") == "1"
    mine = phone_parts.seat_of(game_id, own_phones.phone())
    seat = request.form.get("seat", type=whole)

    def answer(message: str | None, status: int = 200, **more):
        if wants_json:
            return jsonify(message=message, **more), status
        if message:
            flash(message)
        return _board(game_id)

    if not ConfirmForm().validate_on_submit():
        return answer(expired("sent", "tap it again"), 400)
    if seat is None or not 0 <= seat < len(game.players):
        return answer(gettext("Tap your name first: this phone has no seat."), 400)
    errors: dict[str, str] = {}
    sent = _read_part(game, seat, errors)
    if errors:
        return answer(" ".join(errors.values()), 422, errors=errors)
    by = own_phones.label() if mine is None else game.players[mine]
    try:
        done = play.send_part(game_id, number, sent, mine, by)
    except play.NoSuchGame:
        abort(404)
    except play.Recorded as recorded:
        return answer(sentence(reason(recorded)) + " "
                      + gettext("To change it, tap ✎ beside it on the scoreboard."), 409,
                      recorded=recorded.number)
    except rules.RuleError as error:
        return answer(sentence(reason(error)), 422)
    if done.saved is not None:
        word = capital(variants.get(game.variant).word())
        return answer(gettext("%(Round)s %(number)s saved from everyone's phones.", Round=word,
                              number=number), saved=number)
    return answer(done.refused and sentence(done.refused), 200 if done.refused is None else 422,
                  waiting=[game.players[s] for s in done.gathered.waiting])
