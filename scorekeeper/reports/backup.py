"""The whole database as one JSON document, and a backup file read and checked for a restore
(db/restore.py writes it, play.restore does it whole).

A backup holds the roster, every night with its games (each a game log, docs/gamelog.md,
plus when it was created and when each hand was recorded), games outside any night, and
the events of a chips hand still in progress. Ids are left out: restore makes new ones.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from datetime import datetime
from typing import IO, Any

import ijson
import orjson
from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from .. import rules
from ..db import Loaded, read_games
from ..db import nights as nights_
from ..db.models import Crowd, CrowdPlayer, CrowdTable, Game, Night, Player, Season
from ..db.nights import clean_text
from ..db.restore import KeptCrowd, KeptGame, KeptNight, Member, NamedSeason
from ..db.roster import clean_name, name_key
from ..extensions import db
from ..rules import crowd as rule
from . import exchange, gamelog

FORMAT = "kings-corners-backup/1"
TOP_KEYS = {"format", "roster", "seasons", "nights", "games_without_night"}
# What a backup adds to a game log, taken out again before the log is checked.
GAME_EXTRA = ("created_at", "recorded_at", "events_in_progress", "needs_repair")
# Nights, or games outside a night, read at a time: a few at a stretch, so a backup never
# holds the server long.
BATCH = 10


class Refused(rules.RuleError):
    """A backup that cannot be restored here; nothing was written."""

    @classmethod
    def around(cls, error: rules.RuleError, where: str) -> "Refused":
        """Return the refusal of a part of the backup (a game) at its place in the backup."""
        return cls(WHOLE, where, error=error)


WHOLE = "%(error)s"  # a part's refusal told whole, with its own place (nothing to translate)


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


def _dump(value: Any, depth: int) -> str:
    """Return a value as indented JSON text, its lines indented to sit `depth` levels deep.

    orjson writes exactly what `json.dumps(indent=2, ensure_ascii=False)` writes, ten
    times faster; the standard encoder falls back to pure Python when asked to indent.
    """
    return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode().replace(
        "\n", "\n" + "  " * depth)


def _array(items: Iterator[Any], depth: int) -> Iterator[str]:
    """Yield a JSON array item by item, laid out as `_dump` lays out a whole one."""
    pad = "\n" + "  " * (depth + 1)
    first = True
    for item in items:
        yield ("[" if first else ",") + pad + _dump(item, depth + 1)
        first = False
    yield "[]" if first else "\n" + "  " * depth + "]"


def _snapshot() -> Iterator[Session]:
    """Yield a session of its own that sees the database as one moment, then close it.

    SQLite keeps one snapshot for a read transaction; a database server is asked for
    REPEATABLE READ, so a hand saved while the backup streams is in it whole or not at all.
    """
    connection = db.engine.connect()
    if connection.dialect.name != "sqlite":
        connection = connection.execution_options(isolation_level="REPEATABLE READ")
    session = Session(bind=connection)
    try:
        yield session
    finally:
        session.close()
        connection.close()


def _nights(session: Session) -> Iterator[dict[str, Any]]:
    """Yield each night with its games, oldest first, reading BATCH nights at a time."""
    last: tuple[datetime, int] | None = None
    while True:
        query = select(Night.id, Night.name, Night.notes, Night.started_at)
        if last is not None:
            query = query.where(or_(Night.started_at > last[0],
                                    and_(Night.started_at == last[0], Night.id > last[1])))
        nights = session.execute(query.order_by(Night.started_at, Night.id).limit(BATCH)).all()
        if not nights:
            return
        placed = session.execute(select(Game.night_id, Game.id).where(
            Game.night_id.in_([n.id for n in nights])).order_by(Game.id)).all()
        games = read_games((game_id for _, game_id in placed), recorded=True, session=session)
        by_night: dict[int, list[dict[str, Any]]] = {}
        for night_id, game_id in placed:
            by_night.setdefault(night_id, []).append(_game(games[game_id]))
        del games
        crowds = _crowds(session, [n.id for n in nights], placed)
        for night in nights:
            doc = {"name": night.name, "notes": night.notes,
                   "started_at": _when(night.started_at), "games": by_night.get(night.id, [])}
            if night.id in crowds:
                doc["crowd"] = crowds[night.id]
            yield doc
        last = (nights[-1].started_at, nights[-1].id)


def _crowds(session: Session, night_ids: list[int], placed) -> dict[int, dict[str, Any]]:
    """Return the crowd nights among these nights, by night, as a backup keeps them: what
    the host chose, the players, and each table as [round, table, the game's index in the
    night's games]."""
    found: dict[int, dict[str, Any]] = {}
    index: dict[int, int] = {}  # each game's place among its night's games
    counted: dict[int, int] = {}
    for night_id, game_id in placed:
        index[game_id] = counted.get(night_id, 0)
        counted[night_id] = index[game_id] + 1
    for crowd in session.scalars(select(Crowd).where(Crowd.night_id.in_(night_ids))):
        names = session.scalars(select(Player.name).join(
            CrowdPlayer, CrowdPlayer.player_id == Player.id)
            .where(CrowdPlayer.crowd_id == crowd.id).order_by(Player.name_key)).all()
        tables = session.execute(select(CrowdTable.round, CrowdTable.number, CrowdTable.game_id)
                                 .where(CrowdTable.crowd_id == crowd.id)
                                 .order_by(CrowdTable.round, CrowdTable.number)).all()
        found[crowd.night_id] = {
            "variant": crowd.variant, "rules": crowd.settings, "table_size": crowd.table_size,
            "seating": crowd.seating, "moving": crowd.moving, "rounds": crowd.rounds,
            "created_at": _when(crowd.created_at), "players": list(names),
            "tables": [[r, n, index[g]] for r, n, g in tables if g in index]}
    return found


def _loose_games(session: Session) -> Iterator[dict[str, Any]]:
    """Yield the games outside any night, BATCH at a time."""
    last = 0
    while True:
        ids = session.scalars(select(Game.id).where(Game.night_id.is_(None), Game.id > last)
                              .order_by(Game.id).limit(BATCH)).all()
        if not ids:
            return
        games = read_games(ids, recorded=True, session=session)
        docs = [_game(games[game_id]) for game_id in ids]
        del games
        yield from docs
        last = ids[-1]


def chunks() -> Iterator[str]:
    """Yield the whole database as a backup's text, a piece at a time.

    Nights and games are read BATCH at a time and written as they come, so memory stays
    the same however many years the database holds.
    """
    for session in _snapshot():
        roster = session.execute(
            select(Player.name, Player.created_at).order_by(Player.id)).all()
        yield '{\n  "format": ' + _dump(FORMAT, 1) + ',\n  "roster": '
        yield _dump([{"name": name, "created_at": _when(at)} for name, at in roster], 1)
        named = session.execute(select(Season.name, Season.first_day, Season.last_day)
                                .order_by(Season.id)).all()
        if named:  # only when the table named one: a backup without stays as it was
            yield ',\n  "seasons": '
            yield _dump([{"name": name, "first_day": first.isoformat(),
                          "last_day": last.isoformat()} for name, first, last in named], 1)
        yield ',\n  "nights": '
        yield from _array(_nights(session), 1)
        yield ',\n  "games_without_night": '
        yield from _array(_loose_games(session), 1)
        yield "\n}\n"


def text() -> str:
    """Return the whole database as a backup's text (tests and small databases)."""
    return "".join(chunks())


def document() -> dict[str, Any]:
    """Return the whole database as a backup document."""
    return json.loads(text())


def dumps(doc: dict[str, Any]) -> str:
    """Return a backup document as the text a file holds."""
    return _dump(doc, 0) + "\n"


def counts() -> dict[str, int]:
    """Return how many players, nights and games the database holds."""
    return {label: db.session.scalar(select(func.count()).select_from(model))
            for label, model in (("players", Player), ("nights", Night), ("games", Game))}


def is_empty() -> bool:
    """Tell whether the database holds no players, nights or games."""
    return not any(counts().values())


def _time(value: Any, where: str) -> datetime:
    """Return an ISO time from the document, or refuse naming where it is.

    The app keeps the table's own clock time, with no zone, as every backup it wrote did; a
    time with a zone, or off the calendar a game may be played on, is refused.
    """
    try:
        when = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise Refused("must be a time like 2026-11-21T20:15:00", where) from None
    if when.tzinfo is not None:
        raise Refused("must be the table's clock time, with no zone, like "
                      "2026-11-21T20:15:00", where)
    if not gamelog.FIRST_DAY <= when.date() <= gamelog.LAST_DAY:
        raise Refused("must be a time from %(first)s to %(last)s", where,
                      first=gamelog.FIRST_DAY.year, last=gamelog.LAST_DAY.year)
    return when


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


def _roster(entries: list) -> list[Member]:
    """Return the roster's players, checked as the roster checks a name."""
    members: dict[str, Member] = {}
    for i, entry in enumerate(entries):
        where = f"roster[{i}]"
        if not isinstance(entry, dict):
            raise Refused("must be an object with a name", where)
        name = clean_name(entry.get("name"), f"{where}.name")
        key = name_key(name)
        if key in members:
            raise Refused("%(name)s is on the roster twice", f"{where}.name", name=name)
        members[key] = Member(name, key, _time(entry.get("created_at"), f"{where}.created_at"))
    return list(members.values())


def _seasons(entries: Iterator[Any]) -> Iterator[NamedSeason]:
    """Yield the seasons the table named, as text (checked as typed when added)."""
    for i, entry in enumerate(entries):
        where = f"seasons[{i}]"
        if not isinstance(entry, dict):
            raise Refused("must be an object with a name, a first_day and a last_day", where)
        yield NamedSeason(*(_text(entry.get(key), f"{where}.{key}")
                            for key in ("name", "first_day", "last_day")), where=f"{where}.")


def _checked_game(raw: Any, where: str, players: set[str]) -> KeptGame:
    """Check one game of the document with the rules; return it, ready to be added with its
    rounds and events."""
    if not isinstance(raw, dict):
        raise Refused("a game must be an object", where)
    try:
        # A game the rules refused when it was backed up is kept as it was, to be repaired.
        parsed = gamelog.parse({k: v for k, v in raw.items() if k not in GAME_EXTRA},
                               check=not raw.get("needs_repair"))
    except rules.RuleError as error:
        raise Refused.around(error, where) from None
    core = parsed.game
    keys = []
    for name in core.players:
        if name_key(name) not in players:
            raise Refused("%(name)s plays in this game but is not on the roster",
                          f"{where}.players", name=name)
        keys.append(name_key(name))
    recorded = _list(raw, "recorded_at", f"{where}.")
    if len(recorded) != len(core.rounds):
        raise Refused("gives %(times)s times for %(rounds)s rounds", f"{where}.recorded_at",
                      times=len(recorded), rounds=len(core.rounds))
    created = _time(raw.get("created_at"), f"{where}.created_at")
    return KeptGame(keys, core, played_on=parsed.played_on or created.date(),
                    created_at=created,
                    recorded_at=[_time(when, f"{where}.recorded_at[{i}]")
                                 for i, when in enumerate(recorded)],
                    waiting=_waiting(raw, where, core, check=not raw.get("needs_repair")))


def _crowd(night: dict, where: str, players: set[str], games: int) -> KeptCrowd | None:
    """Return a crowd night's own part of a night, checked (None: an ordinary night; a
    backup from before crowd nights has none)."""
    raw = night.get("crowd")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise Refused("must be an object", where)
    try:
        spec = rules.get_variant(raw.get("variant"))
        settings = spec.resolve_settings(raw.get("rules") or {})
    except (rules.RuleError, KeyError, TypeError):
        raise Refused("names no variant of this app, or rules it refuses", where) from None
    size, rounds = raw.get("table_size"), raw.get("rounds")
    if (type(size) is not int or raw.get("seating") not in rule.SEATINGS
            or raw.get("moving") not in rule.MOVES
            or not (rounds is None or type(rounds) is int)):
        raise Refused("has a table size, seating, moving or rounds this app cannot read", where)
    names = _list(raw, "players", f"{where}.")
    if any(not isinstance(n, str) or name_key(n) not in players for n in names):
        raise Refused("has a player who is not on the roster", f"{where}.players")
    tables = _list(raw, "tables", f"{where}.")
    if any(not isinstance(t, list) or len(t) != 3 or any(type(x) is not int for x in t)
           or not 0 <= t[2] < games for t in tables):
        raise Refused("has a table that is not [round, table, game]", f"{where}.tables")
    return KeptCrowd(spec.name, settings, size, raw["seating"], raw["moving"], rounds,
                     _time(raw.get("created_at"), f"{where}.created_at"),
                     [name_key(n) for n in names], [tuple(t) for t in tables])


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
        raise Refused.around(error, f"{where}.events_in_progress") from None
    return events


class _Streamed:
    """A backup file read as it comes (ijson), one night or game at a time.

    A first pass (exchange.outline, in flat memory) reads the top-level keys and the
    format, and checks the JSON is whole, no deeper than any backup and with no number too
    long, before anything is written; a file that fails it is read again by exchange.scan,
    which says where. Each list is then read in a pass of its own, so the roster is known
    before the first game whatever order the keys are in.
    """

    def __init__(self, file: IO[bytes]):
        self.file = file
        self.keys: list[str] = []
        self.format: Any = None
        self.kinds: dict[str, str] = {}
        try:
            found = exchange.outline(file)
        except exchange.NotAnObject:
            raise Refused("a backup is a JSON object") from None
        except (ValueError, ijson.JSONError):
            found = None  # broken: read again below, to say where
        if found is not None:
            self.keys, self.kinds, values = found
            self.format = values.get("format")
            return
        file.seek(0)
        self._read_saying(file)

    def _read_saying(self, file: IO[bytes]) -> None:
        """Read the first pass again along exchange.scan, which keeps the path to each part:
        refuse the file saying where it goes wrong."""
        key = None
        try:
            for depth, event, value in exchange.scan(file):
                if depth == 0 and event not in ("start_map", "end_map"):
                    raise Refused("a backup is a JSON object")
                if depth == 1 and event == "map_key":
                    key = value
                    self.keys.append(value)
                elif depth == 1 and event not in ("end_map",) and key not in self.kinds:
                    self.kinds[key] = event
                    if key == "format":
                        self.format = value
        except ijson.JSONError:
            raise _not_json(file) from None

    def items(self, key: str) -> Iterator[Any]:
        """Yield the items of a top-level list (a missing one is empty), or refuse."""
        if key not in self.kinds:
            return
        if self.kinds[key] != "start_array":
            raise Refused("must be a list", key)
        self.file.seek(0)
        yield from ijson.items(self.file, f"{key}.item", use_float=True)

def not_empty() -> Refused:
    """Return the refusal of a restore into a database that holds anything."""
    return Refused("the database already holds players or games; a backup is restored only "
                   "into an empty database, so nothing is mixed up or lost")


def _not_json(file: IO[bytes]) -> Refused:
    """Return the refusal of a file that is not JSON, saying where it goes wrong.

    Only a broken file gets here, and only one no deeper than a backup (the scan stops a
    deeper one first): the standard parser reads it once more, for the line and column a
    person needs to mend it.
    """
    file.seek(0)
    try:
        json.loads(file.read().decode("utf-8", errors="replace"))
    except json.JSONDecodeError as error:
        return Refused("this is not JSON: %(why)s at line %(line)s, column %(column)s",
                       why=error.msg, line=error.lineno, column=error.colno)
    except (RecursionError, ValueError):
        pass
    return Refused("this is not JSON")


class Read:
    """A backup file being read: its parts, each checked as it is read, for db/restore.py
    to write in the order asked (the roster, the seasons, the nights, the loose games)."""

    def __init__(self, source: _Streamed):
        if source.format != FORMAT:
            raise Refused("must be %(format)s (is this a single game log? import it instead)",
                          "format", format=repr(FORMAT))
        unknown = set(source.keys) - TOP_KEYS
        if unknown:
            raise Refused("unknown key %(key)s", sorted(unknown)[0],
                          key=repr(sorted(unknown)[0]))
        self.source = source
        self.players: set[str] = set()

    def roster(self) -> list[Member]:
        """Return the roster, checked whole: the games are checked against it."""
        members = _roster(list(self.source.items("roster")))
        self.players = {member.key for member in members}
        return members

    def seasons(self) -> Iterator[NamedSeason]:
        """Yield the seasons the table named."""
        return _seasons(self.source.items("seasons"))

    def nights(self) -> Iterator[KeptNight]:
        """Yield each night, checked as the night's form checks it, with its games."""
        for i, raw in enumerate(self.source.items("nights")):
            where = f"nights[{i}]"
            if not isinstance(raw, dict):
                raise Refused("a night must be an object", where)
            # Checked as the night's form checks them, so what one database took another takes.
            yield KeptNight(
                clean_text(_text(raw.get("name"), f"{where}.name"), nights_.NAME_MAX,
                           f"{where}.name", one_line=True),
                clean_text(_text(raw.get("notes"), f"{where}.notes"), nights_.NOTES_MAX,
                           f"{where}.notes", one_line=False),
                _time(raw.get("started_at"), f"{where}.started_at"),
                (_checked_game(game, f"{where}.games[{j}]", self.players)
                 for j, game in enumerate(_list(raw, "games", f"{where}."))),
                _crowd(raw, f"{where}.crowd", self.players, len(raw.get("games") or ())))

    def loose(self) -> Iterator[KeptGame]:
        """Yield the games outside any night."""
        for j, game in enumerate(self.source.items("games_without_night")):
            yield _checked_game(game, f"games_without_night[{j}]", self.players)


def read(file: IO[bytes]) -> Read:
    """Begin reading a backup file: its first pass checks it is whole JSON, no deeper than a
    backup, in a format this version restores; its parts are read as they are asked for.

    A file that cannot be read twice (standard input) is copied to a temporary file first.
    Raise a RuleError (Refused) naming where the backup is wrong.
    """
    if not file.seekable():
        copied = tempfile.TemporaryFile()
        shutil.copyfileobj(file, copied)
        copied.seek(0)
        file = copied
    return Read(_Streamed(file))


def summary(counts: dict[str, int]) -> str:
    """Return what a restore brought in, e.g. "5 players, 2 nights and 1 game"."""
    from flask_babel import gettext, ngettext

    counted = {"players": lambda n: ngettext("%(num)d player", "%(num)d players", n),
               "nights": lambda n: ngettext("%(num)d night", "%(num)d nights", n),
               "games": lambda n: ngettext("%(num)d game", "%(num)d games", n)}
    said = [counted[what](n) if what in counted else f"{n} {what[:-1] if n == 1 else what}"
            for what, n in counts.items()]
    return gettext("%(some)s and %(last)s", some=", ".join(said[:-1]), last=said[-1])
