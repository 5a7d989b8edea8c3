"""The one writer: new games, rounds and events, for recording, editing, import and restore.

Every write is checked by the rules first, on the game as it would stand after it, so
nothing the rules refuse is ever stored. It writes what was entered, nothing derived from it:
the unit of work (play.changing) keeps the results, ratings, parts and change stamp.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from .. import rules
from ..extensions import db
from ..rules import Word
from ..rules.seats import rematch_dealer
from . import nights
from .models import Event, Game, HandEntry, Night, Player, Round, Seat, Setting, table_time
from .reader import Loaded, Tap
from .roster import clean_name, player_for


class Conflict(rules.RuleError):
    """The game moved on since the form was opened (another phone saved first)."""


class Taken(Conflict):
    """The round a form was for was recorded meanwhile (on another phone)."""

    def __init__(self, number: int):
        super().__init__(Word("hand %(number)s has been recorded already (from another "
                              "phone?): check the scoreboard"), "number", number=number)
        self.number = number


class Changed(Conflict):
    """The round a correction was for was changed since the form was opened."""

    def __init__(self, number: int):
        super().__init__(Word("hand %(number)s was changed since this form was opened (on "
                              "another phone?)"), "number", number=number)
        self.number = number


def fingerprint(rnd: rules.Round, players: Sequence[str]) -> str:
    """Return a short digest of what a round holds, to tell whether it changed since.

    Players are named by seat, so renaming one does not look like a change of the round.
    """
    def seat(name: str | None) -> int | None:
        return None if name is None else players.index(name)

    held = sorted((seat(name), hand.cards, hand.kings) for name, hand in rnd.hands.items())
    said = json.dumps([seat(rnd.went_out), held, [(seat(e.player), e.kind) for e in rnd.events],
                       [seat(name) for name in rnd.corners], seat(rnd.dragon)])
    return hashlib.sha1(said.encode()).hexdigest()[:16]


def _hands(entry: rules.Round, ids: Mapping[str, int],
           old: Mapping[int, HandEntry] | None = None) -> list[HandEntry]:
    """Return the rows of what each player held; the one who went out with nothing is left out."""
    rows = []
    for name, hand in entry.hands.items():
        if name != entry.went_out or hand.cards:
            # Reuse a player's row: a new one would be inserted before the old one is
            # deleted, and (round, player) is unique.
            row = (old or {}).get(ids[name]) or HandEntry(player_id=ids[name])
            row.cards, row.kings = hand.cards, hand.kings
            rows.append(row)
    return rows


def _fill(row: Round, entry: rules.Round, ids: Mapping[str, int]) -> Round:
    """Copy what was entered into a stored round."""
    row.went_out_id = ids[entry.went_out] if entry.went_out else None
    row.corners = [ids[name] if name else None for name in entry.corners] or None
    row.dragon_id = ids[entry.dragon] if entry.dragon else None
    row.hands = _hands(entry, ids, {h.player_id: h for h in row.hands})
    return row


@dataclass(frozen=True)
class NewGame:
    """A checked game to store whole (see `add_games`): its seats, rounds and events, the
    hand in progress (`waiting`) and the time each round was recorded."""

    core: rules.Game
    players: Sequence[Player]
    played_on: date
    night: Night | None
    created_at: datetime | None = None
    recorded_at: Sequence[datetime] = ()
    waiting: Sequence[rules.Event] = ()


def add_game(core: rules.Game, players: Sequence[Player], *, played_on: date, night: Night | None,
             created_at: datetime | None = None, recorded_at: Sequence[datetime] = (),
             waiting: Sequence[rules.Event] = (), deleted: int | None | bool = True) -> int:
    """Store a checked game whole; return its id (see `add_games`)."""
    return add_games([NewGame(core, players, played_on, night, created_at, recorded_at,
                              waiting)], deleted=deleted)[0]


def add_games(games: Sequence[NewGame], *, deleted: int | None | bool = True) -> list[int]:
    """Store checked games whole: seats, rounds with their events and the hand in progress;
    return their ids, in order.

    Written as table rows (no object per row, nor the ORM's bulk path: a statement costs
    several times more through it), a statement a table for all the games' seats, rounds,
    hands and events; the games themselves one statement each on SQLite, which
    cannot promise RETURNING's order for many rows (their ids are needed first). A restore
    adds thousands of games this way, ten nights at a time, and reads `highest_deleted()`
    once for all of them (`deleted`; True: read it here).
    """
    if not games:
        return []
    if any(new.night is not None and new.night.id is None for new in games):
        db.session.flush()  # nights just made: their ids
    session = db.session
    given_id = _new_game_id(highest_deleted() if deleted is True else deleted)
    made = [_made(new) for new in games]
    rows = [row for row, _, _ in made]
    game_ids: list[int] = []
    if given_id:  # the first game's number is given: a statement of its own
        game_ids.append(session.execute(insert(Game.__table__).returning(Game.__table__.c.id),
                                        [{**given_id, **rows[0]}]).scalar_one())
        rows = rows[1:]
    if rows:
        game_ids += session.execute(
            insert(Game.__table__).returning(Game.__table__.c.id, sort_by_parameter_order=True),
            rows).scalars().all()
    seats = [{"game_id": game_id, "seat": i, "player_id": p.id}
             for game_id, new in zip(game_ids, games) for i, p in enumerate(new.players)]
    if seats:
        session.execute(insert(Seat.__table__), seats)
    rounds = [{"game_id": game_id, "number": number, "created_at": at, "updated_at": at,
               "went_out_id": ids[rnd.went_out] if rnd.went_out else None,
               "corners": [ids[name] if name else None for name in rnd.corners] or None,
               "dragon_id": ids[rnd.dragon] if rnd.dragon else None}
              for game_id, new, (_, times, ids) in zip(game_ids, games, made)
              for number, (rnd, at) in enumerate(zip(new.core.rounds, times), start=1)]
    if rounds:
        # Inserted without RETURNING, and their ids read back by game and number: SQLite
        # cannot promise RETURNING's order for many rows, so SQLAlchemy would insert them
        # one statement a row (42,000 for ten years).
        session.execute(insert(Round.__table__), rounds)
        table = Round.__table__.c
        round_ids = dict(((game_id, number), round_id) for round_id, game_id, number in
                         session.execute(select(table.id, table.game_id, table.number)
                                         .where(table.game_id.in_(game_ids))))
        # What each player held; the one who went out with nothing is left out.
        hands = [{"round_id": round_ids[game_id, number], "player_id": ids[name],
                  "cards": hand.cards, "kings": hand.kings}
                 for game_id, new, (_, _, ids) in zip(game_ids, games, made)
                 for number, rnd in enumerate(new.core.rounds, start=1)
                 for name, hand in rnd.hands.items() if name != rnd.went_out or hand.cards]
        if hands:
            session.execute(insert(HandEntry.__table__), hands)
    events = [{"game_id": game_id, "hand_number": number, "seq": seq,
               "player_id": ids[e.player], "kind": e.kind}
              for game_id, new, (_, _, ids) in zip(game_ids, games, made)
              for number, happened in enumerate(
                  [*(r.events for r in new.core.rounds), new.waiting], start=1)
              for seq, e in enumerate(happened)]
    if events:
        session.execute(insert(Event.__table__), events)
    return game_ids


def _made(new: NewGame) -> tuple[dict[str, Any], list[datetime], dict[str, int]]:
    """Return a new game's own row (its id is the database's to give), when each of its
    rounds was recorded (as given, else when the game was made), and each player's id by
    the name the game knows them by."""
    core = new.core
    created = new.created_at or table_time()
    times = [new.recorded_at[n] if new.recorded_at else created
             for n in range(len(core.rounds))]
    row = {"variant": core.variant, "settings": dict(core.settings), "ended": core.ended,
           "first_dealer_seat": core.players.index(core.first_dealer) if core.players else 0,
           "night_id": new.night.id if new.night is not None else None,
           "played_on": new.played_on, "created_at": created,
           # The last change the game knows of; "recent games" lists go by it.
           "updated_at": max([created, *times])}
    return row, times, {name: player.id for name, player in zip(core.players, new.players)}


def create_game(variant: str, settings: dict[str, Any], names: list[str], first_dealer_seat: int,
                played_on: date | None = None, rounds: Sequence[rules.Round] = (),
                ended: bool = False, night: Night | None = None) -> Game:
    """Check and add a new game (or an imported one) to tonight's night, or to `night`
    (a table of a crowd night); not committed."""
    spec = rules.get_variant(variant)
    resolved = spec.resolve_settings(settings)
    cleaned = [clean_name(name, f"players[{i}]") for i, name in enumerate(names)]
    if not 0 <= first_dealer_seat < max(len(cleaned), 1):
        raise rules.RuleError("the first dealer must be one of the players", "first_dealer")
    core = rules.Game(variant, tuple(cleaned), cleaned[first_dealer_seat] if cleaned else "",
                      resolved, tuple(rounds), ended)
    rules.play(core)  # refused by the rules: nothing is written
    # Seat by seat: a roster name may differ in case from the one typed.
    players = [player_for(name) for name in cleaned]
    now = table_time()
    played_on = played_on or now.date()
    game_id = add_game(core, players, played_on=played_on,
                       night=night or nights.night_for(now, played_on))
    return db.session.get(Game, game_id)


def rematch(game: Loaded) -> tuple[Game, bool]:
    """Start a rematch of a game: the same seats and rules, the deal passed on; not committed.

    Return (the game, True), or (the rematch started already, False) when there is one not
    yet played, started since this game last changed: a second tap, or another phone's,
    opens that one instead of starting a second. The caller holds this game's write lock.
    """
    last = game.result.rounds[-1].dealer if game.result.rounds else None
    seat = game.players.index(rematch_dealer(game.players, game.core.first_dealer, last))
    started = db.session.scalars(
        select(Game).where(Game.id > game.id, Game.variant == game.variant,
                           Game.first_dealer_seat == seat, Game.created_at >= game.updated_at,
                           ~Game.rounds.any(), ~Game.events.any())
        .options(selectinload(Game.seats)).order_by(Game.id))
    for other in started:
        if ([row.player_id for row in other.seats] == list(game.player_ids)
                and other.settings == game.settings and not other.ended):
            return other, False
    return create_game(game.variant, dict(game.settings), list(game.players), seat), True


TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what the pages and chips.js make


def once_only(token: str | None) -> str | None:
    """Return a form's once-only token, or None for one the app never makes (too long, a
    NUL byte...): such a form is saved as one without a token, never answered with a 500."""
    return token if isinstance(token, str) and TOKEN.fullmatch(token) else None


def round_with_token(token: str | None) -> Round | None:
    """Return the round a record-hand form with this once-only token saved, if any."""
    token = once_only(token)
    return db.session.scalar(select(Round).where(Round.token == token)) if token else None


def record_round(game: Loaded, number: int, entry: rules.Round, token: str | None) -> Round:
    """Check and store the next round; a token seen before returns the round it saved."""
    token = once_only(token)
    seen = round_with_token(token)
    if seen is not None:
        return seen
    if game.ended:
        raise Conflict("this game was ended; reopen it to record another hand", "number")
    if number != game.next_number:
        raise Taken(number)
    entry = rules.Round(entry.went_out, entry.hands, game.waiting_events(), entry.corners,
                        entry.dragon)
    after = game.with_rounds(game.core.rounds + (entry,))
    rules.play(after)  # the rules check the hand on the game as it would stand
    row = _fill(Round(game_id=game.id, number=number, token=token or None, hands=[]), entry,
                game.ids)
    db.session.add(row)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise Taken(number) from None
    return row


def edit_round(game: Loaded, number: int, entry: rules.Round, was: str | None = None) -> Round:
    """Check and store a changed past round; totals after it are recomputed when read.

    `was` is the round's fingerprint when the correction was opened: a round changed since
    (on another phone) is not overwritten blindly.
    """
    if not 1 <= number < game.next_number:
        raise Conflict("there is no hand %(number)s in this game", "number", number=number)
    if was and was != fingerprint(game.core.rounds[number - 1], game.players):
        raise Changed(number)
    rounds = list(game.core.rounds)
    entry = rules.Round(entry.went_out, entry.hands, rounds[number - 1].events, entry.corners,
                        entry.dragon)
    rounds[number - 1] = entry
    rules.play(game.with_rounds(rounds))
    row = db.session.scalar(select(Round).where(Round.game_id == game.id, Round.number == number)
                            .options(selectinload(Round.hands)))
    _fill(row, entry, game.ids)
    row.updated_at = table_time()
    return row


def delete_last_round(game: Loaded, keep_taps: bool = False) -> int | None:
    """Delete the last round and its events; return its number, or None if there was none.

    `keep_taps` keeps the round's own events: they are the hand in progress again (an undo).
    """
    number = len(game.core.rounds)
    if not number:
        return None
    row = db.session.scalar(select(Round).where(Round.game_id == game.id, Round.number == number))
    db.session.delete(row)
    # Taps of the hand after it go too: they would otherwise land in the re-entered hand.
    db.session.execute(delete(Event).where(Event.game_id == game.id,
                                           Event.hand_number >= number + keep_taps))
    return number


def undo_round(game: Loaded, number: int, token: str | None, word: str = "hand") -> int:
    """Take back round `number`, just saved by the record form with this once-only token,
    only while it is still the game's last round; return its number.

    Its taps (chips) go back to the hand in progress, to be saved with it again. Checked
    inside the game's write lock, in the transaction that deletes: an undo that comes too
    late (another phone recorded the next round, or tapped in it) or twice (a double tap)
    raises Conflict saying why, and changes nothing.
    """
    played = len(game.core.rounds)
    token = once_only(token)
    row = round_with_token(token) if token else None
    if row is None or row.game_id != game.id or row.number != number:
        if number > played:
            raise Conflict("%(round)s %(number)s was undone already (or deleted on another "
                           "phone): nothing more was deleted", "number", round=Word(word),
                           number=number)
        raise Conflict("%(round)s %(number)s was deleted and recorded again since (on another "
                       "phone?), so nothing was undone", "number", round=Word(word),
                       number=number)
    if number != played:
        raise Conflict("%(round)s %(number)s is no longer the last: %(round)s %(played)s was "
                       "recorded since (on another phone?), so nothing was undone", "number",
                       round=Word(word), number=number, played=played)
    if game.waiting:
        raise Conflict("a tap was saved in %(round)s %(next)s since (on another phone?), so "
                       "%(round)s %(number)s was not undone: undo the tap first, or correct "
                       "%(round)s %(number)s with ✎", "number", round=Word(word),
                       number=number, next=number + 1)
    delete_last_round(game, keep_taps=True)
    return number


def set_ended(game: Loaded, ended: bool) -> None:
    """End a game by hand (the best totals win now), or undo that."""
    db.session.execute(update(Game).where(Game.id == game.id).values(ended=ended))


HIGHEST_GAME = "highest_game"  # the setting that keeps the highest game number deleted


def delete_game(game: Loaded) -> None:
    """Delete a game with every hand in it; its number is kept, so
    it is never given to another game (see `_new_game_id`)."""
    row = db.session.get(Setting, HIGHEST_GAME)
    if row is None:
        db.session.add(Setting(name=HIGHEST_GAME, value=str(game.id)))
    elif int(row.value) < game.id:
        row.value = str(game.id)
    db.session.delete(db.session.get(Game, game.id))
    db.session.flush()


def highest_deleted() -> int | None:
    """Return the highest number a deleted game had, if it matters here (SQLite), else None.

    SQLite gives a table's highest id plus one, so deleting the newest game would hand its
    number, and an old link or QR code to it, to the next game; PostgreSQL's sequence never
    goes back.
    """
    if db.session.get_bind().dialect.name != "sqlite":
        return None
    deleted = db.session.scalar(select(Setting.value).where(Setting.name == HIGHEST_GAME))
    return None if deleted is None else int(deleted)


def _new_game_id(deleted: int | None) -> dict[str, int]:
    """Return the id to give a new game, where the database would give a deleted one's
    (`deleted`: see `highest_deleted`): one past the highest number ever given."""
    if deleted is None:
        return {}
    highest = db.session.scalar(select(func.max(Game.id))) or 0
    return {"id": max(highest, deleted) + 1}


def _check_number(game: Loaded, number: int) -> None:
    """Refuse a tap meant for a hand that is no longer the one in progress."""
    if number != game.next_number:
        raise Conflict("hand %(number)s is not being played now (hand %(next)s is, saved "
                       "from another phone?), so this tap was not recorded", "number",
                       number=number, next=game.next_number)


def event_with_token(token: str | None) -> Event | None:
    """Return the event a tap with this once-only token saved, if any."""
    token = once_only(token)
    return db.session.scalar(select(Event).where(Event.token == token)) if token else None


def add_tap(game: Loaded, number: int, player: str, kind: str, token: str | None) -> Event:
    """Check and store one event of the hand in progress; a token seen before changes nothing."""
    token = once_only(token)
    seen = event_with_token(token)
    if seen is not None:
        return seen
    _check_number(game, number)
    events = game.waiting_events() + (rules.Event(player, kind),)
    try:
        rules.get_variant(game.variant).live(game.core, events)
    except rules.RuleError as error:
        field = (error.field or "").split(".")[-1]
        error.field = field if field in ("kind", "player") else "events"
        raise error.at_round(number) from None
    seq = db.session.scalar(select(Event.seq).where(Event.game_id == game.id,
                                                    Event.hand_number == number)
                            .order_by(Event.seq.desc()).limit(1))
    row = Event(game_id=game.id, hand_number=number, seq=0 if seq is None else seq + 1,
                player_id=game.ids[player], kind=kind, token=token or None)
    db.session.add(row)
    db.session.flush()
    return row


def undo_tap(game: Loaded, number: int, event_id: int | None) -> Tap | None:
    """Remove the last event of the hand in progress; None when it was undone already.

    `event_id` is the event the undo button showed, so a double tap undoes only one.
    """
    _check_number(game, number)
    taps = game.waiting
    if not taps or (event_id is not None and all(tap.id != event_id for tap in taps)):
        return None
    last = taps[-1]
    if event_id is not None and last.id != event_id:
        raise Conflict("someone tapped since (another phone?), so nothing was undone: "
                       "check the last tap and undo again", "undo")
    db.session.execute(delete(Event).where(Event.id == last.id))
    return last
