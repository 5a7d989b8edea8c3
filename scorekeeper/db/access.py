"""Who may change things, as stored: the table passcode's hash, each unlocked phone's key,
and the wrong guesses of late.

The passcode is kept hashed (werkzeug's scrypt) in `setting`, each phone's key as its digest
in `unlocked_phone`, the wrong guesses in `guess`; none is part of a backup. Nothing here
commits: play.py does.
"""

from __future__ import annotations

import threading
import unicodedata
from datetime import datetime

from sqlalchemy import delete, func, select
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from ..rules import RuleError
from .models import Guess, Setting, UnlockedPhone

NAME = "passcode"  # its row in `setting`
SHORTEST, LONGEST = 4, 64
_HASHING = threading.BoundedSemaphore(1)  # one scrypt at a time: it takes a core for 0.1 s+


def clean(text: str | None, field: str = "passcode") -> str:
    """Return a passcode as typed, trimmed and in one Unicode spelling, or refuse it."""
    text = unicodedata.normalize("NFC", (text or "").strip())
    if len(text) < SHORTEST:
        raise RuleError("a passcode needs at least %(count)s characters", field,
                        count=SHORTEST)
    if len(text) > LONGEST:
        raise RuleError("a passcode can be at most %(count)s characters", field, count=LONGEST)
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise RuleError("a passcode cannot hold control characters", field)
    return text


def hashed(text: str | None) -> str:
    """Return the hash of a passcode (checked by `clean`); never called under a write lock."""
    cleaned = clean(text)
    with _HASHING:
        return generate_password_hash(cleaned)


def matches(hashed_passcode: str | None, text: str | None) -> bool:
    """Tell whether `text` is the passcode of this hash (None: there is no passcode)."""
    typed = unicodedata.normalize("NFC", (text or "").strip())
    if hashed_passcode is None or not typed or len(typed) > LONGEST:
        return False
    with _HASHING:
        return check_password_hash(hashed_passcode, typed)


def passcode() -> str | None:
    """Return the stored hash of the passcode, or None when the table has none."""
    return db.session.scalar(select(Setting.value).where(Setting.name == NAME))


def set_passcode(hashed_passcode: str) -> None:
    """Store a passcode's hash in place of any other, and forget every phone."""
    row = db.session.get(Setting, NAME)
    if row is None:
        db.session.add(Setting(name=NAME, value=hashed_passcode))
    else:
        row.value = hashed_passcode
    db.session.execute(delete(UnlockedPhone))


def clear_passcode() -> None:
    """Remove the passcode and every phone's key."""
    db.session.execute(delete(Setting).where(Setting.name == NAME))
    db.session.execute(delete(UnlockedPhone))


def phone(digest: str, now: datetime) -> UnlockedPhone | None:
    """Return the phone whose key has this digest, unless its key has expired."""
    return db.session.scalar(select(UnlockedPhone).where(UnlockedPhone.digest == digest,
                                                         UnlockedPhone.expires_at > now))


def phones(now: datetime) -> list[UnlockedPhone]:
    """Return the phones whose keys have not expired, the latest first."""
    return list(db.session.scalars(
        select(UnlockedPhone).where(UnlockedPhone.expires_at > now)
        .order_by(UnlockedPhone.created_at.desc(), UnlockedPhone.id.desc())))


def add_phone(digest: str, label: str, now: datetime, until: datetime) -> None:
    """Keep a phone's key (its digest) until `until`."""
    db.session.add(UnlockedPhone(digest=digest, created_at=now, expires_at=until, label=label))


def drop_phone(phone_id: int) -> None:
    """Forget a phone's key."""
    db.session.execute(delete(UnlockedPhone).where(UnlockedPhone.id == phone_id))


def _wait(times: list[float], limits, now: float) -> int:
    """Return the seconds until fewer than each limit's guesses are within its window."""
    for most, seconds in limits:
        recent = [t for t in times if t > now - seconds]
        if len(recent) >= most:
            return max(1, int(recent[0] + seconds - now + 0.999))
    return 0


def count_guess(address: str, now: float, limits, ceiling) -> tuple[int, bool]:
    """Count a guess from `address` at `now` (seconds); return (0, False), or the seconds to
    wait (nothing counted) and whether the whole table waits (`ceiling`) or this phone
    (`limits`). Each limit is (how many, in seconds); the caller holds the guesses' lock."""
    longest = max(seconds for _, seconds in (*limits, *ceiling))
    db.session.execute(delete(Guess).where(Guess.at <= now - longest))
    everyone = list(db.session.execute(select(Guess.address, Guess.at).order_by(Guess.at)))
    wait = _wait([at for by, at in everyone if by == address], limits, now)
    if wait:
        return wait, False
    wait = _wait([at for _, at in everyone], ceiling, now)
    if wait:
        return wait, True
    db.session.add(Guess(address=address, at=now))
    return 0, False


def uncount_guess(address: str) -> None:
    """Take back the last guess counted from `address`: it was right."""
    last = select(func.max(Guess.id)).where(Guess.address == address).scalar_subquery()
    db.session.execute(delete(Guess).where(Guess.id == last))
