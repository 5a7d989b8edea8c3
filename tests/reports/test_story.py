"""The story of a night: who won most, and the winning runs it stretched or ended."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import select, update

from scorekeeper.db.models import Game, Night
from scorekeeper.extensions import db
from scorekeeper.reports import story as story_module
from scorekeeper.reports.story import night_story
from tests.helpers import hand_data, start_game

NAMES = ["Ann", "Ben", "Cy"]


def won_by(client, winner: str, names=NAMES) -> int:
    """Play a penalty game to 25 that `winner` wins in one hand; return its id."""
    game_id = start_game(client, names, target=25)
    others = {name: (13, 2) for name in names if name != winner}  # 31 points each: over
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(list(names), winner, others, number=1))
    return game_id


def on_night(app, game_ids, day: int) -> int:
    """Put games on a night of their own, one evening, in the order given; return it."""
    with app.app_context():
        night = Night(started_at=datetime(2026, 11, day, 20, 0))
        db.session.add(night)
        db.session.flush()
        night = night.id
        for minute, game_id in enumerate(game_ids):
            db.session.execute(update(Game).where(Game.id == game_id).values(
                night_id=night, created_at=datetime(2026, 11, day, 20, minute)))
        db.session.commit()
    return night


def story(app, night: int) -> list[str]:
    with app.test_request_context():
        return night_story(night)


@pytest.mark.parametrize("window", [64, 2])  # a run longer than what is read at a time too
def test_who_won_most_and_the_run_they_ended(app, client, monkeypatch, window):
    monkeypatch.setattr(story_module, "WINDOW", window)
    first = [won_by(client, "Ann") for _ in range(4)]  # Ann wins 4 in a row
    night_one = on_night(app, first, 20)
    assert story(app, night_one) == ["Ann won 4 of 4 games", "Ann has won 4 in a row"]
    second = [won_by(client, w) for w in ("Ann", "Cy", "Cy", "Ben", "Cy")]
    night_two = on_night(app, second, 27)
    # Ann's run reached 5, and Cy's win ended it; Cy won most.
    assert story(app, night_two) == ["Cy won 3 of 5 games", "Cy ended Ann's 5-game run"]
    # The first night's story is the same as before: it is told up to its own last game.
    assert story(app, night_one) == ["Ann won 4 of 4 games", "Ann has won 4 in a row"]


def test_a_correction_of_an_old_hand_rewrites_the_story(app, client):
    games = [won_by(client, "Ben") for _ in range(3)]
    night = on_night(app, games, 20)
    assert story(app, night)[-1] == "Ben has won 3 in a row"
    # The second game's hand corrected: Cy went out, not Ben.
    client.post(f"/games/{games[1]}/hands/1/edit",
                data=hand_data(NAMES, "Cy", {"Ann": (13, 2), "Ben": (13, 2)}, number=1))
    assert story(app, night) == ["Ben won 2 of 3 games"]


def test_a_night_with_nothing_finished_has_no_story(app, client):
    start_game(client, NAMES)
    assert story(app, 1) == []


def test_the_night_s_page_tells_it_and_offers_its_picture(app, client):
    games = [won_by(client, "Cy") for _ in range(3)]
    night = on_night(app, games, 20)
    page = client.get(f"/history/nights/{night}").get_data(as_text=True)
    assert "<li>Cy won 3 of 3 games</li>" in page and "<li>Cy has won 3 in a row</li>" in page
    assert f'href="/history/nights/{night}/card.png" download=' in page


def night_of(app, game_id: int) -> int:
    with app.app_context():
        return db.session.get(Game, game_id).night_id


def test_a_record_the_night_set_is_told_and_one_it_only_equalled_is_not(app, client):
    from tests.helpers import import_log

    def left_holding(day: str, kings: int, went_out: str = "Ben") -> int:
        others = [name for name in NAMES if name != went_out]
        return import_log(app, "penalty", NAMES, [{"went_out": went_out, "hands": {
            others[0]: {"cards": 4, "kings": kings}, others[1]: {"cards": 1}}}], day,
            target=20)

    first = night_of(app, left_holding("2026-01-05", 2))  # Ann 2: nothing before to beat
    second = night_of(app, left_holding("2026-01-12", 3))  # Ann 3: beats her 2
    third = night_of(app, left_holding("2026-01-19", 3, went_out="Ann"))  # Ben 3: equals
    assert story(app, first) == ["Ben won 1 of 1 game"]
    assert story(app, second) == [
        "Ben won 1 of 1 game",
        "Ann was left holding 3 kings in one hand: the table's penalty points record"]
    assert story(app, third) == ["Ann won 1 of 1 game"]
    page = client.get(f"/history/nights/{second}", headers={"Accept-Language": "es"})
    assert ("Ann se quedó con 3 reyes sin bajar en una mano: el récord de la mesa en puntos "
            "de castigo") in page.get_data(as_text=True)


def test_the_biggest_rise_of_a_settled_rating_is_told(app, client):
    from scorekeeper.reports.ratings import player_line
    from tests.helpers import import_log

    def beats(day: str, winner: str, loser: str) -> int:
        return import_log(app, "penalty", [winner, loser], [
            {"went_out": winner, "hands": {loser: {"cards": 25}}}], day)

    for day in range(1, 10):  # nine games each: provisional, nothing told
        beats(f"2026-02-{day:02d}", "Ann", "Ben")
    ninth = night_of(app, beats("2026-02-10", "Ann", "Ben"))  # the tenth: settled now
    with app.test_request_context():
        line = player_line(1, "penalty")
    before, after = line[-2].figure, line[-1].figure
    assert after > before
    assert story(app, ninth)[-1] == (
        f"Ann's penalty points rating rose {after - before} to {after}")
    assert story(app, night_of(app, 1)) == ["Ann won 1 of 1 game"]  # provisional: no line
    page = client.get(f"/history/nights/{ninth}", headers={"Accept-Language": "es"})
    assert (f"La puntuación de Ann en puntos de castigo subió {after - before}, hasta {after}"
            in page.get_data(as_text=True))


def test_the_rise_told_is_the_move_the_player_s_page_shows_across_a_new_season(app, client):
    """A new season's first game widens a rating before it counts (ratings.SEASON_TAU): the
    story tells the move from the rating the player's page showed before the night, not
    from the widened one."""
    from scorekeeper.reports.ratings import player_line
    from tests.helpers import import_log

    def beats(day: str) -> int:
        return import_log(app, "penalty", ["Ann", "Ben"], [
            {"went_out": "Ann", "hands": {"Ben": {"cards": 25}}}], day)

    for day in range(1, 10):
        beats(f"2025-02-{day:02d}")
    night = night_of(app, beats("2026-02-10"))  # the tenth, settled, in a new season
    with app.test_request_context():
        line = player_line(1, "penalty")
    before, after = line[-2].figure, line[-1].figure  # as Ann's page draws them
    assert line[-1].change != after - before  # the season's widening is in the game's own
    assert story(app, night)[-1] == f"Ann's penalty points rating rose {after - before} to {after}"


def runs_count_games_in_the_order_played_as_a_player_s_page_does(app, client) -> None:
    """A loss entered late but played between two nights breaks the run the story tells,
    as it breaks the run on the player's page: both count in the order played."""
    from scorekeeper.db.models import Player
    from scorekeeper.reports import ratings

    def played(game_ids, day):
        with app.app_context():
            db.session.execute(update(Game).where(Game.id.in_(game_ids))
                               .values(played_on=datetime(2026, 11, day).date()))
            db.session.commit()

    early = [won_by(client, "Ann") for _ in range(2)]
    played(early, 1)
    on_night(app, early, 1)
    late = [won_by(client, "Ann") for _ in range(2)]
    played(late, 12)
    night = on_night(app, late, 12)
    assert story(app, night)[-1] == "Ann has won 4 in a row"
    lost = won_by(client, "Ben")  # entered after both nights, played between them
    played([lost], 5)
    assert story(app, night) == ["Ann won 2 of 2 games"]  # a run of 2 is not told
    with app.app_context():
        ratings.rebuild()  # the days were set by hand: the steps learn them as `results
        db.session.commit()  # rebuild` would teach them
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
        ann_s = ratings.played(ann)
        assert (ann_s.longest_run, ann_s.current_run) == (2, 2)


def test_the_runs_count_games_in_the_order_played_as_a_player_s_page_does(app, client):
    runs_count_games_in_the_order_played_as_a_player_s_page_does(app, client)


def test_the_same_order_on_postgresql(pg_app):
    runs_count_games_in_the_order_played_as_a_player_s_page_does(pg_app, pg_app.test_client())
