"""A live server and headless Chromium at a phone's size (390x844), driven by Playwright."""

from __future__ import annotations

import shutil

import pytest

from scorekeeper.extensions import db
from tests.browser.helpers import CHROMIUM_FLAGS, PHONE, Slowed, Taps
from tests.helpers import make_app, need, serve, stop_serving


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
def live_app(tmp_path):
    """Serve a fresh app with waitress on a free loopback port, whose requests a test may
    hold back (helpers.Slowed); return (the Slowed app, its base URL)."""
    app = make_app(tmp_path / "live.sqlite", csrf=True)
    slowed = Slowed(app)
    server, base = serve(app)
    yield slowed, base
    stop_serving(server)
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def live_server(live_app):
    """The live server's base URL."""
    return live_app[1]


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


