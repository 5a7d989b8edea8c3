"""Chip pot invariants over random games a real table could have played."""

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Event, Game, Hand, Round
from scorekeeper.rules.chips import CHIPS
from scorekeeper.rules.chips_pot import EVENT_SETTINGS

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")
RULES = [
    {"preset": "house"},
    {"preset": "house", "start_chips": 6},
    {"preset": "house", "start_chips": 4, "ante": 2, "king_held_chips": 2,
     "missed_draw_chips": 1, "king_chips": 10, "target": 15},
    {"preset": "jax"},
    {"preset": "jax", "total_chips": 20, "target": 30},
]


@cache
def events_among(in_hand: tuple, kinds: tuple):
    """The events a hand among these players could have, under rules that count these kinds.
    Made once for each pair: Hypothesis checks a strategy each time one is made, which took
    most of the time of these tests."""
    return st.lists(st.builds(Event, st.sampled_from(in_hand), st.sampled_from(kinds)),
                    max_size=6)


def draw_round(data, in_hand, rules):
    """Draw one hand that could have happened among the players still in the game."""
    went_out = data.draw(st.sampled_from((None, *in_hand)))
    hands, kings_left = {}, 4
    for name in in_hand:
        if name != went_out:
            cards = data.draw(st.integers(1, 7))
            kings = data.draw(st.integers(0, min(cards, kings_left)))
            kings_left -= kings
            hands[name] = Hand(cards, kings)
    kinds = tuple(kind for kind, setting in EVENT_SETTINGS.items() if rules[setting])
    events = data.draw(events_among(in_hand, kinds))
    return Round(went_out, hands, tuple(events))


def draw_game(data, max_rounds=10):
    """Play a random game round by round until it is over or long enough."""
    players = NAMES[:data.draw(st.integers(2, 6), label="players")]
    first_dealer = data.draw(st.sampled_from(players), label="first dealer")
    rules = CHIPS.resolve_settings(data.draw(st.sampled_from(RULES), label="rules"))
    game = Game("chips", players, first_dealer, rules)
    result = CHIPS.play(game)
    while not result.over and len(game.rounds) < max_rounds:
        in_hand = tuple(name for name in players if name not in result.out)
        rnd = draw_round(data, in_hand, rules)
        game = Game("chips", players, first_dealer, rules, game.rounds + (rnd,))
        result = CHIPS.play(game)
    return game, result


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_chips_are_conserved_and_no_stack_goes_negative(data):
    game, result = draw_game(data)
    in_play = result.extra["chips_in_play"]
    for rnd in result.rounds:
        assert sum(rnd.extra["stacks"].values()) == in_play
        assert min(rnd.extra["stacks"].values()) >= 0
    assert sum(result.extra["stacks"].values()) == in_play
    assert list(result.totals) == list(game.players)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_pot_paid_out_is_exactly_what_was_paid_in(data):
    _, result = draw_game(data)
    for rnd in result.rounds:
        paid_in = sum(f["chips"] for f in rnd.extra["flows"] if f["kind"] != "pot")
        paid_out = sum(f["chips"] for f in rnd.extra["flows"] if f["kind"] == "pot")
        assert paid_in == paid_out == rnd.extra["pot"]
        assert all(0 <= f["chips"] <= f.get("owed", f["chips"]) for f in rnd.extra["flows"])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_whoever_went_out_never_loses_and_the_others_never_gain(data):
    game, result = draw_game(data)
    house = not game.settings["reset_each_hand"]
    for entered, rnd in zip(game.rounds, result.rounds):
        for name in game.players:
            if name == entered.went_out:
                assert rnd.scores[name] >= 0
            elif name not in rnd.hand_winners:
                assert rnd.scores[name] <= 0 if house else rnd.scores[name] == 0


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_player_out_of_chips_stays_out_and_never_deals(data):
    game, result = draw_game(data)
    out: set[str] = set()
    for rnd in result.rounds:
        in_hand = [f["player"] for f in rnd.extra["flows"] if f["kind"] == "ante"]
        assert in_hand == [name for name in game.players if name not in out]
        assert rnd.dealer in in_hand and rnd.first_player in in_hand
        out |= {name for name, chips in rnd.extra["stacks"].items()
                if chips == 0 and not game.settings["reset_each_hand"]}
        assert set(rnd.extra["busted"]) <= out
    assert result.out == out
    if not result.over:
        assert result.next_dealer not in out and result.next_first_player not in out


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_totals_are_the_sums_of_what_each_round_added(data):
    game, result = draw_game(data)
    start = CHIPS.play(Game("chips", game.players, game.first_dealer, game.settings))
    running = dict(start.totals)
    for rnd in result.rounds:
        running = {name: running[name] + rnd.scores[name] for name in game.players}
        assert rnd.totals == running
    assert result.totals == running


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_winners_hold_the_best_total_once_the_game_is_over(data):
    _, result = draw_game(data)
    if result.over:
        best = max(result.totals.values())
        assert result.winners == result.ranking[:len(result.winners)]
        assert {result.totals[name] for name in result.winners} == {best}
        assert all(result.totals[name] < best for name in result.ranking[len(result.winners):])
    else:
        assert result.winners == ()


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_the_live_pot_plus_the_cards_left_is_the_pot_of_the_finished_hand(data):
    game, result = draw_game(data)
    last, finished = game.rounds[-1], result.rounds[-1]
    before = Game("chips", game.players, game.first_dealer, game.settings, game.rounds[:-1])
    now = CHIPS.live(before, last.events)
    cards = sum(f["chips"] for f in finished.extra["flows"] if f["kind"] == "cards")
    assert now["pot"] + cards == finished.extra["pot"]
    assert (now["dealer"], now["first_player"]) == (finished.dealer, finished.first_player)
