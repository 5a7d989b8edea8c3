"""What a phone, or the command line, asks of a game, done whole.

Each function takes the game's write lock, reads the game again inside it, checks what was
asked against the game as it is now, writes, commits, and returns what happened. When the
rules or the game refuse, nothing is written: the transaction is rolled back and the
refusal raised (a RuleError; `Taken` or `Changed` when another phone got there first;
`Unread` when the form itself could not be read). Views and commands parse their input,
call one of these, and say what happened; none of them commits or rolls back.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from . import rules, variants
from .db import Loaded, lock, read_game, writer
from .extensions import db


class NoSuchGame(LookupError):
    """The game asked for is not there (deleted, or never was)."""


class Unread(Exception):
    """A round's form with something in it that could not be read or cannot be: every
    problem at once, each at its input (`errors`)."""

    def __init__(self, errors: variants.Errors) -> None:
        super().__init__("the round could not be read")
        self.errors = errors


@contextmanager
def changing(*game_ids: int) -> Iterator[None]:
    """Hold these games' write lock for a change: committed if it goes through, rolled back
    (nothing written) if anything is raised."""
    lock(*game_ids)
    try:
        yield
    except BaseException:
        db.session.rollback()
        raise
    db.session.commit()


def _game(game_id: int) -> Loaded:
    """Return the game as it is now (inside the lock), or raise NoSuchGame."""
    game = read_game(game_id)
    if game is None:
        raise NoSuchGame(game_id)
    return game


def read_round(game: Loaded, number: int, form: Mapping[str, str]) -> tuple[rules.Round,
                                                                             variants.Errors]:
    """Return the round a posted form describes, with everything wrong in it at once: what
    could not be read and what the rules find impossible, each at its input."""
    home = variants.get(game.variant)
    errors = variants.Errors()
    entry = home.read_round(form, game.players, errors)
    home.check_round(game, number, entry, form, errors)
    return entry, errors


@dataclass(frozen=True)
class Saved:
    """A round saved: the game's id, the round's number and its variant's word for it, and,
    when the same form had been saved before (a second tap, the back button), that round's
    number: nothing was changed then."""

    game_id: int
    number: int
    word: str
    repeat: int | None = None


def _checked(game: Loaded, number: int, form: Mapping[str, str]) -> rules.Round:
    """Return the posted round, or raise Unread with everything wrong in it."""
    entry, errors = read_round(game, number, form)
    if errors:
        raise Unread(errors)
    return entry


def record(game_id: int, number: int, form: Mapping[str, str], token: str | None) -> Saved:
    """Record round `number` of a game from its posted form; a form saved before (its
    once-only token seen) records nothing twice."""
    with changing(game_id):
        game = _game(game_id)
        repeat = writer.round_with_token(token)
        entry = _checked(game, number, form)
        writer.record_round(game, number, entry, token)
        word = variants.get(game.variant).word()
    return Saved(game_id, number, word, repeat.number if repeat is not None else None)


def correct(game_id: int, number: int, form: Mapping[str, str], was: str | None) -> Saved:
    """Correct round `number` from its posted form; `was` is what the round was when the
    form was opened: one changed since (on another phone) is not overwritten blindly."""
    with changing(game_id):
        game = _game(game_id)
        entry = _checked(game, number, form)
        writer.edit_round(game, number, entry, was or None)
        word = variants.get(game.variant).word()
    return Saved(game_id, number, word)


@dataclass(frozen=True)
class Deleted:
    """What asking to delete round `number`, meant as the last, did: `deleted` the number
    deleted, else None and `last`, the game's last round now (the asked one was deleted
    already if `last` < number, or another was recorded after it)."""

    word: str
    number: int
    deleted: int | None
    last: int


def delete_last(game_id: int, number: int) -> Deleted:
    """Delete the game's last round, only if it is still round `number`: a double tap cannot
    delete the one before it too."""
    with changing(game_id):
        game = _game(game_id)
        word = variants.get(game.variant).word()
        last = len(game.core.rounds)
        deleted = writer.delete_last_round(game) if number == last else None
    return Deleted(word, number, deleted, last)


def undo(game_id: int, number: int, token: str | None) -> Saved:
    """Take back round `number`, just saved with this once-only token, only while it is
    still the game's last (writer.undo_round says why not, as a Conflict)."""
    with changing(game_id):
        game = _game(game_id)
        home = variants.get(game.variant)
        writer.undo_round(game, number, token, home.round_word)
    return Saved(game_id, number, home.word())
