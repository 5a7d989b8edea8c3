"""Penalty-point invariants over random games a real table could have played."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Game, Hand, Round, RuleError
from scorekeeper.rules.penalty import PENALTY

NAMES = ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay")


def crossed(total, rules):
    """Tell whether a total ends the game, as docs/rules.md words `reaches` and `exceeds`."""
    if rules["end_when"] == "reaches":
        return total >= rules["target"]
    return total > rules["target"]


def draw_round(data, players):
    """Draw one hand that one deck could have left: at most 52 cards and 4 kings in hand."""
    went_out = data.draw(st.sampled_from((None, *players)), label="went out")
    hands, cards_left, kings_left = {}, 52, 4
    for name in players:
        if name != went_out:
            cards = data.draw(st.integers(1, min(12, cards_left - (len(players) - len(hands)))))
            kings = data.draw(st.integers(0, min(cards, kings_left)))
            cards_left -= cards
            kings_left -= kings
            hands[name] = Hand(cards, kings)
    return Round(went_out, hands)


def draw_game(data, max_rounds=12):
    """Play a random game hand by hand until it is over or long enough."""
    players = NAMES[:data.draw(st.integers(2, 6), label="players")]
    first_dealer = data.draw(st.sampled_from(players), label="first dealer")
    rules = PENALTY.resolve_settings({
        "target": data.draw(st.integers(1, 80), label="target"),
        "end_when": data.draw(st.sampled_from(("reaches", "exceeds")), label="end when"),
        "king_points": data.draw(st.integers(0, 15), label="king points"),
        "card_points": data.draw(st.integers(0, 3), label="card points")})
    game = Game("penalty", players, first_dealer, rules)
    result = PENALTY.play(game)
    while not result.over and len(game.rounds) < max_rounds:
        game = Game("penalty", players, first_dealer, rules,
                    game.rounds + (draw_round(data, players),))
        result = PENALTY.play(game)
    return game, result


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_total_is_the_sum_of_its_hand_scores(data):
    game, result = draw_game(data)
    for name in game.players:
        running = 0
        for rnd in result.rounds:
            running += rnd.scores[name]
            assert rnd.totals[name] == running
        assert result.totals[name] == running
    assert list(result.totals) == list(game.players)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_hands_winners_score_0_and_the_others_pay_for_what_they_held(data):
    game, result = draw_game(data)
    rules = game.settings
    for entered, rnd in zip(game.rounds, result.rounds):
        if entered.went_out is not None:
            assert rnd.hand_winners == (entered.went_out,)
        else:
            fewest = min(h.cards for h in entered.hands.values())
            assert rnd.hand_winners == tuple(
                name for name in game.players if entered.hands[name].cards == fewest)
        for name in game.players:
            if name in rnd.hand_winners:
                assert rnd.scores[name] == 0
            else:
                held = entered.hands[name]
                assert rnd.scores[name] == (rules["king_points"] * held.kings
                                            + rules["card_points"] * (held.cards - held.kings))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_game_is_over_exactly_when_a_total_crosses_the_target(data):
    game, result = draw_game(data)
    for number, rnd in enumerate(result.rounds, start=1):
        so_far = PENALTY.play(Game("penalty", game.players, game.first_dealer, game.settings,
                                   game.rounds[:number]))
        assert so_far.over == any(crossed(t, game.settings) for t in rnd.totals.values())
        assert so_far.over == (number == len(result.rounds) and result.over)
    if result.over:
        best = min(result.totals.values())
        assert result.winners == tuple(n for n in game.players if result.totals[n] == best)
        assert result.next_dealer is None
    else:
        assert result.winners == () and result.next_dealer is not None


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_no_hand_is_accepted_after_the_game_is_over(data):
    game, result = draw_game(data, max_rounds=40)
    if not result.over:
        return
    later = Game("penalty", game.players, game.first_dealer, game.settings,
                 game.rounds + (draw_round(data, game.players),))
    with pytest.raises(RuleError) as caught:
        PENALTY.play(later)
    assert caught.value.round_number == len(game.rounds) + 1


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_deal_goes_round_the_table_one_seat_at_a_time(data):
    game, result = draw_game(data)
    players = game.players
    start = players.index(game.first_dealer)
    for number, rnd in enumerate(result.rounds, start=1):
        assert rnd.dealer == players[(start + number - 1) % len(players)]
        assert rnd.first_player == players[(start + number) % len(players)]
    if not result.over:
        dealt = len(result.rounds)
        assert result.next_dealer == players[(start + dealt) % len(players)]
        assert result.next_first_player == players[(start + dealt + 1) % len(players)]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_ending_by_hand_crowns_the_lowest_totals_at_once(data):
    game, result = draw_game(data)
    ended = PENALTY.play(Game("penalty", game.players, game.first_dealer, game.settings,
                              game.rounds, ended=True))
    assert ended.over and ended.totals == result.totals
    best = min(ended.totals.values())
    assert set(ended.winners) == {n for n, t in ended.totals.items() if t == best}
    assert ended.ranking[0] in ended.winners
