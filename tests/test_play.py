"""The service layer (scorekeeper/play.py) without the web: what a table asks of a game, done
whole, as the rule book has it. Each test runs inside an app context of a new app on an empty
database. A refusal raises what it raises and writes nothing: every table is compared, row by
row, before and after (`unchanged`)."""

from __future__ import annotations

import io
import json
import sqlite3
from contextlib import contextmanager
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select
from werkzeug.security import generate_password_hash

from scorekeeper import play, rules
from scorekeeper.db import access, read_game
from scorekeeper.db.models import Player, RatingStep
from scorekeeper.db.writer import Changed, Conflict, Taken, fingerprint
from scorekeeper.extensions import db
from scorekeeper.reports import backup, gamelog
from scorekeeper.rules.parts import Part
from tests.helpers import hand_data

TABLE = ["Ann", "Ben", "Cy"]


@pytest.fixture(autouse=True)
def inside(app):
    """Run each test inside an app context of its own new app."""
    with app.app_context():
        yield


def everything() -> dict[str, list]:
    """Return every row of every table, in an order of its own."""
    return {table.name: sorted(map(tuple, db.session.execute(table.select())), key=repr)
            for table in db.metadata.sorted_tables}


@contextmanager
def unchanged():
    """Check that what runs inside writes nothing at all."""
    before = everything()
    yield
    db.session.rollback()
    assert everything() == before


def penalty_game(names=TABLE, target=50) -> int:
    return play.new_game("penalty", {"target": target}, list(names), 0)


def totals(game_id: int) -> dict[str, int]:
    return dict(read_game(game_id).result.totals)


def hands(game_id: int) -> int:
    return len(read_game(game_id).core.rounds)


def player_id(name: str) -> int:
    return db.session.scalar(select(Player.id).where(Player.name == name))


# A hand at the penalty table: Ann went out, Ben holds 3 cards, Cy 2 of which one is a king.
ANN_OUT = {"Ben": 3, "Cy": (2, 1)}


def record(game_id: int, number: int = 1, went_out="Ann", held=None, token=None) -> play.Saved:
    form = hand_data(TABLE, went_out, ANN_OUT if held is None else held, number, token)
    return play.record(game_id, number, form, form["token"])


# Recording a hand ------------------------------------------------------------------------

def test_a_recorded_hand_scores_each_card_left_and_ten_for_each_king():
    game = penalty_game()
    assert record(game) == play.Saved(game, 1, "hand")
    assert totals(game) == {"Ann": 0, "Ben": 3, "Cy": 11}


def test_the_same_form_sent_twice_records_one_hand():
    game = penalty_game()
    record(game, token="once")
    again = record(game, token="once")
    assert again.repeat == 1  # said as saved before: nothing changed
    assert hands(game) == 1
    assert totals(game) == {"Ann": 0, "Ben": 3, "Cy": 11}


def test_an_impossible_hand_is_refused_at_its_input_and_nothing_is_written():
    game = penalty_game()
    with unchanged(), pytest.raises(play.Unread) as refused:
        record(game, held={"Ben": (3, 4), "Cy": 2})  # four kings among three cards
    assert list(refused.value.errors.by_input) == ["kings-1"]


def test_a_hand_another_phone_recorded_first_is_not_recorded_again():
    game = penalty_game()
    record(game)
    with unchanged(), pytest.raises(Taken):
        record(game, number=1, went_out="Ben", held={"Ann": 4, "Cy": 1})
    assert totals(game) == {"Ann": 0, "Ben": 3, "Cy": 11}


def test_a_hand_for_a_game_that_is_not_there_is_refused():
    with unchanged(), pytest.raises(play.NoSuchGame):
        record(404)


def test_the_game_ends_after_the_hand_that_reaches_the_target_and_the_lowest_wins():
    game = penalty_game(target=25)
    record(game, 1, "Ann", {"Ben": (3, 2), "Cy": 2})  # Ben 21
    record(game, 2, "Cy", {"Ann": 4, "Ben": 4})  # Ann 4, Ben 25: over, Cy 2
    result = read_game(game).result
    assert result.over and result.winners == ("Cy",)
    with unchanged(), pytest.raises(rules.RuleError):
        record(game, 3)


# Correcting and taking back ----------------------------------------------------------------

def test_a_correction_changes_the_hand_and_every_total_after_it():
    game = penalty_game()
    record(game, 1)
    record(game, 2, "Ben", {"Ann": 2, "Cy": 1})
    form = hand_data(TABLE, "Ann", {"Ben": 5, "Cy": 1}, 1)
    assert play.correct(game, 1, form, None) == play.Saved(game, 1, "hand")
    assert totals(game) == {"Ann": 2, "Ben": 5, "Cy": 2}


def test_a_correction_of_a_hand_changed_since_the_form_was_opened_is_refused():
    game = penalty_game()
    record(game)
    loaded = read_game(game)
    was = fingerprint(loaded.core.rounds[0], loaded.players)
    play.correct(game, 1, hand_data(TABLE, "Ann", {"Ben": 5, "Cy": 1}), was)  # another phone
    with unchanged(), pytest.raises(Changed):
        play.correct(game, 1, hand_data(TABLE, "Ann", {"Ben": 1, "Cy": 1}), was)
    assert totals(game) == {"Ann": 0, "Ben": 5, "Cy": 1}


def test_a_correction_of_a_hand_not_played_yet_is_refused():
    game = penalty_game()
    with unchanged(), pytest.raises(Conflict):
        play.correct(game, 1, hand_data(TABLE, "Ann", ANN_OUT), None)


def test_deleting_the_last_hand_twice_deletes_one():
    game = penalty_game()
    record(game, 1)
    record(game, 2, "Ben", {"Ann": 2, "Cy": 1})
    assert play.delete_last(game, 2) == play.Deleted("hand", 2, 2, 2)
    with unchanged():
        assert play.delete_last(game, 2) == play.Deleted("hand", 2, None, 1)  # a double tap
    assert totals(game) == {"Ann": 0, "Ben": 3, "Cy": 11}


def test_an_undo_takes_back_the_hand_just_saved_once():
    game = penalty_game()
    record(game, 1)
    record(game, 2, "Ben", {"Ann": 2, "Cy": 1}, token="second")
    assert play.undo(game, 2, "second") == play.Saved(game, 2, "hand")
    assert hands(game) == 1
    with unchanged(), pytest.raises(Conflict, match="undone already"):
        play.undo(game, 2, "second")


# The hand in progress: chips taps --------------------------------------------------------

def chips_game() -> int:
    return play.new_game("chips", {"preset": "house", "start_chips": 5}, TABLE, 0)


def test_a_tap_is_kept_for_the_hand_in_progress_and_a_repeat_is_kept_once():
    game = chips_game()
    play.tap(game, 1, 1, "pass", "tap-1")
    play.tap(game, 1, 1, "pass", "tap-1")
    assert [(tap.player, tap.kind) for tap in read_game(game).waiting] == [("Ben", "pass")]


def test_an_undone_tap_is_gone_and_a_second_undo_undoes_nothing():
    game = chips_game()
    play.tap(game, 1, 0, "pass", "tap-1")
    play.tap(game, 1, 1, "pass", "tap-2")
    last = read_game(game).waiting[-1]
    assert play.untap(game, 1, last.id).player == "Ben"
    with unchanged():
        assert play.untap(game, 1, last.id) is None
    assert [tap.player for tap in read_game(game).waiting] == ["Ann"]


def test_a_tap_for_no_one_at_the_table_is_refused():
    game = chips_game()
    with unchanged(), pytest.raises(rules.RuleError) as refused:
        play.tap(game, 1, 7, "pass", "tap-1")
    assert refused.value.field == "player"


def test_a_tap_for_a_hand_not_in_progress_is_refused():
    game = chips_game()
    with unchanged(), pytest.raises(Conflict):
        play.tap(game, 2, 0, "pass", "tap-1")


# Seats: each phone sends its own player's part -------------------------------------------

def test_a_seat_is_taken_from_another_phone_only_once_it_says_yes():
    game = penalty_game()
    assert play.take_seat(game, 0, "phone-a", "iPhone", force=False) == play.Seated(0, True)
    with unchanged():
        asked = play.take_seat(game, 0, "phone-b", "Pixel", force=False)
    assert asked == play.Seated(0, False, "iPhone")
    assert play.take_seat(game, 0, "phone-b", "Pixel", force=True) == play.Seated(0, True)
    assert play.give_seat(game, "phone-a") is None  # it holds no seat now
    assert play.give_seat(game, "phone-b") == 0


def test_a_seat_no_one_sits_in_is_refused():
    game = penalty_game()
    with unchanged(), pytest.raises(rules.RuleError) as refused:
        play.take_seat(game, 3, "phone-a", "iPhone", force=False)
    assert refused.value.field == "seat"


def test_the_last_part_of_a_hand_records_it_as_if_entered_on_one_phone():
    game = penalty_game()
    first = play.send_part(game, 1, Part(0, went_out=True), 0, "Ann's phone")
    assert first.saved is None and first.gathered.waiting == (1, 2)
    play.send_part(game, 1, Part(1, cards=3), 1, "Ben's phone")
    last = play.send_part(game, 1, Part(2, cards=2, kings=1), 2, "Cy's phone")
    assert last.saved == play.Saved(game, 1, "hand")
    assert totals(game) == {"Ann": 0, "Ben": 3, "Cy": 11}


def test_two_parts_that_both_went_out_record_nothing():
    game = penalty_game()
    play.send_part(game, 1, Part(0, went_out=True), 0, "Ann's phone")
    play.send_part(game, 1, Part(1, went_out=True), 1, "Ben's phone")
    sent = play.send_part(game, 1, Part(2, cards=2), 2, "Cy's phone")
    assert sent.saved is None and sent.gathered.clash == "two_out"
    assert hands(game) == 0


def test_a_part_for_a_recorded_hand_is_refused_saying_what_was_recorded():
    game = penalty_game()
    record(game)
    with unchanged(), pytest.raises(play.Recorded) as refused:
        play.send_part(game, 1, Part(1, cards=9), 1, "Ben's phone")
    assert refused.value.number == 1 and "Ann" in refused.value.said


def test_a_part_with_more_kings_than_cards_is_refused_at_kings():
    game = penalty_game()
    with unchanged(), pytest.raises(rules.RuleError) as refused:
        play.send_part(game, 1, Part(1, cards=1, kings=2), 1, "Ben's phone")
    assert refused.value.field == "kings"


# Ending, reopening, a rematch ---------------------------------------------------------

def test_a_game_ended_by_hand_is_won_by_the_lowest_total_and_reopens():
    game = penalty_game()
    record(game)
    play.set_ended(game, True)
    result = read_game(game).result
    assert result.over and result.winners == ("Ann",)
    with unchanged(), pytest.raises(Conflict, match="reopen"):
        record(game, 2)
    play.set_ended(game, False)
    assert not read_game(game).result.over
    record(game, 2, "Ben", {"Ann": 2, "Cy": 1})
    assert hands(game) == 2


def test_a_rematch_starts_once_and_passes_the_deal_on():
    game = penalty_game()
    with unchanged():
        assert play.rematch(game) == play.Rematch(game)  # not over: no rematch
    record(game)  # Ann dealt it: Ben deals next
    play.set_ended(game, True)
    started = play.rematch(game)
    assert started.started is True and started.game_id != game
    assert started.dealer == "Ben"
    assert play.rematch(game) == play.Rematch(started.game_id, "Ben", False)  # a second tap
    assert read_game(started.game_id).players == tuple(TABLE)


# The roster: renaming and merging --------------------------------------------------------

def test_a_renamed_player_is_shown_by_the_new_name_in_their_games():
    game = penalty_game()
    record(game)
    assert play.rename_player(player_id("Ben"), "Benji") == ("Ben", "Benji")
    assert totals(game) == {"Ann": 0, "Benji": 3, "Cy": 11}


def test_a_name_already_on_the_roster_is_refused():
    penalty_game()
    with unchanged(), pytest.raises(rules.RuleError) as refused:
        play.rename_player(player_id("Ben"), " cy ")
    assert refused.value.field == "name"


def test_renaming_a_player_merged_away_meanwhile_says_they_are_gone():
    with unchanged(), pytest.raises(play.Gone):
        play.rename_player(404, "Dee")


def test_a_duplicate_entry_merged_moves_its_games_to_the_keeper():
    penalty_game(["Ann", "Ben", "Cy"])
    game = penalty_game(["Ann", "Benny", "Cy"])
    record(game)
    assert play.merge_players(player_id("Ben"), player_id("Benny")) == ("Benny", "Ben", 1)
    assert player_id("Benny") is None
    assert totals(game) == {"Ann": 0, "Ben": 3, "Cy": 11}


def test_two_players_who_sat_at_one_game_are_not_merged():
    penalty_game()
    with unchanged(), pytest.raises(rules.RuleError, match="two different people"):
        play.merge_players(player_id("Ann"), player_id("Ben"))


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
