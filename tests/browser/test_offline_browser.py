"""On a weak signal: the service worker keeps the app's pages and files on the phone, and a
hand saved with no connection waits there and is sent when it is back, once.

The live server is on 127.0.0.1, a secure context, as a phone on HTTPS is: the service
worker registers there as it does over `make run HTTPS=1`."""

from __future__ import annotations

import re

from tests.browser.conftest import shot
from tests.browser.test_passcode_browser import other_phone, unlock
from tests.browser.test_penalty_browser import start, totals

WAITING = ".kc-queue .kc-line.waiting"


def controlled(page) -> None:
    """Wait until the service worker is installed and controls the page."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller"
                           " && navigator.serviceWorker.controller.state === 'activated'")


def fill_hand(page, taps, went_out: str, cards: dict[str, int]) -> None:
    """Tap a hand into the open record form, without saving it."""
    taps.tap(page.locator("[data-went-out] label").filter(has_text=went_out))
    for name, count in cards.items():
        box = page.locator(f".player[data-name='{name}']")
        taps.tap(box.locator(".taps.cards label.tap").filter(has_text=f"{count}").first)


def hands_on_board(page, board: str) -> list[str]:
    """Open the scoreboard afresh and return its hand-by-hand rows."""
    page.goto(board)
    page.wait_for_selector(".standings")
    return page.locator("table.hands tbody tr").all_inner_texts()


def test_the_service_worker_registers_and_controls_the_page(phone):
    page, _ = phone
    page.goto("/")
    controlled(page)
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == page.url.split("#")[0].rstrip("/") + "/"
    # A new page load is answered through it, and the app's files are kept ahead.
    page.reload()
    assert page.evaluate("!!navigator.serviceWorker.controller")
    kept = page.evaluate("caches.keys().then(k => Promise.all(k.map(n => caches.open(n)"
                         ".then(c => c.keys()).then(r => r.map(x => x.url)))))")
    urls = [u for names in kept for u in names]
    assert any("/static/app.css?v=" in u for u in urls)
    assert any(u.endswith("/offline") for u in urls)


def test_pages_opened_before_and_the_apps_files_open_with_no_connection(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"])
    controlled(page)
    board = page.url
    page.reload()  # this visit goes through the worker, which keeps the page
    page.wait_for_selector(".standings")
    page.goto("/")
    page.context.set_offline(True)

    page.goto(board)
    assert page.locator(".standings").is_visible()
    note = page.locator(".kc-queue .kc-line.copy")
    assert re.search(r"No connection: this page as it was at \d\d:\d\d", note.inner_text())
    # Styled: the app's stylesheet came from the phone, not the network.
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
    css = page.evaluate("fetch(document.querySelector('link[rel=stylesheet]').href)"
                        ".then(r => r.status)")
    assert css == 200
    shot(page, "offline-saved-copy")

    # A page never opened on this phone: the offline page says so.
    page.goto("/history")
    assert page.locator("h1").inner_text() == "No connection"
    assert "never opened here" in page.locator("main").inner_text()
    shot(page, "offline-page")

    page.context.set_offline(False)
    page.goto(board)
    assert page.locator(".kc-queue .kc-line.copy").count() == 0


def test_a_hand_saved_with_no_connection_waits_and_is_sent_once(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"])
    controlled(page)
    board = page.url
    taps.tap("#record-hand")
    page.wait_for_selector("#hand-form")
    page.context.set_offline(True)
    fill_hand(page, taps, "Ben", {"Ann": 3, "Cy": 5})
    taps.tap("#save-hand")
    waiting = page.locator(WAITING)
    assert "Hand 1 waiting to send · no connection" in waiting.inner_text()
    assert "/hands/new" in page.url  # still on the form, everything tapped kept
    shot(page, "offline-hand-waiting")

    page.context.set_offline(False)
    page.wait_for_url(board)  # sent, and on to the scoreboard as after any save
    page.wait_for_selector(".standings")
    assert totals(page) == {"Ben": 0, "Ann": 3, "Cy": 5}
    sent = page.locator(".kc-queue .kc-line.sent")
    assert re.search(r"Hand 1 \(saved with no connection\) sent at \d\d:\d\d", sent.inner_text())
    shot(page, "offline-hand-sent")
    assert len(hands_on_board(page, board)) == 1
    assert page.evaluate("localStorage.getItem('kings-corners:hand-queue')") == "[]"


def test_a_waiting_hand_survives_a_reload_with_no_connection(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"])
    controlled(page)
    board = page.url
    taps.tap("#record-hand")
    page.wait_for_selector("#hand-form")
    page.reload()  # the form, kept by the worker
    page.context.set_offline(True)
    fill_hand(page, taps, "Cy", {"Ann": 2, "Ben": 4})
    taps.tap("#save-hand")
    page.wait_for_selector(WAITING)

    page.reload()  # the saved copy of the form: the waiting hand is still there
    assert "Hand 1 waiting to send" in page.locator(WAITING).inner_text()
    # The form is now for the hand after it, with a once-only token of its own.
    assert page.locator("input[name=number]").input_value() == "2"
    assert page.locator("#save-hand").inner_text().endswith("2")

    page.context.set_offline(False)
    page.wait_for_selector(".kc-queue .kc-line.sent")
    assert page.locator(WAITING).count() == 0
    assert "/hands/new" in page.url  # the person's form stays open
    assert len(hands_on_board(page, board)) == 1
    assert totals(page) == {"Cy": 0, "Ann": 2, "Ben": 4}


def test_two_pages_racing_to_send_the_queue_record_the_hand_once(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"])
    controlled(page)
    board = page.url
    second = page.context.new_page()
    second.goto(board)
    second.wait_for_selector(".standings")
    taps.tap("#record-hand")
    page.wait_for_selector("#hand-form")
    page.context.set_offline(True)
    fill_hand(page, taps, "Ann", {"Ben": 1, "Cy": 1})
    taps.tap("#save-hand")
    page.wait_for_selector(WAITING)
    second.wait_for_selector(WAITING)  # the other page sees it waiting too

    # Both pages, and each page twice over, try to send it the moment it is back.
    page.context.set_offline(False)
    for p in (page, second):
        p.evaluate("for (let i = 0; i < 3; i++) window.dispatchEvent(new Event('online'))")
    second.wait_for_function("() => !document.querySelector('.kc-queue .kc-line.waiting')")
    page.wait_for_url(board)
    assert len(hands_on_board(second, board)) == 1
    assert totals(second) == {"Ann": 0, "Ben": 1, "Cy": 1}


def test_a_hand_waiting_on_a_locked_table_is_sent_after_the_passcode(phone, browser,
                                                                        live_server):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"])
    board = page.url
    context, other = other_phone(browser, live_server)
    try:
        # This phone opened the form while the table was open to all...
        other.goto(board + "/hands/new")
        other.wait_for_selector("#hand-form")
        controlled(other)
        # ...then the table was locked, and it saved its hand with no connection.
        taps.tap("a[aria-label=Settings]")
        page.fill("input[name=passcode]", "2468")
        taps.tap("button:has-text('Set passcode')")
        context.set_offline(True)
        other.locator("[data-went-out] label").filter(has_text="Ben").click()
        for name, count in {"Ann": 3, "Cy": 5}.items():
            other.locator(f".player[data-name='{name}'] .taps.cards label.tap").filter(
                has_text=str(count)).first.click()
        other.click("#save-hand")
        other.wait_for_selector(WAITING)

        # Back online, the table asks for its passcode; the hand waits, then is sent.
        context.set_offline(False)
        other.wait_for_url(re.compile(r"/unlock\?next="))
        assert "waiting to send" in other.locator(".kc-queue").inner_text()
        unlock(other, "2468")
        other.wait_for_selector(".kc-queue .kc-line.sent")
        assert len(hands_on_board(other, board)) == 1
        assert totals(other) == {"Ben": 0, "Ann": 3, "Cy": 5}
    finally:
        context.close()
