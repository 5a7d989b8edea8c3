"""Forms in the moment of use, on a phone: a refused save opens at its first error, the hand
fits one screen, "Hand 3 saved · Undo", a rematch, and pages that ask without JavaScript."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import PHONE, settled, shot
from tests.browser.helpers import start_penalty as start


@pytest.fixture
def plain(browser, live_server):
    """Return a phone-sized page with JavaScript off, at the live server."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, base_url=live_server,
                                  java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def focused(page, expected: str) -> dict:
    """Return the focused element's id and whether it lies wholly inside the screen, clear
    of the Save dock at the bottom, once the page has focused `expected` (a page that came
    back from a save focuses as it finishes loading; one that never does fails here)."""
    page.wait_for_function("(id) => document.activeElement && document.activeElement.id === id",
                           arg=expected)
    return page.evaluate("""() => {
        const el = document.activeElement, box = el.getBoundingClientRect();
        const dock = document.querySelector(".dock");
        const bottom = dock ? dock.getBoundingClientRect().top : window.innerHeight;
        return {id: el.id, inside: box.top >= 0 && box.left >= 0 && box.width > 0
                && box.bottom <= bottom && box.right <= window.innerWidth};
    }""")


def in_view(locator) -> bool:
    """Tell whether an element lies wholly inside the phone's screen."""
    box = locator.bounding_box()
    return (box is not None and box["y"] >= 0 and box["x"] >= 0
            and box["y"] + box["height"] <= PHONE["height"]
            and box["x"] + box["width"] <= PHONE["width"])


def scroll_height(page) -> int:
    return page.evaluate("() => document.documentElement.scrollHeight")


def cards(page, taps, name, count, kings=0):
    """Tap a player's cards left, and kings among them."""
    box = page.locator(f".player[data-name='{name}']")
    taps.tap(box.locator(".taps.cards label.tap").filter(
        has_text=re.compile(rf"^{count}$")).first)
    if kings:
        taps.tap(box.locator(".taps.kings label.tap").filter(has_text=str(kings)))


def went_out(page, taps, name):
    taps.tap(page.locator("[data-went-out] label").filter(has_text=name))


def save(page, taps):
    """Tap Save; once it goes through, the scoreboard comes back in place."""
    taps.tap("#save-hand")
    page.wait_for_selector(".standings, #error-summary, #number-error")


def test_a_refused_save_opens_at_its_first_error_with_every_error_summed_up(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy", "Dee"])
    taps.tap("#record-hand")
    went_out(page, taps, "Ann")
    page.fill("input[name=cards_more-1]", "abc")  # Ben: not a number
    cards(page, taps, "Cy", 1, kings=3)  # Cy: 3 kings in a 1-card hand
    cards(page, taps, "Dee", 2)
    save(page, taps)
    page.wait_for_selector("#error-summary")

    # Both errors at once, in a summary at the top that links to each input.
    summary = page.locator("#error-summary")
    assert "Nothing was saved: 2 things to fix" in summary.inner_text()
    links = summary.locator("a")
    assert [links.nth(i).get_attribute("href") for i in range(2)] == [
        "#cards_more-1", "#kings-2"]
    assert "must be a whole number" in links.nth(0).inner_text()
    assert "Cy holds 1 card, so cannot hold 3 kings" in links.nth(1).inner_text()
    # The page opens at the first error, focused and in view; what was typed is kept.
    assert focused(page, "cards_more-1") == {"id": "cards_more-1", "inside": True}
    assert page.input_value("input[name=cards_more-1]") == "abc"
    assert page.locator("input[name=kings-2][value='3']").is_checked()
    assert in_view(page.locator("#cards_more-1-error"))
    shot(page, "forms-refused-save")
    # A link of the summary goes to its input.
    page.evaluate("() => window.scrollTo(0, 0)")
    links.nth(1).click()
    assert focused(page, "kings-2") == {"id": "kings-2", "inside": True}

    # Put right, it saves.
    page.fill("input[name=cards_more-1]", "12")
    cards(page, taps, "Cy", 3, kings=3)
    save(page, taps)
    page.wait_for_selector(".standings")
    assert "1 hand played" in page.content()


def test_without_javascript_a_refused_save_still_opens_at_its_first_error(plain):
    page = plain
    page.goto("/games/new")
    page.fill("input[name=seat-0]", "Ann")
    page.fill("input[name=seat-1]", "Ben")
    page.fill("input[name=seat-2]", "Cy")
    page.click("#new-game label.tap:has-text('Coronation')")
    page.click("button:has-text('Start game')")
    # Coronation is for two: said at its field, in the summary, and focused in view.
    assert "Coronation is for exactly 2 players, and 3 are seated" in page.locator(
        "#error-summary").inner_text()
    assert focused(page, "variant") == {"id": "variant", "inside": True}
    assert in_view(page.locator("#variant-error"))
    assert page.input_value("input[name=seat-2]") == "Cy"
    shot(page, "forms-refused-new-game-no-js")


def test_without_javascript_a_refused_hand_opens_at_its_first_error(plain, phone):
    js, taps = phone
    start(js, taps, ["Ann", "Ben", "Cy", "Dee"])
    page = plain
    page.goto(js.url + "/hands/new")
    page.click("[data-went-out] label:has-text('Ann')")
    for name, count in (("Ben", "3"), ("Cy", "5")):
        page.locator(f".player[data-name='{name}'] .taps.cards label.tap").filter(
            has_text=re.compile(f"^{count}$")).click()
    page.fill("input[name=cards_more-3]", "-4")  # Dee, the last: far down the page
    page.locator(".player[data-name='Ben'] .taps.kings label.tap").filter(
        has_text="4").click()
    page.click("#save-hand")
    assert [page.locator("#error-summary a").nth(i).get_attribute("href")
            for i in range(2)] == ["#kings-1", "#cards_more-3"]
    assert focused(page, "kings-1") == {"id": "kings-1", "inside": True}
    assert page.input_value("input[name=cards_more-3]") == "-4"
    # Ben put right, Dee's count alone is wrong: the page opens far down, at Dee's box.
    page.locator(".player[data-name='Ben'] .taps.kings label.tap").filter(
        has_text="0").click()
    page.click("#save-hand")
    assert focused(page, "cards_more-3") == {"id": "cards_more-3", "inside": True}
    assert page.evaluate("() => window.scrollY") > 0
    shot(page, "forms-refused-save-no-js")


def test_the_preview_flags_an_impossible_count_as_it_is_tapped(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"])
    taps.tap("#record-hand")
    went_out(page, taps, "Ann")
    page.fill("input[name=cards_more-1]", "999999")
    settled(page)
    ben = page.locator(".player[data-name='Ben']")
    assert "A deck has only 52 cards" in ben.locator(".flag-line").inner_text()
    assert "+999999" not in page.locator("#hand-form").inner_text()
    cards(page, taps, "Cy", 2, kings=4)
    settled(page)
    cy = page.locator(".player[data-name='Cy']")
    assert "Cy holds 2 cards, so cannot hold 4 kings" in cy.locator(".flag-line").inner_text()
    shot(page, "forms-preview-flags")
    page.fill("input[name=cards_more-1]", "12")
    cards(page, taps, "Cy", 2, kings=1)
    settled(page)
    assert ben.locator(".preview").inner_text() == "+12 → 12"
    assert cy.locator(".preview").inner_text() == "+11 → 11"
    assert not ben.locator(".flag-line").is_visible()
    assert not cy.locator(".flag-line").is_visible()


def test_a_four_player_hand_fits_one_screen_once_who_went_out_is_tapped(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy", "Dee"])
    taps.tap("#record-hand")
    went_out(page, taps, "Cy")
    folded = page.locator("[data-out-chip]")
    assert folded.inner_text() == "Cy went out ✎"
    for name, count in (("Ann", 3), ("Ben", 10), ("Dee", 7)):
        cards(page, taps, name, count)
    settled(page)
    assert scroll_height(page) <= PHONE["height"]
    assert in_view(page.locator("#save-hand"))
    shot(page, "forms-four-player-hand")
    # Who went out opens again to be changed.
    taps.tap(folded)
    went_out(page, taps, "Dee")
    assert folded.inner_text() == "Dee went out ✎"
    cards(page, taps, "Cy", 2)
    save(page, taps)
    page.wait_for_selector(".standings")
    assert "Hand 1 saved" in page.locator("[data-saved-toast]").inner_text()


def test_a_chips_new_game_fits_two_screens_with_each_set_folded(phone):
    page, taps = phone
    page.goto("/games/new")
    taps.tap(page.locator("label.tap").filter(has_text="Chip pot"))
    assert scroll_height(page) <= 2 * PHONE["height"]
    rules = page.locator("#new-game .settings[data-variant=chips]")
    assert not rules.locator("input[name='rules-chips-ante']").is_visible()
    taps.tap(rules.locator("details.more-rules > summary"))
    assert rules.locator("input[name='rules-chips-ante']").is_visible()
    shot(page, "forms-chips-new-game")


def test_without_javascript_a_chips_set_s_rules_open_and_start_the_game(plain):
    page = plain
    page.goto("/games/new")
    page.fill("input[name=seat-0]", "Ann")
    page.fill("input[name=seat-1]", "Ben")
    page.click("#new-game label.tap:has-text('Chip pot')")
    rules = page.locator("#new-game .settings[data-variant=chips]")
    rules.locator("details.more-rules > summary").click()
    rules.locator("input[name='rules-chips-start_chips-other']").fill("7")
    page.click("button:has-text('Start game')")
    page.wait_for_selector("#live")
    assert "14 chips in play" in page.locator("#live").inner_text()


def test_after_save_undo_takes_the_hand_back_and_goes_after_ten_seconds(phone):
    page, taps = phone
    page.clock.install()
    start(page, taps, ["Ann", "Ben", "Cy"])
    taps.tap("#record-hand")
    went_out(page, taps, "Ann")
    cards(page, taps, "Ben", 3)
    cards(page, taps, "Cy", 4)
    save(page, taps)
    toast = page.locator("[data-saved-toast]")
    assert re.fullmatch(r"Hand 1 saved\s+Undo", toast.inner_text())
    assert in_view(toast)
    shot(page, "forms-saved-toast")
    taps.tap(toast.locator("button"))
    page.wait_for_selector(".flash")
    assert "Hand 1 undone" in page.locator(".flash").inner_text()
    assert "0 hands played" in page.content()
    assert "Record hand 1" in page.locator("#record-hand").inner_text()

    # Saved again: the Undo goes after 10 s.
    taps.tap("#record-hand")
    went_out(page, taps, "Ann")
    cards(page, taps, "Ben", 3)
    cards(page, taps, "Cy", 4)
    save(page, taps)
    assert toast.is_visible()
    page.clock.run_for(9_000)
    assert toast.is_visible()
    page.clock.run_for(2_000)
    assert toast.count() == 0
    assert "1 hand played" in page.content()


def test_an_older_page_coming_back_late_does_not_wipe_an_undo(phone, live_app):
    # The machine undoes hand 1 but its answer is slow; meanwhile the phone's "anything
    # new?" sees the change, and a copy of the page asked for then comes back only after
    # the undo's own. "Hand 1 undone" and "Record hand 1" stay on the screen.
    page, taps = phone
    slowed, base = live_app
    start(page, taps, ["Ann", "Ben", "Cy"])
    board = page.url.split("?")[0].replace(base, "")
    page.context.set_extra_http_headers({"X-Phone": "me"})
    taps.tap("#record-hand")
    went_out(page, taps, "Ann")
    cards(page, taps, "Ben", 3)
    cards(page, taps, "Cy", 4)
    save(page, taps)
    slowed.next("me", "POST", board + "/hands/1/undo", after=2)  # undone; answered late
    slowed.next("me", "GET", board, after=3)  # the next copy of the board: back last
    taps.tap(page.locator("[data-saved-toast] button"))
    undone = page.locator("main .flash").filter(has_text="Hand 1 undone")
    undone.wait_for()
    slowed.dealt_with(page, held=2)  # the older copy came back last
    assert undone.is_visible(), "the phone still says hand 1 was undone"
    assert "Record hand 1" in page.locator("#record-hand").inner_text()
    assert "0 hands played" in page.locator("main").inner_text()


def test_a_finished_game_offers_a_rematch_in_one_tap(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben", "Cy"], target=25)
    taps.tap("#record-hand")
    went_out(page, taps, "Ben")
    cards(page, taps, "Ann", 10, kings=2)  # 28: past 25, the game ends
    cards(page, taps, "Cy", 2)
    settled(page)
    assert page.locator("[data-slot=ends]").inner_text() == (
        "Ann reaches 25: the game ends, Ben wins.")
    shot(page, "forms-preview-ends")
    save(page, taps)
    page.wait_for_selector(".banner")
    assert "Ben wins!" in page.locator(".banner").inner_text()
    # Ann dealt hand 1, so Ben deals first in the rematch.
    assert "Same seats and rules; Ben deals first." in page.locator(".rematch").inner_text()
    shot(page, "forms-rematch")
    taps.count = 0
    taps.tap("#rematch")
    page.wait_for_selector("#record-hand")
    assert taps.count == 1
    assert "Rematch! Ben deals first." in page.locator(".flash").inner_text()
    assert "Ben deals, Cy plays first" in page.locator(".next-line").inner_text()
    assert "to 25" in page.locator(".eyebrow").inner_text().lower()
    assert [page.locator(".standings .name").nth(i).inner_text() for i in range(3)] == [
        "Ann", "Ben", "Cy"]


def test_without_javascript_deleting_or_undoing_a_hand_asks_on_a_page_first(plain, phone):
    page = plain
    js, taps = phone
    start(js, taps, ["Ann", "Ben"])
    game = js.url
    page.goto(game + "/hands/new")
    page.click("[data-went-out] label:has-text('Ann')")
    page.locator(".player[data-name='Ben'] .taps.cards label.tap").filter(
        has_text=re.compile("^4$")).click()
    page.click("#save-hand")
    # The saved notice sits at the top with its Undo, which asks first.
    notice = page.locator("[data-saved-toast]")
    assert re.fullmatch(r"Hand 1 saved\s+Undo", notice.inner_text())
    notice.locator("button").click()
    assert page.locator("h1").inner_text() == "Undo hand 1?"
    assert "Ann went out, Ben 4" in page.locator(".confirm-page").inner_text()
    shot(page, "forms-confirm-undo-no-js")
    page.click("text=Keep hand 1")
    assert "1 hand played" in page.content()

    page.click("button:has-text('Delete hand 1')")
    assert page.locator("h1").inner_text() == "Delete hand 1?"
    assert "1 hand played" in page.goto(game).text()  # asking changed nothing
    page.click("button:has-text('Delete hand 1')")
    page.click(".confirm-page button:has-text('Delete hand 1')")
    assert "Hand 1 deleted." in page.locator(".flash").inner_text()
    assert "0 hands played" in page.content()


def test_with_javascript_deleting_a_hand_asks_in_place(phone):
    page, taps = phone
    start(page, taps, ["Ann", "Ben"])
    taps.tap("#record-hand")
    went_out(page, taps, "Ann")
    cards(page, taps, "Ben", 4)
    save(page, taps)
    # The app asks in a dialog of its own, never the browser's box.
    page.on("dialog", lambda dialog: (_ for _ in ()).throw(AssertionError(dialog.message)))
    taps.tap(".actions button:has-text('Delete hand 1')")
    asked = page.locator("dialog.ask")
    asked.wait_for()
    assert "Delete hand 1?" in asked.inner_text()
    shot(page, "ask-delete-hand")
    taps.tap(asked.locator("button[value=no]"))  # Cancel
    assert not asked.is_visible()
    assert "1 hand played" in page.content()
    taps.tap(".actions button:has-text('Delete hand 1')")
    assert asked.locator("button[value=yes]").inner_text() == "Delete hand 1"
    taps.tap(asked.locator("button[value=yes]"))
    page.wait_for_selector(".flash")
    assert "Hand 1 deleted." in page.locator(".flash").inner_text()
    assert "0 hands played" in page.content()


def test_every_seat_name_box_is_as_wide_whoever_deals_first(phone):
    page, _ = phone
    page.goto("/games/new")
    widths = {round(page.locator(f"input[name=seat-{seat}]").bounding_box()["width"])
              for seat in range(6)}
    assert len(widths) == 1, widths  # the chosen dealer's key takes no more room
    page.locator("label.deals").nth(3).click()
    assert {round(page.locator(f"input[name=seat-{seat}]").bounding_box()["width"])
            for seat in range(6)} == widths


def test_the_saved_notice_floats_when_it_comes_with_a_page_refreshed_in_place(phone):
    """A hand sent from this phone's queue (saved with no connection) while its scoreboard
    is open: the refresh brings "Hand 1 saved · Undo", floating at the foot as after a save."""
    from tests.helpers import hand_data

    page, taps = phone
    start(page, taps, ["Ann", "Ben"])
    fields = {**hand_data(["Ann", "Ben"], "Ann", {"Ben": 4}, 1, "queued-hand-1"),
              "csrf_token": page.locator("input[name=csrf_token]").first.input_value()}
    status = page.evaluate("""([url, fields]) => fetch(url, {method: "POST",
        headers: {"Content-Type": "application/x-www-form-urlencoded", "X-Hand-Queue": "1"},
        body: new URLSearchParams(fields).toString()}).then(r => r.status)""",
        [page.url + "/hands/new", fields])
    assert status == 204
    toast = page.locator("[data-saved-toast]")
    toast.wait_for()
    assert "Hand 1 saved" in toast.inner_text()
    assert toast.evaluate("t => t.parentElement === document.body && "
                          "t.classList.contains('floating')")
