"""Game nights: which night a game joins, naming a night, moving a game to another night."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta

import pytest

from scorekeeper import rules
from scorekeeper.db import nights
from scorekeeper.db.models import Game, Night, Round, table_time
from scorekeeper.extensions import db
from scorekeeper.reports import history
from tests.helpers import start_game

EVENING = datetime(2026, 11, 21, 19, 30)
SETTINGS = {"target": 25, "end_when": "reaches", "king_points": 10, "card_points": 1}


@pytest.fixture
def ctx(app):
    """Run the test inside an app context on the empty database."""
    with app.app_context():
        yield


def night_with_game(started: datetime, hands_at=(), played_on: date | None = None,
                    created_at: datetime | None = None) -> Night:
    """Store a night holding one game whose hands were recorded at `hands_at`."""
    night = Night(started_at=started)
    game = Game(variant="penalty", settings=SETTINGS, night=night,
                created_at=created_at or started, played_on=played_on or started.date())
    for number, when in enumerate(hands_at, start=1):
        game.rounds.append(Round(number=number, created_at=when))
    db.session.add(night)
    db.session.flush()
    return night


def test_a_game_started_within_12_hours_of_the_last_hand_joins_that_night(ctx):
    night = night_with_game(EVENING, [EVENING + timedelta(hours=1)])
    assert nights.night_for(EVENING + timedelta(hours=12, minutes=59)) is night


def test_more_than_12_hours_after_the_last_hand_a_new_night_begins(ctx):
    night = night_with_game(EVENING, [EVENING + timedelta(hours=1)])
    later = EVENING + timedelta(hours=13, minutes=1)
    new = nights.night_for(later)
    assert new is not night and new.started_at == later


def test_a_night_running_past_midnight_stays_one_night(ctx):
    night = night_with_game(EVENING, [EVENING + timedelta(hours=h) for h in (1, 3, 5, 6)])
    after_midnight = datetime(2026, 11, 22, 1, 45)
    assert nights.night_for(after_midnight) is night


def test_the_12_hours_count_from_the_last_hand_not_from_the_start_of_the_night(ctx):
    start = datetime(2026, 11, 21, 9, 0)
    night = night_with_game(start, [start + timedelta(hours=h) for h in (2, 6, 11)])
    next_morning = datetime(2026, 11, 22, 7, 30)  # 22.5 h after it began, 11.5 after its last hand
    assert nights.night_for(next_morning) is night


def test_a_night_with_no_hand_yet_counts_from_when_it_began(ctx):
    night = night_with_game(EVENING)
    assert nights.night_for(EVENING + timedelta(hours=2)) is night
    assert nights.night_for(EVENING + timedelta(hours=13)) is not night


def test_only_the_latest_night_can_be_joined(ctx):
    night_with_game(EVENING - timedelta(days=7), [EVENING])  # an old night, oddly recent hand
    latest = night_with_game(EVENING - timedelta(days=2))
    new = nights.night_for(EVENING + timedelta(hours=1))
    assert new is not latest and new.id is None  # a new night, not added yet


def test_a_night_dated_later_than_now_does_not_swallow_tonight(ctx):
    tonight = night_with_game(EVENING, [EVENING + timedelta(minutes=20)])
    night_with_game(datetime(2027, 1, 1))  # imported with a date still to come
    assert nights.night_for(EVENING + timedelta(hours=2)) is tonight


def test_hands_of_a_back_dated_game_do_not_keep_its_old_night_open(ctx):
    # Imported just now: its hands were stored now, but it was played in March.
    now = EVENING
    old = night_with_game(datetime(2026, 3, 7), [now - timedelta(minutes=5)],
                          played_on=date(2026, 3, 7), created_at=now - timedelta(minutes=5))
    assert nights.night_for(now) is not old


def test_a_game_dated_another_day_joins_that_days_night(ctx):
    march = night_with_game(datetime(2026, 3, 7, 20, 0), [datetime(2026, 3, 7, 21, 0)])
    night_with_game(EVENING, [EVENING])
    assert nights.night_for(EVENING, played_on=date(2026, 3, 7)) is march


def test_a_game_dated_a_day_without_a_night_gets_a_night_on_that_day(ctx):
    night_with_game(EVENING, [EVENING])
    new = nights.night_for(EVENING, played_on=date(2025, 6, 1))
    assert new.started_at == datetime(2025, 6, 1, 0, 0)


def log(played_on: str | None, names=("Ann", "Ben")) -> str:
    """Return a small finished penalty game log."""
    return json.dumps({"format": "kings-corners-game/1", "variant": "penalty",
                       "rules": {"target": 5}, "players": list(names), "played_on": played_on,
                       "rounds": [{"went_out": names[0], "hands": {names[1]: {"cards": 6}}}]})


def game_night(app, game_id: int) -> tuple[int, datetime]:
    """Return the id and start of the night a stored game is in."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        return game.night_id, game.night.started_at


def import_log(client, text: str) -> int:
    """Import a game log through the import page; return the new game's id."""
    response = client.post("/import", data={"text": text})
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_games_started_one_after_another_share_tonights_night(app, client):
    first = start_game(client)
    second = start_game(client, names=("Ann", "Dee"))
    assert game_night(app, first)[0] == game_night(app, second)[0]


def test_an_imported_game_with_an_old_date_does_not_join_tonights_night(app, client):
    tonight = start_game(client)
    old = import_log(client, log("2024-03-02"))
    again = start_game(client)
    assert game_night(app, old)[0] != game_night(app, tonight)[0]
    assert game_night(app, old)[1].date() == date(2024, 3, 2)
    assert game_night(app, again)[0] == game_night(app, tonight)[0]


def test_two_games_imported_for_the_same_day_share_that_days_night(app, client):
    first = import_log(client, log("2024-03-02"))
    second = import_log(client, log("2024-03-02", names=("Cy", "Dee")))
    other_day = import_log(client, log("2024-03-09"))
    assert game_night(app, first)[0] == game_night(app, second)[0] != game_night(app, other_day)[0]


def test_an_imported_game_dated_today_joins_tonights_night(app, client):
    tonight = start_game(client)
    imported = import_log(client, log(table_time().date().isoformat()))
    assert game_night(app, imported)[0] == game_night(app, tonight)[0]


def test_renaming_a_night_trims_the_name_and_keeps_the_notes_lines(ctx):
    night = night_with_game(EVENING)
    nights.rename(night, "  Ann's   birthday ", "Pizza.\r\nBen brought the good deck.\n")
    assert night.name == "Ann's birthday"
    assert night.notes == "Pizza.\nBen brought the good deck."
    assert history.label(night) == "Ann's birthday"


def test_an_empty_name_gives_the_night_its_date_back(ctx):
    night = night_with_game(EVENING)
    nights.rename(night, "Finals", "x")
    nights.rename(night, "   ", "")
    assert night.name is None and night.notes is None
    assert history.label(night) == "Sat 21 Nov 2026"


@pytest.mark.parametrize("name, notes, field", [
    ("x" * 81, "", "name"),
    ("Ann\x00", "", "name"),
    ("", "y" * 5001, "notes"),
])
def test_a_name_or_notes_that_cannot_be_kept_is_refused_naming_the_field(ctx, name, notes, field):
    night = night_with_game(EVENING)
    with pytest.raises(rules.RuleError) as refused:
        nights.rename(night, name, notes)
    assert refused.value.field == field
    assert night.name is None


def test_moving_a_game_puts_it_in_the_other_night_and_removes_the_emptied_one(ctx):
    last_week = night_with_game(EVENING - timedelta(days=7))
    wrong = night_with_game(EVENING)
    game = wrong.games[0]
    wrong_id = wrong.id
    assert nights.move_game(game, last_week) is last_week
    db.session.commit()
    assert game.night_id == last_week.id and len(last_week.games) == 2
    assert db.session.get(Night, wrong_id) is None


def test_a_night_with_notes_stays_when_its_last_game_moves_out(ctx):
    other = night_with_game(EVENING - timedelta(days=7))
    kept = night_with_game(EVENING)
    nights.rename(kept, "", "Power cut at nine")
    nights.move_game(kept.games[0], other)
    db.session.commit()
    assert db.session.get(Night, kept.id) is not None


def test_a_game_moved_to_a_night_of_its_own_gets_one_from_when_it_began(ctx):
    night = night_with_game(EVENING)
    second = Game(variant="penalty", settings=SETTINGS, night=night,
                  created_at=EVENING + timedelta(hours=2), played_on=EVENING.date())
    db.session.add(second)
    db.session.flush()
    own = nights.move_game(second, None)
    db.session.commit()
    assert own is not night and own.started_at == EVENING + timedelta(hours=2)
    assert night.games == [night.games[0]] and second not in night.games


def test_moving_a_game_into_the_night_it_is_in_is_refused(ctx):
    night = night_with_game(EVENING)
    with pytest.raises(rules.RuleError):
        nights.move_game(night.games[0], night)


def test_the_nights_to_move_to_are_the_nearest_ones_newest_first(ctx):
    made = [night_with_game(EVENING + timedelta(days=7 * i)) for i in range(9)]
    near = nights.neighbours(made[4])
    assert near == [made[7], made[6], made[5], made[3], made[2], made[1]]


def test_a_nights_summary_counts_wins_and_unfinished_games(app, client):
    from tests.helpers import hand_data

    players = ["Ann", "Ben", "Cy"]
    for _ in range(2):
        game_id = start_game(client, target=5)
        client.post(f"/games/{game_id}/hands/new",
                    data=hand_data(players, "Ann", {"Ben": 6, "Cy": 2}))
    start_game(client, names=("Cy", "Dee"))
    with app.app_context():
        night = db.session.scalars(db.select(Night)).one()
        summary = history.night_summary(night.id)
    assert summary.players == ("Ann", "Ben", "Cy", "Dee")
    assert summary.wins == (("Ann", 2),)
    assert summary.unfinished == 1


DOCS = [
    {"variant": "penalty", "players": ["Ann", "Ben", "Cy"], "first_dealer": "Ben",
     "rounds": [{"went_out": "Ann", "hands": {"Ben": {"cards": 3, "kings": 1}, "Cy": {"cards": 2}}},
                {"went_out": None, "hands": {"Ann": {"cards": 2}, "Ben": {"cards": 4},
                                             "Cy": {"cards": 2, "kings": 1}}}]},
    {"variant": "chips", "rules": {"preset": "jax"}, "players": ["Ann", "Ben"], "ended": True,
     "rounds": [{"went_out": "Ben", "hands": {"Ann": {"cards": 4, "kings": 1}},
                 "events": [{"player": "Ann", "kind": "pass"},
                            {"player": "Ben", "kind": "missed_draw"},
                            {"player": "Ann", "kind": "king_held"}]}]},
    {"variant": "coronation", "rules": {"deals_to_win": 2}, "players": ["Ann", "Ben"],
     "rounds": [{"corners": ["Ben", None, "Ann", "Ben"], "dragon": "Ben"}]},
]


def test_reading_many_games_at_once_gives_what_reading_each_gives_and_what_was_stored(app):
    from scorekeeper.db import read_game, read_games
    from scorekeeper.reports import gamelog
    from tests.helpers import store_log

    with app.app_context():
        logged = [gamelog.parse({"format": "kings-corners-game/1", **doc}).game for doc in DOCS]
        ids = [store_log(core).id for core in logged]
        db.session.commit()
        at_once = read_games(ids)
        for game_id, core in zip(ids, logged):
            assert at_once[game_id].core == read_game(game_id).core == core
            assert at_once[game_id].result == rules.play(core)
