"""Game logs in and out of storage: export a stored game, import a log as a new game."""

from __future__ import annotations

import json
from typing import Any

from . import gamelog, rules
from .models import Game
from .storage import Loaded, create_game


def export_document(game: Loaded) -> dict[str, Any]:
    """Return a stored game's log; one the rules refuse is written as entered, marked."""
    if not game.readable:
        return {**gamelog.render_input(game.core, game.played_on), "result": None,
                "needs_repair": str(game.outcome.error)}
    return gamelog.render(game.core, game.played_on, game.result)


def export_text(game: Loaded) -> str:
    """Return a stored game's log as the text of its file."""
    return json.dumps(export_document(game), indent=2, ensure_ascii=False) + "\n"


def read_json(text: str) -> object:
    """Return the JSON a text holds, or raise RuleError saying why it is none."""
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


def store(parsed: gamelog.Parsed) -> Game:
    """Store a checked game log as a new game (not committed)."""
    core = parsed.game
    return create_game(core.variant, dict(core.settings), list(core.players),
                       core.players.index(core.first_dealer), parsed.played_on,
                       rounds=core.rounds, ended=core.ended)
