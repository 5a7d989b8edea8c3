"""What a phone, or the command line, asks of a game, done whole.

Each function takes the game's write lock, reads the game again inside it, checks what was
asked against the game as it is now, writes, commits, and returns what happened. When the
rules or the game refuse, nothing is written: the transaction is rolled back and the
refusal raised (a RuleError; `Taken` or `Changed` when another phone got there first;
`Unread` when the form itself could not be read). Views and commands parse their input,
call one of these, and say what happened; none of them commits or rolls back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import IO

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from . import rules, variants
from .db import (
    Loaded,
    access,
    crowds,
    lock,
    locks,
    nights,
    phone_parts,
    read_game,
    results,
    roster,
    touch,
    writer,
)
from .db import named_seasons as named_seasons
from .db import restore as restoring
from .db.models import Game, Night, Player, table_time
from .extensions import db
from .reports import backup, gamelog, ratings
from .rules.base import check_int
from .rules.parts import NOBODY, Gathered, Part, gather_deal, gather_hand
from .words import capital, reason


class NoSuchGame(LookupError):
    """The game asked for is not there (deleted, or never was)."""


class Unread(Exception):
    """A round's form with something in it that could not be read or cannot be: every
    problem at once, each at its input (`errors`)."""

    def __init__(self, errors: variants.Errors) -> None:
        super().__init__("the round could not be read")
        self.errors = errors


class Change:
    """What a change did, as the use-case tells it to `changing`, which keeps everything
    derived from it right (see docs/architecture.md, "Derived data")."""

    def __init__(self, locked: tuple[int, ...] = ()) -> None:
        self.locked = set(locked)  # the games it holds the lock of (a game it made, none)
        self.entered: set[int] = set()  # games whose entries changed: results, ratings, stamp
        self.shown: set[int] = set()  # games whose phones show something new: stamp
        self.hands: set[tuple[int, int]] = set()  # (game, hand) entered on one phone
        self.rated_before: dict[int, ratings.Finished] = {}
        self.counted = results.Counted()  # what the changed games counted before: tallied
        self.seasons = False  # the named seasons changed: every game rated again
        self.everything = False  # a restore or a rebuild: everything derived again

    def games(self, *game_ids: int, hand: int | None = None) -> None:
        """Say what was entered in these games changed (hands, their end, the game itself,
        its players): told before the game, or a player of it, is deleted (their ratings
        go with them). `hand`: a hand entered, corrected or deleted on one phone, so the
        parts sent for it say nothing now."""
        new = [game_id for game_id in game_ids if game_id not in self.entered]
        if new:
            self.rated_before.update(ratings.stored(new))
            self.counted |= results.forget(new)
            self.entered.update(new)
        if hand is not None:
            self.hands.update((game_id, hand) for game_id in game_ids)

    def show(self, *game_ids: int) -> None:
        """Say these games show something new that moves no score (a tap of the hand in
        progress, a seat, a part sent, a name, a night)."""
        self.shown.update(game_ids)

    def keep(self) -> None:
        """Bring everything derived up to date with what this change entered."""
        db.session.flush()
        if self.everything:
            results.rebuild()
            ratings.rebuild()
            return
        if self.entered:
            results.refresh(sorted(self.entered), before=self.counted)
        for game_id, number in sorted(self.hands):
            phone_parts.drop(game_id, number)
        if self.seasons:
            ratings.rebuild()
        else:
            ratings.after_change(self.entered, self.rated_before)
        stamped = (self.entered | self.shown) & self.locked  # a game made now starts at 0
        if stamped:
            touch(*sorted(stamped))


@contextmanager
def changing(*game_ids: int) -> Iterator[Change]:
    """Hold these games' write lock for a change, and yield a `Change` the use-case tells
    what it changed: committed with everything derived from it, if it goes through; rolled
    back (nothing written) if anything is raised."""
    lock(*game_ids)
    try:
        change = Change(game_ids)
        yield change
        change.keep()
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


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
    with changing(game_id) as change:
        game = _game(game_id)
        repeat = writer.round_with_token(token)
        entry = _checked(game, number, form)
        writer.record_round(game, number, entry, token)
        if repeat is None:
            change.games(game_id, hand=number)
        word = variants.get(game.variant).word()
    return Saved(game_id, number, word, repeat.number if repeat is not None else None)


def correct(game_id: int, number: int, form: Mapping[str, str], was: str | None) -> Saved:
    """Correct round `number` from its posted form; `was` is what the round was when the
    form was opened: one changed since (on another phone) is not overwritten blindly."""
    with changing(game_id) as change:
        game = _game(game_id)
        entry = _checked(game, number, form)
        writer.edit_round(game, number, entry, was or None)
        change.games(game_id, hand=number)
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
    with changing(game_id) as change:
        game = _game(game_id)
        word = variants.get(game.variant).word()
        last = len(game.core.rounds)
        deleted = writer.delete_last_round(game) if number == last else None
        if deleted is not None:
            change.games(game_id, hand=deleted)
    return Deleted(word, number, deleted, last)


def undo(game_id: int, number: int, token: str | None) -> Saved:
    """Take back round `number`, just saved with this once-only token, only while it is
    still the game's last (writer.undo_round says why not, as a Conflict)."""
    with changing(game_id) as change:
        game = _game(game_id)
        home = variants.get(game.variant)
        writer.undo_round(game, number, token, home.round_word)
        change.games(game_id, hand=number)
    return Saved(game_id, number, home.word())


def new_game(variant: str, settings: dict, names: list[str], first_dealer_seat: int) -> int:
    """Start a game (checked by the rules) in tonight's night; return its id."""
    with changing() as change:
        game_id = writer.create_game(variant, settings, names, first_dealer_seat).id
        change.games(game_id)
    return game_id


def set_ended(game_id: int, ended: bool) -> None:
    """End a game by hand (the best totals win now), or undo that."""
    with changing(game_id) as change:
        writer.set_ended(_game(game_id), ended)
        change.games(game_id)


def delete_game(game_id: int) -> None:
    """Delete a game and every hand in it."""
    with changing(game_id) as change:
        game = _game(game_id)
        change.games(game_id)
        writer.delete_game(game)


@dataclass(frozen=True)
class Rematch:
    """A rematch asked for: the game it is (`game_id`), who deals first in it, and whether
    this ask started it (False: another tap, or another phone, had already); `started` is
    None when the game was not over, and no rematch was started."""

    game_id: int
    dealer: str = ""
    started: bool | None = None


def rematch(game_id: int) -> Rematch:
    """Start a rematch of a finished game: the same seats and rules, the deal passed on. A
    table of a crowd night has none: the night seats its next round."""
    with changing(game_id) as change:
        game = _game(game_id)
        if not game.result.over:
            return Rematch(game_id)
        if crowds.crowd_of_game(game_id) is not None:
            raise rules.RuleError("a table of a crowd night is not played again: the night "
                                  "seats its next round")
        new, started = writer.rematch(game)
        if started:
            change.games(new.id)
            phone_parts.carry_seats(game_id, new.id)  # each phone keeps its seat
        found = Rematch(new.id, new.players[new.first_dealer_seat].name, started)
    return found


class Crossed(Exception):
    """Two phones changed the same thing at the same moment and this one lost: nothing was
    written; asked again, it goes through."""


def tap(game_id: int, number: int, seat: int | None, kind: str, token: str | None) -> None:
    """Record one event of the hand in progress (a pass, a king held, a missed draw) for
    the player at `seat`; a tap sent twice (its once-only token seen) is saved once."""
    try:
        with changing(game_id) as change:
            game = _game(game_id)
            if seat is None or not 0 <= seat < len(game.players):
                raise rules.RuleError("there is no player at seat %(seat)s", "player",
                                      seat=repr(str(seat)))
            if writer.event_with_token(token) is None:
                writer.add_tap(game, number, game.players[seat], kind, token)
                change.show(game_id)
    except IntegrityError:
        # Two phones tapped at once: the same tap twice is saved once, two taps need a retry.
        if writer.event_with_token(token) is None:
            raise Crossed() from None


def untap(game_id: int, number: int, event_id: int | None):
    """Take back the last event of the hand in progress (the one the undo showed, so a
    double tap undoes one); return it, or None when it was undone already."""
    with changing(game_id) as change:
        undone = writer.undo_tap(_game(game_id), number, event_id)
        if undone is not None:
            change.show(game_id)
    return undone


class Gone(LookupError):
    """What the change was about (a player, a night) is not there any more: deleted or merged
    on another phone meanwhile."""


def rename_player(player_id: int, name: str) -> tuple[str, str]:
    """Give a player a new name (no one else may have it); return (old name, new name)."""
    games = locks.games_of(player_id)
    with changing(*games) as change:
        player = db.session.get(Player, player_id)
        if player is None:
            raise Gone(player_id)
        old = player.name
        roster.rename(player, name)
        change.show(*games)  # their games show the new name
        renamed = (old, player.name)
    return renamed


def merge_players(keeper_id: int, duplicate_id: int) -> tuple[str, str, int]:
    """Fold a duplicate roster entry into the keeper; return (the duplicate's name, the
    keeper's name, how many games moved over)."""
    with changing(*locks.games_of(keeper_id, duplicate_id)) as change:
        keeper = db.session.get(Player, keeper_id)
        duplicate = db.session.get(Player, duplicate_id)
        if keeper is None or duplicate is None:
            raise Gone(duplicate_id if keeper else keeper_id)
        name, kept = duplicate.name, keeper.name
        change.games(*locks.games_of(duplicate_id))  # told before the duplicate goes
        moved = roster.merge(keeper, duplicate)
    return name, kept, moved


def rename_night(night_id: int, name: str | None, notes: str | None) -> None:
    """Give a night a name and notes (empty clears them)."""
    with changing():
        night = db.session.get(Night, night_id)
        if night is None:
            raise Gone(night_id)
        nights.rename(night, name, notes)


def name_season(name: str | None, first: str | None, last: str | None) -> str:
    """Name a season from its first day to its last, and rate every game again in the
    seasons as they now are; return its name."""
    try:
        with changing() as change:
            season = named_seasons.add(name, first, last)
            change.seasons = True
            return season.name
    except IntegrityError:
        # Named on two phones at once: the other phone's went in first.
        raise rules.RuleError("“%(name)s” is already a season", "name",
                              name=" ".join((name or "").split())) from None


def forget_season(season_id: int) -> str:
    """Forget a named season (its days go back to their years) and rate every game again;
    return its name, or raise Gone."""
    with changing() as change:
        name = named_seasons.remove(season_id)
        if name is None:
            raise Gone(season_id)
        change.seasons = True
        return name


def move_game(game_id: int, night_id: int | None) -> int:
    """Move a game to another night, or to a night of its own (`night_id` None); return the
    id of the night it is in now."""
    with changing(game_id) as change:
        game = db.session.get(Game, game_id)
        if game is None:
            raise NoSuchGame(game_id)
        target = None
        if night_id is not None:
            target = db.session.get(Night, night_id)
            if target is None:
                raise rules.RuleError("that night is not there any more", "night")
        change.games(game_id)  # told before: its players' nights are counted again
        moved_to = nights.move_game(game, target).id
    return moved_to


# The passcode, restore, import: changes to the table as a whole, not to one game.

def set_passcode(text: str) -> bool:
    """Set the table passcode (checked as typed) in place of any other, forgetting every
    phone that knew one; return whether the table had one. Hashed before the lock."""
    made = access.hashed(text)
    with changing():
        was_on = access.passcode() is not None
        access.set_passcode(made)
    return was_on


def clear_passcode() -> bool:
    """Remove the table passcode and every phone's key; return whether there was one."""
    with changing():
        was_on = access.passcode() is not None
        access.clear_passcode()
    return was_on


def remember_phone(digest: str, label: str, kept: timedelta) -> None:
    """Let the phone whose key has this digest change things for `kept` from now."""
    with changing():
        now = table_time()
        access.add_phone(digest, label, now, now + kept)


def forget_phone(phone_id: int) -> None:
    """Make a phone a reader again: its key is forgotten."""
    with changing():
        access.drop_phone(phone_id)


def count_guess(address: str, limits, ceiling) -> tuple[int, bool]:
    """Count a guess of the passcode or a join code from `address` before it is checked;
    return (0, False), or the seconds to wait and whether the whole table waits. One count
    at a time, across every server process: guesses sent together are counted one by one."""
    with changing():  # one change to the table as a whole at a time
        return access.count_guess(address, time.time(), limits, ceiling)


def right_guess(address: str) -> None:
    """Take back the guess just counted from `address`: it was right, so it never counts."""
    with changing():
        access.uncount_guess(address)


def import_game(parsed: gamelog.Parsed) -> int:
    """Add a checked game log (read before the lock) as a new game; return its id."""
    core = parsed.game
    with changing() as change:
        game_id = writer.create_game(core.variant, dict(core.settings), list(core.players),
                                     core.players.index(core.first_dealer), parsed.played_on,
                                     rounds=core.rounds, ended=core.ended).id
        change.games(game_id)
    return game_id


def restore(file: IO[bytes]) -> dict[str, int]:
    """Rebuild a backup file into the empty database as it is read; return what it held,
    counted. Nothing is read before the database is known to be empty."""
    with changing() as change:
        if not backup.is_empty():
            raise backup.not_empty()
        read = backup.read(file)
        counts = restoring.write(read.roster(), read.seasons(), read.nights(), read.loose())
        change.everything = True
    return counts


def rebuild_results() -> int:
    """Fill the results cache, then the ratings, again from what was entered; return how
    many games."""
    with changing() as change:
        count = db.session.scalar(select(func.count(Game.id)))
        change.everything = True
    return count


@dataclass(frozen=True)
class Seated:
    """A seat asked for by a phone: `taken` when it is this phone's now; else `holder`, the
    other phone that has it (taking it from that phone asks first)."""

    seat: int
    taken: bool
    holder: str | None = None


def take_seat(game_id: int, seat: int, phone: str, label: str, force: bool) -> Seated:
    """Give a seat of a game to this phone; a seat another phone holds only when `force`
    (the phone was asked, and said yes)."""
    with changing(game_id) as change:
        game = _game(game_id)
        if not 0 <= seat < len(game.players):
            raise rules.RuleError("there is no player at seat %(seat)s", "seat",
                                  seat=repr(str(seat)))
        holder = phone_parts.holders(game_id).get(seat)
        if holder is not None and holder.phone != phone and not force:
            return Seated(seat, False, holder.label)
        phone_parts.take(game_id, game.next_number, seat, phone, label)
        change.show(game_id)  # every phone shows who holds which seat
    return Seated(seat, True)


def new_join_code(game_id: int, salt: str) -> None:
    """Change a game's join code (made from `salt`): the QR code shown before seats no one
    from now on; the phones seated keep their seats."""
    with changing(game_id):
        if db.session.get(Game, game_id) is None:
            raise NoSuchGame(game_id)
        phone_parts.new_join_salt(game_id, salt)


def give_seat(game_id: int, phone: str) -> int | None:
    """Give back the seat this phone holds in a game; return it (None: it held none)."""
    with changing(game_id) as change:
        game = _game(game_id)
        seat = phone_parts.give_back(game_id, game.next_number, phone)
        if seat is not None:
            change.show(game_id)
    return seat


class Recorded(rules.RuleError):
    """A part sent for a hand recorded already: `said` is the hand as recorded."""

    def __init__(self, number: int, word: str, said: str):
        super().__init__(rules.Word("%(round)s %(number)s was recorded already: %(said)s"),
                         "number", round=word, number=number, said=said)
        self.number, self.said = number, said


@dataclass(frozen=True)
class PartSent:
    """What sending a part did: the hand's parts gathered as they stand now, and, when this
    part completed it, `saved`; `refused` says why the rules refuse the complete hand
    (nothing recorded: a part must change)."""

    gathered: Gathered
    saved: Saved | None = None
    refused: str | None = None


def part_code(part: Part) -> str:
    """Return a part in a few characters ("out", "c3k1", "d0,1,-1,0,1"), as kept in `was`."""
    if part.deal is not None:
        return "d" + ",".join(str(s) for s in part.deal)
    return "out" if part.went_out else f"c{part.cards}k{part.kings}"


def _check_part(game: Loaded, number: int, part: Part) -> None:
    """Refuse a part that cannot be one of this hand's, naming its field."""
    count = len(game.players)
    if not 0 <= part.seat < count:
        raise rules.RuleError("there is no player at seat %(seat)s", "seat",
                              seat=repr(str(part.seat)))
    home = variants.get(game.variant)
    if game.players[part.seat] in home.sitting_out(game, number):
        raise rules.RuleError("%(name)s sits this hand out", "seat",
                              name=game.players[part.seat])
    if home.part_kind == "deal":
        if part.deal is None or len(part.deal) != 5 or any(
                s != NOBODY and not 0 <= s < count for s in part.deal):
            raise rules.RuleError("tap who crowned each corner and who slew the dragon",
                                  "deal")
    elif not part.went_out:
        check_int(part.cards, "cards", 1, 52, what=rules.Word("a whole number of cards"))
        check_int(part.kings, "kings", 0, min(4, part.cards or 0),
                  what=rules.Word("a whole number of kings"))


def send_part(game_id: int, number: int, part: Part, by_seat: int | None,
              by_label: str) -> PartSent:
    """Store one player's part of hand `number`; when it completes the hand and the parts
    agree, record the hand through the rules, as a hand entered on one phone is, once."""
    with changing(game_id) as change:
        game = _game(game_id)
        home = variants.get(game.variant)
        if number < 1:
            raise rules.RuleError("there is no %(round)s %(number)s", "number",
                                  round=home.word(), number=number)
        if number < game.next_number:
            rnd = game.core.rounds[number - 1]
            raise Recorded(number, home.word(), home.describe(game.players, rnd))
        if game.result.over:
            raise rules.RuleError("the game is over; reopen it to play on", "number")
        if number != game.next_number:
            raise rules.RuleError("there is no %(round)s %(number)s yet", "number",
                                  round=home.word(), number=number)
        _check_part(game, number, part)
        before = phone_parts.parts_of(game_id, number).get(part.seat)
        changed = phone_parts.put_part(game_id, number, part, by_seat, by_label,
                                 part_code(before.part) if before else "")
        if changed:
            change.show(game_id)
        sent = phone_parts.parts_of(game_id, number)
        gathered = gather(game, number, {seat: s.part for seat, s in sent.items()})
        if not gathered.complete:
            return PartSent(gathered)
        form = home.parts_form(game, number, gathered)
        entry, errors = read_round(game, number, form)
        if errors:
            return PartSent(gathered, refused=next(iter(errors.by_input.values())))
        try:
            writer.record_round(game, number, entry, None)
        except rules.RuleError as error:
            if isinstance(error, writer.Conflict):
                raise
            return PartSent(gathered, refused=capital(reason(error)))
        change.games(game_id)  # entered by its parts, which stay: they say how
        saved = Saved(game_id, number, home.word())
    return PartSent(gathered, saved)


def gather(game: Loaded, number: int, sent: dict[int, Part]) -> Gathered:
    """Return what the parts sent make of hand `number` so far."""
    home = variants.get(game.variant)
    out = home.sitting_out(game, number)
    playing = [seat for seat, name in enumerate(game.players) if name not in out]
    if home.part_kind == "deal":
        return gather_deal(playing, sent)
    return gather_hand(playing, sent)
