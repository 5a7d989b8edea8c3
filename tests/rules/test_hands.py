"""What a form shows all at once (every impossible hand), and who deals a rematch."""

import pytest

from scorekeeper.rules import Hand, Round, RuleError
from scorekeeper.rules.hands import check_hands, hand_problems
from scorekeeper.rules.seats import rematch_dealer

FOUR = ("Ann", "Ben", "Cy", "Dee")


def fields(problems):
    return [(problem.field, problem.message) for problem in problems]


def test_every_impossible_hand_is_named_not_only_the_first():
    rnd = Round("Ann", {"Ben": Hand(1, 3), "Cy": Hand(0, 0), "Dee": Hand(2, 0)})
    assert fields(hand_problems(FOUR, rnd)) == [
        ("hands.Ben.kings", "Ben holds 1 card, so cannot hold 3 kings"),
        ("hands.Cy.cards", "Cy did not go out, so holds at least one card")]


def test_a_hand_not_entered_yet_is_left_to_the_form_and_the_full_check():
    rnd = Round("Ann", {"Ben": Hand(3, 0)})
    assert hand_problems(FOUR, rnd) == []
    with pytest.raises(RuleError, match="how many cards Cy has left is missing"):
        check_hands(FOUR, rnd)


def test_the_deck_is_counted_over_the_hands_possible_on_their_own():
    rnd = Round("Ann", {"Ben": Hand(30, 2), "Cy": Hand(1, 2), "Dee": Hand(23, 3)})
    assert fields(hand_problems(FOUR, rnd)) == [
        ("hands.Cy.kings", "Cy holds 1 card, so cannot hold 2 kings"),
        ("hands.Dee.kings", "a deck has only 4 kings, and the hands hold 5")]


def test_a_count_past_the_deck_is_refused_at_the_hand_that_passes_it():
    rnd = Round("Ann", {"Ben": Hand(999_999, 0), "Cy": Hand(2, 0)})
    assert fields(hand_problems(FOUR[:3], rnd)) == [
        ("hands.Ben.cards", "a deck has only 52 cards, and the hands hold 999999")]


def test_a_possible_hand_has_no_problem():
    rnd = Round(None, {"Ann": Hand(2, 1), "Ben": Hand(2, 0), "Cy": Hand(5, 2), "Dee": Hand(1)})
    assert hand_problems(FOUR, rnd) == []


def test_a_rematch_is_dealt_by_the_player_left_of_the_last_dealer():
    assert rematch_dealer(FOUR, "Ann", "Cy") == "Dee"
    assert rematch_dealer(FOUR, "Ann", "Dee") == "Ann"


def test_a_rematch_of_a_game_without_a_hand_keeps_its_first_dealer():
    assert rematch_dealer(FOUR, "Ben", None) == "Ben"
