"""The table's records and a player's personal bests, worked out by hand from the hands as
entered: most kings left in one hand, biggest pot, biggest comeback, 5–0 deals."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import text

from scorekeeper.db import results
from scorekeeper.extensions import db
from scorekeeper.reports.records import player_records, records
from tests.helpers import hand_data, import_log, with_part

PLAYERS = ["Ann", "Ben", "Cy"]
ANN, BEN, CY = 1, 2, 3  # roster ids, in the order the first game seats them


def hand(went_out, **held) -> dict:
    """Return a logged hand: who went out, and each other player's (cards, kings)."""
    return {"went_out": went_out, "hands": {
        name: {"cards": cards, "kings": kings} for name, (cards, kings) in held.items()}}


def deal(corners, dragon) -> dict:
    return {"corners": list(corners), "dragon": dragon}


def table(app, **between) -> dict:
    """Return the records as (label, value said, holder, day) by variant."""
    with app.test_request_context():
        return {variant: [(b.label, b.said, b.name, b.played_on) for b in bests]
                for variant, bests in records(**between).items()}


def mine(app, player_id: int) -> dict:
    with app.test_request_context():
        return {variant: [(b.best.label, b.best.said, b.record) for b in bests]
                for variant, bests in player_records(player_id).items()}


@pytest.fixture
def penalty(app):
    """Two penalty games to 25. Game 1: Ann trails Cy by 15 after hand 2, then wins; Ben is
    left holding 2 kings. Game 2: Ann is left holding 3 kings, Cy 1; Ben wins at once."""
    import_log(app, "penalty", PLAYERS, [
        hand("Ann", Ben=(3, 2), Cy=(5, 0)),  # Ann 0, Ben 21, Cy 5
        hand("Cy", Ann=(20, 0), Ben=(1, 0)),  # Ann 20, Ben 22, Cy 5: Ann 15 behind
        hand("Ben", Ann=(1, 0), Cy=(21, 0)),  # Ann 21, Ben 22, Cy 26: over, Ann wins
    ], "2026-01-05")
    import_log(app, "penalty", PLAYERS, [hand("Ben", Ann=(4, 3), Cy=(2, 1))], "2026-01-12")
    return app


def test_penalty_records_worked_by_hand(penalty):
    assert table(penalty) == {"penalty": [
        ("Most kings left in one hand", "3 kings", "Ann", date(2026, 1, 12)),
        ("Biggest comeback", "15 points", "Ann", date(2026, 1, 5))]}
    # Ben's best is 2 kings: not the record; a winner who never trailed has no comeback.
    assert mine(penalty, BEN) == {"penalty": [("Most kings left in one hand", "2 kings", "")]}
    assert mine(penalty, ANN) == {"penalty": [
        ("Most kings left in one hand", "3 kings", "holds"),
        ("Biggest comeback", "15 points", "holds")]}


def test_a_tie_leaves_the_record_with_the_first_to_set_it(penalty, client):
    import_log(penalty, "penalty", PLAYERS, [hand("Ann", Ben=(1, 0), Cy=(3, 3))], "2026-01-19")
    assert table(penalty)["penalty"][0] == (
        "Most kings left in one hand", "3 kings", "Ann", date(2026, 1, 12))
    assert mine(penalty, CY)["penalty"][0] == ("Most kings left in one hand", "3 kings",
                                                "equals")
    page = with_part(client, f"/players/{CY}").get_data(as_text=True)
    assert "Equals the table record" in page and "Table record<" not in page


def test_an_unfinished_game_counts_its_hands_but_no_comeback(penalty):
    # To 100: Ben holds 4 kings (40 points) and the game goes on; Cy, 39 behind, leads
    # nothing yet, so no comeback counts.
    import_log(penalty, "penalty", PLAYERS, [hand("Cy", Ann=(1, 0), Ben=(4, 4))],
               "2026-01-26", target=100)
    assert table(penalty)["penalty"] == [
        ("Most kings left in one hand", "4 kings", "Ben", date(2026, 1, 26)),
        ("Biggest comeback", "15 points", "Ann", date(2026, 1, 5))]


def test_a_correction_of_an_old_hand_and_a_deleted_game_change_the_records(penalty, client):
    # Game 1's last hand corrected: Ann was left holding 4 kings, not 1 card. She ends on
    # 60, and Ben, 21 behind Ann after hand 1, wins on 22.
    response = client.post("/games/1/hands/3/edit", data=hand_data(
        PLAYERS, "Ben", {"Ann": (4, 4), "Cy": (21, 0)}, number=3))
    assert response.status_code == 302
    assert table(penalty) == {"penalty": [
        ("Most kings left in one hand", "4 kings", "Ann", date(2026, 1, 5)),
        ("Biggest comeback", "21 points", "Ben", date(2026, 1, 5))]}
    import_log(penalty, "penalty", PLAYERS, [hand("Ann", Ben=(1, 0), Cy=(3, 3))], "2026-01-19")
    assert client.post("/games/1/delete").status_code == 302
    # Ann's 3 kings of game 2 came first of the two 3s left.
    assert table(penalty)["penalty"] == [
        ("Most kings left in one hand", "3 kings", "Ann", date(2026, 1, 12))]
    with penalty.app_context():
        assert results.check() == []


def test_chips_the_biggest_pot_is_a_share_of_a_split_one(app):
    # rules.md's split pot, Ann dealing: 8 chips among Ann, Ben and Dee, 2 each and the odd
    # 2 to Ben and Dee (left of the dealer): two shares of 3 in one game, the record goes
    # to the one on the roster first.
    four = ["Ann", "Ben", "Cy", "Dee"]
    import_log(app, "chips", four, [{"went_out": None, "hands": {
        "Ann": {"cards": 2}, "Ben": {"cards": 2}, "Cy": {"cards": 4}, "Dee": {"cards": 2}}}],
        "2026-02-02")
    assert table(app)["chips"] == [("Biggest pot won", "3 chips", "Ben", date(2026, 2, 2))]
    # rules.md's first chips hand: Ben takes the 11-chip pot, Ann is left holding a king.
    import_log(app, "chips", PLAYERS, [
        {**hand("Ben", Ann=(2, 1), Cy=(3, 0)),
         "events": [{"player": "Ann", "kind": "pass"}, {"player": "Cy", "kind": "pass"},
                    {"player": "Ann", "kind": "pass"}]}], "2026-02-09", ended=True)
    assert table(app)["chips"] == [
        ("Biggest pot won", "11 chips", "Ben", date(2026, 2, 9)),
        ("Most kings left in one hand", "1 king", "Ann", date(2026, 2, 9))]


def test_chips_comeback_counts_chips_behind_the_leader(app):
    # Jax set, 3 chips each, to 10. Hand 1: Cy takes the antes (3), Ann's 6 cards (she pays
    # the 2 she has left) and Ben's 1: a pot of 6, Ann 6 behind. Then Ann takes 5 and 5.
    import_log(app, "chips", PLAYERS, [
        hand("Cy", Ann=(6, 0), Ben=(1, 0)),
        hand("Ann", Ben=(1, 0), Cy=(1, 0)),
        hand("Ann", Ben=(1, 0), Cy=(1, 0)),
    ], "2026-02-16", preset="jax", total_chips=9, target=10)
    got = table(app)["chips"]
    assert ("Biggest comeback", "6 chips", "Ann", date(2026, 2, 16)) in got
    assert ("Biggest pot won", "6 chips", "Cy", date(2026, 2, 16)) in got


def test_coronation_counts_5_0_deals_and_a_comeback_in_deals(app):
    ann, ben = "Ann", "Ben"
    import_log(app, "coronation", [ann, ben], [
        deal([ben] * 4, ben),  # Ben 5–0
        deal([ben] * 4, ben),  # Ben 5–0: Ann 2 deals behind
        deal([ann, ann, ann, ben], ann),
        deal([ann] * 4, ann),  # Ann 5–0
        deal([ann, ann, ben, ann], ben),  # Ann 3 deals to 2: she wins the match
    ], "2026-03-02", deals_to_win=3)
    assert table(app)["coronation"] == [
        ("Most 5–0 deals in one match", "2 deals won 5–0", "Ben", date(2026, 3, 2)),
        ("Biggest comeback", "2 deals", "Ann", date(2026, 3, 2))]
    assert mine(app, 1)["coronation"] == [
        ("Most 5–0 deals in one match", "1 deal won 5–0", ""),
        ("Biggest comeback", "2 deals", "holds")]


def test_records_between_two_days_are_a_season_s(penalty):
    assert table(penalty, first_day=date(2026, 1, 6)) == {"penalty": [
        ("Most kings left in one hand", "3 kings", "Ann", date(2026, 1, 12))]}
    assert table(penalty, last_day=date(2026, 1, 11)) == {"penalty": [
        ("Most kings left in one hand", "2 kings", "Ben", date(2026, 1, 5)),
        ("Biggest comeback", "15 points", "Ann", date(2026, 1, 5))]}
    assert table(penalty, first_day=date(2027, 1, 1)) == {}
    with penalty.test_request_context():
        assert records("coronation") == {}


def test_bests_are_never_summed_into_a_player_s_figures(penalty, client):
    # Ann's kings left: 3 in game 2 (none in game 1): the page's figure is the sum of
    # her hands, and the records table is a table of its own.
    page = client.get(f"/players/{ANN}").get_data(as_text=True)
    assert "<dt>Kings left in hand</dt><dd><b>3</b>" in page
    with penalty.app_context():
        facts = {row[0] for row in db.session.execute(text("SELECT fact FROM result_fact"))}
        assert not any(fact.startswith("best_") for fact in facts)


def test_check_is_clean_after_changes_and_after_a_rebuild(penalty, runner):
    assert "differ" not in runner.invoke(args=["results", "check"]).output
    with penalty.app_context():
        db.session.execute(text("UPDATE result_best SET value = 9 WHERE fact = 'best_kings'"))
        db.session.commit()
        assert results.check() != []
    runner.invoke(args=["results", "rebuild"])
    with penalty.app_context():
        assert results.check() == []
    assert table(penalty)["penalty"][0][1] == "3 kings"
