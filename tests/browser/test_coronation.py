"""A coronation match played by tapping on a phone-sized screen, deal by deal."""

from __future__ import annotations

from scorekeeper.rules.coronation import preview_deal
from tests.browser.helpers import settled, shot, tap_deal
from tests.browser.helpers import start_coronation as start


def deal_points(preview) -> dict[str, int]:
    """Read the live preview's points for each player, once the server has answered."""
    settled(preview.page)
    sides = preview.locator(".side")
    return {sides.nth(i).locator(".who").inner_text(): int(sides.nth(i).locator(".points")
                                                           .inner_text())
            for i in range(sides.count())}


def deals_won(page) -> dict[str, int]:
    """Read the deals won as a person would: each name and the big number under it."""
    sides = page.locator("#deals-won .side")
    return {sides.nth(i).locator(".who").inner_text(): int(sides.nth(i).locator(".won-count")
                                                           .inner_text())
            for i in range(sides.count())}


def test_a_best_of_three_match_played_by_tapping_ends_with_the_deciding_class(phone):
    page, taps = phone
    start(page, taps, deals_to_win=3)
    page.wait_for_selector("#record-hand")
    assert deals_won(page) == {"Ann": 0, "Ben": 0}
    assert "Ben starts deal 1" in page.locator(".next-start").inner_text()
    shot(page, "coronation-scoreboard-empty")

    # Deal 1: five taps and Save; the preview calls it before saving.
    taps.tap("#record-hand")
    taps.count = 0
    tap_deal(page, taps, ["Ann", "Ben", "Ann", "Ann"], "Ann")
    preview = page.locator("#deal-preview")
    assert deal_points(preview) == {"Ann": 4, "Ben": 1}
    settled(page)
    assert preview.locator(".deal-verdict").inner_text() == (
        "Ann wins the deal: an incredible victory.")
    shot(page, "coronation-record-deal")
    taps.tap("#save-hand")
    assert taps.count == 6, f"{taps.count} taps"
    page.wait_for_selector("#deals-won")
    assert deals_won(page) == {"Ann": 1, "Ben": 0}
    assert "Ann starts deal 2" in page.locator(".next-start").inner_text()

    # Deal 2: a corner left open, two all: a draw, and the start still alternates.
    taps.tap("#record-hand")
    tap_deal(page, taps, ["Ben", "Nobody", "Ann", "Ben"], "Ann")
    settled(page)
    assert preview.locator(".deal-verdict").inner_text() == "A draw: nobody wins this deal."
    taps.tap("#save-hand")
    page.wait_for_selector("#deals-won")
    assert deals_won(page) == {"Ann": 1, "Ben": 0}
    assert "Ben starts deal 3" in page.locator(".next-start").inner_text()

    for number, (corners, dragon) in enumerate([
            (["Ben", "Ben", "Ann", "Ben"], "Ben"),
            (["Ann", "Ann", "Ann", "Ann"], "Ann")], start=3):
        assert page.locator("#record-hand").inner_text() == f"Record deal {number}"
        taps.tap("#record-hand")
        tap_deal(page, taps, corners, dragon)
        taps.tap("#save-hand")
        page.wait_for_selector("#deals-won")
    assert deals_won(page) == {"Ann": 2, "Ben": 1}
    shot(page, "coronation-scoreboard-mid-match")

    # The deal that decides the match says so in its preview, then in the banner.
    taps.tap("#record-hand")
    tap_deal(page, taps, ["Ann", "Ben", "Ann", "Ben"], "Ann")
    settled(page)
    assert preview.locator(".deal-verdict").inner_text() == "Ann wins the deal: a normal victory."
    assert preview.locator(".deal-ends").inner_text() == (
        "Ann has won 3 deals: the match ends, Ann wins.")
    taps.tap("#save-hand")
    banner = page.locator(".banner")
    assert "Ann wins!" in banner.inner_text()
    assert "A normal victory: 3–2 in the deciding deal." in banner.inner_text()
    assert page.locator("#record-hand").count() == 0
    assert deals_won(page) == {"Ann": 3, "Ben": 1}
    rows = page.locator("table.deal-table tbody tr")
    assert rows.count() == 5
    assert rows.nth(3).locator(".victory").inner_text().lower() == "absolute"
    shot(page, "coronation-winner")


def test_an_untapped_corner_is_shown_at_its_row_and_the_taps_stay(phone):
    page, taps = phone
    start(page, taps)
    taps.tap("#record-hand")
    for index, who in [(0, "Ann"), (1, "Ben"), (3, "Nobody")]:
        row = page.locator(f".deal-row[data-corner='{index}']")
        taps.tap(row.locator("label.tap").filter(has_text=who))
    taps.tap(page.locator(".deal-dragon label.tap").filter(has_text="Ben"))
    settled(page)
    assert page.locator("#deal-preview .deal-verdict").inner_text() == "Ben leads so far"
    taps.tap("#save-hand")
    error = page.locator(".deal-row[data-corner='2'] .error")
    assert error.inner_text() == "Tap who crowned corner 3, or Nobody"
    assert page.locator("input[name=corner-1][value='1']").is_checked()
    assert page.locator("input[name=dragon][value='1']").is_checked()
    shot(page, "coronation-error")
    page.locator(".deal-row[data-corner='2'] label.tap").filter(has_text="Ben").click()
    page.locator("#save-hand").click()
    assert "Ben wins!" in page.locator(".banner").inner_text()


def test_the_new_game_page_says_coronation_is_for_exactly_two(phone):
    page, taps = phone
    page.goto("/games/new")
    option = page.locator("label.tap").filter(has_text="Coronation")
    page.fill("input[name=seat-0]", "Ann")
    page.fill("input[name=seat-1]", "Ben")
    assert option.locator("[data-fit]").inner_text() == "✓ Fits your 2 players"
    page.fill("input[name=seat-2]", "Cy")
    assert option.locator("[data-fit]").inner_text() == (
        "⚠ For exactly 2 players; 3 are seated")
    taps.tap(option)
    shot(page, "coronation-new-game-three")
    taps.tap("button:has-text('Start game')")
    assert page.locator("#variant-error").inner_text() == (
        "Coronation is for exactly 2 players, and 3 are seated")
    assert page.locator("input[name=seat-2]").input_value() == "Cy"


def test_the_live_preview_scores_each_class_as_the_rules_do(phone):
    page, taps = phone
    start(page, taps)
    taps.tap("#record-hand")
    preview = page.locator("#deal-preview")
    for corners, dragon in [(["Ben"] * 4, "Ben"), (["Ann", "Ann", "Nobody", "Ann"], "Ann"),
                            (["Ben", "Ann", "Ben", "Nobody"], "Ann"),
                            (["Ann", "Ben", "Nobody", "Nobody"], "Nobody")]:
        tap_deal(page, taps, corners, dragon)
        named = [None if who == "Nobody" else who for who in corners]
        expected = preview_deal(("Ann", "Ben"), named, None if dragon == "Nobody" else dragon)
        assert deal_points(preview) == expected["points"]
        assert preview.get_attribute("data-victory") == expected["victory"]
        if expected["deal_winner"]:
            settled(page)
            assert preview.locator(".deal-verdict").inner_text().startswith(
                f"{expected['deal_winner']} wins the deal: a")
