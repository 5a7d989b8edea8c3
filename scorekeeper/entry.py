"""Read what was tapped or typed into the core's shapes, with errors keyed by form input."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import rules
from .rules import RuleError

MAX_SEATS = 6
CARD_BUTTONS = tuple(range(1, 11))  # 1-10 one tap away; more is typed
KING_BUTTONS = (0, 1, 2, 3, 4)
STALEMATE = "stalemate"


@dataclass
class Errors:
    """Messages keyed by form input name; `general` for the form as a whole."""

    by_input: dict[str, str] = field(default_factory=dict)

    def add(self, name: str, message: str) -> None:
        """Keep the first message for an input."""
        self.by_input.setdefault(name, message)

    def __bool__(self) -> bool:
        return bool(self.by_input)


def parse_count(raw: str | None) -> int | None | str:
    """Return a typed count as int, None when blank, or the text when it is not a count."""
    text = (raw or "").strip()
    if not text:
        return None
    if re.fullmatch(r"[0-9]{1,9}", text):
        return int(text)
    return text


def _count(form: Mapping[str, str], name: str, label: str, errors: Errors) -> int | None:
    """Return a whole, non-negative count from the form, noting an error for anything else."""
    value = parse_count(form.get(name))
    if isinstance(value, str):
        what = "cannot be negative" if re.fullmatch(r"-\d+", value) else "must be a whole number"
        if re.fullmatch(r"[0-9]+", value):
            what = "is far too big"
        errors.add(name, f"{label} {what} (you typed “{value}”)")
        return None
    return value


def _tapped_for(form: Mapping[str, str], seat: int) -> bool:
    """Tell whether cards or kings were entered for a seat."""
    return any(parse_count(form.get(f"{kind}-{seat}")) not in (None, 0)
               for kind in ("cards", "cards_more", "kings"))


def read_hand(form: Mapping[str, str], players: Sequence[str],
              errors: Errors) -> rules.Round:
    """Return the round the record-hand form describes; note unreadable inputs in `errors`."""
    went_out_raw = form.get("went_out", "")
    went_out = None
    if went_out_raw == STALEMATE:
        went_out = None
    elif went_out_raw.isdigit() and int(went_out_raw) < len(players):
        went_out = players[int(went_out_raw)]
    else:
        errors.add("went_out", "Tap who went out, or Nobody (stalemate)")
    hands = {}
    for seat, name in enumerate(players):
        if name == went_out and _tapped_for(form, seat):
            # Without JavaScript their taps stay on; the form is shown again without them.
            errors.add("went_out", f"Cards were tapped for {name}, who went out. "
                       f"Save again if {name} went out; if not, tap who did.")
        # A chips player who is out is not asked (the rules still check they really are out).
        if name == went_out or form.get(f"sits_out-{seat}"):
            continue
        more = _count(form, f"cards_more-{seat}", f"Cards left for {name}", errors)
        cards = more if more is not None else _count(form, f"cards-{seat}",
                                                     f"Cards left for {name}", errors)
        kings = _count(form, f"kings-{seat}", f"Kings for {name}", errors) or 0
        if cards is None:
            if not {f"cards-{seat}", f"cards_more-{seat}"} & errors.by_input.keys():
                errors.add(f"cards-{seat}", f"How many cards does {name} have left?")
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


# How each variant's record-hand form is read and refilled; a variant whose hand form
# differs (coronation's corners and dragon) adds its own pair here.
READERS: dict[str, Callable[[Mapping[str, str], Sequence[str], Errors], rules.Round]] = {
    "penalty": read_hand, "chips": read_hand}
REFILLERS: dict[str, Callable[[Sequence[str], rules.Round], dict[str, str]]] = {
    "penalty": hand_values, "chips": hand_values}


def input_for(error: RuleError, players: Sequence[str]) -> str:
    """Return the form input a core error belongs to."""
    parts = (error.field or "").split(".")
    if parts[0] == "hands" and len(parts) == 3 and parts[1] in players:
        seat = players.index(parts[1])
        return f"{parts[2]}-{seat}"
    if parts[0] == "rules" and len(parts) == 2:
        return f"rules-{parts[1]}"
    if parts[0].startswith("players["):
        return "seat-" + parts[0][len("players["):-1]
    if parts[0].startswith("corners["):
        return "corner-" + parts[0][len("corners["):-1]
    return parts[0] or "general"


@dataclass
class NewGame:
    """What the new-game form asked for."""

    variant: str = "penalty"
    names: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)  # form seat index of each name
    first_dealer_seat: int = 0
    settings: dict[str, Any] = field(default_factory=dict)


def seats_for(variant, seated: int) -> str:
    """Return how many players a variant takes, said against how many are seated."""
    if variant.min_players == variant.max_players:
        wants = f"is for exactly {variant.max_players} players"
    else:
        wants = f"takes {variant.min_players} to {variant.max_players} players"
    return f"{variant.label} {wants}, and {seated} are seated"


def read_new_game(form: Mapping[str, str], errors: Errors) -> NewGame:
    """Return the game the new-game form describes; note unreadable inputs in `errors`."""
    wanted = NewGame(variant=form.get("variant", "penalty"))
    if wanted.variant not in rules.VARIANTS:
        errors.add("variant", "Pick a game to play")
        return wanted
    dealer_raw = form.get("dealer", "0")
    for seat in range(MAX_SEATS):
        name = (form.get(f"seat-{seat}") or "").strip()
        if name:
            if dealer_raw == str(seat):
                wanted.first_dealer_seat = len(wanted.names)
            wanted.names.append(name)
            wanted.seats.append(seat)
    if any(re.fullmatch(r"seat-[0-9]+", key) and int(key[5:]) >= MAX_SEATS
           and (form.get(key) or "").strip() for key in form):
        errors.add("players", f"A table seats at most {MAX_SEATS} players")
    keys = {}
    for i, name in enumerate(wanted.names):
        key = unicodedata.normalize("NFC", " ".join(name.split())).casefold()
        if key in keys:
            errors.add(f"seat-{wanted.seats[i]}",
                       f"“{name}” is already in this game (seat {keys[key] + 1})")
        keys.setdefault(key, wanted.seats[i])
    variant = rules.get_variant(wanted.variant)
    if len(wanted.names) > variant.max_players:
        # The game is what does not fit: the table is fine for another one.
        errors.add("variant", seats_for(variant, len(wanted.names)))
    prefix = f"rules-{variant.name}-"
    if len(variant.presets) > 1:
        wanted.settings["preset"] = form.get(prefix + "preset") or next(iter(variant.presets))
    for setting in variant.settings:
        name = prefix + setting.name
        raw = form.get(name)
        if setting.kind is int:
            other = form.get(name + "-other", "")
            if other.strip() or raw == "other":
                raw, name = other, name + "-other"
            value = _count({name: raw or ""}, name, setting.label, errors)
            if value is not None:
                wanted.settings[setting.name] = value
            elif not (raw or "").strip() and setting.optional and raw is not None:
                wanted.settings[setting.name] = None
        elif setting.kind is bool:
            if raw is not None:
                wanted.settings[setting.name] = raw in ("1", "on", "true", "yes")
        elif raw:
            wanted.settings[setting.name] = raw
    return wanted


from . import coronation_entry  # noqa: E402, F401  (adds coronation's deal form to READERS)
