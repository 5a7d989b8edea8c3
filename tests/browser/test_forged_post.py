"""A page on another site that posts to the table's app, in real Chromium: its form goes
nowhere, even when the phone's owner then gives the passcode on the page it lands on."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper.db.models import Round
from scorekeeper.extensions import db
from scorekeeper.web import passcode
from tests.browser.helpers import PHONE, shot
from tests.helpers import hand_data, make_app, serve, start_game, stop_serving

P = ["Ann", "Ben", "Cy"]
PASSCODE = "2468"


@pytest.fixture
def table(tmp_path):
    """A game with one hand, the passcode set, served as at home (CSRF on)."""
    app = make_app(tmp_path / "forged.sqlite", csrf=True)
    app.config["WTF_CSRF_ENABLED"] = False
    host = app.test_client()
    game_id = start_game(host, P)
    host.post(f"/games/{game_id}/hands/new", data=hand_data(P, "Ann", {"Ben": 2, "Cy": 1}))
    app.config["WTF_CSRF_ENABLED"] = True
    with app.app_context():
        passcode.store(PASSCODE)
        db.session.commit()
    server, base = serve(app)
    yield app, base, game_id
    stop_serving(server)
    with app.app_context():
        db.engine.dispose()


def first_hand(app, game_id: int) -> str:
    with app.app_context():
        found = db.session.scalar(select(Round).where(Round.game_id == game_id,
                                                      Round.number == 1))
        return repr(sorted((h.player_id, h.cards) for h in found.hands))


def attacker_page(base: str, game_id: int) -> str:
    """Another site's page that posts a rewritten hand 1 to the app as soon as it opens."""
    fields = hand_data(P, "Cy", {"Ann": 25, "Ben": 25}, number=1, token="forged")
    inputs = "".join(f'<input type="hidden" name="{k}" value="{v}">' for k, v in fields.items())
    return (f'<!doctype html><form method="post" action="{base}/games/{game_id}/hands/1/edit">'
            f'{inputs}</form><script>document.forms[0].submit()</script>')


@pytest.mark.parametrize("unlocked_before", [False, True])
def test_a_post_from_another_site_is_never_sent_on_by_the_unlock_page(
        browser, table, unlocked_before):
    app, base, game_id = table
    before = first_hand(app, game_id)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.route("http://evil.test/**", lambda route: route.fulfill(
        body=attacker_page(base, game_id), content_type="text/html"))
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        if unlocked_before:  # the owner gave the passcode earlier tonight
            page.goto(f"{base}/unlock?next=/")
            page.fill("input[name=unlock_passcode]", PASSCODE)
            page.click("button:has-text('Unlock this phone')")
            page.wait_for_url(f"{base}/")
        page.goto("http://evil.test/")
        page.wait_for_url(f"{base}/games/{game_id}/hands/1/edit")
        page.wait_for_selector("text=Table passcode")
        assert "Nothing was sent" in page.inner_text("main")
        shot(page, f"forged-post-unlock-{'unlocked' if unlocked_before else 'locked'}")
        # The owner, seeing the app ask, gives the passcode: the phone unlocks, nothing more.
        page.fill("input[name=unlock_passcode]", PASSCODE)
        page.click("button:has-text('Unlock this phone')")
        page.wait_for_load_state()
        assert first_hand(app, game_id) == before
        assert "/edit" not in page.url or "Save" in page.inner_text("main")
    finally:
        context.close()
    assert first_hand(app, game_id) == before
