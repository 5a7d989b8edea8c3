"""The same app on PostgreSQL (TEST_DATABASE_URL; .ci/run starts a server and sets it)."""

import json

import pytest

from scorekeeper.db.models import Game, Round
from scorekeeper.extensions import db
from tests.helpers import (
    alerts,
    form_token,
    hand_data,
    schema_drift,
    start_game,
)

pytestmark = pytest.mark.postgres
P = ["Ann", "Zoë", "Cy"]


@pytest.fixture
def pg(pg_app):
    return pg_app.test_client()


def test_upgrading_an_empty_postgresql_database_gives_what_the_models_declare(pg_app):
    with pg_app.app_context():
        assert db.engine.dialect.name == "postgresql"
        assert schema_drift(db.engine) == []


def test_a_short_game_plays_through_to_its_winner_on_postgresql(pg):
    game_id = start_game(pg, P, dealer=2)
    played = [("Zoë", {"Ann": (3, 1), "Cy": 14}), ("Ann", {"Zoë": 4, "Cy": 2})]
    for number, (went_out, held) in enumerate(played, start=1):
        assert pg.post(f"/games/{game_id}/hands/new",
                       data=hand_data(P, went_out, held, number)).status_code == 302
    board = pg.get(f"/games/{game_id}").get_data(as_text=True)
    assert "<b>Zoë</b> deals" in board and "Record hand 3" in board
    # Correct hand 1: one of Cy's 14 cards was a king; Cy's 23 + 2 then reaches 25.
    edited = pg.post(f"/games/{game_id}/hands/1/edit",
                     data=hand_data(P, "Zoë", {"Ann": (3, 1), "Cy": (14, 1)}, 1))
    assert edited.status_code == 302
    board = pg.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Zoë wins!" in board
    log = pg.get(f"/games/{game_id}/export.json").get_json()
    assert log["result"]["totals"] == {"Ann": 12, "Zoë": 4, "Cy": 25}
    assert log["result"]["over"] and log["result"]["winners"] == ["Zoë"]
    deleted = pg.post(f"/games/{game_id}/hands/last/delete", data={"number": "2", "confirmed": "1"},
                      follow_redirects=True)
    assert "Record hand 2" in deleted.get_data(as_text=True)


def test_the_same_hand_twice_and_a_second_phone_are_refused_on_postgresql(pg, pg_app):
    game_id = start_game(pg, P)
    mine = form_token(pg.get(f"/games/{game_id}/hands/new").get_data(as_text=True))
    theirs = form_token(pg.get(f"/games/{game_id}/hands/new").get_data(as_text=True))
    data = hand_data(P, "Ann", {"Zoë": 2, "Cy": 3}, 1, mine)
    assert pg.post(f"/games/{game_id}/hands/new", data=data).status_code == 302
    assert pg.post(f"/games/{game_id}/hands/new", data=data).status_code == 302
    late = pg.post(f"/games/{game_id}/hands/new",
                   data=hand_data(P, "Cy", {"Ann": 2, "Zoë": 3}, 1, theirs))
    assert late.status_code == 422
    assert any("Hand 1 was recorded on another phone" in a
               for a in alerts(late.get_data(as_text=True)))
    with pg_app.app_context():
        assert db.session.query(Round).count() == 1


def test_long_and_unusual_names_are_stored_or_refused_cleanly_on_postgresql(pg, pg_app):
    names = ["X" * 40, "👩‍🚀 Kim", "שרה"]
    start_game(pg, names)
    log = pg.get("/games/1/export.json").get_json()
    assert log["players"] == names
    # "ß" folds to "ss": a 30-letter name would need an 60-letter key; it must not crash.
    refused = pg.post("/games/new", data={"variant": "penalty", "dealer": "0",
                                          "seat-0": "ß" * 30, "seat-1": "Ben"})
    assert refused.status_code == 422
    with pg_app.app_context():
        assert db.session.query(Game).count() == 1


def test_an_exported_game_imports_again_on_postgresql(pg):
    game_id = start_game(pg, P)
    pg.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Cy", {"Ann": 3, "Zoë": (1, 1)}))
    first = pg.get(f"/games/{game_id}/export.json").get_json()
    response = pg.post("/import", data={"text": json.dumps(first)})
    assert response.status_code == 302
    again = pg.get(response.headers["Location"] + "/export.json").get_json()
    assert again == first
