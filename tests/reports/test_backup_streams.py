"""Backup and restore stream: memory stays flat with history, and a backup is one moment."""

from __future__ import annotations

import gc
import io
import json
import tracemalloc

import pytest

from scorekeeper import play, rules
from scorekeeper.db import restore as restoring
from scorekeeper.db import results
from scorekeeper.extensions import db
from scorekeeper.reports import backup
from tests.helpers import fill, hand_data, make_app

NAMES = ("Ann", "Ben", "Cy", "Zoë")
PENALTY = rules.get_variant("penalty").resolve_settings({"target": 1000})


def peak(work) -> int:
    """Return the most memory (bytes) Python held at once while `work()` ran."""
    gc.collect()
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def stream(app) -> tuple[int, int]:
    """Return the peak memory of streaming the app's backup to nowhere, and its length."""
    length = []

    def write():
        with app.app_context():
            length.append(sum(len(chunk) for chunk in backup.chunks()))

    return peak(write), length[0]


@pytest.fixture
def small_and_big(tmp_path, monkeypatch):
    """Return apps holding 20 and 80 nights, read and restored five nights at a time, and
    their results worked out ten games at a time."""
    monkeypatch.setattr(backup, "BATCH", 5)
    monkeypatch.setattr(restoring, "BATCH", 5)
    monkeypatch.setattr(results, "BATCH", 10)
    small = make_app(tmp_path / "small.sqlite")
    big = make_app(tmp_path / "big.sqlite")
    fill(small, 20)
    fill(big, 80)
    yield small, big
    for app in (small, big):
        with app.app_context():
            db.engine.dispose()


def test_a_backup_of_four_times_the_history_needs_no_more_memory(small_and_big):
    small, big = small_and_big
    stream(small), stream(big)  # a first pass compiles each database's queries, then kept
    small_used, small_length = stream(small)
    big_used, big_length = stream(big)
    assert big_length > 3.5 * small_length
    assert big_used < 1.5 * small_used, (small_used, big_used)
    with big.app_context():
        doc = json.loads(backup.text())
    assert len(doc["nights"]) == 80 and all(len(n["games"]) == 2 for n in doc["nights"])


def test_restoring_four_times_the_history_needs_no_more_memory(small_and_big, tmp_path):
    used = []
    for app, name in zip(small_and_big, ("small", "big")):
        with app.app_context():
            text = backup.text()
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        target = make_app(tmp_path / f"{name}-restored.sqlite")

        def restore(path=path, target=target):
            with target.app_context(), path.open("rb") as file:
                play.restore(file)

        used.append(peak(restore))
        with target.app_context():
            assert backup.text() == text  # the restored database backs up the same
            db.engine.dispose()
    assert used[1] < 1.5 * used[0], used


def test_a_hand_saved_while_a_backup_streams_is_not_in_it_by_half(app, monkeypatch):
    """The backup sees the database as the moment it began, whatever is saved meanwhile."""
    monkeypatch.setattr(backup, "BATCH", 2)
    fill(app, 6, hands=2)
    client = app.test_client()
    with app.app_context():
        pieces = backup.chunks()
        first = next(pieces)  # the roster is read: the snapshot is taken
        saved = client.post("/games/12/hands/new", data=hand_data(
            list(NAMES), "Ann", {"Ben": 2, "Cy": 3, "Zoë": 1}, number=3))
        assert saved.status_code == 302
        text = first + "".join(pieces)
    last = json.loads(text)["nights"][-1]["games"][-1]
    assert len(last["rounds"]) == 2 and len(last["recorded_at"]) == 2
    with app.app_context():
        assert len(backup.document()["nights"][-1]["games"][-1]["rounds"]) == 3


def test_a_backup_streams_one_moment_on_postgresql_too(pg_app, monkeypatch):  # noqa: F811
    monkeypatch.setattr(backup, "BATCH", 2)
    fill(pg_app, 6, hands=2)
    client = pg_app.test_client()
    with pg_app.app_context():
        pieces = backup.chunks()
        first = next(pieces)
        saved = client.post("/games/12/hands/new", data=hand_data(
            list(NAMES), "Ann", {"Ben": 2, "Cy": 3, "Zoë": 1}, number=3))
        assert saved.status_code == 302
        text = first + "".join(pieces)
    assert len(json.loads(text)["nights"][-1]["games"][-1]["rounds"]) == 2


def test_a_backup_is_sent_as_it_is_written(app):
    fill(app, 3, hands=2)
    response = app.test_client().get("/backup/download")
    assert response.is_streamed
    body = response.get_data(as_text=True)
    with app.app_context():
        assert body == backup.text()


def test_restoring_from_standard_input_reads_it_whole_first(app, tmp_path):
    fill(app, 2, hands=2)
    with app.app_context():
        text = backup.text()
    target = make_app(tmp_path / "piped.sqlite")
    result = target.test_cli_runner().invoke(args=["restore", "-"], input=text.encode())
    assert result.exit_code == 0, result.output
    assert "restored 4 players, 2 nights and 4 games" in result.output
    with target.app_context():
        assert backup.text() == text
        db.engine.dispose()


def test_a_backup_bigger_than_any_form_may_be_still_restores(app, tmp_path):
    """Years of history make a file far bigger than a form may be; the restore takes it."""
    fill(app, 3, hands=2)
    with app.app_context():
        text = backup.text()
    target = make_app(tmp_path / "big-upload.sqlite")
    target.config["MAX_CONTENT_LENGTH"] = len(text) // 4  # every other form: a quarter
    client = target.test_client()
    too_big = client.post("/games/new", data={"variant": "penalty", "seat-0": text})
    assert too_big.status_code == 413
    restored = client.post("/backup/restore",
                           data={"file": (io.BytesIO(text.encode()), "years.json")},
                           content_type="multipart/form-data")
    assert restored.status_code == 302
    with target.app_context():
        assert backup.text() == text
        db.engine.dispose()
