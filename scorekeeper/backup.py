"""The whole database as one JSON document, and a restore that rebuilds it into an empty one.

A backup holds the roster, every night with its games (each a game log, docs/gamelog.md,
plus when it was created and when each hand was recorded), games outside any night, and
the events of a chips hand still in progress. Ids are left out: restore makes new ones.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from . import exchange, gamelog, rules
from .extensions import db
from .models import Game, Night, Player
from .storage import Loaded, add_game, read_games
from .storage.players import clean_name, name_key

FORMAT = "kings-corners-backup/1"
TOP_KEYS = {"format", "roster", "nights", "games_without_night"}
# What a backup adds to a game log, taken out again before the log is checked.
GAME_EXTRA = ("created_at", "recorded_at", "events_in_progress", "needs_repair")


class Refused(rules.RuleError):
    """A backup that cannot be restored here; nothing was written."""


def _when(value: datetime) -> str:
    """Return a stored time as ISO text."""
    return value.isoformat()


def _game(game: Loaded) -> dict[str, Any]:
    """Return one game as the backup writes it: its game log plus what rebuilds it exactly."""
    doc = exchange.export_document(game)
    doc["created_at"] = _when(game.created_at)
    doc["recorded_at"] = [_when(at) for at in game.recorded_at]
    if game.waiting:
        doc["events_in_progress"] = [{"player": tap.player, "kind": tap.kind}
                                     for tap in game.waiting]
    return doc


def document() -> dict[str, Any]:
    """Return the whole database as a backup document."""
    roster = db.session.scalars(select(Player).order_by(Player.id)).all()
    nights = db.session.scalars(select(Night).order_by(Night.started_at, Night.id)).all()
    placed = db.session.execute(select(Game.night_id, Game.id).order_by(Game.id)).all()
    games = read_games((game_id for _, game_id in placed), recorded=True)
    by_night: dict[int | None, list[dict[str, Any]]] = {}
    for night_id, game_id in placed:
        by_night.setdefault(night_id, []).append(_game(games[game_id]))
    return {
        "format": FORMAT,
        "roster": [{"name": p.name, "created_at": _when(p.created_at)} for p in roster],
        "nights": [{"name": n.name, "notes": n.notes, "started_at": _when(n.started_at),
                    "games": by_night.get(n.id, [])} for n in nights],
        "games_without_night": by_night.get(None, []),
    }


def dumps(doc: dict[str, Any]) -> str:
    """Return a backup document as the text a file holds."""
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def is_empty() -> bool:
    """Tell whether the database holds no players, nights or games."""
    return not any(db.session.scalar(select(func.count()).select_from(model))
                   for model in (Player, Night, Game))


def _time(value: Any, where: str) -> datetime:
    """Return an ISO time from the document, or refuse naming where it is."""
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise Refused("must be a time like 2026-11-21T20:15:00", where) from None


def _list(doc: dict, key: str, where: str) -> list:
    """Return a list from the document, or refuse."""
    value = doc.get(key, [])
    if not isinstance(value, list):
        raise Refused("must be a list", f"{where}{key}")
    return value


def _text(value: Any, where: str) -> str | None:
    """Return optional text from the document, or refuse."""
    if value is not None and not isinstance(value, str):
        raise Refused("must be text or null", where)
    return value


def _add_roster(entries: list) -> dict[str, Player]:
    """Add the roster's players; return them by name key."""
    players: dict[str, Player] = {}
    for i, entry in enumerate(entries):
        where = f"roster[{i}]"
        if not isinstance(entry, dict):
            raise Refused("must be an object with a name", where)
        name = clean_name(entry.get("name"), f"{where}.name")
        key = name_key(name)
        if key in players:
            raise Refused(f"{name} is on the roster twice", f"{where}.name")
        players[key] = Player(name=name, name_key=key,
                              created_at=_time(entry.get("created_at"), f"{where}.created_at"))
        db.session.add(players[key])
    return players


def _add_game(raw: Any, where: str, night: Night | None, players: dict[str, Player]) -> None:
    """Check one game of the document with the rules and add it with its rounds and events."""
    if not isinstance(raw, dict):
        raise Refused("a game must be an object", where)
    try:
        # A game the rules refused when it was backed up is kept as it was, to be repaired.
        parsed = gamelog.parse({k: v for k, v in raw.items() if k not in GAME_EXTRA},
                               check=not raw.get("needs_repair"))
    except rules.RuleError as error:
        raise Refused(str(error), where) from None
    core = parsed.game
    seats = []
    for name in core.players:
        if name_key(name) not in players:
            raise Refused(f"{name} plays in this game but is not on the roster", f"{where}.players")
        seats.append(players[name_key(name)])
    recorded = _list(raw, "recorded_at", f"{where}.")
    if len(recorded) != len(core.rounds):
        raise Refused(f"gives {len(recorded)} times for {len(core.rounds)} rounds",
                      f"{where}.recorded_at")
    created = _time(raw.get("created_at"), f"{where}.created_at")
    add_game(core, seats, played_on=parsed.played_on or created.date(), night=night,
             created_at=created,
             recorded_at=[_time(when, f"{where}.recorded_at[{i}]")
                          for i, when in enumerate(recorded)],
             waiting=_waiting(raw, where, core, check=not raw.get("needs_repair")))


def _waiting(raw: dict, where: str, core: rules.Game, check: bool) -> list[rules.Event]:
    """Return the events of a hand in progress, checked as the hand would take them."""
    waiting = _list(raw, "events_in_progress", f"{where}.")
    if not waiting:
        return []
    events = []
    for i, event in enumerate(waiting):
        if not isinstance(event, dict) or event.get("player") not in core.players:
            raise Refused("must be an event of a player in this game",
                          f"{where}.events_in_progress[{i}]")
        events.append(rules.Event(event["player"], event.get("kind")))
    try:
        if check:
            rules.get_variant(core.variant).live(core, events)
    except rules.RuleError as error:
        raise Refused(str(error), f"{where}.events_in_progress") from None
    return events


def restore(doc: Any) -> dict[str, int]:
    """Rebuild a backup document into the empty database (not committed); return what came in.

    Raise a RuleError naming where the document is wrong; the caller rolls the session
    back, so nothing is written.
    """
    if not isinstance(doc, dict):
        raise Refused("a backup is a JSON object")
    if doc.get("format") != FORMAT:
        raise Refused(f"must be {FORMAT!r} (is this a single game log? import it instead)",
                      "format")
    unknown = set(doc) - TOP_KEYS
    if unknown:
        raise Refused(f"unknown key {sorted(unknown)[0]!r}", sorted(unknown)[0])
    if not is_empty():
        raise Refused("the database already holds players or games; a backup is restored "
                      "only into an empty database, so nothing is mixed up or lost")
    players = _add_roster(_list(doc, "roster", ""))
    db.session.flush()
    games = 0
    nights = _list(doc, "nights", "")
    for i, raw in enumerate(nights):
        where = f"nights[{i}]"
        if not isinstance(raw, dict):
            raise Refused("a night must be an object", where)
        night = Night(name=_text(raw.get("name"), f"{where}.name"),
                      notes=_text(raw.get("notes"), f"{where}.notes"),
                      started_at=_time(raw.get("started_at"), f"{where}.started_at"))
        db.session.add(night)
        for j, game in enumerate(_list(raw, "games", f"{where}.")):
            _add_game(game, f"{where}.games[{j}]", night, players)
            games += 1
    for j, game in enumerate(_list(doc, "games_without_night", "")):
        _add_game(game, f"games_without_night[{j}]", None, players)
        games += 1
    db.session.flush()
    return {"players": len(players), "nights": len(nights), "games": games}


def summary(counts: dict[str, int]) -> str:
    """Return what a restore brought in, e.g. "5 players, 2 nights and 1 game"."""
    said = [f"{n} {what[:-1] if n == 1 else what}" for what, n in counts.items()]
    return ", ".join(said[:-1]) + " and " + said[-1]


def restore_text(text: str) -> dict[str, int]:
    """Read a backup's text and restore it (not committed); raise Refused."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise Refused(f"this is not JSON: {error.msg} at line {error.lineno}, "
                      f"column {error.colno}") from None
    return restore(doc)
