"""Game logs in and out of storage: export a stored game, import a log as a new game."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import IO, Any

import ijson

from .. import rules
from ..db import Loaded
from . import gamelog


def export_document(game: Loaded) -> dict[str, Any]:
    """Return a stored game's log; one the rules refuse is written as entered, marked."""
    if not game.readable:
        return {**gamelog.render_input(game.core, game.played_on), "result": None,
                "needs_repair": str(game.outcome.error)}
    return gamelog.render(game.core, game.played_on, game.result)


def export_text(game: Loaded) -> str:
    """Return a stored game's log as the text of its file."""
    return json.dumps(export_document(game), indent=2, ensure_ascii=False) + "\n"


# What an upload may hold: a backup is 8 levels deep and its numbers are counts of cards and
# chips, so nothing real comes near these. Checked before anything trusts the file.
MAX_DEPTH = 32
BIGGEST = 10**15


def _place(path: list) -> str:
    """Return where a scan is in a document, e.g. nights[3].games[0].rounds."""
    where = ""
    for step in path:
        where += f"[{step}]" if isinstance(step, int) else (f".{step}" if where else str(step))
    return where if len(where) <= 80 else where[:79] + "…"


def scan(file: IO[bytes]) -> Iterator[tuple[int, str, Any]]:
    """Read a JSON file once, as it comes, and yield (depth, event, value) for each part.

    Memory stays flat whatever the file holds: ijson's basic events carry no path, and the
    path kept here for messages is never longer than MAX_DEPTH. A file nested deeper, or
    holding a number past BIGGEST (or too long to read), is refused where it goes wrong.
    """
    path: list = []
    depth = 0
    try:
        for event, value in ijson.basic_parse(file, use_float=True):
            if event in ("start_map", "start_array"):
                yield depth, event, value
                depth += 1
                if depth > MAX_DEPTH:
                    raise rules.RuleError("this is nested more than %(most)s levels deep, "
                                          "deeper than any game log or backup", _place(path),
                                          most=MAX_DEPTH)
                path.append(0 if event == "start_array" else "")
                continue
            if event in ("end_map", "end_array"):
                depth -= 1
                path.pop()
                yield depth, event, value
            else:
                if event == "number" and not (isinstance(value, (int, float))
                                              and -BIGGEST < value < BIGGEST):
                    raise rules.RuleError("a number can be at most %(digits)s digits long",
                                          _place(path), digits=len(str(BIGGEST)) - 1)
                yield depth, event, value
            if path and event != "map_key" and isinstance(path[-1], int):
                path[-1] += 1  # the next item of a list
            elif path and event == "map_key":
                path[-1] = value
    except rules.RuleError:
        raise
    except (ValueError, ijson.JSONError) as error:  # a number of thousands of digits
        if isinstance(error, ijson.JSONError) and "overflow" not in str(error):
            raise
        raise rules.RuleError("a number can be at most %(digits)s digits long", _place(path),
                              digits=len(str(BIGGEST)) - 1) from None


def outline(file: IO[bytes]) -> tuple[list[str], dict[str, str], dict[str, Any]] | None:
    """Read a JSON file once, as it comes, and return its top-level keys, what each holds
    (its first event: "start_array", "string"...) and the values of those that hold a
    scalar; or None when it is nested deeper than MAX_DEPTH or holds a number past BIGGEST,
    for `scan` to read again and say where. A document that is not an object at the top
    raises NotAnObject.

    What `scan` checks, at a third of its cost: no path is kept and no event handed on (a
    ten-year backup is 3.4 million events). Raise ijson.JSONError (or ValueError, for a
    number too long to read) as `scan` reads it: a broken file.
    """
    keys: list[str] = []
    kinds: dict[str, str] = {}
    values: dict[str, Any] = {}
    depth, key = 0, None
    for event, value in ijson.basic_parse(file, use_float=True):
        if event == "map_key":
            if depth == 1:
                key = value
                keys.append(value)
        elif event == "start_map" or event == "start_array":
            if depth == 1 and key not in kinds:
                kinds[key] = event
            elif depth == 0 and event == "start_array":
                raise NotAnObject
            depth += 1
            if depth > MAX_DEPTH:
                return None
        elif event == "end_map" or event == "end_array":
            depth -= 1
        else:
            if event == "number" and not (isinstance(value, (int, float))
                                          and -BIGGEST < value < BIGGEST):
                return None
            if depth == 1 and key not in kinds:
                kinds[key] = event
                values[key] = value
            elif depth == 0:
                raise NotAnObject
    return keys, kinds, values


class NotAnObject(Exception):
    """A JSON document whose top is not an object (a list, a string, a number)."""


def check_bounds(data: bytes) -> None:
    """Refuse a document nested too deep or with too long a number, in flat memory."""
    try:
        for _ in scan(io.BytesIO(data)):
            pass
    except ijson.JSONError:
        pass  # not JSON at all: the standard parser says where, next


def read_json(text: str) -> object:
    """Return the JSON a text holds, or raise RuleError saying why it is none."""
    check_bounds(text.encode("utf-8", errors="replace"))
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise rules.RuleError("this is not JSON: %(why)s at line %(line)s, column %(column)s",
                              why=error.msg, line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise rules.RuleError("this is nested too deeply to be a game log") from None
    except ValueError as error:  # e.g. a number of more than 4,300 digits
        raise rules.RuleError("this is not JSON a game log can hold: %(why)s",
                              why=str(error)) from None


def read_log(text: str) -> gamelog.Parsed:
    """Read and check a game-log text by the rules, touching no database; raise RuleError.

    Done before the write lock is taken, so other phones keep saving while a big log is read.
    """
    return gamelog.parse(read_json(text))
