"""The figures oracle (tests/reports/oracle.py) on games whose numbers are worked out by hand
in the comments, its best night, and the chart's spread the app shares with it."""

from __future__ import annotations

from datetime import date

from scorekeeper import rules
from scorekeeper.reports.figures import CHART_POINTS, spread
from scorekeeper.rules import Game, Hand, Round
from tests.helpers import two_nights
from tests.reports.oracle import best_night, night_records, played, player_stats, records

FRI, SAT = date(2026, 11, 20), date(2026, 11, 21)
PENALTY = rules.get_variant("penalty").resolve_settings({})
HOUSE = rules.get_variant("chips").resolve_settings({"preset": "house", "start_chips": 3})
JAX = rules.get_variant("chips").resolve_settings({"preset": "jax"})
CORONATION = rules.get_variant("coronation").resolve_settings({"deals_to_win": 2})


def test_wins_and_win_rate_count_finished_games_per_variant():
    ann = player_stats("Ann", two_nights())
    # Penalty: won 1, shared 2 (3 is unfinished); chips: won 4, lost 5; coronation: won 6.
    assert {v: (r.played, r.wins) for v, r in ann.by_variant.items()} == {
        "penalty": (2, 2), "chips": (2, 1), "coronation": (1, 1)}
    assert (ann.overall.played, ann.overall.wins, ann.overall.win_rate) == (5, 4, 0.8)
    assert ann.unfinished == 1


def test_a_player_who_never_won_has_no_best_night():
    cy = player_stats("Cy", two_nights())
    assert (cy.overall.played, cy.overall.wins) == (2, 0)  # games 1 and 5; game 3 is unfinished
    assert cy.best_night is None
    assert set(cy.by_variant) == {"penalty", "chips"}


def line(facts, label: str) -> tuple[str, str]:
    """Return the figure and note of one line of the player page's hand-by-hand facts."""
    found = {shown: (figure, note) for shown, figure, note, _ in facts.lines()}
    return found[label]


def test_average_penalty_counts_every_penalty_hand_recorded():
    ann = player_stats("Ann", two_nights()).hands
    # Game 1: 12 + 0, game 2: 0, game 3 (unfinished): 7 = 19 points in 4 hands.
    assert (ann["penalty_points"], ann["penalty_hands"]) == (19, 4)
    assert line(ann, "Penalty per hand") == ("4.8", "19 points in 4 hands")
    ben = player_stats("Ben", two_nights()).hands
    assert (ben["penalty_points"], ben["penalty_hands"]) == (13, 3)  # 0 + 13, then 0


def test_kings_left_in_hand_add_up_over_penalty_and_chips_hands():
    # Ann: 1 king (game 1) + 1 (game 5) in 2 + 1 + 1 + 1 + 1 = 6 hands.
    ann = player_stats("Ann", two_nights()).hands
    assert line(ann, "Kings left in hand") == ("2", "in 6 hands")
    # Ben: 1 (game 1, hand 2) + 1 (stalemate of game 2) + 1 (game 4) = 3, in 5 hands.
    ben = player_stats("Ben", two_nights()).hands
    assert line(ben, "Kings left in hand") == ("3", "in 5 hands")


def test_chips_won_are_pots_taken_and_chips_lost_are_everything_paid_in():
    ann = player_stats("Ann", two_nights()).hands
    assert line(ann, "Chips") == ("-1", f"won 4 in pots, paid {1 + 4}")
    ben = player_stats("Ben", two_nights()).hands
    assert line(ben, "Chips") == ("+9", f"won 14 in pots, paid {3 + 2}")
    cy = player_stats("Cy", two_nights()).hands
    assert (cy["chips_won"], cy["chips_lost"]) == (0, 8)


def test_coronations_and_dragons_are_counted_per_deal():
    ann = player_stats("Ann", two_nights()).hands
    ben = player_stats("Ben", two_nights()).hands
    assert line(ann, "Coronations") == ("5", "corners crowned in 3 deals")
    assert line(ann, "Dragons slain")[0] == "2"
    assert line(ben, "Coronations") == ("6", "corners crowned in 3 deals")
    assert line(ben, "Dragons slain")[0] == "1"


def test_best_night_is_the_most_wins_and_a_tie_goes_to_the_better_win_rate():
    ann = player_stats("Ann", two_nights())
    # Friday: 2 wins in 2 games; Saturday: 2 wins in 3. Tied on wins, Friday's rate is better.
    assert [(n.label, n.games, n.wins) for n in night_records("Ann", two_nights())] == [
        ("Friday", 2, 2), ("Saturday", 3, 2)]
    assert ann.nights == 2
    assert ann.best_night.label == "Friday"
    # Ben: Friday 1 of 2, Saturday 1 of 3.
    assert player_stats("Ben", two_nights()).best_night.label == "Friday"


def test_best_night_tied_on_wins_and_rate_goes_to_the_later_night():
    friday = night_records("Ann", two_nights())[0]
    same = [friday, friday.__class__(9, "Later", SAT, 2, 2)]
    assert best_night(same).label == "Later"


def test_head_to_head_counts_who_finished_ahead_in_games_both_played():
    rows = {h.other: h for h in player_stats("Ann", two_nights()).head_to_head}
    # Ben: game 1 Ann 12 < 13 ahead (lower wins), game 2 0-0 level, game 4 6 > 0 ahead,
    #   game 5 pots 0 < 14 behind, game 6 deals 2 > 1 ahead.
    ben = rows["Ben"]
    assert (ben.games, ben.ahead, ben.behind, ben.level) == (5, 3, 1, 1)
    # Cy: game 1 12 < 29 ahead, game 5 0-0 level; unfinished game 3 does not count.
    cy = rows["Cy"]
    assert (cy.games, cy.ahead, cy.behind, cy.level) == (2, 1, 0, 1)
    assert [h.other for h in player_stats("Ann", two_nights()).head_to_head] == ["Ben", "Cy"]


def test_head_to_head_is_the_mirror_image_for_the_other_player():
    ben = {h.other: h for h in player_stats("Ben", two_nights()).head_to_head}["Ann"]
    assert (ben.games, ben.ahead, ben.behind, ben.level) == (5, 1, 3, 1)


def test_roster_records_cover_every_player():
    assert {name: (r.played, r.wins) for name, r in records(two_nights()).items()} == {
        "Ann": (5, 4), "Ben": (5, 2), "Cy": (2, 0)}


def test_form_is_the_running_win_rate_after_each_night():
    # Ann: Friday won 2 of 2 (game 3 unfinished): 100; Saturday won 2 of 3: 4 of 5 = 80.
    form = player_stats("Ann", two_nights()).form
    assert [round(rate) for _, rate in form] == [100, 80]
    assert [day for day, _ in form] == [FRI, SAT]
    # Ben: Friday 1 of 2 = 50; Saturday 1 of 3: 2 of 5 = 40.
    assert [round(rate) for _, rate in player_stats("Ben", two_nights()).form] == [50, 40]


def test_a_player_out_of_a_chips_game_is_not_counted_in_later_hands():
    # House, 3 chips each. Hand 1 (Ann deals): antes leave 2 each, pot 3; Ann out;
    #   Ben 1 card pays 1 (stack 1); Cy 5 cards owes 5, pays his 2 and is out; Ann takes 6.
    # Hand 2 (Ben deals, Cy out): antes Ann 1, Ben 1 (Ben 0), pot 2; Ben out;
    #   Ann 2 cards pays 2; Ben takes 4. Stacks: Ann 8 - 3 = 5, Ben 4, Cy 0.
    game = Game("chips", ("Ann", "Ben", "Cy"), "Ann", HOUSE, (
        Round("Ann", {"Ben": Hand(1), "Cy": Hand(5)}),
        Round("Ben", {"Ann": Hand(2)})))
    games = [played(game, SAT)]
    cy = player_stats("Cy", games).hands
    assert (cy["card_hands"], cy["chips_won"], cy["chips_lost"]) == (1, 0, 3)
    ann = player_stats("Ann", games).hands
    ben = player_stats("Ben", games).hands
    # Won minus paid is each stack's change from the 3 dealt: +2, +1, -3.
    assert [line(p, "Chips")[0] for p in (ann, ben, cy)] == ["+2", "+1", "-3"]
    assert games[0].result.over is False


def test_nobody_has_statistics_before_the_first_game():
    nobody = player_stats("Ann", [])
    assert (nobody.overall.played, nobody.overall.win_rate, nobody.best_night) == (0, None, None)
    assert nobody.hands.lines() == []
    assert nobody.head_to_head == () and nobody.form == ()


def test_a_long_history_is_charted_from_points_spread_evenly_first_and_last_kept():
    assert spread(5) == [0, 1, 2, 3, 4]
    picked = spread(520)
    assert len(picked) == CHART_POINTS and picked[0] == 0 and picked[-1] == 519
    assert picked == sorted(set(picked))
    gaps = {b - a for a, b in zip(picked, picked[1:])}
    assert gaps <= {519 // (CHART_POINTS - 1), 519 // (CHART_POINTS - 1) + 1}
