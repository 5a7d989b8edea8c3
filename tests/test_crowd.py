"""A night for a crowd without the web (scorekeeper/crowd.py): started, seated round after
round, its standings and its winner; every refusal names its field and writes nothing."""

from __future__ import annotations

import pytest

from scorekeeper import crowd, play, rules
from scorekeeper.db.models import Game
from scorekeeper.extensions import db
from scorekeeper.reports import crowd as reading
from tests.helpers import ELEVEN, play_out


@pytest.fixture(autouse=True)
def inside(app):
    with app.app_context():
        yield


def everything() -> dict[str, list]:
    return {table.name: sorted(map(tuple, db.session.execute(table.select())), key=repr)
            for table in db.metadata.sorted_tables}


def plan(names=ELEVEN, **more) -> crowd.Plan:
    return crowd.Plan(**{"names": names, "variant": "penalty", "settings": {},
                         "table_size": 4, **more})


def test_eleven_players_sit_at_three_tables_of_one_night():
    crowd_id = crowd.start(plan(), seed=1)
    view = reading.night(crowd_id)
    assert view.round == 1
    assert [len(t.players) for t in view.tables] == [4, 4, 3]
    assert sorted(n for t in view.tables for n in t.players) == sorted(ELEVEN)
    assert len({db.session.get(Game, t.game_id).night_id for t in view.tables}) == 1


def test_progressive_rounds_move_winners_up_to_the_nights_winner():
    crowd_id = crowd.start(plan(rounds=3), seed=2)
    for number in (1, 2, 3):
        view = reading.night(crowd_id)
        orders = [play_out(t.game_id) for t in view.tables]  # seat order is finishing order
        if number < 3:
            assert crowd.next_round(crowd_id, number, seed=number) == crowd.NextRound(
                number + 1, (1, 2, 3))
            after = reading.night(crowd_id)
            where = {n: t.number for t in after.tables for n in t.players}
            assert where[orders[1][0]] == 1  # table 2's winner moved up
            assert where[orders[0][-1]] == 2  # table 1's last moved down
            assert where[orders[0][0]] == 1  # the top table's winner stays
    view = reading.night(crowd_id)
    assert view.over
    top = view.standings[0]
    assert view.winners == [top.name]
    assert sum(line.games for line in view.standings) == 33
    with pytest.raises(rules.RuleError) as refused:
        crowd.next_round(crowd_id, 3)
    assert refused.value.field == "round"


def test_the_next_round_waits_for_every_table_and_says_which_plays():
    crowd_id = crowd.start(plan(), seed=3)
    view = reading.night(crowd_id)
    play_out(view.tables[0].game_id)
    before = everything()
    with pytest.raises(rules.RuleError) as refused:
        crowd.next_round(crowd_id, 1)
    assert "table 2, 3 is still playing" in refused.value.message
    db.session.rollback()
    assert everything() == before


def test_a_second_next_round_seats_nothing():
    crowd_id = crowd.start(plan(moving="redraw"), seed=4)
    for table in reading.night(crowd_id).tables:
        play_out(table.game_id)
    assert crowd.next_round(crowd_id, 1).started
    before = everything()
    assert crowd.next_round(crowd_id, 1) == crowd.NextRound(2)
    assert everything() == before


@pytest.mark.parametrize(("given", "field", "words"), [
    ({"names": ELEVEN[:4]}, "players", "at least 5 players"),
    ({"names": [*ELEVEN[:5], "ann"]}, "players", "ann is named twice"),
    ({"table_size": 7}, "table_size", "2 to 6 players"),
    ({"variant": "coronation", "table_size": 4}, "table_size", "2 to 2 players"),
    ({"rounds": "0"}, "rounds", ""),
    ({"seating": "hand", "by_hand": [ELEVEN[:6], ELEVEN[5:]]}, "tables", "Fay is seated twice"),
    ({"names": ["Ann", ""]}, "players[1]", "empty"),
])
def test_a_night_that_cannot_be_started_names_its_field_and_writes_nothing(given, field,
                                                                            words):
    before = everything()
    with pytest.raises(rules.RuleError) as refused:
        crowd.start(plan(**given))
    assert refused.value.field == field and words in refused.value.message
    db.session.rollback()
    assert everything() == before


def test_seated_by_hand_and_by_rating():
    by_hand = crowd.start(plan(names=ELEVEN[:6], seating="hand",
                               by_hand=[["ann", "Ben", "Cy"], ["Dee", "Eve", "Fay"]]))
    assert [t.players for t in reading.night(by_hand).tables] == [
        ("Ann", "Ben", "Cy"), ("Dee", "Eve", "Fay")]
    rated = crowd.start(plan(names=ELEVEN[:8], seating="rating"), seed=5)
    assert [len(t.players) for t in reading.night(rated).tables] == [4, 4]


def test_the_night_can_end_after_the_round_being_played():
    crowd_id = crowd.start(plan(), seed=6)
    assert not reading.night(crowd_id).last_round
    assert crowd.end_after_this_round(crowd_id) == 1
    for table in reading.night(crowd_id).tables:
        play_out(table.game_id)
    assert reading.night(crowd_id).winners
    with pytest.raises(rules.RuleError):
        crowd.set_rounds(crowd_id, "0")
    assert crowd.set_rounds(crowd_id, "2") == 2
    assert not reading.night(crowd_id).over


def test_a_joined_phone_is_seated_at_its_table_every_round():
    from scorekeeper.db import phone_parts
    crowd_id = crowd.start(plan(names=ELEVEN[:6]), seed=7)
    kit = dict((name, pid) for pid, name in reading.night(crowd_id).players)["Eve"]
    assert crowd.join(crowd_id, kit, "phone-eve", "iPhone", False).taken
    assert not crowd.join(crowd_id, kit, "phone-two", "Pixel", False).taken
    for round_number in (1, 2):
        view = reading.night(crowd_id)
        at = reading.seat_of(view, "Eve")
        assert phone_parts.seat_of(at.game_id, "phone-eve") == at.seat - 1
        for table in view.tables:
            play_out(table.game_id)
        crowd.next_round(crowd_id, round_number)


def test_a_table_of_a_crowd_night_is_an_ordinary_game():
    crowd_id = crowd.start(plan(names=ELEVEN[:5]), seed=8)
    game_id = reading.night(crowd_id).tables[0].game_id
    rematch = play.rematch(game_id)
    assert rematch.started is None  # not over: nothing to rematch
    play.delete_game(game_id)
    assert len(reading.night(crowd_id).tables) == 1


def shown(crowd_id):
    view = reading.night(crowd_id)
    return (view.crowd.moving, view.crowd.rounds, view.round, [n for _, n in view.players],
            {r: [t.players for t in tables] for r, tables in view.rounds.items()},
            [(s.name, s.points, s.wins) for s in view.standings], view.winners)


def test_a_backup_keeps_the_crowd_night_and_restores_it(guarded_app):
    import io

    from scorekeeper.reports import backup
    crowd_id = crowd.start(plan(names=ELEVEN[:7], rounds=2), seed=9)
    for number in (1, 2):
        for table in reading.night(crowd_id).tables:
            play_out(table.game_id)
        if number == 1:
            crowd.next_round(crowd_id, 1)
    before = shown(crowd_id)
    text = backup.text()
    with guarded_app.app_context():
        play.restore(io.BytesIO(text.encode()))
        from scorekeeper.db import crowds
        restored = crowds.of_night(db.session.scalar(db.select(Game.night_id)))
        assert shown(restored.id) == before
        assert backup.text() == text


def test_a_merged_player_keeps_their_place_at_the_night():
    from scorekeeper.db.models import Player
    crowd_id = crowd.start(plan(names=[*ELEVEN[:4], "Zed"]), seed=10)
    play.new_game("penalty", {}, ["Zedd", "Ida"], 0)
    ids = {p.name: p.id for p in db.session.query(Player)}
    play.merge_players(ids["Zedd"], ids["Zed"])
    names = [name for _, name in reading.night(crowd_id).players]
    assert "Zedd" in names and "Zed" not in names and len(names) == 5


def test_a_game_started_another_way_never_joins_a_crowd_night():
    crowd_id = crowd.start(plan(names=ELEVEN[:5]), seed=11)
    tables = reading.night(crowd_id).tables
    crowd_night = db.session.get(Game, tables[0].game_id).night_id
    other = play.new_game("penalty", {}, ["Ann", "Zoe"], 0)
    assert db.session.get(Game, other).night_id != crowd_night
    assert db.session.get(Game, play.new_game("penalty", {}, ["Cy", "Zoe"], 0)).night_id == \
        db.session.get(Game, other).night_id


TWELVE = [*ELEVEN, "Lu"]


def test_a_late_table_holds_the_next_round_for_its_players_alone():
    crowd_id = crowd.start(plan(names=TWELVE, rounds=2), seed=7)
    first = reading.night(crowd_id).tables
    orders = [play_out(t.game_id) for t in first[:2]]  # table 3 is late
    asked = crowd.next_round(crowd_id, 1, seed=1)
    assert asked == crowd.NextRound(2, (1,), (2, 3))  # table 1 takes tables 1 and 2 only
    view = reading.night(crowd_id)
    assert [(t.round, t.number) for t in view.tables] == [(2, 1), (1, 2), (1, 3)]
    assert sorted(view.tables[0].players) == sorted([*orders[0][:3], orders[1][0]])
    assert not view.complete and view.waiting == [2, 3] and view.after == 1
    # Table 2's last goes down to table 3: it waits for table 3; so does table 3's winner.
    assert reading.waits_for(view, orders[1][-1]) == [3]
    assert reading.waits_for(view, orders[0][0]) is None  # seated
    before = everything()
    with pytest.raises(rules.RuleError) as refused:  # nothing more can be seated yet
        crowd.next_round(crowd_id, 1)
    assert "table 3 is still playing" in refused.value.message
    db.session.rollback()
    assert everything() == before
    late = play_out(first[2].game_id)
    assert crowd.next_round(crowd_id, 1, seed=2) == crowd.NextRound(2, (2, 3), ())
    assert crowd.next_round(crowd_id, 1) == crowd.NextRound(2)  # a second tap
    view = reading.night(crowd_id)
    assert view.complete and [t.round for t in view.tables] == [2, 2, 2]
    where = {n: t.number for t in view.tables for n in t.players}
    assert where[late[0]] == 2 and where[orders[1][-1]] == 3
    for table in view.tables[:2]:
        play_out(table.game_id)
    assert not reading.night(crowd_id).over and not reading.night(crowd_id).winners
    play_out(view.tables[2].game_id)
    assert reading.night(crowd_id).over and reading.night(crowd_id).winners


def test_the_same_tables_go_on_each_by_itself():
    crowd_id = crowd.start(plan(names=TWELVE, moving="same"), seed=8)
    first = reading.night(crowd_id).tables
    play_out(first[1].game_id)
    assert crowd.next_round(crowd_id, 1).seated == (2,)
    play_out(first[0].game_id)
    assert crowd.next_round(crowd_id, 1) == crowd.NextRound(2, (1,), (3,))
    assert {t.number: set(t.players) for t in reading.night(crowd_id).rounds[2]} == {
        1: set(first[0].players), 2: set(first[1].players)}
