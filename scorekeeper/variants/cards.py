"""A round of cards left in hand: who went out, what everyone else held (penalty, chips, ...).

A home whose round is cards left in hand builds on `CardsHome`: the form, its refill,
the shared CSV columns, the game log's round and the kings-left statistics line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext, ngettext

from .. import rules
from ..rules.hands import fewest_cards, hand_problems
from ..words import N_, capital, reason
from .base import STALEMATE, Errors, FactLine, Home, RecordLine, read_count, read_seat

CARD_BUTTONS = tuple(range(1, 11))  # 1-10 one tap away; more is typed
KING_BUTTONS = (0, 1, 2, 3, 4)

KINGS_LEFT = FactLine(
    "kings_left", N_("Kings left in hand"), "card_hands",
    lambda f: (str(f["kings_left"]),
               ngettext("in %(num)d hand", "in %(num)d hands", f["card_hands"]), ""))

KINGS = RecordLine(
    "best_kings", N_("Most kings left in one hand"),
    lambda n: ngettext("%(num)d king", "%(num)d kings", n),
    N_("%(name)s was left holding %(value)s in one hand: the table's %(variant)s record"))


def _tapped_for(form: Mapping[str, str], seat: int) -> bool:
    """Tell whether cards or kings were entered for a seat."""
    return any(read_count(form, f"{kind}-{seat}", "", Errors()) not in (None, 0)
               for kind in ("cards", "cards_more", "kings"))


def read_hand(form: Mapping[str, str], players: Sequence[str], errors: Errors,
              sits_out: Sequence[str] = ()) -> rules.Round:
    """Return the round a record-hand form describes; note unreadable inputs in `errors`."""
    raw = (form.get("went_out") or "").strip()
    went_out = None
    if raw != STALEMATE:
        went_out = read_seat(raw, players)
        if went_out is None:
            errors.add("went_out", gettext("Tap who went out, or Nobody (stalemate)"))
    hands = {}
    for seat, name in enumerate(players):
        if name == went_out and _tapped_for(form, seat):
            # Without JavaScript their taps stay on; the form is shown again without them.
            errors.add("went_out", gettext("Cards were tapped for %(name)s, who went out. "
                                           "Save again if %(name)s went out; if not, tap "
                                           "who did.", name=name))
        # A player who sits the hand out is not asked (the rules still check they may).
        if name == went_out or name in sits_out or form.get(f"sits_out-{seat}"):
            continue
        left = gettext("Cards left for %(name)s", name=name)
        more = read_count(form, f"cards_more-{seat}", left, errors)
        cards = more if more is not None else read_count(form, f"cards-{seat}", left, errors)
        kings = read_count(form, f"kings-{seat}", gettext("Kings for %(name)s", name=name),
                           errors) or 0
        if cards is None:
            if not {f"cards-{seat}", f"cards_more-{seat}"} & errors.by_input.keys():
                errors.add(f"cards-{seat}",
                           gettext("How many cards does %(name)s have left?", name=name))
            continue
        hands[name] = rules.Hand(cards, kings)
    return rules.Round(went_out=went_out, hands=hands)


def hand_values(players: Sequence[str], rnd: rules.Round) -> dict[str, str]:
    """Return a stored hand as the record-hand form's inputs, so an edit opens filled in."""
    values = {"went_out": STALEMATE if rnd.went_out is None
              else str(players.index(rnd.went_out))}
    for name, hand in rnd.hands.items():
        seat = players.index(name)
        key = f"cards-{seat}" if hand.cards in CARD_BUTTONS else f"cards_more-{seat}"
        values[key] = str(hand.cards)
        values[f"kings-{seat}"] = str(hand.kings)
    return values


class CardsHome(Home):
    """A variant whose round is who went out and the cards left in every other hand."""

    def read_round(self, form: Mapping[str, str], players: Sequence[str], errors: Errors,
                   sits_out: Sequence[str] = ()) -> rules.Round:
        """Return the hand the form describes."""
        return read_hand(form, players, errors, sits_out)

    def round_values(self, players: Sequence[str], rnd: rules.Round) -> dict[str, str]:
        """Return a stored hand as the form's inputs."""
        return hand_values(players, rnd)

    def describe(self, players: Sequence[str], rnd: rules.Round) -> str:
        """Return e.g. "Ann went out, Ben 4 (1 king), Cy 2", or "stalemate: Ann 1, …"."""
        held = [f"{name} {rnd.hands[name].cards}"
                + (" (" + ngettext("%(num)d king", "%(num)d kings", rnd.hands[name].kings)
                   + ")" if rnd.hands[name].kings else "")
                for name in players if name in rnd.hands and name != rnd.went_out]
        start = (gettext("%(name)s went out", name=rnd.went_out) if rnd.went_out
                 else gettext("stalemate:"))
        return f"{start}{',' if rnd.went_out and held else ''} {', '.join(held)}".strip()

    def form_inputs(self, players: Sequence[str]) -> list[str]:
        """Return who went out, then each seat's cards, 11+ box and kings."""
        return ["went_out"] + [f"{kind}-{seat}" for seat in range(len(players))
                               for kind in ("cards", "cards_more", "kings")]

    def check_round(self, game, number: int, rnd: rules.Round, form: Mapping[str, str],
                    errors: Errors) -> None:
        """Note every impossible hand at its input: kings past the cards, past the deck..."""
        for error in hand_problems(game.players, rnd):
            name = self.input_for(error, game.players)
            kind, _, seat = name.partition("-")
            if kind == "cards" and (form.get(f"cards_more-{seat}") or "").strip():
                name = f"cards_more-{seat}"  # the count was typed in the 11+ box
            errors.add(name, capital(reason(error)))

    def parts_form(self, game, number: int, gathered) -> dict[str, str]:
        """Return the hand the players' parts agree on as the record-hand form posts it."""
        out = self.sitting_out(game, number)
        form = {"went_out": STALEMATE if gathered.went_out is None
                else str(gathered.went_out)}
        for seat, name in enumerate(game.players):
            if name in out:
                form[f"sits_out-{seat}"] = "1"
        for seat, (cards, kings) in gathered.hands.items():
            form[f"cards_more-{seat}"] = str(cards)
            form[f"kings-{seat}"] = str(kings)
        return form

    def hand_form(self, game, number: int, editing: bool) -> dict[str, Any]:
        """Return the keys of the cards form besides the dealer."""
        return {**super().hand_form(game, number, editing),
                "card_buttons": CARD_BUTTONS, "king_buttons": KING_BUTTONS}

    def took_part(self, core: rules.Game, rnd: rules.Round) -> list[str]:
        """Return who played a hand: whoever went out or held cards."""
        return [name for name in core.players if name in rnd.hands or name == rnd.went_out]

    def csv_cells(self, core: rules.Game, rnd: rules.Round, done: rules.RoundResult,
                  name: str) -> dict[str, Any]:
        """Return the shared cells of one player's hand."""
        hand = rnd.hands.get(name, rules.Hand(0, 0))
        return {"went_out": name == rnd.went_out, "cards": hand.cards, "kings": hand.kings}

    def facts(self, name: str, rnd: rules.Round, done: rules.RoundResult) -> dict[str, int]:
        """Count a hand the player took part in and the kings they were left holding."""
        if name not in rnd.hands and rnd.went_out != name:
            return {}
        held = rnd.hands.get(name)
        return {"card_hands": 1, "kings_left": held.kings if held else 0}

    def bests(self, name: str, core: rules.Game, result: rules.GameResult) -> dict[str, int]:
        """Add `best_kings`, the most kings the player was left holding in one hand."""
        return {**super().bests(name, core, result),
                "best_kings": max((rnd.hands[name].kings for rnd in core.rounds
                                   if name in rnd.hands), default=0)}

    def render_round(self, core: rules.Game, rnd: rules.Round) -> dict[str, Any]:
        """Return who went out and what everyone else held, in seat order."""
        hands, out = rnd.hands, rnd.went_out  # a backup writes 166,000 of these
        return {"went_out": out, "hands": {
            name: {"cards": hand.cards, "kings": hand.kings}
            for name in core.players if (hand := hands.get(name)) is not None and name != out}}

    def known_hands(self, players: Sequence[str], entry: rules.Round,
                    errors: Errors | None = None, seats: Sequence[str] = ()
                    ) -> dict[str, rules.Hand]:
        """Return the hands tapped so far, the one who went out holding nothing; a hand with
        an error at one of its inputs (`seats` numbers them) is flagged, not counted."""
        hands = dict(entry.hands)
        if entry.went_out is not None:
            hands[entry.went_out] = rules.Hand(0, 0)
        wrong = {name for seat, name in enumerate(seats or players)
                 if errors and any(f"{kind}-{seat}" in errors.by_input
                                   for kind in ("cards", "cards_more", "kings"))}
        return {name: hands[name] for name in players if name in hands and name not in wrong}

    def preview_winners(self, players: Sequence[str], entry: rules.Round,
                        known: Mapping[str, rules.Hand]) -> tuple[str, ...] | None:
        """Return who wins the hand as tapped so far, or None before it is known."""
        if entry.went_out is not None:
            return (entry.went_out,)
        if any(name not in known for name in players):
            return None
        return fewest_cards(players, known)
