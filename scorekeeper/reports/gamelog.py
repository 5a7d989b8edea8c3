"""The JSON game log (docs of the `kings-corners-game/1` format): parse and check, render."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

from .. import rules, variants
from ..rules import RuleError

FORMAT = "kings-corners-game/1"
# The days a game may be played on: far enough either way for any table, near enough that
# the date arithmetic of nights never runs off the calendar.
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(2999, 12, 31)
# More than any table plays (a long game is a few hundred hands), few enough that checking a
# game never keeps the other phones waiting.
MAX_ROUNDS, MAX_EVENTS = 1000, 10_000
TOP_KEYS = {"format", "variant", "rules", "players", "first_dealer", "played_on", "ended",
            "rounds", "result"}
ROUND_KEYS = {"went_out", "hands", "events", "corners", "dragon"}


@dataclass(frozen=True)
class Parsed:
    """A checked game log: the core's game plus what only storage keeps."""

    game: rules.Game
    played_on: date | None
    result: rules.GameResult | None = None  # the game played through the rules, if checked


HAND_KEYS = frozenset({"cards", "kings"})


def _tidy(name: str) -> str:
    """Return a name as the roster keeps it: one Unicode spelling (NFC), spaces trimmed."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def _key(name: str) -> str:
    """Return the key a name is matched by: one spelling, spaces trimmed, case folded."""
    return _tidy(name).casefold()


# A backup names the same few players 200,000 times: their keys are kept, but only a name
# as short as a real one (at most 40 characters: db/roster.NAME_MAX), so a file of long
# made-up names, refused, leaves nothing held.
_short_key = lru_cache(maxsize=1024)(_key)
SHORT = 64


def _name(value: Any, players: dict[str, str], field: str) -> str:
    """Return the seated player `value` names (matched as the roster matches: one spelling,
    spaces trimmed, case folded)."""
    seated = (players.get(_short_key(value) if len(value) <= SHORT else _key(value))
              if isinstance(value, str) else None)
    if seated is None:
        raise RuleError("%(name)s is not a player in this game", field, name=repr(value))
    return seated


def _optional_name(value: Any, players: dict[str, str], field: str) -> str | None:
    """Return a seated player's name, or None for null."""
    return None if value is None else _name(value, players, field)


def _parse_hands(raw: Any, players: dict[str, str]) -> dict[str, rules.Hand]:
    """Return the round's hands keyed by seated names."""
    if not isinstance(raw, dict):
        raise RuleError("must be an object of player: {cards, kings}", "hands")
    hands = {}
    for key, value in raw.items():
        name = _name(key, players, f"hands.{key}")
        if not isinstance(value, dict) or "cards" not in value:
            raise RuleError("must be an object with cards (and kings)", f"hands.{name}")
        if not value.keys() <= HAND_KEYS:  # compared in place: 166,000 hands in a backup
            unknown = set(value) - HAND_KEYS
            raise RuleError("unknown key %(key)s", f"hands.{name}", key=repr(sorted(unknown)[0]))
        hands[name] = rules.Hand(value["cards"], value.get("kings", 0))
    return hands


def _parse_round(raw: Any, players: dict[str, str]) -> rules.Round:
    """Return one round of the document, names matched to the seats."""
    if not isinstance(raw, dict):
        raise RuleError("a round must be an object", "round")
    if not raw.keys() <= ROUND_KEYS:
        unknown = set(raw) - ROUND_KEYS
        raise RuleError("unknown key %(key)s", sorted(unknown)[0], key=repr(sorted(unknown)[0]))
    events_raw = raw.get("events", [])
    if not isinstance(events_raw, list):
        raise RuleError("must be a list", "events")
    events = []
    for i, event in enumerate(events_raw):
        if not isinstance(event, dict) or set(event) - {"player", "kind"}:
            raise RuleError("an event must be an object with player and kind, and nothing "
                            "else (its chips follow from the rules)", f"events[{i}]")
        events.append(rules.Event(_name(event.get("player"), players, f"events[{i}].player"),
                                  event.get("kind")))
    corners_raw = raw.get("corners", [])
    if not isinstance(corners_raw, list):
        raise RuleError("must be a list", "corners")
    corners = tuple(_optional_name(c, players, f"corners[{i}]") for i, c in enumerate(corners_raw))
    return rules.Round(
        went_out=_optional_name(raw.get("went_out"), players, "went_out"),
        hands=_parse_hands(raw.get("hands", {}), players),
        events=tuple(events), corners=corners,
        dragon=_optional_name(raw.get("dragon"), players, "dragon"))


def parse(doc: Any, check: bool = True) -> Parsed:
    """Check a game-log document against the format and the rules; return the game in it.

    `check=False` reads a game that a backup marks as needing repair: its entries are read
    as strictly, but it is not played through the rules (it is known to fail them).
    """
    if not isinstance(doc, dict):
        raise RuleError("a game log is a JSON object")
    if doc.get("format") != FORMAT:
        raise RuleError("must be %(format)s", "format", format=repr(FORMAT))
    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise RuleError("unknown key %(key)s", sorted(unknown)[0], key=repr(sorted(unknown)[0]))
    home = variants.get(doc.get("variant"))
    variant = home.rules
    given = doc.get("rules", {})
    if not isinstance(given, dict):
        raise RuleError("must be an object", "rules")
    settings = variant.resolve_settings(given)
    raw_players = doc.get("players")
    if not isinstance(raw_players, list) or not all(isinstance(p, str) for p in raw_players):
        raise RuleError("must be a list of names", "players")
    names = [_tidy(p) for p in raw_players]
    seated = {name.casefold(): name for name in names}
    if len(seated) != len(names):
        raise RuleError("the same player is listed twice", "players")
    first = doc.get("first_dealer")
    first_dealer = names[0] if first is None and names else _name(first, seated, "first_dealer")
    played_on = None
    if doc.get("played_on") is not None:
        try:
            played_on = date.fromisoformat(doc["played_on"])
        except (TypeError, ValueError):
            raise RuleError("must be a date like 2026-11-21", "played_on") from None
        if not FIRST_DAY <= played_on <= LAST_DAY:
            raise RuleError("must be a date from %(first)s to %(last)s", "played_on",
                            first=FIRST_DAY.year, last=LAST_DAY.year)
    ended = doc.get("ended", False)
    if not isinstance(ended, bool):
        raise RuleError("must be true or false", "ended")
    raw_rounds = doc.get("rounds", [])
    if not isinstance(raw_rounds, list):
        raise RuleError("must be a list", "rounds")
    if len(raw_rounds) > MAX_ROUNDS:
        raise RuleError("a game can have at most %(limit)s rounds, not %(count)s", "rounds",
                        limit=MAX_ROUNDS, count=len(raw_rounds))
    events = sum(len(raw["events"]) for raw in raw_rounds
                 if isinstance(raw, dict) and isinstance(raw.get("events"), list))
    if events > MAX_EVENTS:
        raise RuleError("a game can have at most %(limit)s chips events, not %(count)s",
                        "rounds", limit=MAX_EVENTS, count=events)
    rounds = []
    for number, raw in enumerate(raw_rounds, start=1):
        try:
            if isinstance(raw, dict):
                home.check_round_keys(raw)
            rounds.append(_parse_round(raw, seated))
        except RuleError as error:
            raise error.at_round(number)
    game = rules.Game(variant.name, tuple(names), first_dealer, settings, tuple(rounds), ended)
    return Parsed(game, played_on, variant.play(game) if check else None)


def _seated(game: rules.Game, values: dict[str, Any]) -> dict[str, Any]:
    """Return a per-player object with every player as a key, in seating order."""
    if len(values) == len(game.players) and tuple(values) == game.players:
        return dict(values)  # the usual case, already whole and in order: copied in C
    return {name: values.get(name, 0) for name in game.players}


def render_input(game: rules.Game, played_on: date | None) -> dict[str, Any]:
    """Return what was entered, normalised: the log without its computed result."""
    home = variants.get(game.variant)
    return {
        "format": FORMAT,
        "variant": game.variant,
        "rules": dict(game.settings),
        "players": list(game.players),
        "first_dealer": game.first_dealer,
        "played_on": played_on.isoformat() if played_on else None,
        "ended": game.ended,
        "rounds": [home.render_round(game, rnd) for rnd in game.rounds],
    }


def render(game: rules.Game, played_on: date | None,
           result: rules.GameResult | None = None) -> dict[str, Any]:
    """Return the game's log: the normalised input plus the computed `result`."""
    home = variants.get(game.variant)
    result = rules.play(game) if result is None else result
    rounds = []
    players = game.players
    for rr in result.rounds:
        scores, totals = rr.scores, rr.totals
        # The usual round: every player, in seat order, copied whole (`_seated` otherwise).
        row = {"dealer": rr.dealer, "hand_winners": list(rr.hand_winners),
               "scores": dict(scores) if tuple(scores) == players else _seated(game, scores),
               "totals": dict(totals) if tuple(totals) == players else _seated(game, totals)}
        for key in home.result_keys:
            value = rr.extra.get(key)
            row[key] = _seated(game, value) if isinstance(value, dict) else value
        rounds.append(row)
    return {**render_input(game, played_on),
            "result": {"over": result.over, "winners": list(result.winners),
                       "totals": _seated(game, result.totals), "rounds": rounds}}
