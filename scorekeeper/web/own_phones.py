"""Every player on their own phone: which phone is which, the game's join code, and what a
game's pages show of the seats and of the hand the players are filling in.

A phone is known by a random key in a cookie of its own (only its digest is stored), set by
the answer that takes a seat and by no other: a poll answered at the same moment cannot
overwrite it, as it could a session cookie refreshed on every answer. It remembers
the player it was for the rest of the night, so the next game offers the same name. The
table's QR code carries a join code for the game: a phone that came by it may take a free
seat and send that seat's part of each hand without the table passcode, and nothing else.
A seat another phone holds moves only when that phone gives it back, or on a phone that
may change things. The code ends with its game, and changes when the table asks.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Any

from flask import current_app, g, request, session, url_for
from flask_babel import gettext, ngettext

from .. import play, variants
from ..db import Loaded, phone_parts, read_game
from ..rules.parts import NOBODY, Part
from ..words import sentence, together
from . import passcode
from .forms import whole

COOKIE = "kc_seat"  # this phone's key: the seats it holds are stored by its digest
KEY_AGE = 400 * 24 * 3600  # as long as a browser keeps a cookie
JOINED, ME = "kc_joined", "kc_me"  # in the session: changed only when a seat is joined/taken
NIGHT = 12 * 3600  # a phone remembers who it is for this long: the rest of the night


def join_code(game_id: int) -> str:
    """Return the game's join code: what the table's QR carries, unguessable without the
    install's secret key, the same until the table asks for a new one (`new_join_code`)."""
    secret = current_app.config["SECRET_KEY"]
    secret = secret if isinstance(secret, bytes) else str(secret).encode()
    salt = phone_parts.join_salt(game_id)
    said = f"join-game:{game_id}" + (f":{salt}" if salt else "")
    return hmac.new(secret, said.encode(), hashlib.sha256).hexdigest()[:12]


def join_path(game: Loaded) -> str | None:
    """Return the path the table's QR code opens for a game not over: the game, with its
    join code. Only a phone that may change things shows it (a reader would pass it on)."""
    if game.result.over or not passcode.unlocked():
        return None
    return url_for("seats.join", game_id=game.id, code=join_code(game.id))


def joined(game_id: int) -> bool:
    """Tell whether this phone came by the game's QR code (its join code) this session, and
    the code has not changed since."""
    return f"{game_id}:{join_code(game_id)}" in session.get(JOINED, [])


def join(game: Loaded, code: str) -> bool:
    """Remember that this phone came by the game's join code; False when the code is wrong
    or the game is over (a finished game's code seats no one)."""
    right = join_code(game.id).encode()
    if game.result.over or not hmac.compare_digest(code.encode("utf-8", "replace"), right):
        return False
    session[JOINED] = [*session.get(JOINED, [])[-19:], f"{game.id}:{code}"]
    return True


def may_sit(game_id: int) -> bool:
    """Tell whether this phone may take a seat: it may change things, or came by the QR."""
    return passcode.unlocked() or joined(game_id)


def _game_id() -> int | None:
    return (request.view_args or {}).get("game_id")


def came_by_qr() -> bool:
    """Tell whether this request's game is one this phone joined by its QR code: it may
    take a seat, or give its own back, without the passcode."""
    game_id = _game_id()
    return game_id is not None and joined(game_id)


def own_tap() -> bool:
    """Tell whether the chips tap this request undoes (the form's `event`) is one of the
    seat this phone holds: a player takes back their own tap without the passcode."""
    game_id = _game_id()
    mine = phone_parts.seat_of(game_id, phone()) if game_id is not None else None
    event = request.form.get("event", type=whole)
    game = read_game(game_id) if mine is not None and event is not None else None
    return game is not None and any(tap.id == event and tap.player == game.players[mine]
                                    for tap in game.waiting)


def seated() -> bool:
    """Tell whether this phone holds a seat in this request's game (it may give it back)."""
    game_id = _game_id()
    return game_id is not None and phone_parts.seat_of(game_id, phone()) is not None


def own_seat(field: str) -> bool:
    """Tell whether this request is about the seat this phone holds (the form's `field`):
    a player sends their own part, or taps their own chips keys, without the passcode."""
    game_id = _game_id()
    mine = phone_parts.seat_of(game_id, phone()) if game_id is not None else None
    return mine is not None and request.form.get(field, type=whole) == mine


def phone(create: bool = False) -> str | None:
    """Return the digest of this phone's key (made now if `create`: `keep_key` then gives
    it to the phone), or None without one."""
    key = g.get("kc_new_seat_key") or request.cookies.get(COOKIE, "")
    if not 20 <= len(key) <= 100:
        if not create:
            return None
        key = g.kc_new_seat_key = secrets.token_urlsafe(24)
    return hashlib.sha256(key.encode()).hexdigest()


def keep_key(response):
    """Give this phone the key `phone(create=True)` made for it, in a cookie of its own
    (set by this response alone: a poll answered meanwhile cannot overwrite it)."""
    key = g.get("kc_new_seat_key")
    if key:
        response.set_cookie(COOKIE, key, max_age=KEY_AGE, httponly=True, samesite="Lax",
                            secure=request.is_secure)
    return response


def my_seat(game_id: int) -> int | None:
    """Return the seat this phone holds in a game, or None."""
    return phone_parts.seat_of(game_id, phone())


def label() -> str:
    """Return what this phone is, in a few words ("iPhone · Safari")."""
    return passcode.describe(request.headers.get("User-Agent", "")) or gettext("a phone")


def remember_me(player_id: int) -> None:
    """Remember the player this phone is, for the rest of the night."""
    session[ME] = [player_id, int(time.time()) + NIGHT]


def remembered() -> int | None:
    """Return the player this phone was earlier tonight, if any."""
    me = session.get(ME)
    if isinstance(me, list) and len(me) == 2 and me[1] > time.time():
        return me[0]
    return None


def part_words(game: Loaded, part: Part) -> str:
    """Return a part in words: "went out", "3 cards (1 king)", "corners Ann, Ben…"."""
    if part.deal is not None:
        names = [gettext("nobody") if seat == NOBODY else game.players[seat]
                 for seat in part.deal]
        return gettext("corners %(corners)s; dragon %(dragon)s",
                       corners=", ".join(names[:4]), dragon=names[4])
    if part.went_out:
        return gettext("went out")
    said = ngettext("%(num)d card", "%(num)d cards", part.cards or 0)
    if part.kings:
        said += " (" + ngettext("%(num)d king", "%(num)d kings", part.kings) + ")"
    return said


def _code_words(game: Loaded, code: str | None) -> str:
    """Return a part kept as a code (play.part_code) in words."""
    if not code:
        return ""
    if code == "out":
        return part_words(game, Part(0, went_out=True))
    if code.startswith("d"):
        return part_words(game, Part(0, deal=tuple(int(s) for s in code[1:].split(","))))
    cards, _, kings = code[1:].partition("k")
    return part_words(game, Part(0, cards=int(cards), kings=int(kings)))


def seats_view(game: Loaded) -> dict[str, Any]:
    """Return what a game's pages show of its seats and of the hand in progress: each
    player's part as sent (and on which phone), who is still to send, any disagreement,
    and, on a seated phone, that player's own place, keys and deal."""
    home = variants.get(game.variant)
    result = game.result
    number = game.next_number
    holders = phone_parts.holders(game.id)
    key = phone()
    mine = next((seat for seat, row in holders.items() if row.phone == key), None)
    both = phone_parts.parts_of_hands(game.id, (number - 1, number))  # the hand before, and this
    sent = both.get(number, {}) if not result.over else {}
    gathered = play.gather(game, number, {seat: s.part for seat, s in sent.items()})
    out = home.sitting_out(game, number) if not result.over else ()
    rows = []
    for seat, name in enumerate(game.players):
        if name in out:
            continue
        got = sent.get(seat)
        row = {"seat": seat, "name": name, "done": got is not None,
               "said": part_words(game, got.part) if got else "",
               "phone": seat in holders, "mine": seat == mine, "by": "", "was": ""}
        if got is not None and got.by_seat != seat:
            row["by"] = (gettext("entered on %(name)s's phone", name=game.players[got.by_seat])
                         if got.by_seat is not None
                         else gettext("entered on another phone"))
        if got is not None and got.was:
            row["was"] = gettext("changed from %(said)s", said=_code_words(game, got.was))
        rows.append(row)
    clash = refused = None
    if gathered.clash == "two_out":
        said = [game.players[s] for s in gathered.seats]
        clash = (gettext("%(names)s both say they went out. Only one can have: the other taps "
                         "their cards.", names=together(said)) if len(said) == 2 else
                 gettext("%(names)s all say they went out. Only one can have: the others tap "
                         "their cards.", names=together(said)))
    elif gathered.clash == "deal":
        clash = gettext("The two phones disagree on this deal. Look at the table together, "
                        "and one of you taps it again.")
    elif sent and gathered.complete:
        # Every part is in and they agree, yet the hand is not recorded: the rules refused.
        form = home.parts_form(game, number, gathered)
        _, errors = play.read_round(game, number, form)
        if errors:
            refused = gettext("The parts do not add up: %(why)s Change a part to go on.",
                              why=sentence(next(iter(errors.by_input.values()))))
    last = None  # the hand before, when it came from the players' phones
    if number > 1:
        before = both.get(number - 1)
        if before:
            last = {"number": number - 1, "notes": [
                gettext("%(name)s’s part entered on %(phone)s", name=game.players[seat],
                        phone=(gettext("%(name)s's phone", name=game.players[s.by_seat])
                               if s.by_seat is not None else gettext("another phone")))
                for seat, s in sorted(before.items()) if s.by_seat != seat]}
    me = None
    if mine is not None and not result.over:
        me = _my_view(game, mine, sent.get(mine), sent)
    remembered_id = remembered()
    offer = None
    if mine is None and remembered_id in game.player_ids:
        seat = game.player_ids.index(remembered_id)
        if seat not in holders:
            offer = {"seat": seat, "name": game.players[seat]}
    return {"number": number, "rows": rows, "any": bool(sent), "clash": clash, "last": last,
            "refused": refused, "waiting": [game.players[s] for s in gathered.waiting],
            "mine": mine, "me": me, "offer": offer, "holders": holders,
            "may_sit": may_sit(game.id), "word": home.word(),
            "part_url": url_for("seats.part", game_id=game.id, number=number),
            "seat_url": url_for("seats.choose", game_id=game.id)}


def _my_view(game: Loaded, mine: int, got, sent) -> dict[str, Any]:
    """Return a seated phone's own view: place, total, the way to the target, the deal."""
    home = variants.get(game.variant)
    result = game.result
    name = game.players[mine]
    number = game.next_number
    # The phone's own line of the standings, worked out alone (the board has them all).
    total = result.totals.get(name)
    view = {"seat": mine, "name": name,
            "place": result.ranking.index(name) + 1 if name in result.ranking else None,
            "total": total, "note": home.standing_note(game, name),
            "unit": home.unit(game.settings, total or 0),
            "deals": result.next_dealer == name, "number": number,
            "played": bool(result.rounds),
            "mine": part_words(game, got.part) if got else "",
            "kings": got.part.kings if got and not got.part.went_out else 0,
            "whole_deal": home.part_kind == "deal", "count": len(game.players)}
    if home.part_kind == "deal":
        other = 1 - mine
        theirs = sent.get(other)
        view["other"] = game.players[other]
        view["theirs"] = (list(theirs.part.deal) if theirs is not None and theirs.part.deal
                          else None)
        view["theirs_said"] = part_words(game, theirs.part) if view["theirs"] else ""
        view["deal"] = list(got.part.deal) if got and got.part.deal else None
    return view


# A night for a crowd: one QR code for the night, and each phone taken to its player's
# table every round (docs/crowd.md).

def crowd_code(crowd_id: int) -> str:
    """Return a crowd night's join code: what its QR carries, unguessable without the
    install's secret key."""
    secret = current_app.config["SECRET_KEY"]
    secret = secret if isinstance(secret, bytes) else str(secret).encode()
    return hmac.new(secret, f"join-crowd:{crowd_id}".encode(), hashlib.sha256).hexdigest()[:12]


def crowd_join(crowd_id: int, code: str) -> bool:
    """Remember that this phone came by the night's QR code; False when the code is wrong."""
    right = crowd_code(crowd_id)
    if not hmac.compare_digest(code.encode("utf-8", "replace"), right.encode()):
        return False
    session[JOINED] = [*session.get(JOINED, [])[-19:], f"crowd:{crowd_id}:{right}"]
    return True


def crowd_joined() -> bool:
    """Tell whether this phone came by the QR code of this request's crowd night."""
    crowd_id = (request.view_args or {}).get("crowd_id")
    return (crowd_id is not None
            and f"crowd:{crowd_id}:{crowd_code(crowd_id)}" in session.get(JOINED, []))
