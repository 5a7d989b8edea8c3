"""The use-cases of scorekeeper/play.py, called as the views and the commands call them."""

from __future__ import annotations

import io
import json
import sqlite3
from datetime import datetime, timedelta

import pytest
from werkzeug.security import generate_password_hash

from scorekeeper import play, rules
from scorekeeper.db import access, read_game
from scorekeeper.db.models import RatingStep
from scorekeeper.extensions import db
from scorekeeper.reports import backup, gamelog

# passcode, restore, import ---------------------------------------------------------------

PENALTY = {"format": "kings-corners-game/1", "variant": "penalty", "rules": {"target": 50},
           "players": ["Ann", "Ben", "Zoë"], "first_dealer": "Ben", "played_on": "2026-11-20",
           "ended": True,
           "rounds": [{"went_out": "Ben", "hands": {"Ann": {"cards": 3, "kings": 1},
                                                    "Zoë": {"cards": 5}}}]}
A_BACKUP = {"format": "kings-corners-backup/1", "roster": [
    {"name": name, "created_at": "2026-11-20T19:00:00"} for name in ("Ann", "Ben", "Zoë")],
    "nights": [{"name": "Friday", "notes": None, "started_at": "2026-11-20T19:00:00",
                "games": [{**PENALTY, "created_at": "2026-11-20T19:05:00",
                           "recorded_at": ["2026-11-20T19:20:00"]}]}]}


def unlocked_phones() -> int:
    """Return how many phones may change things now."""
    return len(access.phones(datetime.min))


def test_setting_the_passcode_says_whether_there_was_one_and_forgets_every_phone(app):
    with app.app_context():
        assert play.set_passcode("  four 4 Zoë ") is False
        assert access.matches(access.passcode(), "four 4 Zoë")
        play.remember_phone("a" * 64, "iPhone · Safari", timedelta(days=1))
        play.remember_phone("b" * 64, "Android · Chrome", timedelta(days=1))
        assert unlocked_phones() == 2
        assert play.set_passcode("another one") is True
        assert unlocked_phones() == 0  # every phone gives the new one
        assert not access.matches(access.passcode(), "four 4 Zoë")


def test_a_passcode_too_short_is_refused_naming_its_field_and_nothing_is_written(app):
    with app.app_context():
        with pytest.raises(rules.RuleError) as refused:
            play.set_passcode("abc")
        assert refused.value.field == "passcode" and "at least 4" in str(refused.value)
        assert access.passcode() is None


def test_a_passcode_is_hashed_while_other_phones_can_still_save(app, monkeypatch):
    """The hash takes a core for a tenth of a second: no write lock is held meanwhile."""
    saved = []

    def hash_as_another_phone_saves(text):
        other = sqlite3.connect(db.engine.url.database, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")  # "database is locked" if a change is under way
            other.rollback()
            saved.append(True)
        finally:
            other.close()
        return generate_password_hash(text, "pbkdf2:sha256:1000")

    monkeypatch.setattr(access, "generate_password_hash", hash_as_another_phone_saves)
    with app.app_context():
        play.set_passcode("four 4 Zoë")
        assert saved == [True] and access.matches(access.passcode(), "four 4 Zoë")


def test_clearing_the_passcode_lets_every_phone_change_things_again(app):
    with app.app_context():
        assert play.clear_passcode() is False  # there was none
        play.set_passcode("four 4 Zoë")
        play.remember_phone("a" * 64, "iPhone · Safari", timedelta(days=1))
        assert play.clear_passcode() is True
        assert access.passcode() is None and unlocked_phones() == 0


def test_a_phone_forgotten_must_give_the_passcode_again(app):
    with app.app_context():
        play.set_passcode("four 4 Zoë")
        play.remember_phone("a" * 64, "iPhone · Safari", timedelta(days=1))
        play.remember_phone("b" * 64, "Android · Chrome", timedelta(days=1))
        lost = access.phone("a" * 64, datetime.min)
        play.forget_phone(lost.id)
        assert access.phone("a" * 64, datetime.min) is None
        assert [p.label for p in access.phones(datetime.min)] == ["Android · Chrome"]


def test_an_imported_game_is_stored_finished_and_rated(app):
    with app.app_context():
        game_id = play.import_game(gamelog.parse(PENALTY))
        game = read_game(game_id)
        assert list(game.players) == ["Ann", "Ben", "Zoë"] and game.result.over
        assert list(game.result.winners) == ["Ben"]
        assert db.session.query(RatingStep).filter_by(game_id=game_id).count() == 3


def test_a_restore_brings_the_backup_in_whole_and_rated(app):
    with app.app_context():
        counts = play.restore(io.BytesIO(json.dumps(A_BACKUP).encode()))
        assert counts == {"players": 3, "nights": 1, "games": 1}
        doc = backup.document()
        assert doc["nights"][0]["name"] == "Friday"
        assert doc["nights"][0]["games"][0]["recorded_at"] == ["2026-11-20T19:20:00"]
        assert db.session.query(RatingStep).count() == 3


class Unreadable(io.BytesIO):
    """A file that must not be read."""

    def read(self, *args):
        raise AssertionError("the file was read")

    readinto = read


def test_a_restore_into_a_database_with_games_reads_not_a_byte_and_changes_nothing(app):
    with app.app_context():
        play.import_game(gamelog.parse(PENALTY))
        with pytest.raises(rules.RuleError, match="only into an empty database"):
            play.restore(Unreadable())
        assert backup.counts() == {"players": 3, "nights": 1, "games": 1}


def test_a_restore_refused_late_in_the_file_writes_nothing_at_all(app):
    doc = json.loads(json.dumps(A_BACKUP))
    doc["games_without_night"] = [{**PENALTY, "players": ["Ann", "Cy"],
                                   "created_at": "2026-11-20T19:05:00", "recorded_at": []}]
    with app.app_context():
        with pytest.raises(rules.RuleError) as refused:
            play.restore(io.BytesIO(json.dumps(doc).encode()))
        assert refused.value.field.startswith("games_without_night[0]")
        assert backup.is_empty()
