"""The pot of one chips hand: dealing, antes, events, cards left, the payout."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .base import Event, Hand, RuleError, Word

# Each event kind and the setting that says what it costs (0: not offered).
EVENT_SETTINGS = {"pass": "pass_chips", "king_held": "king_held_chips",
                  "missed_draw": "missed_draw_chips"}
EVENT_WORDS = {"pass": Word("a pass"), "king_held": Word("being caught holding a king"),
               "missed_draw": Word("a missed draw")}

Flow = dict[str, Any]


def deal(players: Sequence[str], settings: Mapping[str, Any]) -> dict[str, int]:
    """Return each player's chips at the start: `start_chips` each, or `total_chips` split."""
    if settings["start_chips"] is not None:
        each = settings["start_chips"]
    else:
        each = settings["total_chips"] // len(players)
        if each < 1:
            raise RuleError("%(chips)s chips cannot give each of %(players)s players one",
                            "rules.total_chips", chips=settings["total_chips"],
                            players=len(players))
    return {name: each for name in players}


def check_events(events: Sequence[Event], players: Sequence[str], out: Collection[str],
                 settings: Mapping[str, Any]) -> None:
    """Refuse an event of a kind this game does not offer, or for a player not in the hand."""
    for index, event in enumerate(events):
        kind, player = event.kind, event.player
        if not isinstance(kind, str) or kind not in EVENT_SETTINGS:
            raise RuleError("unknown event %(kind)s; known: %(known)s", f"events[{index}].kind",
                            kind=repr(kind), known=", ".join(EVENT_SETTINGS))
        if not settings[EVENT_SETTINGS[kind]]:
            raise RuleError("%(event)s costs nothing in this game, so it is not offered",
                            f"events[{index}].kind", event=EVENT_WORDS[kind])
        if not isinstance(player, str) or player not in players:
            raise RuleError("%(name)s is not a player in this game", f"events[{index}].player",
                            name=repr(player))
        if player in out:
            raise RuleError("%(name)s is out of the game", f"events[{index}].player",
                            name=player)


def pay(stacks: dict[str, int], flows: list[Flow], player: str, kind: str, owed: int) -> None:
    """Move what is owed from a stack into the pot; a short stack pays all it has."""
    have = stacks[player]
    paid = owed if owed < have else have
    stacks[player] = have - paid
    flows.append({"player": player, "kind": kind, "chips": paid, "owed": owed})


def ante_and_events(stacks: dict[str, int], in_hand: Sequence[str], events: Sequence[Event],
                    settings: Mapping[str, Any]) -> list[Flow]:
    """Take every ante, then each event's chips in the order they happened."""
    flows: list[Flow] = []
    ante = settings["ante"]
    for name in in_hand:  # pay(), written out: every hand of every replay antes
        have = stacks[name]
        paid = ante if ante < have else have
        stacks[name] = have - paid
        flows.append({"player": name, "kind": "ante", "chips": paid, "owed": ante})
    for event in events:
        pay(stacks, flows, event.player, event.kind, settings[EVENT_SETTINGS[event.kind]])
    return flows


def cards_owed(hand: Hand, settings: Mapping[str, Any]) -> int:
    """Return what a non-winner owes for the cards left in hand."""
    return (settings["card_chips"] * (hand.cards - hand.kings)
            + settings["king_chips"] * hand.kings)


def pot_of(flows: Sequence[Flow]) -> int:
    """Return the chips paid into the pot so far."""
    return sum(flow["chips"] for flow in flows if flow["kind"] != "pot")


def payout_order(winners: Sequence[str], seating: Sequence[str], dealer: str) -> list[str]:
    """Return the hand's winners in seat order starting left of the dealer."""
    if len(winners) == 1:  # the usual hand: one went out
        return list(winners)
    start = seating.index(dealer) + 1
    return sorted(winners, key=lambda name: (seating.index(name) - start) % len(seating))


def split_pot(pot: int, winners: Sequence[str], seating: Sequence[str],
              dealer: str) -> dict[str, int]:
    """Share the pot evenly; odd chips go one each from the left of the dealer."""
    share, odd = divmod(pot, len(winners))
    order = payout_order(winners, seating, dealer)
    return {name: share + (1 if place < odd else 0) for place, name in enumerate(order)}


def settle(stacks: dict[str, int], flows: list[Flow], hands: Mapping[str, Hand],
           winners: Sequence[str], seating: Sequence[str], dealer: str,
           settings: Mapping[str, Any]) -> dict[str, int]:
    """Take what non-winners owe for their cards, pay the pot out; return each winner's share."""
    for name, hand in hands.items():
        if name not in winners:
            pay(stacks, flows, name, "cards", cards_owed(hand, settings))
    # Nothing is paid out yet: every flow so far is paid in.
    shares = split_pot(sum(flow["chips"] for flow in flows), winners, seating, dealer)
    for name, chips in shares.items():
        stacks[name] += chips
        flows.append({"player": name, "kind": "pot", "chips": chips})
    return shares
