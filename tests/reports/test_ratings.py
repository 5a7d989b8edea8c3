"""Skill ratings: worked by hand on small games, kept right after every kind of change, the
same whatever order the games were entered or corrected in, and rebuilt to the same figures."""

from __future__ import annotations

import math
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update

from scorekeeper import play, rules, variants
from scorekeeper.db import add_game
from scorekeeper.db.models import Player, RatingStep, Season
from scorekeeper.db.roster import player_for
from scorekeeper.extensions import db
from scorekeeper.reports import ratings
from scorekeeper.reports.calendar import NamedSeason, season_of
from scorekeeper.reports.ratings import figure
from tests.helpers import (
    CORONATION,
    DAY,
    DrawnTable,
    add,
    deal,
    finished,
    fresh,
    hand,
    make_app,
    stalemate,
    start_game,
)

MU, SIGMA, BETA, TAU = 25.0, 25 / 3, 25 / 6, 25 / 300  # OpenSkill's defaults


def steps(game_id: int) -> dict:
    """Return a game's stored steps (as rows) by player name."""
    rows = db.session.execute(select(*RatingStep.__table__.c, Player.name)
                              .join(Player, Player.id == RatingStep.player_id)
                              .where(RatingStep.game_id == game_id))
    return {row.name: row for row in rows}


def table() -> list[tuple]:
    """Return every stored step as plain values, in one order."""
    return sorted(tuple(row) for row in db.session.execute(select(*RatingStep.__table__.c)))


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield app


def test_a_two_player_coronation_worked_by_hand(ctx):
    # Ann crowns 5 corners to Ben's 2 in two deals of three (2 deals to win): Ann wins.
    names = ("Ann", "Ben")
    core = rules.Game("coronation", names, "Ann", CORONATION, (
        rules.Round(corners=("Ann", "Ann", "Ben", None), dragon="Ann"),
        rules.Round(corners=("Ann", "Ann", "Ann", "Ben"), dragon="Ann")))
    with play.changing() as change:
        game_id = add_game(core, [player_for(n) for n in names], played_on=DAY, night=None)
        change.games(game_id)
    db.session.commit()
    # Both start at mu 25, sigma 25/3; the game first widens sigma by tau: s2 = sigma^2 +
    # tau^2. c^2 = 2 (s2 + beta^2). Even ratings: each wins with p = 1/2, so the winner gains
    # s2 / c x (1 - 1/2) and the loser loses as much; each sigma^2 shrinks by a factor
    # 1 - gamma x s2 / c^2 x p (1 - p), gamma = sqrt(s2) / c.
    s2 = SIGMA ** 2 + TAU ** 2
    c = math.sqrt(2 * (s2 + BETA ** 2))
    gain = s2 / c * 0.5
    sigma = math.sqrt(s2 * (1 - math.sqrt(s2) / c * s2 / c ** 2 * 0.25))
    assert round(gain, 4) == 2.6354 and round(sigma, 4) == 8.0659
    stored = steps(game_id)
    assert stored["Ann"].mu_after == pytest.approx(MU + gain)
    assert stored["Ben"].mu_after == pytest.approx(MU - gain)
    assert stored["Ann"].sigma_after == pytest.approx(sigma)
    # Shown: 1000 + 40 (mu - 3 sigma): Ann 1000 + 40 x 3.438 = 1138, Ben 1000 - 40 x 1.833 = 927.
    changes = ratings.game_changes(game_id)
    assert [(c.name, c.place, c.before, c.after, c.change) for c in changes] == [
        ("Ann", 1, 1000, 1138, 138), ("Ben", 2, 1000, 927, -73)]
    assert all(c.provisional and not c.upset for c in changes)
    assert [(r.name, r.figure) for r in ratings.roster("coronation")] == [("Ann", 1138),
                                                                          ("Ben", 927)]


def test_players_who_tie_share_their_place_and_their_rating(ctx):
    game_id = finished([["Ann", "Ben"], ["Cy"]])
    stored = steps(game_id)
    assert [stored[n].place for n in ("Ann", "Ben", "Cy")] == [1, 1, 3]
    assert stored["Ann"].mu_after == stored["Ben"].mu_after > MU > stored["Cy"].mu_after
    assert stored["Ann"].sigma_after == stored["Ben"].sigma_after
    shown = {c.name: c.after for c in ratings.game_changes(game_id)}
    assert shown["Ann"] == shown["Ben"] > shown["Cy"]
    # All three level next: a draw with a weaker player costs Ann and Ben alike, Cy gains.
    level = steps(finished([["Ann", "Ben", "Cy"]], at=1))
    assert level["Ann"].mu_after == level["Ben"].mu_after < stored["Ann"].mu_after
    assert level["Cy"].mu_after > stored["Cy"].mu_after


def test_a_six_player_game_worked_by_hand(ctx):
    order = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]
    game_id = finished([[name] for name in order])
    # Plackett-Luce, all at mu 25: c^2 = 6 (s2 + beta^2). The winner is picked first from all
    # six (p = 1/6): gains s2/c x (1 - 1/6). The last was "not picked" from 6, 5, 4, 3, 2
    # players and then is the one left: s2/c x (1 - (1/6 + 1/5 + 1/4 + 1/3 + 1/2 + 1)).
    s2 = SIGMA ** 2 + TAU ** 2
    c = math.sqrt(6 * (s2 + BETA ** 2))
    stored = steps(game_id)
    assert stored["Ann"].mu_after - MU == pytest.approx(s2 / c * 5 / 6)
    assert stored["Flo"].mu_after - MU == pytest.approx(s2 / c * (1 - 2.45))
    assert round(s2 / c * 5 / 6, 3) == 2.536 and round(s2 / c * -1.45, 3) == -4.412
    mus = [stored[name].mu_after for name in order]
    assert mus == sorted(mus, reverse=True) and sum(mus) == pytest.approx(6 * MU)
    changes = ratings.game_changes(game_id)
    assert [c.name for c in changes] == order and [c.place for c in changes] == [1, 2, 3, 4, 5,
                                                                               6]
    assert [c.after for c in changes] == sorted((c.after for c in changes), reverse=True)


def test_a_rating_is_provisional_until_ten_games_of_its_variant(ctx):
    for n in range(10):
        finished([["Ann"], ["Ben"]], DAY + timedelta(days=n))
        line = ratings.player_line(player_for("Ann").id, "penalty")
        assert len(line) == n + 1 and line[-1].games == n + 1
        assert line[-1].provisional == (n + 1 < 10)
    assert not ratings.player_ratings(player_for("Ann").id)["penalty"].provisional
    line = ratings.player_line(player_for("Ann").id, "penalty")
    assert [p.figure for p in line] == sorted(p.figure for p in line)  # she won every game
    assert line[0].change == line[0].figure - 1000 and all(p.change > 0 for p in line)


def test_a_new_season_widens_sigma_without_resetting_the_rating(ctx):
    december = finished([["Ann"], ["Ben"]], date(2025, 12, 31))
    january = finished([["Ben"], ["Ann"]], date(2026, 1, 1))
    later = finished([["Ann"], ["Ben"]], date(2026, 1, 8))
    before, first, second = steps(december)["Ann"], steps(january)["Ann"], steps(later)["Ann"]
    assert (before.season, first.season, second.season) == ("2025", "2026", "2026")
    assert first.mu_before == before.mu_after  # kept: not reset
    assert first.sigma_before == pytest.approx(math.hypot(before.sigma_after, 25 / 24))
    assert first.sigma_before > before.sigma_after
    assert second.sigma_before == first.sigma_after  # the season's second game: no widening
    assert [p.game_id for p in ratings.player_line(player_for("Ann").id, "penalty",
                                                   season="2026")] == [january, later]
    assert ratings.seasons() == ["2025", "2026"]
    # Named by the table, one winter league from December to February: no new season on the
    # first of January, once the ratings are computed again.
    db.session.add(Season(name="Winter league", first_day=date(2025, 12, 1),
                          last_day=date(2026, 2, 28)))
    ratings.rebuild()
    assert steps(january)["Ann"].sigma_before == steps(december)["Ann"].sigma_after
    assert steps(january)["Ann"].season == "Winter league"


def test_which_season_a_day_falls_in():
    league = NamedSeason("Winter league", date(2025, 12, 1), date(2026, 2, 28))
    cup = NamedSeason("Christmas cup", date(2025, 12, 20), date(2025, 12, 31))
    assert season_of(date(2025, 11, 30), [league, cup]) == "2025"
    assert season_of(date(2025, 12, 1), [league, cup]) == "Winter league"
    assert season_of(date(2025, 12, 24), [league, cup]) == "Christmas cup"  # began later
    assert season_of(date(2026, 2, 28), [league, cup]) == "Winter league"
    assert season_of(date(2026, 3, 1), [league, cup]) == "2026"
    assert figure(MU, SIGMA) == 1000  # a newcomer


def test_a_correction_of_an_old_game_changes_every_rating_after_it(ctx):
    first = finished([["Ann"], ["Ben"], ["Cy"]], DAY)
    second = finished([["Ben"], ["Cy"]], DAY + timedelta(days=7))
    third = finished([["Cy"], ["Ann"]], DAY + timedelta(days=14))
    unrelated = finished([["Dee"], ["Eve"]], DAY + timedelta(days=14), at=5)
    was = table()
    old = {name: step.mu_before for name, step in steps(third).items()}
    cy = steps(second)["Cy"].mu_before
    dee = steps(unrelated)["Dee"].mu_after
    # Hand 1 of the first game corrected: Cy went out, Ann held 3 cards, Ben 2.
    fixed = rules.Round("Cy", {"Ann": rules.Hand(3), "Ben": rules.Hand(2)})
    entry = variants.get("penalty").round_values(["Ann", "Ben", "Cy"], fixed)
    play.correct(first, 1, {**entry, "number": "1"}, None)
    assert [c.name for c in ratings.game_changes(first)] == ["Cy", "Ben", "Ann"]
    assert steps(second)["Cy"].mu_before > cy  # first, not last, in the first game now
    new = {name: step.mu_before for name, step in steps(third).items()}
    assert new["Cy"] > old["Cy"] and new["Ann"] < old["Ann"]  # the third game starts elsewhere
    assert steps(unrelated)["Dee"].mu_after == dee  # their games did not move
    assert table() != was and ratings.check() == []


def test_an_upset_is_finishing_ahead_of_someone_rated_higher(ctx):
    for n in range(3):
        finished([["Ann"], ["Ben"]], DAY + timedelta(days=n))
    game_id = finished([["Cy"], ["Ben"], ["Ann"]], DAY + timedelta(days=5))
    changes = {c.name: c for c in ratings.game_changes(game_id)}
    assert changes["Ann"].before > changes["Cy"].before  # Ann had won three games
    assert changes["Cy"].upset and changes["Ben"].upset  # Ben too finished ahead of Ann
    assert not changes["Ann"].upset
    assert changes["Ann"].change < 0 < changes["Cy"].change


def test_deleting_reopening_and_merging_keep_the_ratings_right(ctx):
    first = finished([["Ann"], ["Ben"]], DAY)
    second = finished([["annie"], ["Cy"]], DAY + timedelta(days=1))
    third = finished([["Ben"], ["Ann"], ["Cy"]], DAY + timedelta(days=2))
    play.merge_players(player_for("Ann").id, player_for("annie").id)
    assert ratings.check() == []
    assert [p.game_id for p in ratings.player_line(player_for("Ann").id, "penalty")] == [
        first, second, third]
    play.set_ended(second, False)  # reopened: not finished, not rated
    assert ratings.game_changes(second) == [] and ratings.check() == []
    play.delete_game(first)
    assert ratings.check() == []
    assert ratings.player_line(player_for("Ann").id, "penalty")[0].game_id == third
    assert steps(third)["Ann"].games == 1


def test_check_reports_a_tampered_rating_and_rebuild_mends_it(app, runner):
    with app.app_context():
        game_id = finished([["Ann"], ["Ben"]])
        db.session.execute(update(RatingStep).values(mu_after=30.0))
        db.session.commit()
    checked = runner.invoke(args=["results", "check"])
    assert checked.exit_code == 1 and f"game {game_id}: a rating differs" in checked.output
    assert runner.invoke(args=["results", "rebuild"]).exit_code == 0
    assert runner.invoke(args=["results", "check"]).exit_code == 0
    with app.app_context():
        assert steps(game_id)["Ann"].mu_after != 30.0


# The same games, entered and corrected in different orders: one set of ratings. (No
# shrinking in these two: each example builds a database or two, and on a busy machine
# shrinking one failure took minutes; a failure is shown as drawn.)
GAME = st.tuples(st.lists(st.sampled_from(["Ann", "Ben", "Cy", "Dee", "Eve"]), min_size=2,
                          max_size=4, unique=True),
                 st.lists(st.integers(0, 2), min_size=4, max_size=4),  # each one's group
                 st.integers(0, 3))  # the day


def build(path, games, order, noise) -> list[tuple]:
    """Store the games unfinished, then end them in `order`; a game in `noise` is first
    ended with its hand the wrong way round, then corrected, then reopened and ended again.
    Return the stored ratings, after checking them against a rebuild."""
    app = make_app(path)
    with app.app_context():
        ids = []
        for index, (names, groups, day) in enumerate(games):
            ranks = sorted({groups[i] for i in range(len(names))})
            order_of = [[n for i, n in enumerate(names) if groups[i] == r] for r in ranks]
            wrong = list(reversed(order_of)) if index in noise else order_of
            ids.append(add(wrong, DAY + timedelta(days=day), ended=False, at=index,
                           seats=names))
        db.session.commit()
        for index in order:
            game_id = ids[index]
            play.set_ended(game_id, True)
            if index in noise:
                names, groups, _ = games[index]
                ranks = sorted({groups[i] for i in range(len(names))})
                right = stalemate([[n for i, n in enumerate(names) if groups[i] == r]
                                   for r in ranks])
                entry = variants.get("penalty").round_values(list(names), right)
                play.correct(game_id, 1, {**entry, "number": "1"}, None)
                play.set_ended(game_id, False)
                play.set_ended(game_id, True)
        assert ratings.check() == []
        stored = table()
        db.session.remove()
        db.engine.dispose()
    return stored


@settings(max_examples=12, deadline=None, phases=[Phase.generate], suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(games=st.lists(GAME, min_size=2, max_size=5), data=st.data())
def test_the_same_games_in_any_order_of_edits_give_the_same_ratings(tmp_path_factory, games,
                                                                    data):
    count = len(games)
    one = data.draw(st.permutations(range(count)))
    other = data.draw(st.permutations(range(count)))
    noise = data.draw(st.sets(st.integers(0, count - 1)))
    folder = tmp_path_factory.mktemp("orders")
    straight = build(folder / "one.sqlite", games, one, set())
    assert straight and build(folder / "other.sqlite", games, other, noise) == straight


POOL = ["Ann", "Ben", "Cy", "annie"]
table_step = st.one_of(
    st.tuples(st.just("start"), st.sampled_from(["penalty", "chips", "coronation"]),
              st.lists(st.sampled_from(POOL), min_size=2, max_size=3, unique=True)),
    st.tuples(st.just("play"), st.integers(0, 5), hand, deal),
    st.tuples(st.just("edit"), st.integers(0, 5), hand, deal),
    st.tuples(st.just("end"), st.integers(0, 5)),
    st.tuples(st.just("reopen"), st.integers(0, 5)),
    st.tuples(st.just("merge"), st.integers(1, 4), st.integers(1, 4)),
    st.tuples(st.just("delete"), st.integers(0, 5)),
)


@settings(max_examples=15, deadline=None, phases=[Phase.generate], suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(steps_=st.lists(table_step, min_size=2, max_size=14))
def test_after_every_change_the_ratings_equal_a_rebuild(kept_apps, steps_):
    app = fresh(kept_apps, csrf=False)
    table = DrawnTable(app.test_client(), {"coronation": {"deals_to_win": 1},
                                           "penalty": {"target": 10}})
    for drawn in steps_:
        kind = drawn[0]
        pick = table.pick(drawn[1]) if kind not in ("start", "merge") else None
        if kind == "start":
            table.start(drawn[1], drawn[2])
        elif kind in ("play", "edit") and pick:
            table.hand(pick, drawn[2], drawn[3], edit=kind == "edit")
        elif kind in ("end", "reopen") and pick:
            table.client.post(f"/games/{pick[0]}/{kind}")
        elif kind == "merge":
            table.merge(drawn[1], drawn[2])
        elif kind == "delete" and pick:
            table.delete(pick)
        with app.app_context():
            assert ratings.check() == [], drawn
            db.session.remove()
    with app.app_context():
        db.engine.dispose()


def test_import_and_restore_rate_the_games_they_bring(app, client, tmp_path):
    import io

    game_id = start_game(client, ["Ann", "Ben"], variant="coronation", deals_to_win=1)
    client.post(f"/games/{game_id}/hands/new", data={
        "number": "1", "token": "", "corner-0": "0", "corner-1": "0", "corner-2": "0",
        "corner-3": "1", "dragon": "0"})
    log = client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    assert client.post("/import", data={"text": log}).status_code == 302
    with app.app_context():
        assert ratings.check() == []
        assert ratings.player_ratings(player_for("Ann").id)["coronation"].games == 2
    backup = client.get("/backup/download").get_data(as_text=True)
    other = make_app(tmp_path / "other.sqlite")
    assert other.test_client().post(
        "/backup/restore", data={"file": (io.BytesIO(backup.encode()), "b.json")},
        content_type="multipart/form-data").status_code == 302
    with other.app_context():
        assert ratings.check() == [] and len(table()) == 4
        db.engine.dispose()


def test_upgrading_rates_the_games_already_played(tmp_path):
    from flask_migrate import downgrade, upgrade

    from tests.helpers import migrated_app

    app = migrated_app(f"sqlite:///{tmp_path / 'rated.sqlite'}")
    with app.app_context():
        finished([["Ann"], ["Ben"]])
        downgrade(revision="0009")  # as a database from before the ratings
        upgrade()
        assert ratings.check() == [] and len(table()) == 2
        db.session.remove()
        db.engine.dispose()


def test_ratings_are_kept_on_postgresql_too(pg_app):
    with pg_app.app_context():
        first = finished([["Ann"], ["Ben", "Cy"]], DAY)
        finished([["Cy"], ["Ann"]], DAY + timedelta(days=1))
        fixed = rules.Round("Cy", {"Ann": rules.Hand(3), "Ben": rules.Hand(2)})
        entry = variants.get("penalty").round_values(["Ann", "Ben", "Cy"], fixed)
        play.correct(first, 1, {**entry, "number": "1"}, None)
        assert [c.name for c in ratings.game_changes(first)] == ["Cy", "Ben", "Ann"]
        assert ratings.check() == [] and len(ratings.roster("penalty")) == 3
        db.session.remove()
