"""Seats taken by phones, and the parts of the hand in progress each phone sent."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, delete, select, update

from ..extensions import db
from ..rules.parts import Part
from .models import HandPart, SeatPhone, Setting, table_time


@dataclass(frozen=True)
class Sent:
    """A part as stored: the part, which phone sent it (`by_seat`, `by_label`), and what it
    said before another phone changed it (`was`)."""

    part: Part
    by_seat: int | None
    by_label: str
    was: str | None


# Read as plain rows (statements built once): every game page asks, and the ORM's objects
# cost more than the rows they hold. Through the session, so a part just put is seen.
_PARTS = select(*HandPart.__table__.c).where(HandPart.game_id == bindparam("game"),
                                             HandPart.number.in_(bindparam("numbers",
                                                                           expanding=True)))
_HOLDERS = select(*SeatPhone.__table__.c).where(SeatPhone.game_id == bindparam("game"))


def _part(row: HandPart) -> Part:
    return Part(row.seat, row.went_out, row.cards, row.kings,
                tuple(row.deal) if row.deal is not None else None)


def parts_of(game_id: int, number: int) -> dict[int, Sent]:
    """Return the parts sent for hand `number`, by seat."""
    return parts_of_hands(game_id, (number,)).get(number, {})


def parts_of_hands(game_id: int, numbers) -> dict[int, dict[int, Sent]]:
    """Return the parts sent for these hands, by hand number, then by seat (one query)."""
    rows = db.session.execute(_PARTS, {"game": game_id, "numbers": list(numbers)}).all()
    found: dict[int, dict[int, Sent]] = {}
    for row in rows:
        found.setdefault(row.number, {})[row.seat] = Sent(_part(row), row.by_seat,
                                                          row.by_label, row.was)
    return found


def put_part(game_id: int, number: int, part: Part, by_seat: int | None, by_label: str,
             said: str) -> bool:
    """Store a seat's part of hand `number`, replacing what it said before; `said` is the
    part in words, kept as `was` when another phone changes it. Return whether anything
    changed (the same part sent twice changes nothing)."""
    row = db.session.scalars(select(HandPart).where(
        HandPart.game_id == game_id, HandPart.number == number,
        HandPart.seat == part.seat)).first()
    deal = list(part.deal) if part.deal is not None else None
    if row is None:
        db.session.add(HandPart(game_id=game_id, number=number, seat=part.seat,
                                went_out=part.went_out, cards=part.cards, kings=part.kings,
                                deal=deal, by_seat=by_seat, by_label=by_label))
        return True
    if _part(row) == part:
        return False
    row.was = said if row.by_seat != by_seat else row.was
    row.went_out, row.cards, row.kings, row.deal = part.went_out, part.cards, part.kings, deal
    row.by_seat, row.by_label = by_seat, by_label
    return True


def drop(game_id: int, number: int | None = None) -> None:
    """Forget the parts of hand `number` (of every hand when None): the hand was entered,
    changed or deleted another way, so they no longer say how it was entered."""
    query = delete(HandPart).where(HandPart.game_id == game_id)
    if number is not None:
        query = query.where(HandPart.number == number)
    db.session.execute(query)


def holders(game_id: int) -> dict[int, SeatPhone]:
    """Return the phones holding seats of a game, by seat (rows with SeatPhone's columns)."""
    return {row.seat: row for row in
            db.session.execute(_HOLDERS, {"game": game_id}).all()}


def seat_of(game_id: int, phone: str | None) -> int | None:
    """Return the seat this phone holds in a game, or None."""
    if not phone:
        return None
    return db.session.scalar(select(SeatPhone.seat).where(SeatPhone.game_id == game_id,
                                                          SeatPhone.phone == phone))


def _moved(game_id: int, number: int, seat: int | None, to: int | None) -> None:
    """Say that the parts of hand `number` this phone sent from `seat` came from its seat
    now, `to` (None: a phone without one): a phone that moves on does not leave its parts
    looking like the player's own."""
    if seat is not None and seat != to:
        db.session.execute(update(HandPart).where(
            HandPart.game_id == game_id, HandPart.number == number,
            HandPart.by_seat == seat).values(by_seat=to))


def take(game_id: int, number: int, seat: int, phone: str, label: str) -> None:
    """Give a seat to this phone, from any phone that had it, and free the seat this phone
    held before in the game (the parts of hand `number` it sent from there say so)."""
    _moved(game_id, number, seat_of(game_id, phone), seat)
    db.session.execute(delete(SeatPhone).where(
        SeatPhone.game_id == game_id,
        (SeatPhone.seat == seat) | (SeatPhone.phone == phone)))
    db.session.flush()
    db.session.add(SeatPhone(game_id=game_id, seat=seat, phone=phone, label=label,
                             taken_at=table_time()))


def give_back(game_id: int, number: int, phone: str) -> int | None:
    """Free the seat this phone holds in a game; return it (None when it held none). The
    parts of hand `number` it sent from there say they came from a phone without a seat."""
    seat = seat_of(game_id, phone)
    _moved(game_id, number, seat, None)
    if seat is not None:
        db.session.execute(delete(SeatPhone).where(SeatPhone.game_id == game_id,
                                                   SeatPhone.phone == phone))
    return seat


def _salt_name(game_id: int) -> str:
    return f"join-code:{game_id}"


def join_salt(game_id: int) -> str | None:
    """Return what makes a game's join code new (None: the table never asked for one)."""
    return db.session.scalar(select(Setting.value).where(Setting.name == _salt_name(game_id)))


def new_join_salt(game_id: int, salt: str) -> None:
    """Keep a new salt for a game's join code: the code it had before seats no one."""
    row = db.session.get(Setting, _salt_name(game_id))
    if row is None:
        db.session.add(Setting(name=_salt_name(game_id), value=salt))
    else:
        row.value = salt


def carry_seats(from_game: int, to_game: int) -> None:
    """Give each phone the same seat in `to_game` (a rematch: the same seats) that it held
    in `from_game`."""
    for row in holders(from_game).values():
        db.session.add(SeatPhone(game_id=to_game, seat=row.seat, phone=row.phone,
                                 label=row.label, taken_at=table_time()))
