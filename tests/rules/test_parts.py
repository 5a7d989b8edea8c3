"""A hand gathered from each player's part: waiting, disagreeing, or whole."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.parts import NOBODY, Part, gather_deal, gather_hand

seats = st.integers(min_value=2, max_value=6)


@st.composite
def parts_of_a_hand(draw):
    """Some seats' parts (each went out or holds 1-13 cards, 0-4 kings), in any order."""
    count = draw(seats)
    sent = {}
    for seat in range(count):
        if draw(st.booleans()):
            out = draw(st.booleans())
            cards = None if out else draw(st.integers(1, 13))
            kings = 0 if out else draw(st.integers(0, min(4, cards)))
            sent[seat] = Part(seat, out, cards, kings)
    return count, sent


@given(parts_of_a_hand(), st.randoms())
def test_the_order_parts_arrive_in_changes_nothing(case, rng: random.Random):
    count, sent = case
    shuffled = list(sent.items())
    rng.shuffle(shuffled)
    assert gather_hand(range(count), dict(shuffled)) == gather_hand(range(count), sent)


@given(parts_of_a_hand())
def test_a_hand_is_whole_only_with_every_part_and_at_most_one_out(case):
    count, sent = case
    gathered = gather_hand(range(count), sent)
    out = [seat for seat, part in sent.items() if part.went_out]
    assert gathered.waiting == tuple(s for s in range(count) if s not in sent)
    assert (gathered.clash == "two_out") == (len(out) > 1)
    assert gathered.complete == (len(sent) == count and len(out) <= 1)
    if gathered.complete:
        assert gathered.went_out == (out[0] if out else None)  # none out: a stalemate
        assert {s: (p.cards, p.kings) for s, p in sent.items() if not p.went_out} == \
            dict(gathered.hands)


def test_two_claiming_out_are_named_before_everyone_is_in():
    gathered = gather_hand(range(4), {0: Part(0, True), 2: Part(2, True)})
    assert gathered.clash == "two_out" and gathered.seats == (0, 2)
    assert gathered.waiting == (1, 3) and not gathered.complete


def test_a_seat_sitting_out_is_not_waited_for():
    assert gather_hand([0, 2], {0: Part(0, True), 2: Part(2, cards=3)}).complete


def test_a_coronation_deal_needs_both_and_the_same():
    deal = (0, 1, NOBODY, 0, 0)
    assert gather_deal([0, 1], {0: Part(0, deal=deal)}).waiting == (1,)
    other = gather_deal([0, 1], {0: Part(0, deal=deal), 1: Part(1, deal=(0, 1, 1, 0, 1))})
    assert other.clash == "deal" and other.seats == (2, 4)  # corner 3 and the dragon
    agreed = gather_deal([0, 1], {0: Part(0, deal=deal), 1: Part(1, deal=deal)})
    assert agreed.complete and agreed.deal == deal
