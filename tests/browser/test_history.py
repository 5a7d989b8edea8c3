"""History and charts on a phone: nights, a night's games, a game's chart, all at 390 px."""

from __future__ import annotations

import json

from tests.browser.helpers import PHONE, shot

NAMES = ("Ann", "Benedict", "Cy", "Dee")


def game_log(played_on: str | None, ended: bool = True, hands: int = 8) -> str:
    """Return a four-player penalty game log of `hands` hands, to 50."""
    rounds = []
    for number in range(hands):
        out = NAMES[number % 4]
        rounds.append({"went_out": out, "hands": {
            name: {"cards": 1 + (seat + number) % 5, "kings": 1 if (seat + number) % 7 == 0 else 0}
            for seat, name in enumerate(NAMES) if name != out}})
    return json.dumps({"format": "kings-corners-game/1", "variant": "penalty",
                       "rules": {"target": 50}, "players": list(NAMES), "played_on": played_on,
                       "ended": ended, "rounds": rounds})


def import_game(page, taps, text: str) -> None:
    """Paste a game log into the import page and send it, as a person would."""
    page.goto("/import")
    page.fill("textarea[name=text]", text)
    taps.tap("button:has-text('Import')")
    page.wait_for_url("**/games/*")


def fits_the_phone(page) -> bool:
    """Tell whether the page can be read without scrolling sideways."""
    return page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]


def test_history_nights_and_a_games_chart_read_well_on_a_phone(phone):
    page, taps = phone
    import_game(page, taps, game_log("2026-03-07"))
    import_game(page, taps, game_log("2026-03-07", hands=5))
    import_game(page, taps, game_log("2026-03-14"))

    page.goto("/")
    taps.tap("header nav >> text=History")
    nights = page.locator(".nights li a")
    assert nights.count() == 2
    assert nights.first.locator(".when").inner_text() == "Sat 14 Mar 2026"
    assert "Ann · Benedict · Cy · Dee" in nights.nth(1).inner_text()
    assert "2 games" in nights.nth(1).inner_text()
    assert nights.first.bounding_box()["height"] >= 48
    assert fits_the_phone(page)
    shot(page, "history-nights")

    taps.tap(nights.nth(1))
    assert page.locator("h1").inner_text() == "Game night"
    games = page.locator(".night-game")
    assert games.count() == 2
    assert "wins" in games.first.locator(".result").inner_text()
    assert fits_the_phone(page)
    shot(page, "history-night")

    taps.tap(games.first.locator("text=Hand by hand & chart"))
    chart = page.locator("#chart svg")
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert 300 <= box["width"] <= PHONE["width"] - 20 and box["height"] > 200
    assert chart.locator(".series").count() == 4
    assert chart.locator("text.target").text_content() == "ends at 50"
    assert fits_the_phone(page)
    shot(page, "history-game-chart")
    assert taps.count == 6  # 3 imports, History, the night, the game


def test_a_night_is_named_from_its_page(phone):
    page, taps = phone
    import_game(page, taps, game_log("2026-03-07"))
    page.goto("/history/")
    taps.tap(page.locator(".nights li a").first)
    taps.tap("summary:has-text('Name and notes')")
    page.fill("input[name=name]", "Dee's birthday")
    page.fill("textarea[name=notes]", "Cake first, cards after.")
    taps.tap("button:has-text('Save name and notes')")
    assert page.locator("h1").inner_text() == "Dee's birthday"
    assert page.locator(".notes").inner_text() == "Cake first, cards after."
    shot(page, "history-night-named")
    page.goto("/history/")
    assert "Dee's birthday" in page.locator(".nights").inner_text()


def test_the_scoreboard_shows_the_chart_under_the_hands(phone):
    page, taps = phone
    import_game(page, taps, game_log(None, ended=False, hands=4))
    chart = page.locator("#chart svg")
    assert chart.is_visible()
    legend = chart.locator("text").all_text_contents()
    assert any(text.startswith("Benedict") for text in legend)
    assert page.locator("a:has-text('Export CSV')").bounding_box()["height"] >= 48
    assert fits_the_phone(page)
    shot(page, "scoreboard-chart")


SHARE_SHEET = """
navigator.canShare = () => true;
navigator.share = (data) => { window.sharedFiles = data.files; return Promise.resolve(); };
"""


def test_a_share_picture_refused_while_others_are_drawn_is_fetched_again(phone):
    page, taps = phone
    page.add_init_script(SHARE_SHEET)  # a phone with a share sheet, as an iPhone has
    answered = []

    def busy_once(route):
        if not answered:  # the server is drawing other phones' pictures: come back in 1 s
            answered.append(503)
            route.fulfill(status=503, headers={"Retry-After": "1"}, body="busy")
        else:
            answered.append(200)
            route.continue_()

    page.route("**/card.png", busy_once)
    import_game(page, taps, game_log("2026-03-07"))
    # The picture on the phone (the first one starts the server's drawing process).
    page.wait_for_selector("#share[data-ready]", timeout=30_000)
    taps.tap("#share")
    page.wait_for_function("!!window.sharedFiles")
    assert answered[:2] == [503, 200]
    assert page.evaluate("window.sharedFiles[0].type") == "image/png"
    assert page.evaluate("window.sharedFiles[0].size") > 1000
