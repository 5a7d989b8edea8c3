"""The app as a phone app: the screen kept awake during a game, with the Screen Wake Lock
API where the page is a secure context and the looping-video fallback where it is not."""

from __future__ import annotations

import shutil

from scorekeeper.extensions import db
from tests.browser.helpers import CHROMIUM_FLAGS, PHONE, shot
from tests.helpers import hand_data, make_app, serve, start_game, stop_serving

# A stand-in for the phone's Wake Lock API, put in by the test (not the page: the page's
# Content-Security-Policy allows no script but the app's files): it records each request
# and release, so the test sees what the page asked for.
FAKE_WAKE_LOCK = """
window.__wake = [];
Object.defineProperty(Navigator.prototype, "wakeLock", { configurable: true, get() { return {
  request(type) {
    window.__wake.push("request " + type);
    const listeners = [];
    return Promise.resolve({ released: false, type,
      addEventListener(name, fn) { listeners.push(fn); },
      release() {
        window.__wake.push("release"); listeners.forEach(f => f()); return Promise.resolve();
      } });
  } }; } });
"""


def state(page) -> str:
    return page.locator("[data-awake]").get_attribute("data-state")


def test_a_scoreboard_keeps_the_screen_on_and_the_phone_can_turn_it_off(phone, live_server):
    page, taps = phone
    page.context.add_init_script(FAKE_WAKE_LOCK)
    page.goto("/")
    taps.tap("text=New game")
    page.fill("input[name=seat-0]", "Ann")
    page.fill("input[name=seat-1]", "Ben")
    taps.tap("button:has-text('Start game')")
    page.wait_for_selector("#record-hand")
    assert page.evaluate("window.isSecureContext")  # 127.0.0.1 counts as secure
    page.wait_for_function("() => window.__wake.includes('request screen')")
    toggle = page.locator("[data-awake]")
    assert toggle.is_visible() and state(page) == "on"
    assert toggle.inner_text() == "Screen stays on"
    assert toggle.get_attribute("aria-pressed") == "true"
    shot(page, "awake-on")
    toggle.click()
    assert state(page) == "off" and toggle.inner_text() == "Screen may sleep"
    assert page.evaluate("window.__wake").count("release") == 1
    page.reload()  # remembered on this phone: nothing is asked for
    page.wait_for_selector("[data-awake]:not([hidden])")
    assert state(page) == "off" and page.evaluate("window.__wake") == []
    toggle.click()
    page.wait_for_function("() => window.__wake.includes('request screen')")
    assert state(page) == "on"
    # The hand form keeps it on too.
    taps.tap("#record-hand")
    page.wait_for_function("() => window.__wake.includes('request screen')")
    assert state(page) == "on"


def test_on_plain_http_on_the_lan_the_first_tap_starts_the_fallback(browser, tmp_path):
    """A phone opening the app by the machine's name over HTTP is not in a secure context:
    there is no Wake Lock API, so a silent looping video keeps the screen on from a tap."""
    app = make_app(tmp_path / "lan.sqlite", csrf=False)
    app.config["TRUSTED_HOSTS"].append("table.test")
    game_id = start_game(app.test_client())
    server, base = serve(app)
    port = base.rsplit(":", 1)[1]
    try:
        # A second Chromium that finds "table.test" at this machine, as a phone on the
        # Wi-Fi finds it by name: the same server, but not a secure context.
        lan = browser.browser_type.launch(
            executable_path=shutil.which("chromium") or shutil.which("chromium-browser"),
            headless=True, args=[*CHROMIUM_FLAGS, "--host-resolver-rules=MAP table.test 127.0.0.1",
                                 "--autoplay-policy=user-gesture-required"])
        try:
            page = lan.new_page(viewport=PHONE, is_mobile=True, has_touch=True)
            page.set_default_timeout(10_000)
            page.goto(f"http://table.test:{port}/games/{game_id}")
            assert page.evaluate("window.isSecureContext") is False
            assert page.evaluate("'wakeLock' in navigator") is False
            page.wait_for_selector("[data-awake]:not([hidden])")
            assert state(page) == "waiting"
            assert "next tap" in page.locator("[data-awake]").inner_text()
            page.locator(".game-head").click()  # any tap
            page.wait_for_function(
                "() => document.querySelector('[data-awake]').dataset.state === 'on'")
            assert page.locator("[data-awake]").inner_text() == "Screen stays on"
            shot(page, "awake-fallback")
            # Another phone saves a hand: this scoreboard refreshes in place, and the screen
            # stays on with no further tap, the switch still there to say so.
            app.test_client().post(f"/games/{game_id}/hands/new",
                                   data=hand_data(["Ann", "Ben", "Cy"], "Ann",
                                                  {"Ben": 2, "Cy": 3}))
            page.locator("#record-hand").filter(has_text="Record hand 2").wait_for()
            assert page.locator("[data-awake]").is_visible()
            assert state(page) == "on"
            assert page.locator("[data-awake]").inner_text() == "Screen stays on"
            # This phone records hand 2: one tap opens the form (it says so), the taps, and
            # Save brings the scoreboard back in place, still awake, with no tap after it.
            page.locator("#record-hand").click()
            page.wait_for_selector("#hand-form")
            page.locator("[data-went-out] label.tap").filter(has_text="Ben").click()
            for name, count in {"Ann": 2, "Cy": 1}.items():
                page.locator(f".player[data-name='{name}'] .taps.cards label.tap").filter(
                    has_text=str(count)).first.click()
            assert state(page) == "on"  # the first tap on the form started it again
            page.locator("#save-hand").click()
            page.locator("#record-hand").filter(has_text="Record hand 3").wait_for()
            assert page.url == f"http://table.test:{port}/games/{game_id}"
            assert state(page) == "on"
            assert page.locator("[data-saved-toast]").is_visible()  # "Hand 2 saved · Undo"
            # Undo, in place too: hand 2 taken back, the screen still on.
            page.locator("[data-saved-toast] button").click()
            page.locator("#record-hand").filter(has_text="Record hand 2").wait_for()
            assert "Hand 2 undone" in page.locator(".flash").inner_text()
            assert page.locator("[data-saved-toast]").count() == 0
            assert state(page) == "on"
            # The back button opens the form's address afresh, not the board under it.
            page.go_back()
            page.wait_for_selector("#hand-form")
        finally:
            lan.close()
    finally:
        stop_serving(server)
        with app.app_context():
            db.engine.dispose()
