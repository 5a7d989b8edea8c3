"""Every hand form of up to four players fits one screen at 390x844, whatever state it is
in: nothing lies below Save."""

from __future__ import annotations

import pytest

from tests.browser.helpers import (
    PHONE,
    record_cards,
    settled,
    shot,
    start_chips,
    start_coronation,
    start_penalty,
    tap_deal,
)


def overflow(page) -> int:
    """Return how many pixels of the page lie below the phone's screen."""
    return page.evaluate("() => document.documentElement.scrollHeight - window.innerHeight")


def ending_hand(page, taps):
    start_penalty(page, taps, ["Ann", "Ben", "Cy", "Dee"])
    record_cards(page, taps, "Ann", {"Ben": (10, 3), "Cy": 4, "Dee": 2})  # Ben 37: it ends
    settled(page)
    assert page.locator("[data-slot=ends]").is_visible()


def correction(page, taps):
    start_penalty(page, taps, ["Ann", "Ben", "Cy", "Dee"])
    record_cards(page, taps, "Ann", {"Ben": 3, "Cy": 4, "Dee": 2})
    taps.tap("#save-hand")
    page.wait_for_selector(".standings")
    taps.tap("a.edit")
    page.wait_for_selector("#hand-form")
    settled(page)


def refused(page, taps):
    start_penalty(page, taps, ["Ann", "Ben", "Cy", "Dee"])
    record_cards(page, taps, "Ann", {"Ben": 3, "Cy": 4})  # Dee's cards left out
    taps.tap("#save-hand")
    page.wait_for_selector("#error-summary")
    settled(page)


def chips_hand(players):
    def fill(page, taps):
        start_chips(page, taps, players)
        record_cards(page, taps, players[1], {name: 3 for name in players if name != players[1]})
        settled(page)
        line = page.locator("[data-pot-preview] summary")
        assert f"{players[1]} takes the" in line.inner_text()
        taps.tap(line)  # who pays what, over the form: the form stays one screen
        assert page.locator("[data-pot-preview] [data-payments]").is_visible()
    return fill


def deciding_deal(page, taps):
    start_coronation(page, taps)
    taps.tap("#record-hand")
    tap_deal(page, taps, ["Ann", "Ben", "Ann", "Nobody"], "Ann")
    settled(page)


@pytest.mark.parametrize("state", [ending_hand, correction, refused, chips_hand(
    ["Ann", "Ben", "Cy"]), chips_hand(["Ann", "Ben", "Cy", "Dee"]), deciding_deal],
    ids=["ending", "correction", "refused", "chips-3", "chips-4", "deciding-deal"])
def test_a_hand_form_fits_one_screen_in_every_state(phone, state, request):
    page, taps = phone
    state(page, taps)
    shot(page, f"one-screen-{request.node.callspec.id}")
    below = overflow(page)
    assert below <= 0, f"{below} px of the form lie below the screen"
    box = page.locator("#save-hand").bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"]
