"""Chip-pot games played by tapping on a phone-sized screen: the live pot, busts, Jax."""

from __future__ import annotations

from tests.browser.helpers import Taps, key, other_phone, pot, saved, settled, shot, until
from tests.browser.helpers import record_cards as record
from tests.browser.helpers import start_chips as start


def stacks(page) -> dict[str, int]:
    """Read each player's chips in the live pot."""
    rows = page.locator("#live .live-player")
    return {rows.nth(i).get_attribute("data-name"): int(rows.nth(i).locator("[data-stack]")
                                                       .inner_text())
            for i in range(rows.count())}


def test_a_house_game_played_with_passes_through_to_a_bust(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"], start_chips=5)
    assert pot(page) == 3 and stacks(page) == {"Ann": 4, "Ben": 4, "Cy": 4}
    assert "15 chips in play" in page.locator("#live").inner_text()
    url = page.url

    # One tap each pass; a thumb's double tap on one key is one pass.
    taps.count = 0
    key(page, "Cy").dblclick()
    saved(page)
    assert pot(page) == 4
    # Past the double-tap window (chips.js DEBOUNCE_MS, 450 ms): a tap then is another pass.
    # The time itself is what is tested here.
    page.wait_for_timeout(500)
    taps.tap(key(page, "Cy"))
    taps.tap(key(page, "Ann"))
    assert pot(page) == 6  # shown at once, before the server answers
    saved(page)
    assert page.url == url and stacks(page) == {"Ann": 3, "Ben": 4, "Cy": 2}
    assert "Last tap: Ann, pass (1)" in page.locator("#live").inner_text()
    shot(page, "chips-house-live-pot")

    # Undo the last tap; a reload shows what the server kept.
    taps.tap("#live button.undo")
    saved(page)
    assert pot(page) == 5
    page.reload()
    assert pot(page) == 5 and stacks(page) == {"Ann": 4, "Ben": 4, "Cy": 2}

    # End of hand 1: Cy owes 5 for cards but has 2, so pays 2 and is out.
    taps.count = 0
    record(page, taps, "Ben", {"Ann": 1, "Cy": 5})
    settled(page)
    preview = page.locator("[data-pot-preview]")
    assert "Ben takes the 8-chip pot" in preview.locator("summary").inner_text()
    assert "pays 2 → 0 · out" in page.locator(".player[data-name='Cy']").inner_text()
    taps.tap(preview.locator("summary"))  # who pays what, a tap away
    taps.count -= 1
    assert "Cy pays 2" in preview.inner_text() and "out of the game" in preview.inner_text()
    assert "Ben takes the 8-chip pot" in preview.inner_text()
    shot(page, "chips-house-record-hand")
    taps.tap("#save-hand")
    assert taps.count == 5  # Record hand, Ben, 1 for Ann, 5 for Cy, Save
    page.wait_for_selector("#live")
    assert "Ben deals, Ann plays first" in page.locator(".next-line").inner_text()
    cy = page.locator("#live .live-player[data-name='Cy']")
    assert cy.locator(".out-badge").is_visible() and cy.locator(".tapkey").count() == 0
    assert pot(page) == 2 and stacks(page) == {"Ann": 2, "Ben": 11, "Cy": 0}
    story = page.locator(".hand-stories").inner_text()
    assert "Cy\n-5\n→ 0 OUT\nante 1 · 2 passes 2 · cards 2 of 5" in story
    shot(page, "chips-house-after-bust")

    # Hand 2 asks nothing about Cy; Ann's pass and cards take her last chips: Ben wins.
    taps.tap(key(page, "Ann"))
    saved(page)
    taps.tap("#record-hand")
    assert page.locator(".player[data-name='Cy']").count() == 0
    assert "Out of the game: Cy." in page.locator("#hand-form").inner_text()
    page.go_back()
    record(page, taps, "Ben", {"Ann": 3})
    taps.tap("#save-hand")
    page.wait_for_selector(".banner")
    assert "Ben wins!" in page.locator(".banner").inner_text()
    assert page.locator("#live").count() == 0
    standings = page.locator(".chips-standings").inner_text()
    assert "15" in standings and "no chips left" in standings
    shot(page, "chips-house-over")


def test_a_jax_hand_with_a_king_held_penalty(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben"], preset="Jax")
    assert stacks(page) == {"Ann": 39, "Ben": 39} and pot(page) == 2
    live = page.locator("#live").inner_text()
    assert "King held" in live and "Missed draw" in live and "80 chips in play" in live
    # Every key's label on one line: the three keys of a row are as tall as each other.
    heights = {round(key(page, "Ann", label).bounding_box()["height"])
               for label in ("Pass", "King held", "Missed draw")}
    assert len(heights) == 1, heights

    taps.tap(key(page, "Ann", "King held"))
    saved(page)
    assert pot(page) == 5 and stacks(page)["Ann"] == 36
    shot(page, "chips-jax-live-pot")

    record(page, taps, "Ben", {"Ann": (2, 1)})
    settled(page)
    page.locator("[data-pot-preview] summary").click()
    preview = page.locator("[data-pot-preview]").inner_text()
    assert "Ann pays 2" in preview and "Ben takes the 7-chip pot" in preview
    taps.tap("#save-hand")
    page.wait_for_selector("#live")
    standings = page.locator(".chips-standings").inner_text()
    assert "93 to go" in standings
    story = page.locator(".hand-stories").inner_text()
    assert "Ben takes the 7-chip pot" in story and "king held 3" in story
    assert stacks(page) == {"Ann": 39, "Ben": 39}  # re-split for hand 2
    shot(page, "chips-jax-after-hand")


def test_taps_made_offline_are_kept_and_sent_when_the_connection_is_back(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben"], start_chips=10)
    page.context.set_offline(True)
    taps.tap(key(page, "Ann"))
    status = "#live [data-live-status]:has-text('No connection')"
    page.wait_for_selector(status)  # the first tap's sending failed
    taps.tap(key(page, "Ben"))
    page.wait_for_selector(status)
    assert pot(page) == 4
    shot(page, "chips-offline")
    page.context.set_offline(False)
    saved(page)
    page.reload()
    assert pot(page) == 4 and stacks(page) == {"Ann": 8, "Ben": 8}


def test_a_second_phone_sees_the_taps_of_the_first(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben"])
    other = page.context.new_page()
    other.goto(page.url)
    taps.tap(key(page, "Ben"))
    saved(page)
    until(other, "() => document.querySelector('#live [data-pot]').textContent === '3'")
    assert "Last tap: Ben, pass (1)" in other.locator("#live").inner_text()


def test_a_tap_on_a_pot_another_phone_ended_says_so_and_stays_on_that_hand(
        phone, browser, live_server):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"], start_chips=20)
    board = page.url
    # This phone has not heard the news yet (its "anything new?" is held up)...
    page.route("**/version*", lambda route: route.abort())
    context, other = other_phone(browser, live_server)
    try:
        other.goto(board)
        record(other, Taps(other), "Ben", {"Ann": 1, "Cy": 2})
        other.locator("#save-hand").click()
        other.wait_for_selector("#live[data-hand='2']")
    finally:
        context.close()
    # ...and taps a pass into hand 1, which has ended.
    taps.tap(key(page, "Cy"))
    held = page.locator("#live .live-held")
    held.wait_for()
    assert "Hand 1 is not being played now (hand 2 is" in held.inner_text()
    assert "this tap was not recorded" in held.inner_text()
    assert page.locator("#live").get_attribute("data-hand") == "1"  # the hand they meant
    assert key(page, "Ann").is_disabled()  # no tap goes into the wrong hand by mistake
    shot(page, "chips-stale-tap")
    # News from another phone does not move them on; their tap moves them on.
    page.unroute("**/version*")
    for _ in range(2):  # two polls answered: the news is in, and was dealt with
        with page.expect_response("**/version*"):
            pass
    assert page.locator("#live .live-held").is_visible()
    taps.tap("[data-open-next]")
    page.wait_for_selector("#live[data-hand='2']")
    assert not page.locator("#live .live-held").count()
    assert "Last tap" not in page.locator("#live").inner_text()  # the refused tap was not kept
