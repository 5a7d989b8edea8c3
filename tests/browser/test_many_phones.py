"""Two phones on one game of each variant: what one saves shows on the other within a second."""

from __future__ import annotations

import time

import pytest

from tests.browser.helpers import (
    PHONE,
    Taps,
    follows_within,
    record_cards,
    settled,
    shot,
    tap_deal,
    watch,
)
from tests.helpers import serve


@pytest.fixture
def two_phones(browser, live_server):
    """Return two phone-sized pages on the live server, as two people at the table."""
    contexts = [browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                    has_touch=True, base_url=live_server) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.set_default_timeout(10_000)
    yield pages
    for context in contexts:
        context.close()


def start(page, names, game):
    """Start a game of `game` ("Penalty points", "Chip pot", "Coronation") on a phone."""
    taps = Taps(page)
    page.goto("/games/new")
    for seat, name in enumerate(names):
        page.fill(f"input[name=seat-{seat}]", name)
    taps.tap(page.locator("label.tap").filter(has_text=game))
    taps.tap("button:has-text('Start game')")
    page.wait_for_selector("#record-hand")
    return taps


def save(page, taps) -> float:
    """Tap Save; return the moment the saving phone shows its scoreboard again."""
    settled(page)
    taps.tap("#save-hand")
    page.wait_for_selector("#record-hand, .banner")
    return time.time()


@pytest.mark.parametrize("game", ["Penalty points", "Chip pot"])
def test_a_hand_saved_on_one_phone_shows_on_the_other_s_scoreboard(two_phones, game):
    one, other = two_phones
    taps = start(one, ["Ann", "Ben", "Cy"], game)
    other.goto(one.url)
    assert "Record hand 1" in other.locator("#record-hand").inner_text()
    record_cards(one, taps, "Ben", {"Ann": 3, "Cy": 2})
    done = save(one, taps)
    follows_within(other, "#record-hand", "Record hand 2", done)
    assert "1 hand played" in other.locator(".game-head").inner_text()
    shot(other, f"two-phones-{game.split()[0].lower()}-other")


def test_a_deal_saved_on_one_phone_shows_on_the_other_s_scoreboard(two_phones):
    one, other = two_phones
    taps = start(one, ["Ann", "Ben"], "Coronation")
    other.goto(one.url)
    taps.tap("#record-hand")
    tap_deal(one, taps, ["Ann", "Ben", "Ann", "Nobody"], "Ann")
    done = save(one, taps)
    follows_within(other, ".banner", "Ann wins!", done)


def test_a_chips_tap_on_one_phone_shows_in_the_other_s_pot(two_phones):
    one, other = two_phones
    start(one, ["Ann", "Ben"], "Chip pot")
    other.goto(one.url)
    one.locator("#live .live-player[data-name='Ben'] .tapkey").filter(has_text="Pass").click()
    one.wait_for_selector("#live [data-live-status]:empty", state="attached")
    done = time.time()
    follows_within(other, "#live .pot", "3", done)
    assert "Last tap: Ben, pass (1)" in other.locator("#live").inner_text()


def test_a_form_open_on_the_other_phone_says_the_hand_was_recorded_and_keeps_its_taps(
        two_phones):
    one, other = two_phones
    taps = start(one, ["Ann", "Ben", "Cy"], "Penalty points")
    other.goto(one.url)
    other_taps = Taps(other)
    record_cards(other, other_taps, "Cy", {"Ann": 4, "Ben": 1})  # typed, not saved
    record_cards(one, taps, "Ben", {"Ann": 3, "Cy": 2})
    done = save(one, taps)
    follows_within(other, "[data-slot=notice]", "Hand 1 was recorded on another phone", done)
    notice = other.locator("[data-slot=notice]").inner_text()
    assert "Ben went out, Ann 3, Cy 2" in notice
    assert other.locator("input[name=cards-0][value='4']").is_checked()  # the taps stay
    shot(other, "two-phones-stale-form")
    # Saving anyway asks: the hand is not recorded twice behind anyone's back.
    other_taps.tap("#save-hand")
    other.wait_for_selector("#number-error")
    assert "Save again to record what you entered as hand 2" in other.locator(
        "#number-error").inner_text()
    assert "Save hand 2" in other.locator("#save-hand").inner_text()
    # The second, explicit Save records what was typed, as hand 2.
    other_taps.tap("#save-hand")
    other.wait_for_selector("#record-hand")
    assert "Record hand 3" in other.locator("#record-hand").inner_text()
    assert "2 hands played" in other.locator(".game-head").inner_text()


def test_the_tv_and_the_phones_on_a_finished_game_follow_the_rematch(two_phones):
    one, other = two_phones
    taps = start(one, ["Ann", "Ben", "Cy"], "Penalty points")
    record_cards(one, taps, "Ben", {"Ann": (3, 3), "Cy": 1})  # Ann 30: past the target
    save(one, taps)
    one.wait_for_selector("#rematch")
    finished = one.url
    tv = other.context.new_page()
    tv.goto("/watch")  # the TV, watch-only, on the game just finished
    tv.wait_for_selector(".banner")
    other.goto(finished)  # a phone still looking at the result
    watch(tv, ".game-head", "0 hands played")  # noted on the page it moves on to
    watch(other, "[data-next-game]", "A new game has started.")
    taps.tap("#rematch")
    one.wait_for_selector("#record-hand")
    started = time.time()
    rematch = one.url
    assert rematch != finished
    follows_within(other, "[data-next-game]", "A new game has started.", started)
    tv.wait_for_url(rematch + "?watch=1", timeout=5_000)
    follows_within(tv, ".game-head", "0 hands played", started, seconds=2)  # it moved on
    assert tv.locator("#record-hand").count() == 0  # still watch-only
    other.locator("[data-next-game] a").click()
    assert other.url == rematch
    shot(tv, "tv-follows-rematch")


def test_a_tap_on_the_join_card_shows_the_qr_big_with_its_address(two_phones):
    one, _ = two_phones
    start(one, ["Ann", "Ben"], "Penalty points")
    board = one.url
    one.locator("a.join").click()
    one.wait_for_selector(".qr-big svg")
    width = one.locator(".qr-big svg").bounding_box()["width"]
    assert width >= 300  # big enough for a phone across the table to read
    assert board.split("//", 1)[1].split("/", 1)[1] in one.locator(".join-url").inner_text()
    shot(one, "join-big")


@pytest.mark.postgres
def test_two_server_processes_on_one_postgresql_keep_their_phones_in_step(
        browser, pg_app):  # noqa: F811  (pg_app is the fixture imported above)
    """A hand saved through one server shows on a phone watching the other within a second."""
    from scorekeeper import create_app
    from tests.helpers import PG_URL as URL

    second = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                         "SQLALCHEMY_DATABASE_URI": URL})
    servers = [serve(app) for app in (pg_app, second)]
    try:
        contexts = [browser.new_context(viewport=PHONE, base_url=base) for _, base in servers]
        one, other = (context.new_page() for context in contexts)
        taps = start(one, ["Ann", "Ben", "Cy"], "Penalty points")
        other.goto(one.url.replace(servers[0][1], servers[1][1]))
        assert "Record hand 1" in other.locator("#record-hand").inner_text()
        record_cards(one, taps, "Ben", {"Ann": 3, "Cy": 2})
        done = save(one, taps)
        follows_within(other, "#record-hand", "Record hand 2", done)
        for context in contexts:
            context.close()
    finally:
        for server, _ in servers:
            server.close()
        with second.app_context():
            from scorekeeper.extensions import db

            db.engine.dispose()


def test_a_stale_record_link_opens_a_form_that_says_what_changed(browser, live_server):
    """A phone that has not caught up (here, one without JavaScript) taps Record hand 1."""
    one = browser.new_context(viewport=PHONE, base_url=live_server).new_page()
    plain = browser.new_context(viewport=PHONE, base_url=live_server,
                                java_script_enabled=False).new_page()
    taps = start(one, ["Ann", "Ben", "Cy"], "Penalty points")
    plain.goto(one.url)
    record_cards(one, taps, "Cy", {"Ann": 2, "Ben": 5})
    save(one, taps)
    assert "Record hand 1" in plain.locator("#record-hand").inner_text()  # stale
    plain.locator("#record-hand").click()
    said = plain.locator("#number-error").inner_text()
    assert "Hand 1 was recorded on another phone" in said and "Cy went out, Ann 2, Ben 5" in said
    assert "Saving will ask what to do" in said
    assert "Save hand 1" in plain.locator("#save-hand").inner_text()
    shot(plain, "stale-link")
    # The same hand tapped in again: the first Save records nothing and says which hand a
    # second one would record.
    plain.locator("[data-went-out] label.tap").filter(has_text="Cy").click()
    for name, count in {"Ann": 2, "Ben": 5}.items():
        plain.locator(f".player[data-name='{name}'] .taps.cards label.tap").filter(
            has_text=str(count)).first.click()
    plain.locator("#save-hand").click()
    assert "Save again to record what you entered as hand 2" in plain.locator(
        "#number-error").inner_text()
    assert "Save hand 2" in plain.locator("#save-hand").inner_text()
    one.reload()
    assert "1 hand played" in one.locator(".game-head").inner_text()
    plain.locator("#save-hand").click()  # the second, explicit Save
    assert "Record hand 3" in plain.locator("#record-hand").inner_text()
    one.context.close()
    plain.context.close()
