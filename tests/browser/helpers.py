"""What the browser tests share: a phone-sized page, screenshots, and the taps that start and
play a game of each variant. Fixtures are in conftest.py."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

PHONE = {"width": 390, "height": 844}


ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-dev-shm-usage"]


class Slowed:
    """The live server's app, with chosen requests held back a while: "the next GET of
    this path waits 3 s", to put two answers in the order a slow network might. A phone
    names itself in an X-Phone header (its context's extra headers)."""

    def __init__(self, app):
        self.app, self.rules, self.lock = app.wsgi_app, [], threading.Lock()
        self.held = 0  # how many held requests have been answered
        app.wsgi_app = self

    def next(self, phone: str, method: str, path: str, *, before: float = 0,
             after: float = 0) -> None:
        """Hold the next `method` request for `path` from `phone` (its X-Phone header):
        `before` s before the app sees it, `after` s once the app has answered (its write
        committed, its answer not yet sent)."""
        self.rules.append((phone, method, path, before, after))

    def __call__(self, environ, start_response):
        asked = (environ.get("HTTP_X_PHONE"), environ["REQUEST_METHOD"], environ["PATH_INFO"])
        with self.lock:
            rule = next((r for r in self.rules if r[:3] == asked), None)
            if rule is not None:
                self.rules.remove(rule)
        if rule is None:
            return self.app(environ, start_response)
        time.sleep(rule[3])  # holding it back is what the test is about
        answer = self.app(environ, start_response)
        try:
            body = b"".join(answer)
        finally:
            getattr(answer, "close", lambda: None)()
        time.sleep(rule[4])
        with self.lock:
            self.held += 1
        return [body]

    def dealt_with(self, page, held: int, seconds: float = 20) -> None:
        """Wait until `held` requests held back have been answered and the phone has dealt
        with their answers: it asks "anything new?" again only then (never while a page it
        asked for, or its own save, is on its way)."""
        with page.expect_request(lambda asked: "/version" in asked.url and self.held >= held,
                                 timeout=seconds * 1000):
            pass


def busy(page) -> float:
    """Return how long this phone takes right now to fetch its own page, the slowest of
    three: what a busy machine adds to drawing a page (a few hundredths of a second on a
    quiet one)."""
    return max(page.evaluate("""async () => {
        const started = performance.now();
        await (await fetch(location.href, {cache: "no-store"})).text();
        return (performance.now() - started) / 1000;
    }""") for _ in range(3))


def fetched_since(page, since: float) -> float:
    """Return the seconds this phone spent waiting for the machine since `since` (a
    time.time()): its questions, pages and page loads begun since then, as the phone itself
    timed them. On a busy machine these stretch; the phone's own rhythm does not."""
    return page.evaluate("""(since) => performance.getEntriesByType("navigation")
        .concat(performance.getEntriesByType("resource"))
        .filter((e) => performance.timeOrigin + e.startTime >= since)
        .reduce((sum, e) => sum + (e.responseEnd - e.startTime), 0) / 1000""", since * 1000)


_WATCH = """(([selector, text]) => {
    const shown = window.kcShown = window.kcShown || {};
    const key = selector + "|" + text;
    const look = () => {
        if (shown[key]) return;
        for (const element of document.querySelectorAll(selector)) {
            if (element.textContent.includes(text)) {
                shown[key] = Date.now();
                return;
            }
        }
    };
    new MutationObserver(look).observe(document, {subtree: true, childList: true,
                                                  characterData: true});
    look();
})(%s)"""


def watch(page, selector: str, text: str) -> None:
    """Have the phone note the moment `text` shows in `selector`, on this page and any it
    opens next: a test then reads when each phone showed it, not when it got round to
    looking (phones are looked at one after another)."""
    script = _WATCH % json.dumps([selector, text])
    page.add_init_script(script=script)
    page.evaluate(script)


def follows_within(page, selector: str, text: str, since: float, seconds: float = 1.0) -> float:
    """Wait for `text` in `selector` on `page`, and hold it to showing within `seconds` of
    `since` (a time.time()), plus what the machine took to answer this phone meanwhile and
    what it takes now to draw a page: a phone follows the table by its own clock, whatever
    the machine's load. The moment it showed is the phone's own when it was `watch`ed for it
    before. Return the seconds it took."""
    page.locator(selector).filter(has_text=text).first.wait_for(timeout=8_000)
    at = page.evaluate("(key) => (window.kcShown || {})[key] || null", f"{selector}|{text}")
    took = (at / 1000 if at else time.time()) - since
    allowed = seconds + fetched_since(page, since) + 2 * busy(page)
    assert took <= allowed, f"{text!r} showed after {took:.2f} s (allowed {allowed:.2f} s)"
    return took


class Taps:
    """Counts the taps a person makes, so a test can hold a page to its promise."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def tap(self, selector_or_locator) -> None:
        """Tap something on the page, as a thumb would."""
        locator = (self.page.locator(selector_or_locator)
                   if isinstance(selector_or_locator, str) else selector_or_locator)
        locator.click()
        self.count += 1


def shot(page, name: str) -> Path:
    """Save a screenshot under test-artifacts/ to look at; return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def settled(page) -> None:
    """Wait until the round form's preview has the server's answer for the last tap."""
    page.wait_for_selector("#hand-form:not([data-previewing])", state="attached")


def parts_in_place(page) -> None:
    """Wait until each part app.js fetches into the page (a player's charts, rivals and
    head-to-head) is in place, and fail if one is not: its slot still shows its link."""
    page.wait_for_selector("[data-more][aria-busy]", state="detached")
    assert page.locator("[data-more] > a.button").count() == 0, "a part did not come"


def start_penalty(page, taps, names, target=None):
    """Open the app, start a penalty game with these players by tapping and typing."""
    page.goto("/")
    taps.tap("text=New game")
    for seat, name in enumerate(names):
        page.fill(f"input[name=seat-{seat}]", name)
    if target:
        taps.tap(f"#new-game [data-variant=penalty] label.tap:has-text('{target}')")
    taps.tap("button:has-text('Start game')")
    page.wait_for_selector("#record-hand")


def totals(page) -> dict[str, int]:
    """Read the standings as a person would: name and total."""
    rows = page.locator(".standings li")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        out[row.locator(".name").inner_text()] = int(row.locator(".total").inner_text())
    return out


def start_chips(page, taps, names, preset="House", start_chips=None):
    """Open the app and start a chips game by typing names and tapping the rules."""
    page.goto("/")
    taps.tap("text=New game")
    for seat, name in enumerate(names):
        page.fill(f"input[name=seat-{seat}]", name)
    taps.tap(page.locator("label.tap").filter(has_text="Chip pot"))
    rules = page.locator("#new-game .settings[data-variant=chips]")
    taps.tap(rules.locator("label.tap").filter(has_text=preset))
    if start_chips:  # the set's rules are folded away: open them to change one
        taps.tap(rules.locator("details.more-rules > summary"))
        rules.locator("input[name='rules-chips-start_chips-other']").fill(str(start_chips))
    taps.tap("button:has-text('Start game')")
    page.wait_for_selector("#live")


def pot(page) -> int:
    """Read the pot as a person would: the big number."""
    return int(page.locator("#live [data-pot]").inner_text())


def key(page, name, label="Pass"):
    """Return a player's key in the live pot."""
    return page.locator(f"#live .live-player[data-name='{name}'] .tapkey").filter(has_text=label)


def until(page, check, seconds: float = 10) -> None:
    """Wait until `check` (a JavaScript function, run as the test's own code, not the
    page's: the app's Content-Security-Policy forbids the page evaluating strings)."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(check):
        assert time.monotonic() < deadline, f"still not so after {seconds} s: {check}"
        page.wait_for_timeout(50)


def saved(page):
    """Wait until no tap is waiting to be sent."""
    until(page, "() => !localStorage.length || Object.keys(localStorage).every("
                "k => localStorage.getItem(k) === '[]')")
    page.wait_for_selector("#live [data-live-status]:empty", state="attached")


def record_cards(page, taps, went_out, cards):
    """Record the hand: who went out, then each other player's cards (a number or (n, kings))."""
    taps.tap("#record-hand")
    taps.tap(page.locator("[data-went-out] label.tap").filter(has_text=went_out))
    for name, held in cards.items():
        count, kings = held if isinstance(held, tuple) else (held, 0)
        box = page.locator(f".player[data-name='{name}']")
        taps.tap(box.locator(".taps.cards label.tap").filter(has_text=str(count)).first)
        if kings:
            taps.tap(box.locator(".taps.kings label.tap").filter(has_text=str(kings)))


def start_coronation(page, taps, names=("Ann", "Ben"), deals_to_win=None):
    """Open the app and start a coronation match by typing names and tapping the game."""
    page.goto("/")
    taps.tap("text=New game")
    for seat, name in enumerate(names):
        page.fill(f"input[name=seat-{seat}]", name)
    taps.tap(page.locator("label.tap").filter(has_text="Coronation"))
    if deals_to_win:
        taps.tap(f"#new-game [data-variant=coronation] label.tap:has-text('{deals_to_win}')")
    taps.tap("button:has-text('Start game')")


def tap_deal(page, taps, corners, dragon):
    """Tap who crowned each corner (a name or "Nobody") and who slew the dragon."""
    for index, who in enumerate(corners):
        row = page.locator(f".deal-row[data-corner='{index}']")
        taps.tap(row.locator("label.tap").filter(has_text=who))
    taps.tap(page.locator(".deal-dragon label.tap").filter(has_text=dragon))


def other_phone(browser, live_server):
    """Open a second phone at the table: a browser context with no cookie of the first."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, base_url=live_server)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def unlock(page, passcode: str) -> None:
    """Give the passcode on the page that asks for it (one field, one button)."""
    page.wait_for_selector("text=Table passcode")
    page.fill("input[name=unlock_passcode]", passcode)
    page.click("button:has-text('Unlock this phone')")


def controlled(page) -> None:
    """Wait until the service worker is installed and controls the page."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller"
                           " && navigator.serviceWorker.controller.state === 'activated'")


def spki_hash(cert_path: Path) -> str:
    """Return a certificate's public key as Chromium names it (base64 of its SHA-256)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    der = cert.public_key().public_bytes(serialization.Encoding.DER,
                                         serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


@contextmanager
def https_phone(browser, app, folder: Path):
    """Serve `app` over HTTPS as `make run HTTPS=1` does (its certificates made in `folder`),
    in a thread, and yield a phone's browser context that trusts the table's certificate
    (as a phone does once it trusts the table's authority), its base URL the server's;
    stop everything after."""
    from scorekeeper.extensions import db
    from scorekeeper.server.serve import https_server

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server, made = https_server(app, "127.0.0.1", port, folder)
    threading.Thread(target=server.safe_start, daemon=True).start()
    trusting = browser.browser_type.launch(
        executable_path=shutil.which("chromium") or shutil.which("chromium-browser"),
        headless=True, args=[*CHROMIUM_FLAGS,
                             f"--ignore-certificate-errors-spki-list={spki_hash(made.files.cert)}"])
    context = trusting.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                   base_url=f"https://localhost:{port}")
    try:
        yield context
    finally:
        context.close()
        trusting.close()
        server.stop()
        with app.app_context():
            db.engine.dispose()


@contextmanager
def phones(browser, base: str, count: int, scale: int = 1, timeout: int = 15_000):
    """Yield `count` pages, each a phone of its own at 390x844 (light and dark in turn),
    their base URL `base`; each page's `console_errors` is the list of errors and refusals
    of the Content-Security-Policy any of them met, checked empty when they close (a test
    that expects a few takes them out)."""
    contexts = [browser.new_context(viewport=PHONE, device_scale_factor=scale, is_mobile=True,
                                    has_touch=True, base_url=base,
                                    color_scheme="dark" if i % 2 else "light")
                for i in range(count)]
    refused: list[str] = []
    for context in contexts:
        context.on("console", lambda m: refused.append(m.text)
                   if m.type == "error" or "Content Security Policy" in m.text else None)
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(timeout)
        page.console_errors = refused
    yield pages
    for context in contexts:
        context.close()
    assert refused == [], refused
