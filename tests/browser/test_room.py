"""The room's board of a crowd night in Chromium, as a TV (1920x1080) and a laptop (1280x720)
show it: every table at once without scrolling, a saved hand shown in place, the night's
standings once every table is over, and the next round by itself when a phone elsewhere
taps Next round. axe-core finds nothing on it; screenshots to look at."""

from __future__ import annotations

import pytest

from scorekeeper import crowd, play
from scorekeeper.extensions import db
from scorekeeper.rules.parts import Part
from tests.browser.helpers import shot
from tests.browser.test_look import AXE, AXE_RUN
from tests.helpers import (
    ELEVEN,
    hand_data,
    make_app,
    need,
    play_out,
    serve,
    stop_serving,
)

TV, LAPTOP = {"width": 1920, "height": 1080}, {"width": 1280, "height": 720}

# What does not fit the screen, read in the page: a table or a line of the standings
# outside the window, and any scrolling at all.
OUTSIDE = """() => {
  const w = window.innerWidth, h = window.innerHeight, out = [];
  for (const el of document.querySelectorAll(".room-table, .room-table li, .room-lines li")) {
    const box = el.getBoundingClientRect();
    if (box.bottom > h + 0.5 || box.right > w + 0.5 || box.top < 0 || box.left < 0)
      out.push(el.textContent.trim().replace(/\\s+/g, " ").slice(0, 40));
  }
  const doc = document.documentElement;
  if (doc.scrollHeight > h || doc.scrollWidth > w)
    out.push(`scrolls: ${doc.scrollWidth}x${doc.scrollHeight}`);
  return out;
}"""


@pytest.fixture
def room(browser, tmp_path):
    """Serve an app; return (the app, a page opening it at the size asked, the CSP refusals
    and console errors seen)."""
    app = make_app(tmp_path / "room.sqlite", csrf=True)
    server, base = serve(app)
    contexts, refused = [], []

    def open_page(size, scheme="dark"):
        context = browser.new_context(viewport=size, base_url=base, color_scheme=scheme)
        context.add_init_script(path=str(AXE))  # a tester's tool: the page's CSP still holds
        context.on("console", lambda m: refused.append(m.text)
                   if m.type == "error" or "Content Security Policy" in m.text else None)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield app, open_page
    for context in contexts:
        context.close()
    stop_serving(server)
    with app.app_context():
        db.engine.dispose()
    assert refused == [], refused


def start(app, names, size, rounds=3, variant="penalty", settings=None) -> int:
    with app.app_context():
        return crowd.start(crowd.Plan(names, variant, settings or {}, size, rounds=rounds),
                           seed=4)


def tables_of(app, crowd_id):
    from scorekeeper.reports import crowd as reading
    with app.app_context():
        return reading.night(crowd_id).tables


def test_the_board_shows_every_table_and_moves_on_to_the_next_round_by_itself(room):
    need(AXE.exists(), "axe-core in node_modules (npm ci)")
    app, open_page = room
    crowd_id = start(app, ELEVEN, 4)
    tv = open_page(TV)
    tv.goto(f"/crowds/{crowd_id}/board")
    assert tv.locator(".room-table").count() == 3
    assert "Round 1 of 3" in tv.locator("h1").inner_text()
    assert tv.evaluate(OUTSIDE) == []
    assert tv.evaluate(AXE_RUN) == []
    tv.evaluate("window.stayed = true")  # gone with a reload: the board redraws in place

    tables = tables_of(app, crowd_id)
    with app.app_context():  # a hand at every table, and two parts of the next at table 2
        for shown in tables:
            players = list(shown.players)
            play.record(shown.game_id, 1, hand_data(players, players[0], {
                name: (seat * 2, seat % 2) for seat, name in enumerate(players) if seat}),
                None)
        for seat in (1, 2):
            play.send_part(tables[1].game_id, 2, Part(seat, cards=seat + 2), seat, "phone")
    first = tv.locator(".room-table[data-table='1']")
    first.locator(".room-hand", has_text="Hand 2").wait_for()
    assert first.locator(".badge", has_text="deals").count() == 1
    second = tv.locator(".room-table[data-table='2']")
    second.locator(".room-hand", has_text="2 of 4 in").wait_for()
    assert second.locator(".tick").count() == 2
    shot(tv, "room-board-1920-dark")

    with app.app_context():
        for shown in tables:
            play.set_ended(shown.game_id, True)
    tv.locator(".room-standings").wait_for()
    assert tv.locator(".room-lines li").count() == len(ELEVEN)
    assert tv.evaluate(OUTSIDE) == []
    assert tv.evaluate(AXE_RUN) == []
    shot(tv, "room-board-1920-between")

    host = open_page({"width": 390, "height": 844}, "light")
    host.goto(f"/crowds/{crowd_id}")
    host.locator("#next-round").click()
    host.locator("main", has_text="Round 2 is seated").wait_for()
    tv.locator("h1", has_text="Round 2 of 3").wait_for()
    assert tv.locator(".room-table").count() == 3
    assert tv.evaluate("window.stayed") is True

    tv.set_viewport_size(LAPTOP)
    assert tv.evaluate(OUTSIDE) == []
    shot(tv, "room-board-1280-dark")
    light = open_page(LAPTOP, "light")
    light.goto(f"/crowds/{crowd_id}/board")
    assert light.evaluate(OUTSIDE) == []
    assert light.evaluate(AXE_RUN) == []
    shot(light, "room-board-1280-light")


@pytest.mark.parametrize("size", [TV, LAPTOP], ids=["1920", "1280"])
def test_eight_tables_of_six_and_their_standings_fit_the_screen(room, size):
    app, open_page = room
    names = [f"Player {n:02d}" for n in range(48)]
    crowd_id = start(app, names, 6, rounds=2)
    page = open_page(size, "light")
    page.goto(f"/crowds/{crowd_id}/board")
    assert page.locator(".room-table").count() == 8
    assert page.locator(".room-table li").count() == 48
    assert page.evaluate(OUTSIDE) == []
    shot(page, f"room-board-8-tables-{size['width']}")
    for shown in tables_of(app, crowd_id):
        with app.app_context():
            play_out(shown.game_id)
    page.locator(".room-lines li").nth(47).wait_for()
    assert page.evaluate(OUTSIDE) == []
    shot(page, f"room-board-48-standings-{size['width']}")
