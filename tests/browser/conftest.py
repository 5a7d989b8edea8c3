"""A live server and headless Chromium at a phone's size (390x844), driven by Playwright."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scorekeeper.extensions import db
from tests.conftest import make_app, need, serve

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-dev-shm-usage"]

pytestmark = pytest.mark.browser


def _chromium() -> str | None:
    """Return the path of Debian's chromium, if it is installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    """Start headless Chromium once for the session."""
    path = _chromium()
    need(path is not None, "Debian's chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True,
                                             args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def live_server(tmp_path):
    """Serve a fresh app with waitress on a free loopback port; return its base URL."""
    app = make_app(tmp_path / "live.sqlite", csrf=True)
    server, base = serve(app)
    yield base
    server.close()
    with app.app_context():
        db.engine.dispose()


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


@pytest.fixture
def phone(browser, live_server):
    """Return (page, taps) on a phone-sized page at the live server."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, base_url=live_server)
    refused: list[str] = []  # what the Content-Security-Policy blocked, on any page
    context.on("console", lambda message: refused.append(message.text)
               if "Content Security Policy" in message.text else None)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page, Taps(page)
    context.close()
    assert refused == [], "the app's own pages broke its Content-Security-Policy"


def shot(page, name: str) -> Path:
    """Save a screenshot under test-artifacts/ to look at; return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def settled(page) -> None:
    """Wait until the round form's preview has the server's answer for the last tap."""
    page.wait_for_selector("#hand-form:not([data-previewing])", state="attached")
