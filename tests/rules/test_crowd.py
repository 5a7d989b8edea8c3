"""A night for a crowd: seating, moving between rounds, and the night's standings."""

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import RuleError, crowd

NAMES = [f"P{i}" for i in range(48)]

crowds = st.integers(2, 6).flatmap(
    lambda size: st.tuples(st.just(size), st.integers(size + 1, min(8 * size, 48))))


def everyone_once(tables, players):
    seated = [name for table in tables for name in table]
    return Counter(seated) == Counter(players)


@given(crowds, st.integers(0, 2**32))
def test_random_seating_seats_everyone_once_at_even_tables(crowd_size, seed):
    size, count = crowd_size
    players = NAMES[:count]
    try:
        sizes = crowd.table_sizes(count, size, 2, 6)
    except RuleError as error:
        assert error.field == "table_size"  # a table left too small
        return
    tables = crowd.seat_at_random(players, sizes, random.Random(seed))
    assert everyone_once(tables, players)
    assert 2 <= len(tables) <= 8
    assert max(map(len, tables)) - min(map(len, tables)) <= 1
    assert max(map(len, tables)) <= size and min(map(len, tables)) >= 2


@given(crowds, st.integers(0, 2**32))
def test_rating_seating_is_a_snake_draft(crowd_size, seed):
    size, count = crowd_size
    players = NAMES[:count]
    try:
        sizes = crowd.table_sizes(count, size, 2, 6)
    except RuleError:
        return
    rated = [(name, 2000 - i) for i, name in enumerate(players)]  # P0 best
    tables = crowd.seat_by_rating(rated, sizes, random.Random(seed))
    assert everyone_once(tables, players)
    assert [len(t) for t in tables] == sizes
    # The best few are spread one a table, and no table holds two of the top `tables`.
    top = set(players[:len(tables)])
    assert all(len(top & set(table)) == 1 for table in tables)


def test_twelve_players_balanced_by_rating_get_even_sums():
    rated = [(f"R{r}", r) for r in range(1200, 2400, 100)]
    tables = crowd.seat_by_rating(rated, [4, 4, 4], random.Random(1))
    sums = [sum(int(name[1:]) for name in table) for table in tables]
    assert max(sums) - min(sums) <= 200  # a random draw can be 1,600 apart


@given(crowds, st.integers(0, 2**32), st.sampled_from(crowd.MOVES))
def test_every_next_round_seats_everyone_once_at_the_same_sizes(crowd_size, seed, how):
    size, count = crowd_size
    players = NAMES[:count]
    try:
        sizes = crowd.table_sizes(count, size, 2, 6)
    except RuleError:
        return
    rng = random.Random(seed)
    tables = crowd.seat_at_random(players, sizes, rng)
    after = crowd.NEXT[how](tables, rng)
    assert everyone_once(after, players)
    assert [len(t) for t in after] == [len(t) for t in tables]


@given(crowds, st.integers(0, 2**32))
def test_progressive_moves_winners_up_and_lasts_down(crowd_size, seed):
    size, count = crowd_size
    try:
        sizes = crowd.table_sizes(count, size, 2, 6)
    except RuleError:
        return
    rng = random.Random(seed)
    finished = crowd.seat_at_random(NAMES[:count], sizes, rng)  # each in finishing order
    after = crowd.progressive(finished, rng)
    where = {name: i for i, table in enumerate(after) for name in table}
    bottom = len(finished) - 1
    for index, order in enumerate(finished):
        winner, last = order[0], order[-1]
        assert where[winner] == max(index - 1, 0)
        assert where[last] == min(index + 1, bottom)
        assert all(where[name] == index for name in order[1:-1])


def test_the_same_tables_pass_the_deal_on():
    assert crowd.same([["A", "B", "C"], ["D", "E"]], random.Random(0)) == [
        ["B", "C", "A"], ["E", "D"]]


@pytest.mark.parametrize(("count", "size", "field", "words"), [
    (4, 4, "players", "at least 5 players"),
    (5, 7, "table_size", "2 to 6 players, not 7"),
    (40, 4, "table_size", "more than 8 tables"),
    (5, 2, "table_size", "a table of 1"),
])
def test_a_crowd_that_cannot_be_seated_is_refused_naming_the_field(count, size, field, words):
    with pytest.raises(RuleError) as refused:
        crowd.table_sizes(count, size, 2, 6)
    assert refused.value.field == field and words in refused.value.message


def test_eleven_at_tables_of_four_sit_four_four_three():
    assert crowd.table_sizes(11, 4, 2, 6) == [4, 4, 3]


@pytest.mark.parametrize(("tables", "words"), [
    ([["A", "B"], ["C", "A"]], "A is seated twice"),
    ([["A", "B"], ["C"]], "D has no table"),
    ([["A", "B", "C", "D"], []], "2 to 8 tables, not 1"),
    ([["A", "B", "X"], ["C", "D"]], "X is not one of"),
])
def test_a_seating_by_hand_is_checked(tables, words):
    with pytest.raises(RuleError) as refused:
        crowd.check_by_hand(tables, ["A", "B", "C", "D"], 2, 6)
    assert words in refused.value.message and refused.value.field == "tables"


def test_four_at_a_table_score_three_two_one_nothing():
    assert crowd.place_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert crowd.place_points([1, 2, 2, 4]) == [3, Fraction(3, 2), Fraction(3, 2), 0]
    assert crowd.place_points([1, 2, 3]) == [3, Fraction(3, 2), 0]


@given(st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_a_games_points_add_up_to_one_and_a_half_a_player(raw):
    places = sorted(raw)
    places = [places.index(p) + 1 for p in places]  # tied places as a game numbers them
    points = crowd.place_points(places)
    assert sum(points) == Fraction(3, 2) * len(places)
    assert max(points) <= 3 and min(points) >= 0


def test_the_night_is_won_on_points_then_wins_and_the_top_table_weighs_more():
    games = [
        crowd.Played(1, 1, {"A": 1, "B": 2}, frozenset({"A"})),
        crowd.Played(1, 2, {"C": 1, "D": 2}, frozenset({"C"})),
        crowd.Played(2, 1, {"A": 1, "C": 2}, frozenset({"A"})),
        crowd.Played(2, 2, {"B": 1, "D": 2}, frozenset({"B"})),
    ]
    lines = crowd.standings(["A", "B", "C", "D"], games, weigh_top=True)
    assert [(s.name, s.points, s.wins) for s in lines] == [
        ("A", Fraction(15, 2), 2), ("B", 3, 1), ("C", 3, 1), ("D", 0, 0)]
    assert [s.place for s in lines] == [1, 2, 2, 4]
    plain = crowd.standings(["A", "B", "C", "D"], games, weigh_top=False)
    assert plain[0].points == 6


# A table still playing holds the next round for its players alone (docs/crowd.md): the
# tables seated as the round's tables finish, in any order, give the whole round's seating.

rounds_ending = st.integers(2, 6).flatmap(lambda size: st.tuples(
    st.just(size), st.integers(size + 1, min(8 * size, 48)), st.integers(0, 2**32),
    st.lists(st.integers(0, 7), min_size=1, max_size=8)))


def _seated_as_tables_finish(moving, finished, order, seed):
    """Seat the next round as the tables end in this order (batches of a few), the way taps
    of Next round do; return the tables seated, by index, and how many asks seated any."""
    rng = random.Random(seed)
    done, seated = {}, {}
    for batch in order:
        for index in batch:
            done[index] = finished[index]
        new = crowd.seat_ready(moving, finished, done, seated, rng)
        assert not set(new) & set(seated)
        seated.update(new)
    return seated


def _an_ending(count_size, tables):
    size, count, seed, cuts = count_size
    rng = random.Random(seed)
    order = list(range(tables))
    rng.shuffle(order)
    batches, start = [], 0
    for cut in cuts:
        batches.append(order[start:start + cut % 3 + 1])
        start += cut % 3 + 1
    batches.append(order[start:])
    return [b for b in batches if b], seed


@given(rounds_ending)
def test_progressive_and_same_seated_table_by_table_give_the_whole_round(case):
    size, count, seed, _ = case
    try:
        sizes = crowd.table_sizes(count, size, 2, 6)
    except RuleError:
        return
    finished = crowd.seat_at_random(NAMES[:count], sizes, random.Random(seed))
    batches, seed = _an_ending(case, len(finished))
    for moving in ("progressive", "same"):
        seated = _seated_as_tables_finish(moving, finished, batches, seed)
        whole = crowd.NEXT[moving](finished, random.Random(seed))
        assert sorted(seated) == list(range(len(finished)))
        if moving == "same":
            assert [seated[i] for i in range(len(whole))] == whole
        else:
            assert [sorted(seated[i]) for i in range(len(whole))] == [sorted(t) for t in whole]


@given(rounds_ending)
def test_progressive_seats_a_table_only_once_the_tables_beside_it_end(case):
    size, count, seed, _ = case
    try:
        sizes = crowd.table_sizes(count, size, 2, 6)
    except RuleError:
        return
    finished = crowd.seat_at_random(NAMES[:count], sizes, random.Random(seed))
    late = seed % len(finished)
    done = {i: t for i, t in enumerate(finished) if i != late}
    ready = crowd.seat_ready("progressive", finished, done, {}, random.Random(seed))
    assert set(ready) == {i for i in range(len(finished)) if abs(i - late) > 1}
    waiting = {name for i in range(len(finished)) if i not in ready for name in
               crowd.NEXT["progressive"](finished, random.Random(0))[i]}
    for name in waiting - set(finished[late]):
        assert late in crowd.holding("progressive", finished, done, name)


@given(rounds_ending)
def test_a_redraw_seated_table_by_table_seats_everyone_once_at_the_round_sizes(case):
    size, count, seed, _ = case
    try:
        sizes = crowd.table_sizes(count, size, 2, 6)
    except RuleError:
        return
    finished = crowd.seat_at_random(NAMES[:count], sizes, random.Random(seed))
    batches, seed = _an_ending(case, len(finished))
    seated = _seated_as_tables_finish("redraw", finished, batches, seed)
    assert sorted(seated) == list(range(len(finished)))
    assert [len(seated[i]) for i in range(len(finished))] == sizes
    assert everyone_once(seated.values(), NAMES[:count])


def test_a_late_table_holds_the_next_round_for_its_players_alone():
    finished = [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"], ["C1", "C2", "C3", "C4"]]
    done = {0: finished[0], 1: finished[1]}  # table 3 is late
    rng = random.Random(1)
    assert set(crowd.seat_ready("progressive", finished, done, {}, rng)) == {0}  # 2, 3 wait
    assert set(crowd.seat_ready("same", finished, done, {}, rng)) == {0, 1}
    drawn = crowd.seat_ready("redraw", finished, done, {}, rng)
    assert set(drawn) == {0, 1} and len({n for t in drawn.values() for n in t}) == 8
    four = finished + [["D1", "D2", "D3", "D4"]]
    done = {0: four[0], 1: four[1], 2: four[2]}  # table 4 is late
    ready = crowd.seat_ready("progressive", four, done, {}, rng)
    assert set(ready) == {0, 1}
    assert sorted(ready[0]) == ["A1", "A2", "A3", "B1"]
    assert crowd.holding("progressive", four, done, "C4") == [3]  # C4 goes down to 4
    assert crowd.holding("progressive", four, done, "C1") == []  # up to table 2, seated
    assert crowd.holding("progressive", four, done, "C2") == [3]  # stays at table 3
    assert crowd.holding("same", four, done, "C1") == []
