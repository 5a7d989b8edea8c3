"""The hand in progress of a chips game: each tap at the table saved at once, undone, shown."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from . import rules, store
from .extensions import db
from .models import Event, Game
from .rules.chips import CHIPS
from .rules.chips_pot import EVENT_SETTINGS, payout_order

# What the table calls each event, on its button and in the hand's story.
KIND_LABELS = {"pass": "Pass", "king_held": "King held", "missed_draw": "Missed draw"}
FLOW_WORDS = {"ante": ("ante", "antes"), "pass": ("pass", "passes"),
              "king_held": ("king held", "kings held"),
              "missed_draw": ("missed draw", "missed draws"), "cards": ("cards", "cards")}


def in_progress(game: Game) -> int:
    """Return the number of the hand being played now."""
    return len(game.rounds) + 1


def pending(game: Game) -> list[Event]:
    """Return the stored events of the hand in progress, in the order they were tapped."""
    number = in_progress(game)
    return sorted((e for e in game.events if e.hand_number == number), key=lambda e: e.seq)


def _core_events(game: Game, rows: list[Event]) -> tuple[rules.Event, ...]:
    """Return stored events as the rules see them."""
    names = {seat.player_id: seat.player.name for seat in game.seats}
    return tuple(rules.Event(names[row.player_id], row.kind) for row in rows)


def state(game: Game) -> dict[str, Any]:
    """Return the hand in progress: dealer, players in it, stacks and pot after its events."""
    return CHIPS.live(store.core_game(game), _core_events(game, pending(game)))


def offered(settings: dict[str, Any]) -> list[tuple[str, str, int]]:
    """Return (kind, label, chips) for each event this game's settings offer."""
    return [(kind, KIND_LABELS[kind], settings[name])
            for kind, name in EVENT_SETTINGS.items() if settings[name]]


def add_event(game: Game, number: int, player: str, kind: str, token: str | None) -> Event:
    """Check and store one event of the hand in progress; a token seen before changes nothing."""
    if token:
        seen = db.session.scalar(select(Event).where(Event.token == token))
        if seen is not None:
            return seen
    if game.variant != CHIPS.name:
        raise rules.RuleError("only a chip-pot game records passes and penalties", "kind")
    _check_number(game, number)
    rows = pending(game)
    events = _core_events(game, rows) + (rules.Event(player, kind),)
    try:
        CHIPS.live(store.core_game(game), events)
    except rules.RuleError as error:
        field = (error.field or "").split(".")[-1]
        raise rules.RuleError(error.message, field if field in ("kind", "player") else "events",
                              number) from None
    ids = store.ids_by_name(game)
    row = Event(hand_number=number, seq=rows[-1].seq + 1 if rows else 0,
                player_id=ids[player], kind=kind, token=token or None)
    game.events.append(row)
    db.session.flush()
    return row


def undo_last(game: Game, number: int, event_id: int | None) -> Event | None:
    """Remove the last event of the hand in progress; None when it was undone already.

    `event_id` is the event the undo button showed, so a double tap undoes only one.
    """
    _check_number(game, number)
    rows = pending(game)
    if event_id is not None and all(row.id != event_id for row in rows):
        return None
    if not rows:
        return None
    last = rows[-1]
    if event_id is not None and last.id != event_id:
        raise store.Conflict("someone tapped since (another phone?), so nothing was undone: "
                             "check the last tap and undo again", "undo")
    game.events.remove(last)
    db.session.flush()
    return last


def _check_number(game: Game, number: int) -> None:
    """Refuse a tap meant for a hand that is no longer the one in progress."""
    current = in_progress(game)
    if number != current:
        raise store.Conflict(f"hand {number} is not being played now (hand {current} is, "
                             "saved from another phone?), so this tap was not recorded",
                             "number")


def panel(game: Game, result: rules.GameResult | None = None) -> dict[str, Any] | None:
    """Return what the live pot shows, or None when no hand can be played."""
    rows = pending(game)
    core = store.core_game(game)
    problem = None
    try:
        live = CHIPS.live(core, _core_events(game, rows))
    except rules.RuleError as error:
        # A hand edited since may have put out a player with a tap in this hand: show the
        # hand without its taps, say why, and let the taps be undone.
        if not rows:
            return None
        try:
            live = CHIPS.live(core, ())
        except rules.RuleError:
            return None
        problem = (f"A tap of this hand no longer fits the game ({error.message}): "
                   "undo taps until this message goes.")
    result = result or store.result(game)
    names = {seat.player_id: seat.player.name for seat in game.seats}
    kinds = offered(game.settings)
    counts = {name: {kind: 0 for kind, _, _ in kinds} for name in live["stacks"]}
    for row in rows:
        mine = counts[names[row.player_id]]
        mine[row.kind] = mine.get(row.kind, 0) + 1
    last = None
    if rows:
        flow = live["flows"][-1] if problem is None else {"chips": 0}
        last = {"id": rows[-1].id, "player": names[rows[-1].player_id], "kind": rows[-1].kind,
                "label": KIND_LABELS.get(rows[-1].kind, rows[-1].kind), "chips": flow["chips"]}
    players = [{"name": name, "seat": seat, "stack": live["stacks"][name],
                "out": name not in live["players"], "counts": counts[name],
                "dealer": name == live["dealer"], "first": name == live["first_player"]}
               for seat, name in enumerate(core.players)]
    return {**live, "kinds": kinds, "seats": players, "last": last, "taps": len(rows),
            "problem": problem,
            "chips_in_play": result.extra["chips_in_play"], "box": result.extra["box"],
            "version": f"{live['number']}.{len(rows)}.{rows[-1].id if rows else 0}"}


def preview(game: Game, number: int) -> dict[str, Any] | None:
    """Return the pot of hand `number` before cards are paid, for the record-hand preview."""
    core = store.core_game(game)
    if number <= len(core.rounds):
        events = core.rounds[number - 1].events
        core = rules.Game(core.variant, core.players, core.first_dealer, core.settings,
                          core.rounds[:number - 1])
    else:
        events = _core_events(game, pending(game))
    try:
        live = CHIPS.live(core, events)
    except rules.RuleError:
        return None
    settings = CHIPS.resolve_settings(core.settings)
    return {"number": number, "pot": live["pot"], "stacks": live["stacks"],
            "players": list(live["players"]), "dealer": live["dealer"],
            "order": payout_order(live["players"], core.players, live["dealer"]),
            "events": [f for f in live["flows"] if f["kind"] != "ante"],
            "card_chips": settings["card_chips"], "king_chips": settings["king_chips"],
            "reset": settings["reset_each_hand"]}


def stories(game: Game, result: rules.GameResult) -> list[dict[str, Any]]:
    """Return each played hand as the table tells it: who paid what for what, who took the pot."""
    core = store.core_game(game)
    told = []
    for entered, rr in zip(core.rounds, result.rounds):
        flows = rr.extra["flows"]
        shares = {f["player"]: f["chips"] for f in flows if f["kind"] == "pot"}
        people = []
        for name in core.players:
            mine = [f for f in flows if f["player"] == name and f["kind"] != "pot"]
            if not mine:
                continue
            paid = sum(f["chips"] for f in mine)
            people.append({"name": name, "paid": paid, "got": shares.get(name, 0),
                           "net": shares.get(name, 0) - paid, "parts": _parts(mine),
                           "stack": rr.extra["stacks"][name], "total": rr.totals[name],
                           "busted": name in rr.extra["busted"]})
        # Winners in payout order: the odd chips of a split go to the first of them.
        told.append({"number": rr.number, "dealer": rr.dealer, "went_out": entered.went_out,
                     "winners": list(shares), "pot": rr.extra["pot"],
                     "shares": shares, "people": people})
    return told


def _parts(flows: list[dict[str, Any]]) -> str:
    """Return one player's payments in a hand in words, e.g. "ante 1 · 2 passes 2 · cards 3"."""
    grouped: dict[str, list[int]] = {}
    for flow in flows:
        totals = grouped.setdefault(flow["kind"], [0, 0, 0])
        totals[0] += 1
        totals[1] += flow["chips"]
        totals[2] += flow["owed"]
    words = []
    for kind, (times, chips, owed) in grouped.items():
        one, many = FLOW_WORDS[kind]
        label = one if times == 1 or kind in ("ante", "cards") else f"{times} {many}"
        short = f" of {owed}" if chips < owed else ""
        words.append(f"{label} {chips}{short}")
    return " · ".join(words)
