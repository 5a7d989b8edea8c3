"""Between the database and the rules: one reader, one writer, the roster and the nights."""

from . import engine, writer  # noqa: F401  (engine sets SQLite up on every connection)
from .locks import lock, touch
from .reader import Loaded, Tap, Unreadable, read_game, read_games, round_times, version_of

Changed, Conflict, Taken = writer.Changed, writer.Conflict, writer.Taken
add_game, add_tap, create_game = writer.add_game, writer.add_tap, writer.create_game
delete_last_round, edit_round, record_round = (writer.delete_last_round, writer.edit_round,
                                               writer.record_round)
fingerprint, round_with_token = writer.fingerprint, writer.round_with_token
set_ended, undo_tap, delete_game = writer.set_ended, writer.undo_tap, writer.delete_game
undo_round, rematch = writer.undo_round, writer.rematch

__all__ = ["Changed", "Conflict", "Loaded", "Tap", "Taken", "add_game", "add_tap",
           "create_game", "delete_game", "delete_last_round", "edit_round", "fingerprint", "lock",
           "read_game", "read_games", "record_round", "rematch", "round_times",
           "round_with_token",
           "set_ended", "touch", "undo_round", "undo_tap", "Unreadable", "version_of"]
