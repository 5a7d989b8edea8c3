"""docs/gamelog.md shows what the app writes: its game logs import and export as shown, its
backup restores and backs up as shown, and its tables name every key the formats have."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from scorekeeper.reports import backup, gamelog
from tests.helpers import disposed, make_app

DOC = (Path(__file__).resolve().parents[2] / "docs" / "gamelog.md").read_text(encoding="utf-8")
EXAMPLES = {name: json.loads(text) for name, text in
            re.findall(r"<!-- example: ([^>]+?) -->\n```json\n(.*?)^```", DOC, re.S | re.M)}
LOGS = sorted({name.split(",")[0] for name in EXAMPLES if "," in name})


def table_keys(title: str) -> set[str]:
    """Return the keys listed in the first column of the table the page marks with `title`."""
    table = re.search(rf"<!-- {re.escape(title)} -->\n((?:\|.*\n)+)", DOC)
    assert table, f"docs/gamelog.md has no table of {title}"
    return set(re.findall(r"^\| `(\w+)` \|", table[1], re.M))


def imported(client, doc) -> dict:
    """Import a log through the app's import page; return the game's exported log."""
    response = client.post("/import", data={"text": json.dumps(doc)})
    assert response.status_code == 302, response.get_data(as_text=True)
    return client.get(f"{response.headers['Location']}/export.json").get_json()


def test_the_page_has_a_log_of_every_variant_and_a_backup():
    assert LOGS == ["chips", "coronation", "penalty"]
    assert "backup" in EXAMPLES


@pytest.mark.parametrize("variant", LOGS)
def test_each_example_log_imports_and_exports_as_the_page_shows(client, variant):
    exported = imported(client, EXAMPLES[f"{variant}, as imported"])
    assert exported == EXAMPLES[f"{variant}, as exported"]
    # What export writes imports again to itself: its `result` is worked out anew.
    assert imported(client, exported) == exported


def test_the_example_backup_restores_and_backs_up_as_the_page_shows(tmp_path):
    shown = EXAMPLES["backup"]
    for app in disposed(make_app(tmp_path / "restored.sqlite")):
        client = app.test_client()
        restored = client.post("/backup/restore",
                               data={"file": (io.BytesIO(json.dumps(shown).encode()), "b.json")},
                               content_type="multipart/form-data")
        assert restored.status_code == 302
        assert client.get("/backup/download").get_json() == shown
        board = client.get("/games/2").get_data(as_text=True)
        assert "Last tap: <b>Ann</b>, pass" in board  # the hand in progress kept its tap


def test_the_tables_name_every_key_of_a_game_log_and_of_a_round():
    assert table_keys("the keys of a game log") == gamelog.TOP_KEYS
    assert table_keys("the keys of a round") == gamelog.ROUND_KEYS


def test_the_tables_name_every_key_of_a_backup_a_night_and_a_backed_up_game():
    assert table_keys("the keys of a backup") == backup.TOP_KEYS
    assert table_keys("the keys a backup adds to a game log") == set(backup.GAME_EXTRA)
    night = EXAMPLES["backup"]["nights"][0]
    assert table_keys("the keys of a night") == set(night) | {"crowd"}  # a crowd night's
