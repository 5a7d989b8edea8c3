"""A penalty game played by tapping on a phone-sized screen, as a person at the table would."""

from __future__ import annotations

from tests.browser.helpers import settled, shot, totals
from tests.browser.helpers import start_penalty as start


def record(page, taps, went_out, cards):
    """Record one hand: tap who went out, then each other player's cards left."""
    taps.tap("#record-hand")
    taps.tap(page.locator("[data-went-out] label").filter(has_text=went_out))
    for name, count in cards.items():
        box = page.locator(f".player[data-name='{name}']")
        taps.tap(box.locator(".taps.cards label.tap").filter(
            has_text=f"{count}").first)
    taps.tap("#save-hand")
    page.wait_for_selector(".standings")


def test_three_players_play_by_tapping_to_the_winner_banner(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"], target=25)
    assert "Ann deals, Ben plays first" in page.locator(".next-line").inner_text()
    shot(page, "penalty-scoreboard-empty")

    record(page, taps, "Ben", {"Ann": 3, "Cy": 5})
    assert totals(page) == {"Ben": 0, "Ann": 3, "Cy": 5}
    assert "Ben deals, Cy plays first" in page.locator(".next-line").inner_text()

    # A king in hand costs ten: tap Cy's cards and then one king.
    taps.tap("#record-hand")
    taps.tap(page.locator("[data-went-out] label").filter(has_text="Ann"))
    ben = page.locator(".player[data-name='Ben']")
    taps.tap(ben.locator(".taps.cards label.tap").filter(has_text="2").first)
    cy = page.locator(".player[data-name='Cy']")
    taps.tap(cy.locator(".taps.cards label.tap").filter(has_text="4").first)
    taps.tap(cy.locator(".taps.kings label.tap").filter(has_text="1"))
    settled(page)
    assert cy.locator(".preview").inner_text() == "+13 → 18"
    shot(page, "penalty-record-hand")
    taps.tap("#save-hand")
    page.wait_for_selector(".standings")  # the scoreboard, opened in place
    assert totals(page) == {"Ben": 2, "Ann": 3, "Cy": 18}

    record(page, taps, "Ben", {"Ann": 6, "Cy": 7})
    banner = page.locator(".banner")
    assert "Ben wins!" in banner.inner_text()
    assert page.locator("#record-hand").count() == 0
    shot(page, "penalty-winner")


def test_a_four_player_hand_with_no_kings_takes_at_most_six_taps(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy", "Di"])
    taps.count = 0
    record(page, taps, "Cy", {"Ann": 2, "Ben": 4, "Di": 1})
    assert taps.count <= 6, f"{taps.count} taps"
    assert totals(page) == {"Cy": 0, "Di": 1, "Ann": 2, "Ben": 4}


def test_a_mistake_is_shown_at_its_field_and_what_was_tapped_stays(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben"])
    taps.tap("#record-hand")
    taps.tap(page.locator("[data-went-out] label").filter(has_text="Ann"))
    ben = page.locator(".player[data-name='Ben']")
    taps.tap(ben.locator(".taps.cards label.tap").filter(has_text="1").first)
    taps.tap(ben.locator(".taps.kings label.tap").filter(has_text="3"))
    taps.tap("#save-hand")
    error = page.locator(".player[data-name='Ben'] .error")
    assert "cannot hold 3 kings" in error.inner_text()
    assert ben.locator("input[name=kings-1][value='3']").is_checked()
    shot(page, "penalty-error")
    page.goto(page.url.split("/hands")[0])
    assert "0 hands played" in page.content()
