"""Coronation, as docs/rules.md states it: corners and the dragon score, deals win."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import Game, Round, RuleError, get_variant
from scorekeeper.rules.coronation import CORONATION, preview_deal

PLAYERS = ("Ann", "Ben")


def deal(corners=(), dragon=None, went_out=None):
    return Round(corners=tuple(corners), dragon=dragon, went_out=went_out)


def play(*deals, deals_to_win=1, ended=False, players=PLAYERS, first_dealer="Ann"):
    settings = CORONATION.resolve_settings({"deals_to_win": deals_to_win})
    return CORONATION.play(Game("coronation", players, first_dealer, settings, deals, ended))


ANN_WINS = deal(["Ann", "Ann", "Ann", "Ben"], "Ann")
BEN_WINS = deal(["Ben", "Ben", "Ben", "Ann"], "Ben")
DRAW = deal(["Ann", "Ann", "Ben", None], "Ben")


@pytest.mark.parametrize("corners, dragon, points, victory", [
    (["Ann"] * 4, "Ann", {"Ann": 5, "Ben": 0}, "absolute"),
    (["Ann", "Ben", "Ann", "Ann"], "Ann", {"Ann": 4, "Ben": 1}, "incredible"),
    (["Ann", None, "Ann", "Ann"], "Ann", {"Ann": 4, "Ben": 0}, "incredible"),
    (["Ben", "Ben", "Ann", "Ann"], "Ben", {"Ann": 2, "Ben": 3}, "normal"),
    (["Ann", "Ben", None, None], None, {"Ann": 1, "Ben": 1}, "draw"),
])
def test_each_corner_and_the_dragon_score_a_point_and_the_margin_names_the_victory(
        corners, dragon, points, victory):
    first = play(deal(corners, dragon)).rounds[0]
    assert first.scores == points == first.extra["points"]
    assert first.extra["victory"] == victory


def test_two_all_with_a_corner_left_open_is_a_draw_won_by_nobody():
    first = play(DRAW).rounds[0]
    assert first.scores == {"Ann": 2, "Ben": 2}
    assert first.extra["deal_winner"] is None and first.extra["victory"] == "draw"
    assert first.hand_winners == () and first.totals == {"Ann": 0, "Ben": 0}


def test_a_deal_where_nothing_is_scored_is_a_draw():
    result = play(deal())
    assert result.rounds[0].scores == {"Ann": 0, "Ben": 0}
    assert result.rounds[0].extra["victory"] == "draw" and not result.over


def test_one_deal_won_wins_the_match_by_default():
    result = play(DRAW, BEN_WINS)
    assert result.over and result.winners == ("Ben",) and result.ranking == ("Ben", "Ann")
    assert result.totals == {"Ann": 0, "Ben": 1}
    assert result.next_dealer is None and result.next_first_player is None
    assert result.extra == {"deciding_victory": "incredible",
                            "points_total": {"Ann": 3, "Ben": 6}}


def test_with_three_deals_to_win_the_first_to_win_three_deals_wins_the_match():
    five_deals = (ANN_WINS, BEN_WINS, ANN_WINS, DRAW, BEN_WINS)
    result = play(*five_deals, deals_to_win=3)
    assert not result.over and result.totals == {"Ann": 2, "Ben": 2} and result.winners == ()
    result = play(*five_deals, deal(["Ann"] * 4, "Ann"), deals_to_win=3)
    assert result.over and result.winners == ("Ann",) and result.totals == {"Ann": 3, "Ben": 2}
    assert result.extra["deciding_victory"] == "absolute"


def test_the_deal_and_the_start_alternate_so_neither_player_always_starts():
    result = play(DRAW, DRAW, DRAW, first_dealer="Ben", deals_to_win=2)
    assert [(r.dealer, r.first_player) for r in result.rounds] == [
        ("Ben", "Ann"), ("Ann", "Ben"), ("Ben", "Ann")]
    assert (result.next_dealer, result.next_first_player) == ("Ann", "Ben")


def test_a_round_records_who_completed_each_corner_and_slew_the_dragon():
    extra = play(deal(["Ben", None], "Ann")).rounds[0].extra
    assert extra == {"points": {"Ann": 1, "Ben": 1}, "deal_winner": None, "victory": "draw",
                     "corners": ["Ben", None], "dragon": "Ann"}


def test_a_match_ended_by_hand_goes_to_the_most_deals_won():
    result = play(ANN_WINS, BEN_WINS, ANN_WINS, deals_to_win=5, ended=True)
    assert result.over and result.winners == ("Ann",) and result.extra["deciding_victory"] is None


@pytest.mark.parametrize("deals", [(), (ANN_WINS, BEN_WINS)])
def test_a_match_ended_by_hand_level_on_deals_is_shared(deals):
    result = play(*deals, deals_to_win=3, ended=True)
    assert result.over and result.winners == PLAYERS and result.next_dealer is None


def test_went_out_stands_for_the_dragon_when_no_dragon_is_given():
    first = play(deal(["Ben"], went_out="Ann")).rounds[0]
    assert first.extra["dragon"] == "Ann" and first.scores == {"Ann": 1, "Ben": 1}


@pytest.mark.parametrize("bad_deal, field", [
    (deal(["Ann", "Ben", None, "Ann", "Ben"], "Ann"), "corners"),
    (deal(["Ann", None, "Cy"], "Ann"), "corners[2]"),
    (deal(["Ann"], "Cy"), "dragon"),
    (deal(["Ann"], went_out="Cy"), "went_out"),
    (deal(["Ann"], "Ann", went_out="Ben"), "went_out"),
])
def test_an_impossible_deal_is_refused_naming_the_round_and_field(bad_deal, field):
    with pytest.raises(RuleError) as caught:
        play(DRAW, bad_deal, deals_to_win=2)
    assert (caught.value.field, caught.value.round_number) == (field, 2)


def test_a_deal_after_the_match_is_over_is_refused():
    with pytest.raises(RuleError) as caught:
        play(DRAW, ANN_WINS, DRAW)
    assert caught.value.field == "dragon" and caught.value.round_number == 3
    assert caught.value.message == "the match was already over after deal 2"


@pytest.mark.parametrize("players", [("Ann",), ("Ann", "Ben", "Cy")])
def test_coronation_is_for_two_players_only(players):
    with pytest.raises(RuleError) as caught:
        play(players=players)
    assert caught.value.field == "players"


@pytest.mark.parametrize("value", [0, 100, "3"])
def test_deals_to_win_out_of_range_is_refused(value):
    with pytest.raises(RuleError) as caught:
        CORONATION.resolve_settings({"deals_to_win": value})
    assert caught.value.field == "rules.deals_to_win"


def test_coronation_is_registered_with_one_deal_to_win_by_default():
    assert get_variant("coronation") is CORONATION
    assert CORONATION.resolve_settings({}) == {"deals_to_win": 1}


def test_the_preview_scores_a_deal_as_typed_and_refuses_a_stranger():
    assert preview_deal(PLAYERS, ["Ann", "Ann", "Ann", "Ann"], None) == {
        "points": {"Ann": 4, "Ben": 0}, "deal_winner": "Ann", "victory": "incredible"}
    with pytest.raises(RuleError) as caught:
        preview_deal(PLAYERS, ["Cy"], None)
    assert caught.value.field == "corners[0]"


entry = st.sampled_from(["Ann", "Ben", None])
deals = st.builds(deal, st.lists(entry, max_size=4), entry)


@given(st.lists(entry, max_size=4), entry)
def test_the_points_of_a_deal_are_the_completed_corners_and_the_dragon(corners, dragon):
    preview = preview_deal(PLAYERS, corners, dragon)
    scored = sum(e is not None for e in corners) + (dragon is not None)
    assert sum(preview["points"].values()) == scored <= 5
    winner = preview["deal_winner"]
    assert (winner is None) == (preview["points"]["Ann"] == preview["points"]["Ben"])


@given(st.lists(deals, max_size=12), st.integers(1, 4))
def test_the_match_is_over_exactly_when_someone_has_won_enough_deals(all_deals, deals_to_win):
    played: list[Round] = []
    for one in all_deals:
        if play(*played, deals_to_win=deals_to_win).over:
            with pytest.raises(RuleError):
                play(*played, one, deals_to_win=deals_to_win)
            break
        played.append(one)
    result = play(*played, deals_to_win=deals_to_win)
    winners = [r.extra["deal_winner"] for r in result.rounds]
    assert result.totals == {name: winners.count(name) for name in PLAYERS}
    assert result.over == (max(result.totals.values()) == deals_to_win)
    assert result.winners == (tuple(n for n in PLAYERS if result.totals[n] == deals_to_win))
