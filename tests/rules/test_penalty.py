"""Penalty points, as docs/rules.md states it: cards left cost points, lowest total wins."""

import pytest

from scorekeeper.rules import Game, Hand, Round, RuleError, get_variant, play
from scorekeeper.rules.penalty import PENALTY, to_target
from scorekeeper.rules.seats import check_seating, first_dealer_in, left_of

THREE = ("Ann", "Ben", "Cy")
FOUR = ("Ann", "Ben", "Cy", "Dee")


def hand(went_out, **held):
    """Build a round: `held` maps a name to cards, or to (cards, kings)."""
    return Round(went_out, {name: Hand(*value) if isinstance(value, tuple) else Hand(value)
                            for name, value in held.items()})


def game(*rounds, players=THREE, first_dealer=None, ended=False, **rules):
    return Game("penalty", players, first_dealer or players[0],
                PENALTY.resolve_settings(rules), rounds, ended)


def score(*rounds, **kwargs):
    return PENALTY.play(game(*rounds, **kwargs))


def refusal(*rounds, **kwargs):
    with pytest.raises(RuleError) as caught:
        score(*rounds, **kwargs)
    return caught.value


def test_penalty_is_in_the_registry_with_the_lowest_total_winning():
    assert get_variant("penalty") is PENALTY
    assert PENALTY.lower_is_better and (PENALTY.min_players, PENALTY.max_players) == (2, 6)


def test_the_defaults_are_25_reached_kings_10_and_cards_1():
    assert PENALTY.resolve_settings({}) == {
        "target": 25, "end_when": "reaches", "king_points": 10, "card_points": 1}


def test_a_non_winner_pays_10_per_king_and_1_per_other_card():
    first = score(hand("Ben", Ann=(3, 1), Cy=5)).rounds[0]
    assert first.scores == {"Ann": 12, "Ben": 0, "Cy": 5}
    assert first.hand_winners == ("Ben",)


def test_the_king_and_card_prices_are_settings():
    first = score(hand("Ben", Ann=(3, 1), Cy=(4, 2)), king_points=5, card_points=2).rounds[0]
    assert first.scores == {"Ann": 9, "Ben": 0, "Cy": 14}


def test_scores_add_up_over_hands():
    result = score(hand("Ben", Ann=3, Cy=5), hand("Ann", Ben=(2, 1), Cy=1))
    assert [r.totals for r in result.rounds] == [
        {"Ann": 3, "Ben": 0, "Cy": 5}, {"Ann": 3, "Ben": 11, "Cy": 6}]
    assert result.totals == {"Ann": 3, "Ben": 11, "Cy": 6}
    assert result.ranking == ("Ann", "Cy", "Ben") and not result.over and result.winners == ()


def test_a_stalemate_gives_the_hand_to_the_fewest_cards():
    first = score(hand(None, Ann=4, Ben=2, Cy=3)).rounds[0]
    assert first.hand_winners == ("Ben",)
    assert first.scores == {"Ann": 4, "Ben": 0, "Cy": 3}


def test_players_tied_for_the_fewest_cards_in_a_stalemate_all_win_the_hand():
    first = score(hand(None, Ann=(2, 1), Ben=5, Cy=2, Dee=2), players=FOUR).rounds[0]
    assert first.hand_winners == ("Ann", "Cy", "Dee")
    assert first.scores == {"Ann": 0, "Ben": 5, "Cy": 0, "Dee": 0}


def test_a_stalemate_where_everyone_holds_as_many_cards_is_won_by_all():
    first = score(hand(None, Ann=3, Ben=3, Cy=3)).rounds[0]
    assert first.hand_winners == THREE and set(first.scores.values()) == {0}


def test_the_game_ends_after_the_hand_in_which_a_total_reaches_the_target():
    almost = score(hand("Ben", Ann=(2, 2), Cy=4))
    assert almost.totals["Ann"] == 20 and not almost.over
    assert (almost.next_dealer, almost.next_first_player) == ("Ben", "Cy")
    result = score(hand("Ben", Ann=(2, 2), Cy=4), hand("Cy", Ann=5, Ben=1))
    assert result.totals == {"Ann": 25, "Ben": 1, "Cy": 4}
    assert result.over and result.winners == ("Ben",)
    assert result.next_dealer is None and result.next_first_player is None


def test_with_exceeds_reaching_the_target_exactly_is_not_enough():
    reached = [hand("Ben", Ann=(2, 2), Cy=4), hand("Cy", Ann=5, Ben=1)]
    assert not score(*reached, end_when="exceeds").over
    result = score(*reached, hand("Ann", Ben=1, Cy=1), hand("Ben", Ann=1, Cy=1),
                   end_when="exceeds")
    assert result.totals == {"Ann": 26, "Ben": 2, "Cy": 6}
    assert result.over and result.winners == ("Ben",)


def test_the_target_is_a_setting():
    first = hand("Ben", Ann=(2, 2), Cy=4)
    assert score(first, target=20).over and not score(first, target=21).over
    assert score(first, target=19, end_when="exceeds").over
    assert not score(first, target=20, end_when="exceeds").over


def test_equal_lowest_totals_share_the_win():
    result = score(hand("Ben", Ann=3, Cy=(3, 2)), hand("Ann", Ben=3, Cy=(1, 1)))
    assert result.totals == {"Ann": 3, "Ben": 3, "Cy": 31}
    assert result.over and result.winners == ("Ann", "Ben")


def test_a_game_ended_by_hand_is_won_by_the_lowest_total_now():
    result = score(hand("Ben", Ann=3, Cy=5), ended=True)
    assert result.over and result.winners == ("Ben",)
    assert result.next_dealer is None


def test_a_game_ended_by_hand_with_a_tie_is_shared():
    result = score(hand("Ben", Ann=3, Cy=5), hand(None, Ann=1, Ben=3, Cy=1), ended=True)
    assert result.totals == {"Ann": 3, "Ben": 3, "Cy": 5}
    assert result.winners == ("Ann", "Ben")


def test_a_game_ended_before_any_hand_is_shared_by_everyone():
    result = score(ended=True)
    assert result.over and result.winners == THREE


def test_no_hand_can_be_played_after_the_game_is_over():
    error = refusal(hand("Ben", Ann=(3, 3), Cy=1), hand("Cy", Ann=1, Ben=1))
    assert (error.field, error.round_number) == ("went_out", 2)
    assert "already over after round 1" in error.message


# Seating and the deal: clockwise, one seat to the left after each hand.

def test_the_deal_passes_one_seat_to_the_left_after_each_hand():
    rounds = [hand("Ann", Ben=1, Cy=1, Dee=1)] * 5
    result = score(*rounds, players=FOUR, first_dealer="Cy", target=100)
    assert [r.dealer for r in result.rounds] == ["Cy", "Dee", "Ann", "Ben", "Cy"]
    assert [r.first_player for r in result.rounds] == ["Dee", "Ann", "Ben", "Cy", "Dee"]
    assert (result.next_dealer, result.next_first_player) == ("Dee", "Ann")


def test_before_any_hand_the_first_dealer_deals_and_the_player_on_their_left_starts():
    result = score(first_dealer="Cy")
    assert (result.next_dealer, result.next_first_player) == ("Cy", "Ann")


def test_left_of_wraps_around_the_table_and_skips_players_who_are_out():
    assert left_of(FOUR, "Dee") == "Ann"
    assert left_of(FOUR, "Ann", out={"Ben", "Cy"}) == "Dee"
    assert first_dealer_in(FOUR, "Ben", out={"Ben"}) == "Cy"
    assert first_dealer_in(FOUR, "Ben") == "Ben"


@pytest.mark.parametrize("players, dealer, field, words", [
    (("Ann",), "Ann", "players", "at least 2"),
    (("A", "B", "C", "D", "E", "F", "G"), "A", "players", "at most 6"),
    (("Ann", "ann "), "Ann", "players", "twice"),
    (("Ann", "  "), "Ann", "players", "name"),
    (("Ann", "Ben"), "Cy", "first_dealer", "not a player"),
])
def test_an_impossible_table_is_refused(players, dealer, field, words):
    with pytest.raises(RuleError) as caught:
        check_seating(players, dealer, 2, 6)
    assert caught.value.field == field and words in caught.value.message


def test_seven_players_cannot_play_penalty():
    seven = ("A", "B", "C", "D", "E", "F", "G")
    with pytest.raises(RuleError) as caught:
        play(Game("penalty", seven, "A", PENALTY.resolve_settings({})))
    assert caught.value.field == "players"


# Physically impossible entries (docs/rules.md): refused, naming the round and field.

@pytest.mark.parametrize("rnd, field, words", [
    (hand("Ben", Ann=-1, Cy=2), "hands.Ann.cards", "at least 0"),
    (hand("Ben", Ann=(2, -1), Cy=2), "hands.Ann.kings", "at least 0"),
    (hand("Ben", Ann=2.5, Cy=2), "hands.Ann.cards", "whole number"),
    (hand("Ben", Ann="3", Cy=2), "hands.Ann.cards", "whole number"),
    (hand("Ben", Ann=(3, 1.0), Cy=2), "hands.Ann.kings", "whole number"),
    (hand("Ben", Ann=True, Cy=2), "hands.Ann.cards", "whole number"),
    (hand("Ben", Ann=(2, 3), Cy=2), "hands.Ann.kings", "cannot hold 3 kings"),
    (hand("Ben", Ann=(9, 5), Cy=2), "hands.Ann.kings", "only 4 kings"),
    (hand("Ben", Ann=(3, 3), Cy=(2, 2)), "hands.Cy.kings", "only 4 kings"),
    (hand("Ben", Ann=30, Cy=23), "hands.Cy.cards", "only 52 cards"),
    (hand("Ben", Ann=2, Ben=1, Cy=2), "hands.Ben.cards", "went out"),
    (hand("Ben", Ann=0, Cy=2), "hands.Ann.cards", "did not go out"),
    (hand(None, Ann=0, Ben=2, Cy=2), "hands.Ann.cards", "stalemate"),
    (hand("Dee", Ann=2, Ben=2, Cy=2), "went_out", "not playing"),
    (hand("Ben", Ann=2, Cy=2, Dee=2), "hands.Dee", "not playing"),
    (hand("Ben", Ann=2), "hands.Cy.cards", "missing"),
    (hand(None, Ann=2, Ben=2), "hands.Cy.cards", "missing"),
])
def test_an_impossible_hand_is_refused_naming_the_round_and_field(rnd, field, words):
    error = refusal(hand("Ann", Ben=1, Cy=1), rnd)
    assert (error.field, error.round_number) == (field, 2)
    assert words in error.message
    assert str(error).startswith(f"round 2, {field}: ")


def test_a_player_who_went_out_may_be_given_with_zero_cards():
    assert score(hand("Ben", Ann=2, Ben=0, Cy=2)).totals == {"Ann": 2, "Ben": 0, "Cy": 2}


def test_a_full_deck_in_hand_is_still_possible():
    result = score(hand(None, Ann=(18, 2), Ben=(17, 1), Cy=(17, 1)), target=1000)
    assert result.rounds[0].hand_winners == ("Ben", "Cy")


@pytest.mark.parametrize("rules, field", [
    ({"target": 0}, "rules.target"),
    ({"target": "50"}, "rules.target"),
    ({"target": 10_001}, "rules.target"),
    ({"end_when": "passes"}, "rules.end_when"),
    ({"king_points": -1}, "rules.king_points"),
    ({"card_points": 1.5}, "rules.card_points"),
    ({"kings": 10}, "rules.kings"),
])
def test_a_setting_out_of_range_is_refused_naming_it(rules, field):
    with pytest.raises(RuleError) as caught:
        PENALTY.resolve_settings(rules)
    assert caught.value.field == field


def test_to_target_counts_what_a_total_may_still_take():
    reaches, exceeds = game(), game(end_when="exceeds")
    assert to_target(reaches.settings, 20) == 5 and to_target(exceeds.settings, 20) == 6
