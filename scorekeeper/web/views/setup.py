"""Reading the new-game form: seats in order, the first dealer, the variant and its rules."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext

from ... import rules, variants
from ...db.roster import clean_name
from ...rules.seats import check_seating
from ...variants.base import Errors, read_count
from ...words import capital, reason

MAX_SEATS = 6
SEAT_INPUT = re.compile(r"seat-([0-9]+)")


@dataclass
class NewGame:
    """What the new-game form asked for."""

    variant: str = ""
    names: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)  # form seat index of each name
    first_dealer_seat: int = 0
    settings: dict[str, Any] = field(default_factory=dict)


def seats_for(variant: rules.Variant, seated: int) -> str:
    """Return how many players a variant takes, said against how many are seated."""
    label = gettext(variant.label)
    if variant.min_players == variant.max_players:
        return gettext("%(variant)s is for exactly %(max)s players, and %(seated)s are seated",
                       variant=label, max=variant.max_players, seated=seated)
    return gettext("%(variant)s takes %(min)s to %(max)s players, and %(seated)s are seated",
                   variant=label, min=variant.min_players, max=variant.max_players,
                   seated=seated)


def _read_setting(form: Mapping[str, str], setting: rules.Setting, prefix: str, errors: Errors,
                  settings: dict[str, Any]) -> None:
    """Read one rule setting: a quick tap, an "other" box, yes/no or a choice."""
    name = prefix + setting.name
    raw = form.get(name)
    if setting.kind is int:
        other = form.get(name + "-other", "")
        if other.strip() or raw == "other":
            raw, name = other, name + "-other"
        value = read_count({name: raw or ""}, name, gettext(setting.label), errors)
        if value is not None:
            settings[setting.name] = value
        elif not (raw or "").strip() and setting.optional and raw is not None:
            settings[setting.name] = None
    elif setting.kind is bool:
        if raw is not None:
            settings[setting.name] = raw in ("1", "on", "true", "yes")
    elif raw:
        settings[setting.name] = raw


def read_new_game(form: Mapping[str, str], errors: Errors) -> NewGame:
    """Return the game the new-game form describes; note unreadable inputs in `errors`."""
    first = variants.homes()[0].name
    wanted = NewGame(variant=form.get("variant") or first)
    if wanted.variant not in {home.name for home in variants.homes()}:
        errors.add("variant", gettext("Pick a game to play"))
        return wanted
    dealer_raw = form.get("dealer", "0")
    for seat in range(MAX_SEATS):
        name = (form.get(f"seat-{seat}") or "").strip()
        if name:
            if dealer_raw == str(seat):
                wanted.first_dealer_seat = len(wanted.names)
            wanted.names.append(name)
            wanted.seats.append(seat)
    if any((m := SEAT_INPUT.fullmatch(key)) and len(m.group(1)) < 4
           and int(m.group(1)) >= MAX_SEATS and (form.get(key) or "").strip() for key in form):
        errors.add("players", gettext("A table seats at most %(max)s players", max=MAX_SEATS))
    keys: dict[str, int] = {}
    for i, name in enumerate(wanted.names):
        key = unicodedata.normalize("NFC", " ".join(name.split())).casefold()
        if key in keys:
            errors.add(f"seat-{wanted.seats[i]}",
                       gettext("“%(name)s” is already in this game (seat %(seat)s)", name=name,
                               seat=keys[key] + 1))
        keys.setdefault(key, wanted.seats[i])
    variant = variants.get(wanted.variant).rules
    if len(wanted.names) > variant.max_players:
        # The game is what does not fit: the table is fine for another one.
        errors.add("variant", seats_for(variant, len(wanted.names)))
    prefix = f"rules-{variant.name}-"
    if len(variant.presets) > 1:
        wanted.settings["preset"] = form.get(prefix + "preset") or next(iter(variant.presets))
    for setting in variant.settings:
        _read_setting(form, setting, prefix, errors, wanted.settings)
    return wanted


def input_for(error: rules.RuleError, wanted: NewGame) -> str:
    """Return the new-game input a rules error is about."""
    parts = (error.field or "").split(".")
    if parts[0] == "rules" and len(parts) == 2:
        return f"rules-{wanted.variant}-{parts[1]}"
    if parts[0].startswith("players["):
        index = int(parts[0][len("players["):-1])
        return f"seat-{wanted.seats[index]}" if index < len(wanted.seats) else "seat-0"
    if parts[0] == "players":
        return "seat-0"
    return parts[0] or "general"


def new_game_inputs() -> list[str]:
    """Return the new-game form's inputs in the order the page shows them (error links)."""
    inputs = [f"seat-{seat}" for seat in range(MAX_SEATS)] + ["variant"]
    for home in variants.homes():
        prefix = f"rules-{home.name}-"
        inputs.append(prefix + "preset")
        for setting in home.rules.settings:
            inputs += [prefix + setting.name, prefix + setting.name + "-other"]
    return inputs


def check_new_game(form: Mapping[str, str], wanted: NewGame, errors: Errors) -> None:
    """Note everything the rules refuse in a new game at once, each at its input: every
    name, every setting, too few players. (Starting the game checks it all again.)"""
    if not variants.known(wanted.variant):
        return
    for index, name in enumerate(wanted.names):
        try:
            clean_name(name, f"players[{index}]")
        except rules.RuleError as error:
            errors.add(input_for(error, wanted), capital(reason(error)))
    spec = variants.get(wanted.variant).rules
    given = dict(wanted.settings)
    # The rules name the first setting they refuse; without it they go on to the next.
    for _ in range(len(spec.settings) + 1):
        try:
            spec.resolve_settings(given)
            break
        except rules.RuleError as error:
            name = input_for(error, wanted)
            if (form.get(name + "-other") or "").strip():
                name += "-other"  # the value was typed in the "other" box
            key = (error.field or "").removeprefix("rules.")
            label = next((gettext(s.label) for s in spec.settings if s.name == key), "")
            errors.add(name, f"{label}: {reason(error)}" if label else capital(reason(error)))
            if key not in given:
                break
            del given[key]
    seated = [name for index, name in enumerate(wanted.names)
              if f"seat-{wanted.seats[index]}" not in errors.by_input]
    if len(seated) == len(wanted.names) and len(seated) < spec.min_players:
        try:
            check_seating(seated, seated[0] if seated else "", spec.min_players,
                          spec.max_players)
        except rules.RuleError as error:
            errors.add(input_for(error, wanted), capital(reason(error)))


@dataclass(frozen=True)
class SettingField:
    """One setting of the new-game form as its macro draws it: worked out here, so the
    template only shows it (`kind` says which inputs: "quick" keys and an other box, a
    "number" box, "yes_no" keys, or one key per "choice")."""

    name: str  # the input's name: rules-<variant>-<setting>
    setting: str
    label: str  # English, as the rules say it; the template says it in the page's language
    help: str
    kind: str
    presets: tuple[tuple[str, str], ...] = ()  # each set's value, shown beside the label
    taps: tuple[tuple[str, str, bool, str], ...] = ()  # (value, shown, checked, id)
    none_tap: bool = False  # a set's target may be left to the set: "none" is a key
    none_checked: bool = False
    other: str = ""
    value: str = ""
    placeholder: str = ""


def _shown(value: Any) -> str:
    """Return a set's value as the form shows it beside a setting."""
    if value is None:
        return gettext("none")
    if value is True or value is False:
        return gettext("yes") if value else gettext("no")
    return str(value)


def setting_field(variant: rules.Variant, setting: rules.Setting,
                  values: Mapping[str, str]) -> SettingField:
    """Return how one setting of a variant is drawn, with what was typed (`values`)."""
    name = f"rules-{variant.name}-{setting.name}"
    multi = len(variant.presets) > 1
    default = next(iter(variant.presets.values())).get(setting.name)
    base = {"name": name, "setting": setting.name, "label": setting.label,
            "help": setting.help,
            "presets": tuple((preset, _shown(chosen.get(setting.name)))
                             for preset, chosen in variant.presets.items()) if multi else ()}
    if setting.kind is int and setting.quick:
        raw = values.get(name, "" if multi else str(default))
        other = values.get(name + "-other", "")
        quick = [str(q) for q in setting.quick]
        at = raw if raw in quick and not other else quick[0]
        return SettingField(
            **base, kind="quick", other=other,
            taps=tuple((q, q, raw == q and not other, name if q == at else "") for q in quick),
            none_tap=multi and setting.optional and setting.name == "target",
            none_checked=name in values and raw == "" and not other)
    if setting.kind is int:
        return SettingField(
            **base, kind="number",
            value=values.get(name, "" if multi else ("" if default is None else str(default))),
            placeholder=(gettext("preset") if multi
                         else gettext("none") if setting.optional else ""))
    if setting.kind is bool:
        raw = values.get(name, "" if multi else ("1" if default else "0"))
        return SettingField(**base, kind="yes_no", taps=(
            ("1", gettext("Yes"), raw == "1", name if raw != "0" else ""),
            ("0", gettext("No"), raw == "0", name if raw == "0" else "")))
    raw = values.get(name, "" if multi else default)
    at = raw if raw in setting.choices else setting.choices[0]
    return SettingField(**base, kind="choice", taps=tuple(
        (choice, gettext(choice), raw == choice, name if choice == at else "")
        for choice in setting.choices))


def setting_fields(values: Mapping[str, str]) -> dict[str, tuple[list, list]]:
    """Return each variant's settings as drawn, split into those in view and those folded
    away (a set's settings are all folded: most tables play a set as it comes; a game
    without sets keeps its first setting, the target, in view)."""
    fields = {}
    for home in variants.homes():
        drawn = [setting_field(home.rules, setting, values) for setting in home.rules.settings]
        in_view = 0 if len(home.rules.presets) > 1 else 1
        fields[home.name] = (drawn[:in_view], drawn[in_view:])
    return fields
