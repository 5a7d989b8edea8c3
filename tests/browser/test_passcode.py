"""The table passcode on real phones: set on one, asked once on another, then carrying on."""

from __future__ import annotations

import re

from tests.browser.helpers import key, other_phone, pot, saved, shot, unlock, until
from tests.browser.helpers import start_chips as start


def test_a_phone_without_the_passcode_is_asked_once_and_then_carries_on(
        phone, browser, live_server):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"])
    board = page.url
    taps.tap("a[aria-label=Settings]")
    page.fill("input[name=passcode]", "2468")
    taps.tap("button:has-text('Set passcode')")
    assert "Passcode set." in page.locator(".flash").inner_text()
    shot(page, "passcode-settings")

    context, other = other_phone(browser, live_server)
    try:
        # It follows the game read-only, and is told so.
        other.goto(board)
        assert other.locator("a.lock").is_visible()
        shot(other, "passcode-read-only-board")
        before = pot(other)

        # A chips tap asks for the passcode, and is sent once it is given.
        key(other, "Ben").click()
        other.wait_for_url(re.compile(r"/unlock\?next="))
        shot(other, "passcode-unlock")
        unlock(other, "1357")
        assert "not the table" in other.locator("[role=alert]").inner_text()
        unlock(other, "2468")
        other.wait_for_selector("#live")
        saved(other)
        assert pot(other) == before + 1
        assert other.locator("a.lock").count() == 0

        # Remembered: the next change asks nothing.
        other.click("#record-hand")
        other.wait_for_selector("#hand-form")
    finally:
        context.close()

    context, third = other_phone(browser, live_server)
    try:
        # A form sent without the passcode is sent again once it is given: End game now.
        third.goto(board)
        third.click("button:has-text('End game now')")
        third.click("dialog.ask button[value=yes]")
        unlock(third, "2468")
        third.wait_for_selector(".banner")
        assert "Game ended by hand" in third.locator(".banner").inner_text()
    finally:
        context.close()


def test_the_watch_link_shows_the_game_with_no_buttons_and_keeps_up(
        phone, browser, live_server):
    page, taps = phone
    start(page, taps, ["Ann", "Ben"])
    context, tv = other_phone(browser, live_server)
    try:
        tv.goto("/watch")
        tv.wait_for_selector("#live")
        assert tv.locator("form").count() == 0 and tv.locator("#record-hand").count() == 0
        shot(tv, "watch-only")
        before = pot(tv)
        taps.tap(key(page, "Ann"))
        saved(page)
        until(tv, f"() => Number(document.querySelector('#live [data-pot]').textContent) "
                  f"=== {before + 1}")
        assert tv.locator("form").count() == 0
    finally:
        context.close()
