"""A stored game the rules refuse takes no other page down, and its own pages offer repair."""

from __future__ import annotations

import io
import json

import pytest
from sqlalchemy import update

from scorekeeper.db.models import HandEntry, Round
from scorekeeper.extensions import db
from tests.helpers import hand_data, make_app, start_game

P = ["Ann", "Ben", "Cy"]


def broken_game(app, client) -> int:
    """Play two hands of a game beside a healthy one, then corrupt hand 2 in the database."""
    start_game(client, ["Dee", "Eve"])
    game_id = start_game(client, P)
    for number in (1, 2):
        client.post(f"/games/{game_id}/hands/new",
                    data=hand_data(P, "Ann", {"Ben": 3, "Cy": 2}, number))
    with app.app_context():  # as an old bug or a hand edit in the database might
        second = db.session.scalar(Round.__table__.select().where(
            Round.game_id == game_id, Round.number == 2).with_only_columns(Round.id))
        db.session.execute(update(HandEntry).where(HandEntry.round_id == second)
                           .values(kings=5))
        db.session.commit()
    # After an edit by hand the results cache is rebuilt, as docs/architecture.md says to.
    assert app.test_cli_runner().invoke(args=["results", "rebuild"]).exit_code == 0
    return game_id


@pytest.mark.parametrize("page", ["/", "/history/", "/history/nights/1", "/players",
                                  "/players/1", "/players/1/more", "/backup",
                                  "/backup/download", "/games/1"])
def test_every_other_page_still_loads(app, client, page):
    broken_game(app, client)
    assert client.get(page).status_code == 200


def test_home_and_history_list_it_as_needing_repair(app, client):
    broken_game(app, client)
    assert "Needs repair" in client.get("/").get_data(as_text=True)
    assert "1 needs repair" in client.get("/history/").get_data(as_text=True)
    assert "Needs repair" in client.get("/history/nights/1").get_data(as_text=True)


@pytest.mark.parametrize("page", ["", "/hands/new", "/hands/1/edit"])
def test_its_own_pages_say_so_and_offer_the_repair(app, client, page):
    game_id = broken_game(app, client)
    response = client.get(f"/games/{game_id}{page}")
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "This game needs repair" in html and "round 2, hands.Ben.kings" in html
    assert "Delete hand 2" in html and "Download its game log" in html


def test_its_game_log_downloads_as_entered_and_deleting_the_bad_hand_repairs_it(app, client):
    game_id = broken_game(app, client)
    log = json.loads(client.get(f"/games/{game_id}/export.json").get_data(as_text=True))
    assert log["result"] is None and "hands.Ben.kings" in log["needs_repair"]
    assert log["rounds"][1]["hands"]["Ben"] == {"cards": 3, "kings": 5}
    client.post(f"/games/{game_id}/hands/last/delete", data={"number": "2", "confirmed": "1"})
    board = client.get(f"/games/{game_id}")
    assert board.status_code == 200 and "Record hand 2" in board.get_data(as_text=True)


def test_a_backup_keeps_it_to_be_repaired_and_restores(app, client, tmp_path):
    broken_game(app, client)
    backup = client.get("/backup/download").get_data(as_text=True)
    other = make_app(tmp_path / "other.sqlite")
    restored = other.test_client().post(
        "/backup/restore", data={"file": (io.BytesIO(backup.encode()), "b.json")},
        content_type="multipart/form-data")
    assert restored.status_code == 302
    assert other.test_client().get("/backup/download").get_data(as_text=True) == backup
    assert other.test_client().get("/games/2").status_code == 409
    with other.app_context():
        db.engine.dispose()
