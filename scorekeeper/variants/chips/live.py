"""The chip pot's hand in progress, and its payments in words."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, ngettext

from ... import rules
from ...rules.chips import CHIPS
from ...rules.chips_pot import EVENT_SETTINGS, payout_order
from ...words import N_, reason

# What the table calls each event, on its button and in the hand's story: English here,
# in the page's language through `label()` and `kind_word()` (called while a page is drawn).
KIND_LABELS = {"pass": N_("Pass"), "king_held": N_("King held"),
               "missed_draw": N_("Missed draw")}


def label(kind: str) -> str:
    """Return a tap key's label in the page's language: "Pass", "Pase"."""
    return gettext(KIND_LABELS[kind]) if kind in KIND_LABELS else kind


def kind_word(kind: str) -> str:
    """Return one payment's kind in words, lower case: "king held", "rey retenido"."""
    return flow_word(kind, 1)


def flow_word(kind: str, times: int) -> str:
    """Return `times` payments of one kind in words: "ante", "2 passes", "2 pases"."""
    if kind == "ante":
        return gettext("ante")
    if kind == "cards":
        return gettext("cards")
    if kind == "pass":
        return ngettext("pass", "%(num)d passes", times)
    if kind == "king_held":
        return ngettext("king held", "%(num)d kings held", times)
    if kind == "missed_draw":
        return ngettext("missed draw", "%(num)d missed draws", times)
    return kind.replace("_", " ")


def offered(settings: dict[str, Any]) -> list[tuple[str, str, int]]:
    """Return (kind, label, chips) for each event this game's settings offer."""
    return [(kind, label(kind), settings[name])
            for kind, name in EVENT_SETTINGS.items() if settings[name]]


def panel(game) -> dict[str, Any] | None:
    """Return what the live pot shows for a loaded game, or None when no hand can be played."""
    core, taps = game.core, game.waiting
    problem = None
    try:
        live = CHIPS.live(core, game.waiting_events(), game.result)
    except rules.RuleError as error:
        # A hand edited since may have put out a player with a tap in this hand: show the
        # hand without its taps, say why, and let the taps be undone.
        if not taps:
            return None
        try:
            live = CHIPS.live(core, (), game.result)
        except rules.RuleError:
            return None
        problem = gettext("A tap of this hand no longer fits the game (%(why)s): undo taps "
                          "until this message goes.", why=reason(error))
    kinds = offered(core.settings)
    counts = {name: {kind: 0 for kind, _, _ in kinds} for name in live["stacks"]}
    for tap in taps:
        counts[tap.player][tap.kind] = counts[tap.player].get(tap.kind, 0) + 1
    last = None
    if taps:
        flow = live["flows"][-1] if problem is None else {"chips": 0}
        last = {"id": taps[-1].id, "player": taps[-1].player, "kind": taps[-1].kind,
                "label": label(taps[-1].kind), "chips": flow["chips"]}
    seats = []
    for seat, name in enumerate(core.players):
        stack = live["stacks"][name]
        # What a tap pays now: its price, or the whole stack when that is less.
        buttons = [{"kind": kind, "label": label, "chips": chips, "pays": min(chips, stack)}
                for kind, label, chips in kinds]
        seats.append({"name": name, "seat": seat, "stack": stack,
                      "out": name not in live["players"], "counts": counts[name],
                      "dealer": name == live["dealer"], "first": name == live["first_player"],
                      "buttons": buttons})
    result = game.result
    return {**live, "kinds": kinds, "seats": seats, "last": last, "taps": len(taps),
            "problem": problem, "chips_in_play": result.extra["chips_in_play"],
            "box": result.extra["box"],
            "version": f"{live['number']}.{len(taps)}.{taps[-1].id if taps else 0}"}


def pot_so_far(game, number: int, after: rules.GameResult | None = None
               ) -> dict[str, Any] | None:
    """Return hand `number`'s pot before its cards are paid: antes and the taps during it.

    `after` is the game replayed already with hand `number` as its last (a preview): the
    pot is read from it, so the game is not replayed a second time.
    """
    core = game.core
    events = (core.rounds[number - 1].events if number <= len(core.rounds)
              else game.waiting_events())
    result = game.result if after is None else after
    if after is not None:
        core = game.with_rounds(core.rounds[:number - 1] + (rules.Round(events=events),))
    try:
        live = CHIPS.live(core, events, result, number)
    except rules.RuleError:
        return None
    return {"number": number, "pot": live["pot"], "stacks": live["stacks"],
            "players": list(live["players"]), "dealer": live["dealer"],
            "order": payout_order(live["players"], core.players, live["dealer"]),
            "flows": live["flows"],
            "events": [f for f in live["flows"] if f["kind"] != "ante"]}


def paid(what: str, chips: int, owed: int) -> str:
    """Return one kind of payment in words: "2 passes 2", or "cards 1 of 3" when short."""
    if chips < owed:
        return gettext("%(what)s %(chips)s of %(owed)s", what=what, chips=chips, owed=owed)
    return f"{what} {chips}"
