"""Between the database and the rules: one reader, one writer, the roster and the nights."""

from .locks import lock, locked_game, touch
from .reader import Loaded, Tap, read_game, read_games
from .writer import (
           Conflict,
           add_game,
           add_tap,
           create_game,
           delete_last_round,
           edit_round,
           record_round,
           round_with_token,
           set_ended,
           undo_tap,
)

__all__ = ["Conflict", "Loaded", "Tap", "add_game", "add_tap", "create_game",
           "delete_last_round", "edit_round", "lock", "locked_game", "read_game", "read_games",
           "record_round", "round_with_token", "set_ended", "touch", "undo_tap"]
