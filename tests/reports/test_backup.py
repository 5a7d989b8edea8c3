"""The whole-database backup: a restore into an empty database gives back the same document."""

from __future__ import annotations

import io
import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from scorekeeper import play, rules
from scorekeeper.db import restore as restoring
from scorekeeper.db.models import Event, Game, Night, Player, RatingStep
from scorekeeper.db.roster import find_player
from scorekeeper.extensions import db
from scorekeeper.reports import backup, gamelog
from tests.helpers import disposed, make_app, store_log

PENALTY = {"format": "kings-corners-game/1", "variant": "penalty", "rules": {"target": 50},
           "players": ["Ann", "Ben", "Zoë"], "first_dealer": "Ben", "played_on": "2026-11-20",
           "rounds": [{"went_out": "Ben", "hands": {"Ann": {"cards": 3, "kings": 1},
                                                    "Zoë": {"cards": 5}}},
                      {"went_out": None, "hands": {"Ann": {"cards": 2}, "Ben": {"cards": 4},
                                                   "Zoë": {"cards": 2, "kings": 1}}}]}
HOUSE = {"format": "kings-corners-game/1", "variant": "chips", "rules": {"preset": "house"},
         "players": ["Ann", "Ben"], "played_on": "2026-11-20", "ended": True,
         "rounds": [{"went_out": "Ann", "hands": {"Ben": {"cards": 2, "kings": 1}},
                     "events": [{"player": "Ben", "kind": "pass"},
                                {"player": "Ann", "kind": "pass"}]}]}
JAX = {"format": "kings-corners-game/1", "variant": "chips", "rules": {"preset": "jax"},
       "players": ["Ann", "Ben", "Cy"], "first_dealer": "Cy", "played_on": "2026-11-21",
       "rounds": [{"went_out": "Cy", "hands": {"Ann": {"cards": 3}, "Ben": {"cards": 1}},
                   "events": [{"player": "Ann", "kind": "king_held"},
                              {"player": "Ben", "kind": "missed_draw"}]}]}
CORONATION = {"format": "kings-corners-game/1", "variant": "coronation",
              "rules": {"deals_to_win": 3}, "players": ["Cy", "Zoë"],
              "played_on": "2026-11-21",
              "rounds": [{"corners": ["Cy", None, "Zoë", "Cy"], "dragon": "Zoë"},
                         {"corners": ["Zoë", "Zoë", "Zoë", "Zoë"], "dragon": "Zoë"}]}


def restore(doc) -> dict[str, int]:
    """Restore a backup document, as a file, through the use-case the page calls."""
    return play.restore(io.BytesIO(json.dumps(doc).encode()))


def add_game(log: dict, night: Night | None) -> Game:
    """Store a game log as a game of `night`."""
    parsed = gamelog.parse(log)
    game = store_log(parsed.game, parsed.played_on)
    game.night = night
    return game


def fill(app) -> None:
    """Store every variant across two nights, a game in progress, and a loose game."""
    with app.app_context():
        db.session.add(Player(name="Dee", name_key="dee"))  # on the roster, never played
        friday = Night(name="Friday at Ann's", notes="Ben brought the chips.",
                       started_at=datetime(2026, 11, 20, 19, 30))
        saturday = Night(started_at=datetime(2026, 11, 21, 20, 0))
        db.session.add_all([friday, saturday])
        add_game(PENALTY, friday)
        add_game(HOUSE, friday)
        jax = add_game(JAX, saturday)  # still going, with two events of hand 2 tapped
        ben = find_player("Ben")
        ann = find_player("Ann")
        jax.events.append(Event(hand_number=2, seq=0, player_id=ben.id, kind="pass"))
        jax.events.append(Event(hand_number=2, seq=1, player_id=ann.id, kind="king_held"))
        add_game(CORONATION, saturday)
        add_game({**PENALTY, "rounds": [], "players": ["Dee", "Ann"], "first_dealer": "Dee"},
                 None)
        db.session.commit()
        db.session.query(Night).filter(Night.id > 2).delete()  # nights import_game added
        db.session.commit()


@pytest.fixture
def other_app(tmp_path):
    """Return a second app on an empty database of its own."""
    yield from disposed(make_app(tmp_path / "other.sqlite"))


def document(app) -> dict:
    """Return the app's backup document."""
    with app.app_context():
        return backup.document()


def test_a_backup_restored_into_an_empty_database_and_backed_up_again_is_the_same(app, other_app):
    fill(app)
    first = document(app)
    assert [g["variant"] for n in first["nights"] for g in n["games"]] == [
        "penalty", "chips", "chips", "coronation"]
    with other_app.app_context():
        counts = restore(first)
    assert counts == {"players": 5, "nights": 2, "games": 5}
    assert document(other_app) == first


def test_a_night_of_more_games_than_are_written_together_restores_the_same(app, other_app,
                                                                          monkeypatch):
    """Games are written a batch at a time (writer.add_games): a batch cut inside a night,
    and again past it, must give each game its own seats, rounds, hands and events."""
    fill(app)
    first = document(app)
    monkeypatch.setattr(restoring, "GAMES_AT_ONCE", 3)  # cut inside Saturday, then again
    with other_app.app_context():
        counts = restore(first)
    assert counts == {"players": 5, "nights": 2, "games": 5}
    assert document(other_app) == first


def test_the_backup_keeps_nights_roster_events_in_progress_and_the_results(app):
    fill(app)
    doc = document(app)
    assert doc["format"] == "kings-corners-backup/1"
    assert [p["name"] for p in doc["roster"]] == ["Dee", "Ann", "Ben", "Zoë", "Cy"]
    friday, saturday = doc["nights"]
    assert (friday["name"], friday["notes"]) == ("Friday at Ann's", "Ben brought the chips.")
    assert friday["started_at"] == "2026-11-20T19:30:00"
    jax = saturday["games"][0]
    assert jax["events_in_progress"] == [{"player": "Ben", "kind": "pass"},
                                         {"player": "Ann", "kind": "king_held"}]
    # Cy's pot: antes 3, a king held 3, a missed draw 1, cards left 3 + 1.
    assert jax["result"]["totals"] == {"Ann": 0, "Ben": 0, "Cy": 11}
    assert len(jax["recorded_at"]) == 1
    assert [g["players"] for g in doc["games_without_night"]] == [["Dee", "Ann"]]


def test_the_command_line_backs_up_and_restores_to_the_same_file(app, other_app, tmp_path):
    fill(app)
    path = tmp_path / "backup.json"
    result = app.test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    restored = other_app.test_cli_runner().invoke(args=["restore", str(path)])
    assert restored.exit_code == 0, restored.output
    assert "restored 5 players, 2 nights and 5 games" in restored.output
    again = tmp_path / "again.json"
    other_app.test_cli_runner().invoke(args=["backup", str(again)])
    assert again.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_restore_refuses_a_database_that_already_holds_games(app, tmp_path):
    fill(app)
    path = tmp_path / "backup.json"
    path.write_text(backup.dumps(document(app)), encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 1
    assert "only into an empty database" in result.output
    with app.app_context():
        assert db.session.query(Game).count() == 5


def test_a_bad_hand_in_the_last_game_restores_nothing_at_all(app, other_app):
    fill(app)
    doc = document(app)
    doc["nights"][1]["games"][1]["rounds"][1]["dragon"] = "Nobody"
    with other_app.app_context():
        with pytest.raises(backup.Refused) as refused:
            restore(doc)
        db.session.rollback()
        assert "nights[1].games[1]" in str(refused.value) and "round 2" in str(refused.value)
        assert backup.is_empty()


def test_a_game_player_missing_from_the_roster_is_refused_by_name(app, other_app):
    fill(app)
    doc = document(app)
    doc["roster"] = [p for p in doc["roster"] if p["name"] != "Cy"]
    with other_app.app_context():
        with pytest.raises(backup.Refused, match="Cy plays in this game but is not on the roster"):
            restore(doc)


def test_the_seasons_the_table_named_are_kept_and_rate_the_restored_games_alike(app, other_app,
                                                                              tmp_path):
    fill(app)
    assert "seasons" not in document(app)  # none named: the backup is as it always was
    with app.app_context():
        play.name_season("Autumn cup", "2026-11-01", "2026-11-30")
        play.name_season("Winter league", "2026-12-01", "2027-02-28")
        rated = ratings_table()
    doc = document(app)
    assert doc["seasons"] == [
        {"name": "Autumn cup", "first_day": "2026-11-01", "last_day": "2026-11-30"},
        {"name": "Winter league", "first_day": "2026-12-01", "last_day": "2027-02-28"}]
    assert list(doc)[:4] == ["format", "roster", "seasons", "nights"]
    path = tmp_path / "backup.json"
    path.write_text(backup.dumps(doc), encoding="utf-8")
    with other_app.app_context(), path.open("rb") as file:
        play.restore(file)  # streamed, as the page and the command line restore
        assert ratings_table() == rated and "Autumn cup" in {row[3] for row in rated}
    assert document(other_app) == doc


@pytest.mark.parametrize("entry, where, why", [
    ({"name": "2026", "first_day": "2026-01-01", "last_day": "2026-02-01"}, "seasons[1].name",
     "cannot be a year"),
    ({"name": "Cup", "first_day": "2026-13-01", "last_day": "2026-12-01"},
     "seasons[1].first_day", "is not a date"),
    ({"name": "Cup", "first_day": 20260101, "last_day": "2026-12-01"},
     "seasons[1].first_day", "must be text"),
    ({"name": "cup", "first_day": "2026-01-01", "last_day": "2026-12-01"}, "seasons[1].name",
     "is already a season"),
    ("Cup", "seasons[1]", "must be an object"),
])
def test_a_wrong_season_in_a_backup_restores_nothing(app, other_app, entry, where, why):
    fill(app)
    doc = document(app)
    doc["seasons"] = [{"name": "Cup", "first_day": "2026-01-01", "last_day": "2026-12-01"},
                      entry]
    with other_app.app_context():
        with pytest.raises(rules.RuleError) as refused:
            restore(doc)
        db.session.rollback()
        assert where in str(refused.value) and why in str(refused.value)
        assert backup.is_empty()


def ratings_table() -> list[tuple]:
    """Return every rating step by the player's name and game's start, in one order."""
    return sorted(db.session.execute(
        select(Player.name, Game.created_at, RatingStep.place, RatingStep.season,
               RatingStep.mu_after, RatingStep.sigma_after)
        .join(Player, Player.id == RatingStep.player_id)
        .join(Game, Game.id == RatingStep.game_id)).all())


def test_a_single_game_log_is_not_taken_for_a_backup(other_app):
    with other_app.app_context():
        with pytest.raises(backup.Refused, match="import it instead"):
            restore(PENALTY)


def test_the_backup_page_downloads_the_document(app, client):
    fill(app)
    response = client.get("/backup/download")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    assert json.loads(response.get_data(as_text=True)) == document(app)
    page = " ".join(client.get("/backup").get_data(as_text=True).split())
    assert "Download backup" in page and "5 players, 2 nights, 5 games" in page


def test_the_backup_page_restores_an_upload_into_an_empty_database(app, other_app):
    fill(app)
    body = backup.dumps(document(app)).encode()
    client = other_app.test_client()
    response = client.post("/backup/restore",
                           data={"file": (io.BytesIO(body), "backup.json")},
                           content_type="multipart/form-data", follow_redirects=True)
    assert response.status_code == 200
    assert "Restored 5 players, 2 nights and 5 games." in response.get_data(as_text=True)
    assert document(other_app) == document(app)


def test_the_backup_page_says_why_it_refused_and_keeps_the_database_as_it_was(app, client):
    fill(app)
    body = backup.dumps(document(app)).encode()
    response = client.post("/backup/restore", data={"file": (io.BytesIO(body), "b.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    # The refusal said whole, as a sentence: "… so nothing is mixed up or lost."
    assert re.search(r"Nothing was restored\. The database already holds players or games; "
                     r"[^<]*so nothing is mixed up or lost\.</p>", response.get_data(as_text=True))


def test_restoring_without_the_csrf_token_is_refused(guarded_app):
    app = guarded_app
    with app.app_context():
        body = backup.dumps({"format": backup.FORMAT, "roster": [{"name": "Ann",
                             "created_at": "2026-11-20T19:00:00"}], "nights": []}).encode()
    response = app.test_client().post("/backup/restore",
                                      data={"file": (io.BytesIO(body), "b.json")},
                                      content_type="multipart/form-data")
    assert response.status_code == 400
    with app.app_context():
        assert backup.is_empty()
        db.engine.dispose()


def test_a_file_that_is_not_json_is_refused_with_where_it_went_wrong(other_app):
    response = other_app.test_client().post(
        "/backup/restore", data={"file": (io.BytesIO(b'{"format": '), "b.json")},
        content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Nothing was restored. This is not JSON" in response.get_data(as_text=True)


@pytest.mark.parametrize("text, where, why", [
    (b'["format"]', "", "a backup is a JSON object"),
    (b'"kings-corners-backup/1"', "", "a backup is a JSON object"),
    (b'{"format": "kings-corners-backup/1", "nights": [}', "", "this is not JSON: Expecting "
     "value at line 1, column 49"),
    (b'{"format": "kings-corners-backup/1", "nights": [' + b"[" * 40 + b"]" * 40 + b"]}",
     "nights[0][0][0]", "this is nested more than 32 levels deep"),
    (b'{"format": "kings-corners-backup/1", "roster": [{"name": "Ann", "created_at": '
     b'1234567890123456}]}', "roster[0].created_at", "a number can be at most 15 digits long"),
    (b'{"roster": [], "format": 7}', "format", "must be 'kings-corners-backup/1'"),
    (b'{"format": "kings-corners-backup/1", "nights": {}}', "nights", "must be a list"),
])
def test_a_file_is_read_once_before_anything_is_written_and_refused_saying_where(
        other_app, text, where, why):
    """The first pass over a file: its top, its depth, its numbers, its format and what each
    list is, each refused with the place a person can find (a quick pass reads most files;
    one that fails it is read again to say where), the database left empty."""
    with other_app.app_context():
        with pytest.raises(rules.RuleError) as refused:
            play.restore(io.BytesIO(text))
        assert (refused.value.field or "").startswith(where), refused.value.field
        assert why in str(refused.value), str(refused.value)
        db.session.rollback()
        assert backup.is_empty()


def test_restoring_one_of_each_says_so_in_the_singular(other_app):
    doc = {"format": backup.FORMAT, "roster": [
               {"name": "Ann", "created_at": "2026-11-20T19:00:00"},
               {"name": "Ben", "created_at": "2026-11-20T19:00:00"}],
           "nights": [{"name": None, "notes": None, "started_at": "2026-11-20T19:00:00",
                       "games": [{**CORONATION, "players": ["Ann", "Ben"], "rounds": [],
                                  "created_at": "2026-11-20T19:05:00", "recorded_at": []}]}]}
    result = other_app.test_cli_runner().invoke(args=["restore", "-"], input=json.dumps(doc))
    assert result.exit_code == 0, result.output
    assert "restored 2 players, 1 night and 1 game" in result.output


# Backups written by earlier releases, kept as they were: each must restore, always.
OLD_BACKUPS = sorted((Path(__file__).parent / "fixtures").glob("backup-*.json"))


def restored_from(path: Path, tmp_path):
    """Restore a backup file through the backup page into an empty database; return the app."""
    app = make_app(tmp_path / "restored.sqlite")
    restored = app.test_client().post(
        "/backup/restore", data={"file": (io.BytesIO(path.read_bytes()), "old.json")},
        content_type="multipart/form-data")
    assert restored.status_code == 302
    return app


@pytest.mark.parametrize("path", OLD_BACKUPS, ids=lambda path: path.stem)
def test_a_backup_made_by_an_earlier_version_restores_and_backs_up_the_same(path, tmp_path):
    """A backup an earlier release wrote still restores, and backs up to the very same file."""
    app = restored_from(path, tmp_path)
    again = app.test_client().get("/backup/download").get_data(as_text=True)
    assert again == path.read_text(encoding="utf-8")
    with app.app_context():
        db.engine.dispose()


def test_the_first_versions_backup_keeps_its_hand_in_progress(tmp_path):
    """The first release's backup (every variant, a hand in progress) keeps the hand's taps."""
    app = restored_from(Path(__file__).parent / "fixtures" / "backup-first-version.json",
                        tmp_path)
    client = app.test_client()
    board = client.get("/games/2").get_data(as_text=True)  # the Jax game, hand 2 under way
    assert re.search(r"<b data-pot>4</b>", board)  # antes 3 and Ann's pass, kept
    assert "Last tap: <b>Ann</b>, pass" in board
    with app.app_context():
        db.engine.dispose()
