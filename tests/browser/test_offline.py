"""On a weak signal: the service worker keeps the app's pages and files on the phone, and a
hand saved with no connection waits there and is sent when it is back, once.

The live server is on 127.0.0.1, a secure context, as a phone on HTTPS is: the service
worker registers there as it does over `make run HTTPS=1`."""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from tests.browser.helpers import (
    PHONE,
    Taps,
    controlled,
    https_phone,
    other_phone,
    parts_in_place,
    shot,
    totals,
    unlock,
)
from tests.browser.helpers import start_penalty as start
from tests.helpers import STATIC, make_app, serve

WAITING = ".kc-queue .kc-line.waiting"


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
    # No broken picture: the join QR code needs the server, so a saved copy leaves it out.
    assert not page.locator(".join").is_visible()
    shot(page, "offline-saved-copy")

    # A page never opened on this phone: the offline page says so.
    page.goto("/history")
    assert page.locator("h1").inner_text() == "No connection"
    assert "never opened here" in page.locator("main").inner_text()
    shot(page, "offline-page")

    # Once the connection is back, it opens that page by itself, as it says.
    page.context.set_offline(False)
    page.wait_for_selector("h1:has-text('History')")
    assert page.url.endswith("/history/")
    page.goto(board)
    assert page.locator(".kc-queue .kc-line.copy").count() == 0


def test_a_players_page_opened_before_shows_its_part_with_no_connection(phone):
    """A player's page fetches its charts, rivals and head-to-head into place: opened from
    the phone's saved copy with no connection, the part comes from the copy kept too."""
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"])
    controlled(page)
    page.goto("/players/1")  # through the worker, which keeps the page and then its part
    parts_in_place(page)
    page.goto("/")
    page.context.set_offline(True)

    page.goto("/players/1")
    assert page.locator(".kc-queue .kc-line.copy").is_visible()  # the saved copy
    parts_in_place(page)  # fails if the slot still shows its link
    assert "No wins yet." in page.locator("[data-slot=more]").inner_text()  # best night
    page.context.set_offline(False)


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
    kept_token = page.locator("input[name=token]").input_value()
    page.context.set_offline(True)
    fill_hand(page, taps, "Cy", {"Ann": 2, "Ben": 4})
    taps.tap("#save-hand")
    page.wait_for_selector(WAITING)

    page.reload()  # the saved copy of the form: the waiting hand is still there
    assert "Hand 1 waiting to send" in page.locator(WAITING).inner_text()
    # The form is now for the hand after it, with a once-only token of its own: the copy's
    # token is hand 1's, and hand 2 sent with it would be taken for hand 1 sent again.
    assert page.locator("input[name=number]").input_value() == "2"
    assert page.locator("#save-hand").inner_text().endswith("2")
    assert page.locator("input[name=token]").input_value() != kept_token

    # The next hand, also with no connection, waits behind it.
    fill_hand(page, taps, "Ann", {"Ben": 1, "Cy": 3})
    taps.tap("#save-hand")
    page.wait_for_function("() => document.querySelectorAll('.kc-queue .kc-line.waiting')"
                           ".length === 2")
    assert "Hand 2 waiting to send" in page.locator(WAITING).nth(1).inner_text()

    page.context.set_offline(False)
    page.wait_for_url(board)  # both sent, in order; then on from hand 2's form
    page.wait_for_selector(".standings")
    assert page.locator(WAITING).count() == 0
    assert len(hands_on_board(page, board)) == 2
    assert totals(page) == {"Ann": 2, "Cy": 3, "Ben": 5}


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
    # The page may be sent to the board twice over (its queue sent, another page's news):
    # the one that lands counts, whichever navigation was cut short on the way.
    expect(page).to_have_url(board)
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


@pytest.fixture
def own_server(tmp_path):
    """An app of the test's own, on a copy of the static files it may change, served live."""
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    app = make_app(tmp_path / "own.sqlite", csrf=True)
    app.static_folder = str(static)
    server, base = serve(app)
    yield app, base, static
    server.close()
    with app.app_context():
        db.engine.dispose()


def test_a_hand_whose_post_cannot_get_through_waits_and_is_sent_once(browser, tmp_path):
    """The phone thinks it is online, but the table's machine does not answer (a weak
    signal, the laptop's Wi-Fi dropping): the worker hands the post back to the form, where
    it waits; when the machine answers again it is sent, once."""
    app = make_app(tmp_path / "gone.sqlite", csrf=True)
    server, base = serve(app)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  base_url=base)
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        taps = Taps(page)
        start(page, taps, ["Ann", "Ben", "Cy"])
        board = page.url
        controlled(page)
        taps.tap("#record-hand")
        page.wait_for_selector("#hand-form")  # through the worker, which keeps it
        fill_hand(page, taps, "Ben", {"Ann": 3, "Cy": 5})
        # The machine stops answering; the phone does not know.
        context.route("**/*", lambda route: route.abort("connectionrefused"))
        taps.tap("#save-hand")
        waiting = page.locator(WAITING)
        waiting.wait_for()
        assert "Hand 1 waiting to send" in waiting.inner_text()
        assert page.evaluate("navigator.onLine")
        assert "#" not in page.url  # what was posted is not left in the address
        # The form shows the hand that waits.
        assert page.locator(".player[data-name='Ann'] input[name='cards-0']:checked"
                            ).get_attribute("value") == "3"

        context.unroute("**/*")
        page.wait_for_url(board, timeout=20_000)
        page.wait_for_selector(".standings")
        assert totals(page) == {"Ben": 0, "Ann": 3, "Cy": 5}
        assert len(hands_on_board(page, board)) == 1
    finally:
        context.close()
        server.close()
        with app.app_context():
            db.engine.dispose()


def test_a_new_version_of_the_app_brings_a_new_worker_and_drops_the_old_cache(
        browser, own_server):
    app, base, static = own_server
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  base_url=base)
    try:
        page = context.new_page()
        page.goto("/")
        controlled(page)
        first = page.evaluate("caches.keys()")
        assert len(first) == 1 and first[0].startswith("kings-corners-")

        # A new version is deployed: a stylesheet changed.
        with open(static / "app.css", "a") as css:
            css.write("\n/* a new version */\n")
        app.debug = True  # names files by their content afresh, as a restarted server does
        page.reload()
        page.wait_for_function(
            "old => caches.keys().then(k => k.length === 1 && k[0] !== old)", arg=first[0])
        page.reload()
        href = page.evaluate("document.querySelector('link[href*=\"app.css\"]').href")
        kept = page.evaluate("caches.keys().then(k => caches.open(k[0]))"
                             ".then(c => c.keys()).then(r => r.map(x => x.url))")
        assert href in kept  # the new stylesheet, kept ahead by the new worker
    finally:
        context.close()


def test_over_https_the_app_is_a_secure_context_with_its_worker(browser, tmp_path):
    """The server `make run HTTPS=1` starts, in a thread: a Chromium told to accept the
    machine's own certificate (as a phone does once it trusts the table's authority) opens
    the app over HTTPS, a secure context, and the worker takes the page."""
    app = make_app(tmp_path / "tls.sqlite", csrf=True)
    with https_phone(browser, app, tmp_path / "tls") as context:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto("/")
        assert page.evaluate("location.protocol") == "https:"
        assert page.evaluate("window.isSecureContext")
        controlled(page)
        assert page.locator(".join small").first.inner_text().startswith("https://")
        page.goto("/join")  # the big QR code tells a new phone where to trust it
        page.click("text=trust the table's certificate")
        assert page.locator("a[data-ca]").get_attribute("href") == "/ca.crt"
        assert page.evaluate("fetch('/ca.crt').then(r => r.headers.get('Content-Type'))") \
            == "application/x-x509-ca-cert"
