"""Between storage and the rules: build the core's Game from rows, save what was entered."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from . import nights, rules
from .extensions import db
from .models import Event, Game, HandEntry, Night, Player, Round, Seat, table_time

NAME_MAX = 40
JOINERS = {"\u200c", "\u200d"}  # format characters inside emoji (👩‍🚀) and some scripts' words
NIGHT_GAP = nights.NIGHT_GAP


class Conflict(rules.RuleError):
    """The game moved on since the form was opened (another phone saved first)."""


def clean_name(raw: Any, field: str = "players") -> str:
    """Return a player's name trimmed and normalised, or raise RuleError naming the field."""
    if not isinstance(raw, str):
        raise rules.RuleError("a name must be text", field)
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise rules.RuleError("a name cannot be empty", field)
    # The key folds case ("ß" -> "ss"), and it must fit its column too.
    if len(name) > NAME_MAX or len(name.casefold()) > NAME_MAX:
        raise rules.RuleError(f"a name can be at most {NAME_MAX} characters", field)
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch not in JOINERS:
            raise rules.RuleError(
                f"a name cannot hold U+{ord(ch):04X}, a character that cannot be shown", field)
    return name


def name_key(name: str) -> str:
    """Return the key two names share when they differ only by case or spacing."""
    return clean_name(name).casefold()


def find_player(name: str) -> Player | None:
    """Return the roster player with this name, whatever its case."""
    return db.session.scalar(select(Player).where(Player.name_key == name_key(name)))


def player_for(name: str) -> Player:
    """Return the roster player with this name, adding them to the roster if new."""
    player = find_player(name)
    if player is None:
        player = Player(name=clean_name(name), name_key=name_key(name))
        db.session.add(player)
        db.session.flush()
    return player


def core_round(row: Round, names: dict[int, str], events: Iterable[Event] = ()) -> rules.Round:
    """Return the rules' view of a stored round."""
    return rules.Round(
        went_out=names.get(row.went_out_id) if row.went_out_id else None,
        hands={names[h.player_id]: rules.Hand(h.cards, h.kings) for h in row.hands},
        events=tuple(rules.Event(names[e.player_id], e.kind) for e in events),
        corners=tuple(names.get(pid) if pid else None for pid in (row.corners or ())),
        dragon=names.get(row.dragon_id) if row.dragon_id else None,
    )


def events_by_hand(game: Game) -> dict[int, list[Event]]:
    """Return the game's events grouped by hand number, in the order they happened."""
    grouped: dict[int, list[Event]] = {}
    for event in game.events:
        grouped.setdefault(event.hand_number, []).append(event)
    return grouped


def core_game(game: Game, rounds: list[rules.Round] | None = None,
              ended: bool | None = None) -> rules.Game:
    """Return the rules' view of a stored game, optionally with other rounds or end state."""
    names = {seat.player_id: seat.player.name for seat in game.seats}
    if rounds is None:
        events = events_by_hand(game)
        rounds = [core_round(r, names, events.get(r.number, ())) for r in game.rounds]
    players = tuple(seat.player.name for seat in game.seats)
    return rules.Game(
        variant=game.variant, players=players, first_dealer=players[game.first_dealer_seat],
        settings=game.settings, rounds=tuple(rounds),
        ended=game.ended if ended is None else ended)


def result(game: Game) -> rules.GameResult:
    """Compute where a stored game stands."""
    return rules.play(core_game(game))


def create_game(variant: str, settings: dict[str, Any], names: list[str], first_dealer_seat: int,
                played_on: date | None = None) -> Game:
    """Check and add a new game with its players seated in order; return it (not committed)."""
    spec = rules.get_variant(variant)
    resolved = spec.resolve_settings(settings)
    cleaned = [clean_name(name, f"players[{i}]") for i, name in enumerate(names)]
    if not 0 <= first_dealer_seat < max(len(cleaned), 1):
        raise rules.RuleError("the first dealer must be one of the players", "first_dealer")
    rules.play(rules.Game(variant, tuple(cleaned), cleaned[first_dealer_seat]
                          if cleaned else "", resolved))
    game = Game(variant=variant, settings=resolved, first_dealer_seat=first_dealer_seat,
                played_on=played_on or table_time().date())
    for seat, name in enumerate(cleaned):
        game.seats.append(Seat(seat=seat, player=player_for(name)))
    game.night = night_for(table_time(), game.played_on)
    db.session.add(game)
    db.session.flush()
    return game


def night_for(when: datetime, played_on: date | None = None) -> Night:
    """Return the night a game started at `when` joins (see nights.night_for)."""
    return nights.night_for(when, played_on)


def ids_by_name(game: Game) -> dict[str, int]:
    """Return each seated player's id by name."""
    return {seat.player.name: seat.player_id for seat in game.seats}


def _fill(row: Round, ids: dict[str, int], entry: rules.Round) -> None:
    """Copy what was entered into a stored round."""
    row.went_out_id = ids[entry.went_out] if entry.went_out else None
    row.corners = [ids[name] if name else None for name in entry.corners] or None
    row.dragon_id = ids[entry.dragon] if entry.dragon else None
    # Reuse a player's row: a new one would be inserted before the old one is deleted,
    # and (round, player) is unique.
    old = {hand_row.player_id: hand_row for hand_row in row.hands}
    hands = []
    for name, hand in entry.hands.items():
        if name != entry.went_out or hand.cards:
            hand_row = old.get(ids[name]) or HandEntry(player_id=ids[name])
            hand_row.cards, hand_row.kings = hand.cards, hand.kings
            hands.append(hand_row)
    row.hands = hands


def with_events(game: Game, number: int, entry: rules.Round) -> rules.Round:
    """Return `entry` carrying the events already stored for hand `number`."""
    names = {seat.player_id: seat.player.name for seat in game.seats}
    events = events_by_hand(game).get(number, ())
    return rules.Round(entry.went_out, entry.hands,
                       tuple(rules.Event(names[e.player_id], e.kind) for e in events),
                       entry.corners, entry.dragon)


def round_with_token(token: str | None) -> Round | None:
    """Return the round a record-hand form with this once-only token saved, if any."""
    return db.session.scalar(select(Round).where(Round.token == token)) if token else None


def record_round(game: Game, number: int, entry: rules.Round, token: str | None) -> Round:
    """Check and store the next round; a token seen before returns the round it saved."""
    seen = round_with_token(token)
    if seen is not None:
        return seen
    if game.ended:
        raise Conflict("this game was ended; reopen it to record another hand", "number")
    if number != len(game.rounds) + 1:
        raise Conflict(f"hand {number} has been recorded already (from another phone?): "
                       "check the scoreboard", "number")
    entry = with_events(game, number, entry)
    current = core_game(game)
    rules.play(core_game(game, list(current.rounds) + [entry]))
    row = Round(number=number, token=token or None)
    _fill(row, ids_by_name(game), entry)
    game.rounds.append(row)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(f"hand {number} has been recorded already (from another phone?): "
                       "check the scoreboard", "number") from None
    return row


def edit_round(game: Game, number: int, entry: rules.Round) -> Round:
    """Check and store a changed past round; totals after it are recomputed when read."""
    rows = {r.number: r for r in game.rounds}
    if number not in rows:
        raise Conflict(f"there is no hand {number} in this game", "number")
    entry = with_events(game, number, entry)
    rounds = list(core_game(game).rounds)
    rounds[number - 1] = entry
    rules.play(core_game(game, rounds))
    _fill(rows[number], ids_by_name(game), entry)
    return rows[number]


def delete_last_round(game: Game) -> int | None:
    """Delete the last round and its events; return its number, or None if there was none."""
    if not game.rounds:
        return None
    row = game.rounds[-1]
    number = row.number
    # Taps of the hand after it go too: they would otherwise land in the re-entered hand.
    for event in [e for e in game.events if e.hand_number >= number]:
        game.events.remove(event)
    game.rounds.remove(row)
    return number


def import_game(game_log: rules.Game, played_on: date | None) -> Game:
    """Store a checked game log as a new game; return it (not committed)."""
    game = create_game(game_log.variant, dict(game_log.settings), list(game_log.players),
                       game_log.players.index(game_log.first_dealer), played_on)
    game.ended = game_log.ended
    # Seat by seat: a roster name may differ in case from the one in the document.
    ids = {name: seat.player_id for name, seat in zip(game_log.players, game.seats)}
    for number, rnd in enumerate(game_log.rounds, start=1):
        row = Round(number=number)
        _fill(row, ids, rnd)
        game.rounds.append(row)
        for seq, event in enumerate(rnd.events):
            game.events.append(Event(hand_number=number, seq=seq, player_id=ids[event.player],
                                     kind=event.kind))
    db.session.flush()
    return game
