"""Chip pot, as docs/rules.md states it: antes, events and cards pay the winner's pot."""

import pytest

from scorekeeper.rules import Event, Game, Hand, Round, RuleError, get_variant
from scorekeeper.rules.chips import CHIPS

THREE = ("Ann", "Ben", "Cy")
FOUR = ("Ann", "Ben", "Cy", "Dee")


def hand(went_out, *events, **held):
    """Build a round: `held` maps a name to cards, or to (cards, kings); events are pairs."""
    hands = {name: Hand(*value) if isinstance(value, tuple) else Hand(value)
             for name, value in held.items()}
    return Round(went_out, hands, tuple(Event(player, kind) for player, kind in events))


def game(*rounds, players=THREE, first_dealer=None, ended=False, **rules):
    return Game("chips", players, first_dealer or players[0], CHIPS.resolve_settings(rules),
                rounds, ended)


def play(*rounds, **kwargs):
    return CHIPS.play(game(*rounds, **kwargs))


def refusal(*rounds, **kwargs):
    with pytest.raises(RuleError) as caught:
        play(*rounds, **kwargs)
    return caught.value


def test_chips_is_in_the_registry_with_the_most_chips_winning():
    assert get_variant("chips") is CHIPS
    assert CHIPS.label == "Chip pot" and not CHIPS.lower_is_better
    assert (CHIPS.min_players, CHIPS.max_players) == (2, 6)


def test_the_house_preset_is_the_default_with_stacks_of_50_carried_over():
    assert CHIPS.resolve_settings({}) == {
        "preset": "house", "start_chips": 50, "total_chips": None, "ante": 1,
        "pass_chips": 1, "king_held_chips": 0, "missed_draw_chips": 0, "card_chips": 1,
        "king_chips": 1, "reset_each_hand": False, "target": None}


def test_the_jax_preset_splits_80_chips_every_hand_and_plays_to_100():
    assert CHIPS.resolve_settings({"preset": "jax"}) == {
        "preset": "jax", "start_chips": None, "total_chips": 80, "ante": 1,
        "pass_chips": 1, "king_held_chips": 3, "missed_draw_chips": 1, "card_chips": 1,
        "king_chips": 1, "reset_each_hand": True, "target": 100}


def test_every_player_antes_and_the_one_who_went_out_takes_the_pot():
    first = play(hand("Ben", Ann=1, Cy=1)).rounds[0]
    assert first.extra["pot"] == 5
    assert first.extra["flows"] == [
        {"player": "Ann", "kind": "ante", "chips": 1, "owed": 1},
        {"player": "Ben", "kind": "ante", "chips": 1, "owed": 1},
        {"player": "Cy", "kind": "ante", "chips": 1, "owed": 1},
        {"player": "Ann", "kind": "cards", "chips": 1, "owed": 1},
        {"player": "Cy", "kind": "cards", "chips": 1, "owed": 1},
        {"player": "Ben", "kind": "pot", "chips": 5}]
    assert first.hand_winners == ("Ben",)
    assert first.scores == {"Ann": -2, "Ben": 4, "Cy": -2}
    assert first.totals == first.extra["stacks"] == {"Ann": 48, "Ben": 54, "Cy": 48}


def test_a_bigger_ante_comes_from_everyone():
    first = play(hand("Ben", Ann=1, Cy=1), ante=3).rounds[0]
    assert first.extra["pot"] == 11 and first.totals == {"Ann": 46, "Ben": 58, "Cy": 46}


def test_each_pass_pays_a_chip_in_the_order_it_happened():
    first = play(hand("Ben", ("Ann", "pass"), ("Cy", "pass"), ("Ann", "pass"),
                      Ann=1, Cy=1)).rounds[0]
    assert [(f["player"], f["kind"]) for f in first.extra["flows"][3:6]] == [
        ("Ann", "pass"), ("Cy", "pass"), ("Ann", "pass")]
    assert first.extra["pot"] == 8 and first.scores == {"Ann": -4, "Ben": 7, "Cy": -3}


def test_a_held_king_and_a_missed_draw_pay_their_jax_prices():
    first = play(hand("Ann", ("Ben", "king_held"), ("Cy", "missed_draw"), ("Ben", "pass"),
                      Ben=(2, 1), Cy=1), preset="jax").rounds[0]
    # 3 antes + king held 3 + missed draw 1 + pass 1 + Ben's 2 cards + Cy's 1 card
    assert first.extra["pot"] == 11
    assert first.scores == {"Ann": 11, "Ben": 0, "Cy": 0} == first.totals
    assert first.extra["stacks"] == {"Ann": 36, "Ben": 19, "Cy": 23}


def test_kings_left_cost_king_chips_and_other_cards_card_chips():
    first = play(hand("Ben", Ann=(3, 1), Cy=(4, 2)), king_chips=10, card_chips=2).rounds[0]
    assert [f["chips"] for f in first.extra["flows"] if f["kind"] == "cards"] == [14, 24]


def test_a_payment_bigger_than_the_stack_takes_the_whole_stack_and_nothing_is_owed_later():
    short = hand(None, ("Ann", "pass"), ("Ann", "pass"), ("Ann", "pass"), Ann=1, Ben=1, Cy=3)
    result = play(short, hand("Ben", Ann=1), start_chips=2)
    first, second = result.rounds
    assert [(f["chips"], f["owed"]) for f in first.extra["flows"]
            if f["player"] == "Ann" and f["kind"] == "pass"] == [(1, 1), (0, 1), (0, 1)]
    assert {"player": "Cy", "kind": "cards", "chips": 1, "owed": 3} in first.extra["flows"]
    # Ann paid herself dry, then shared the stalemate pot of 5: Ben, left of the dealer, gets 3.
    assert first.totals == {"Ann": 2, "Ben": 4, "Cy": 0}
    assert second.extra["flows"][0] == {"player": "Ann", "kind": "ante", "chips": 1, "owed": 1}
    assert second.totals == {"Ann": 0, "Ben": 6, "Cy": 0}
    assert all(chips >= 0 for r in result.rounds for chips in r.extra["stacks"].values())


def test_a_stalemate_pot_is_split_with_odd_chips_going_left_of_the_dealer_first():
    first = play(hand(None, Ann=2, Ben=2, Cy=4, Dee=2), players=FOUR,
                 first_dealer="Cy").rounds[0]
    assert first.hand_winners == ("Ann", "Ben", "Dee")
    assert first.extra["pot"] == 8
    assert [(f["player"], f["chips"]) for f in first.extra["flows"] if f["kind"] == "pot"] == [
        ("Dee", 3), ("Ann", 3), ("Ben", 2)]
    assert first.totals == {"Ann": 52, "Ben": 51, "Cy": 45, "Dee": 52}


def test_a_dealer_who_shares_a_stalemate_gets_an_odd_chip_last():
    first = play(hand(None, Ann=1, Ben=1, Cy=4)).rounds[0]
    assert first.extra["pot"] == 7 and first.scores == {"Ann": 2, "Ben": 3, "Cy": -5}


BUST_CY = hand("Ben", Ann=1, Cy=4, Dee=1)
DEE_WINS = hand("Dee", Ann=1, Ben=1)


def test_a_player_left_with_no_chips_is_out_and_is_skipped_as_dealer():
    result = play(BUST_CY, DEE_WINS, players=FOUR, start_chips=5)
    first, second = result.rounds
    assert first.totals == {"Ann": 3, "Ben": 14, "Cy": 0, "Dee": 3}
    assert first.extra["busted"] == ("Cy",) and result.out == frozenset({"Cy"})
    assert (second.dealer, second.first_player) == ("Ben", "Dee")
    assert "Cy" not in [f["player"] for f in second.extra["flows"]]
    assert second.scores == {"Ann": -2, "Ben": -2, "Cy": 0, "Dee": 4}
    assert (result.next_dealer, result.next_first_player) == ("Dee", "Ann")
    assert not result.over


@pytest.mark.parametrize("later, field", [
    (hand("Cy", Ann=1, Ben=1, Dee=1), "went_out"),
    (hand("Ann", Ben=1, Cy=1, Dee=1), "hands.Cy"),
    (hand("Ann", ("Cy", "pass"), Ben=1, Dee=1), "events[0].player"),
])
def test_a_player_who_is_out_is_refused_in_later_rounds(later, field):
    error = refusal(BUST_CY, later, players=FOUR, start_chips=5)
    assert (error.field, error.round_number) == (field, 2)


def test_the_house_game_ends_when_only_one_player_holds_chips():
    result = play(hand("Ben", Ann=1), players=("Ann", "Ben"), start_chips=2)
    assert result.over and result.winners == ("Ben",) and result.ranking == ("Ben", "Ann")
    assert result.totals == {"Ann": 0, "Ben": 4} and result.out == frozenset({"Ann"})
    assert result.next_dealer is None and result.next_first_player is None


def test_the_house_game_ends_when_a_stack_reaches_the_target():
    assert not play(hand("Ben", Ann=2, Cy=2), target=57).over
    result = play(hand("Ben", Ann=3, Cy=2), target=57)
    assert result.over and result.winners == ("Ben",) and result.totals["Ben"] == 57


def test_a_house_game_has_no_target_by_default():
    rounds = [hand("Ben", Ann=7, Cy=7)] * 5
    result = play(*rounds)
    assert not result.over and result.totals == {"Ann": 10, "Ben": 130, "Cy": 10}


def test_jax_splits_80_chips_26_each_for_three_with_2_left_in_the_box():
    result = play(preset="jax")
    assert result.extra == {"chips_in_play": 78, "box": 2,
                            "dealt": {"Ann": 26, "Ben": 26, "Cy": 26},
                            "stacks": {"Ann": 26, "Ben": 26, "Cy": 26}}


def test_jax_re_splits_the_chips_every_hand_and_scores_the_pots_won():
    result = play(hand("Ben", Ann=7, Cy=7), hand("Ben", Ann=1, Cy=1), preset="jax")
    first, second = result.rounds
    assert first.extra["stacks"] == {"Ann": 18, "Ben": 42, "Cy": 18}
    assert second.extra["stacks"] == {"Ann": 24, "Ben": 30, "Cy": 24}
    assert [first.scores, second.scores] == [{"Ann": 0, "Ben": 17, "Cy": 0},
                                             {"Ann": 0, "Ben": 5, "Cy": 0}]
    assert result.totals == {"Ann": 0, "Ben": 22, "Cy": 0}
    assert result.extra["stacks"] == {"Ann": 26, "Ben": 26, "Cy": 26}


def test_jax_ends_after_the_hand_in_which_a_score_reaches_100():
    big = hand("Ann", Ben=7, Cy=7)  # a pot of 17
    assert not play(*[big] * 5, preset="jax").over
    result = play(*[big] * 6, preset="jax")
    assert result.over and result.totals["Ann"] == 102 and result.winners == ("Ann",)


def test_a_game_ended_by_hand_is_over_and_the_most_chips_win():
    result = play(hand("Cy", Ann=1, Ben=2), ended=True)
    assert result.over and result.winners == ("Cy",)
    assert result.ranking == ("Cy", "Ann", "Ben") and result.next_dealer is None


def test_equal_best_totals_share_the_win_and_rank_in_seat_order():
    result = play(hand(None, Ann=1, Ben=1, Cy=2), preset="jax", ended=True)
    assert result.totals == {"Ann": 2, "Ben": 3, "Cy": 0}
    tie = play(hand(None, Ann=1, Ben=1), players=("Ann", "Ben"), preset="jax", ended=True)
    assert tie.winners == ("Ann", "Ben") and tie.ranking == ("Ann", "Ben")
    assert play(ended=True).winners == THREE


@pytest.mark.parametrize("events, rules, field, words", [
    ([("Ann", "pass"), ("Ben", "steal")], {}, "events[1].kind", "unknown event"),
    ([("Ann", "king_held")], {}, "events[0].kind", "not offered"),
    ([("Ann", "missed_draw")], {}, "events[0].kind", "not offered"),
    ([("Ann", "pass")], {"preset": "jax", "pass_chips": 0}, "events[0].kind", "not offered"),
    ([("Zed", "pass")], {}, "events[0].player", "not a player"),
])
def test_an_event_this_game_does_not_offer_is_refused_naming_the_event(
        events, rules, field, words):
    error = refusal(hand("Ben", *events, Ann=1, Cy=1), **rules)
    assert (error.field, error.round_number) == (field, 1) and words in error.message


def test_a_round_after_the_game_is_over_is_refused():
    error = refusal(hand("Ben", Ann=1), hand("Ben", Ann=1), players=("Ann", "Ben"),
                    start_chips=2)
    assert (error.field, error.round_number) == ("went_out", 2)
    assert "already over after round 1" in error.message


def test_impossible_hands_are_refused_as_in_every_variant():
    error = refusal(hand("Ben", Ann=1, Cy=1), hand("Ben", Ann=(1, 2), Cy=1))
    assert (error.field, error.round_number) == ("hands.Ann.kings", 2)


@pytest.mark.parametrize("given, changed", [
    ({"king_chips": 10}, {"king_chips": 10}),
    ({"preset": "jax", "target": None}, {"target": None}),
    ({"total_chips": 60}, {"start_chips": None, "total_chips": 60}),
    ({"preset": "jax", "start_chips": 30}, {"start_chips": 30, "total_chips": None}),
])
def test_any_setting_overrides_its_preset(given, changed):
    preset = given.get("preset", "house")
    assert CHIPS.resolve_settings(given) == {"preset": preset, **CHIPS.presets[preset],
                                             **changed}


def test_a_house_game_may_split_a_total_and_a_jax_game_may_give_chips_each():
    assert play(total_chips=60).totals == {"Ann": 20, "Ben": 20, "Cy": 20}
    jax = play(hand("Ann", Ben=1, Cy=1), preset="jax", start_chips=30)
    assert jax.extra == {"chips_in_play": 90, "box": 0,
                         "dealt": {"Ann": 30, "Ben": 30, "Cy": 30},
                         "stacks": {"Ann": 30, "Ben": 30, "Cy": 30}}


@pytest.mark.parametrize("given, field", [
    ({"preset": "vegas"}, "rules.preset"),
    ({"ante": -1}, "rules.ante"),
    ({"king_chips": 1.5}, "rules.king_chips"),
    ({"target": 0}, "rules.target"),
    ({"reset_each_hand": "yes"}, "rules.reset_each_hand"),
    ({"colour": "red"}, "rules.colour"),
    ({"start_chips": 10, "total_chips": 60}, "rules.total_chips"),
    ({"start_chips": None}, "rules.start_chips"),
])
def test_a_bad_setting_is_refused_naming_it(given, field):
    with pytest.raises(RuleError) as caught:
        CHIPS.resolve_settings(given)
    assert caught.value.field == field


def test_a_total_too_small_to_give_everyone_a_chip_is_refused():
    error = refusal(players=FOUR, preset="jax", total_chips=3)
    assert error.field == "rules.total_chips" and error.round_number is None


def test_the_live_pot_shows_antes_and_events_of_the_hand_in_progress():
    now = CHIPS.live(game(BUST_CY, players=FOUR, start_chips=5),
                     [Event("Dee", "pass"), Event("Ann", "pass"), Event("Ann", "pass")])
    assert (now["number"], now["dealer"], now["first_player"]) == (2, "Ben", "Dee")
    assert now["players"] == ("Ann", "Ben", "Dee")
    assert now["stacks"] == {"Ann": 0, "Ben": 13, "Cy": 0, "Dee": 1}
    assert now["pot"] == 6 and len(now["flows"]) == 6


def test_the_live_pot_of_a_jax_hand_starts_from_the_re_split():
    now = CHIPS.live(game(hand("Ben", Ann=7, Cy=7), preset="jax"), [Event("Cy", "king_held")])
    assert now["stacks"] == {"Ann": 25, "Ben": 25, "Cy": 22} and now["pot"] == 6
    assert now["dealer"] == "Ben"


def test_the_live_pot_refuses_bad_events_and_a_game_that_is_over():
    with pytest.raises(RuleError) as caught:
        CHIPS.live(game(BUST_CY, players=FOUR, start_chips=5), [Event("Cy", "pass")])
    assert (caught.value.field, caught.value.round_number) == ("events[0].player", 2)
    with pytest.raises(RuleError) as caught:
        CHIPS.live(game(ended=True), [])
    assert caught.value.round_number == 1


@pytest.mark.parametrize("preset", ["house", "jax"])
def test_a_played_hand_s_pot_before_its_cards_is_the_live_pot_it_had(preset):
    # Hand 2 of three, seen from the whole game's result, is the hand in progress of the
    # game cut after hand 1: same dealer, players, stacks and pot.
    first = hand("Ben", Ann=2, Cy=1)
    second = hand("Ann", ("Cy", "pass"), ("Ben", "pass"), Ben=2, Cy=1)
    whole = game(first, second, hand("Cy", Ann=1, Ben=1), preset=preset)
    cut = game(first, preset=preset)
    assert CHIPS.live(whole, second.events, number=2) == CHIPS.live(cut, second.events)
    assert CHIPS.live(whole, (), number=1) == CHIPS.live(game(preset=preset), ())
