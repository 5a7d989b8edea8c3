"""Every player on their own phone, in Chromium at a phone's size: four players take their
seats by the table's QR code, each sends their own part, and every phone at the table shows
the hand recorded within a second of the last part being saved."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.browser.helpers import PHONE, Taps, follows_within, phones, shot, watch
from tests.helpers import need

NAMES = ["Ann", "Ben", "Cy", "Dee"]


@pytest.fixture
def table_of_phones(browser, live_server):
    """Return the scorer's page and four players' pages, each a phone of its own."""
    with phones(browser, live_server, 5, scale=2, timeout=10_000) as pages:
        yield pages[0], pages[1:]  # a test that cuts the connection takes its errors out


def test_four_players_each_send_their_part_and_every_phone_follows(table_of_phones):
    scorer, players = table_of_phones
    scorer.goto("/games/new")
    for seat, name in enumerate(NAMES):
        scorer.fill(f"input[name=seat-{seat}]", name)
    scorer.locator("button:has-text('Start game')").click()
    scorer.wait_for_selector("#record-hand")
    # The table's QR code: the game's address with its join code, drawn for the scorer.
    join = re.search(r"/games/\d+/join/[0-9a-f]+", scorer.locator(".join small").first.inner_text())
    assert join, "the scorer's phone shows the game's join code"
    taps = []
    for seat, page in enumerate(players):
        page.goto(join.group(0))  # what scanning the QR code opens
        assert page.locator("h1").inner_text() == "Which one are you?"
        tap = Taps(page)
        tap.tap(page.locator(f"button[data-seat='{seat}']"))  # one tap takes the seat
        try:
            page.wait_for_selector("[data-mine]")
        except Exception:
            shot(page, f"dbg-seat-{seat}")
            print("URL", page.url, seat)
            raise
        assert NAMES[seat] in page.locator(".mine-head").inner_text()
        taps.append(tap)
    assert all(t.count == 1 for t in taps)
    shot(players[1], "own-phones-seated")

    ann, ben, cy, dee = players
    taps[0].tap(ann.locator("button[name=went_out]"))  # 1 tap
    taps[2].tap(cy.locator(".my-kings label.tap").filter(has_text="1"))  # kings first...
    taps[2].tap(cy.locator("button.key[value='3']"))  # ...then the cards: 2 taps
    taps[3].tap(dee.locator("button.key[value='2']"))  # 1 tap
    # Every phone shows the hand filling in, each part as it comes.
    for page in (scorer, ben):
        page.locator("[data-parts] li.done").nth(2).wait_for()
        line = " ".join(page.locator("[data-parts]").inner_text().split())
        assert "Ann went out ✓" in line and "Cy 3 cards (1 king) ✓" in line
        assert "Ben …" in line
    assert "1 hand played" not in scorer.locator(".game-head").inner_text()
    shot(scorer, "own-phones-filling-in")

    for page in [scorer, *players]:
        watch(page, ".game-head", "1 hand played")
    with ben.expect_response(lambda r: r.request.method == "POST" and "/part" in r.url):
        taps[1].tap(ben.locator("button.key[value='5']"))  # the last part
    sent = time.time()  # saved: the machine has answered it
    for page in [scorer, *players]:
        follows_within(page, ".game-head", "1 hand played", sent)
    assert "Hand 1 saved from everyone's phones." in ben.locator("main").inner_text()
    assert [t.count for t in taps] == [2, 2, 3, 2]  # a seat, then 1-2 taps for a part
    # The hand as recorded: Ann went out; Ben 5, Cy 3 with a king (10 + 2), Dee 2.
    totals = {}
    rows = scorer.locator(".standings li")
    for i in range(rows.count()):
        totals[rows.nth(i).locator(".name").inner_text()] = int(
            rows.nth(i).locator(".total").inner_text())
    assert totals == {"Ann": 0, "Ben": 5, "Cy": 12, "Dee": 2}
    shot(ben, "own-phones-recorded")


def test_two_claiming_out_are_told_and_one_fixes_it(table_of_phones):
    scorer, players = table_of_phones
    scorer.goto("/games/new")
    for seat, name in enumerate(NAMES[:3]):
        scorer.fill(f"input[name=seat-{seat}]", name)
    scorer.locator("button:has-text('Start game')").click()
    scorer.wait_for_selector("#record-hand")
    join = re.search(r"/games/\d+/join/[0-9a-f]+", scorer.locator(".join small").first.inner_text())
    for seat, page in enumerate(players[:3]):
        page.goto(join.group(0))
        page.locator(f"button[data-seat='{seat}']").click()
        page.wait_for_selector("[data-mine]")
    ann, ben, cy = players[:3]
    ann.locator("button[name=went_out]").click()
    ben.locator("button[name=went_out]").click()
    cy.locator("button.key[value='4']").click()
    for page in (scorer, ann, ben, cy):
        page.locator("[data-clash]").filter(has_text="Ann and Ben both say they went out") \
            .wait_for()
    assert "0 hands played" in scorer.locator(".game-head").inner_text()
    ben.locator("button.key[value='2']").click()
    for page in (scorer, ann, cy):
        page.locator(".game-head").filter(has_text="1 hand played").wait_for()
    assert not scorer.locator("[data-clash]").count()


def seat_everyone(scorer, players, names, game="Penalty points"):
    """Start a game on the scorer's phone and seat each player on their own phone."""
    scorer.goto("/games/new")
    for seat, name in enumerate(names):
        scorer.fill(f"input[name=seat-{seat}]", name)
    if game != "Penalty points":
        scorer.locator("label.tap").filter(has_text=game).click()
    scorer.locator("button:has-text('Start game')").click()
    scorer.wait_for_selector("#record-hand")
    join = re.search(r"/games/\d+/join/[0-9a-f]+", scorer.locator(".join small").first.inner_text())
    for seat, page in enumerate(players[:len(names)]):
        page.goto(join.group(0))
        page.locator(f"button[data-seat='{seat}']").click()
        page.wait_for_selector("[data-mine]")


def test_a_part_sent_with_no_connection_waits_and_is_sent_once(table_of_phones):
    scorer, players = table_of_phones
    seat_everyone(scorer, players, NAMES[:2])
    ann, ben = players[:2]
    ben.context.set_offline(True)
    ben.locator("button.key[value='4']").click()
    ben.locator("[data-part-said]").filter(has_text="No connection").wait_for()
    assert "waits on this phone" in ben.locator("[data-part-said]").inner_text()
    assert "Ben …" in " ".join(scorer.locator("[data-parts]").inner_text().split())
    ben.context.set_offline(False)
    ben.evaluate("() => window.dispatchEvent(new Event('online'))")
    scorer.locator("[data-parts] li.done").filter(has_text="Ben").wait_for()
    ann.locator("button[name=went_out]").click()
    for page in (scorer, ann, ben):
        page.locator(".game-head").filter(has_text="1 hand played").wait_for()
    assert ben.evaluate("() => localStorage.getItem('kc-parts')") is None  # sent, once
    assert scorer.locator(".standings li[data-name='Ben'] .total").inner_text() == "4"
    # Now stale: Ben's phone still had hand 1 open elsewhere? A part for it is refused,
    # with what was recorded.
    status = ben.evaluate("""async () => {
        const form = document.querySelector("form[data-part]");
        const body = new URLSearchParams(new FormData(form));
        body.set("cards", "9");
        const r = await fetch(form.action.replace(/hands\\/\\d+/, "hands/1"), {method: "POST",
            body, headers: {"X-Part": "1", "X-Live-Panel": "1"}});
        return [r.status, (await r.json()).message];
    }""")
    assert status[0] == 409 and "was recorded already: Ann went out, Ben 4" in status[1]
    # What the browser said of the cut connection and of the refusal, and nothing else.
    scorer.console_errors[:] = [e for e in scorer.console_errors if not (
        "ERR_INTERNET_DISCONNECTED" in e or "409" in e)]


def test_my_deal_is_said_and_buzzes_once(table_of_phones):
    scorer, players = table_of_phones
    for page in players:
        page.add_init_script("window.buzzed = 0; navigator.vibrate = () => ++window.buzzed;")
    seat_everyone(scorer, players, NAMES[:3])
    ann, ben, cy = players[:3]
    # Ann deals hand 1 (the first dealer), so her phone says so, and buzzes once.
    assert ann.locator("[data-my-deal]").inner_text().endswith("Your deal: hand 1")
    assert ann.evaluate("() => window.buzzed") == 1
    assert not ben.locator("[data-my-deal]").count()
    ann.locator("button[name=went_out]").click()
    ben.locator("button.key[value='2']").click()
    cy.locator("button.key[value='3']").click()
    ben.locator("[data-my-deal]").filter(has_text="Your deal: hand 2").wait_for()
    assert ben.evaluate("() => window.buzzed") == 1
    ann.locator(".game-head").filter(has_text="1 hand played").wait_for()
    assert not ann.locator("[data-my-deal]").count()
    shot(ben, "own-phones-you-deal")


def test_coronation_the_second_player_confirms_in_one_tap(table_of_phones):
    scorer, players = table_of_phones
    seat_everyone(scorer, players, ["Ann", "Ben"], game="Coronation")
    ann, ben = players[:2]
    for field, who in (("corner-0", "Me"), ("corner-1", "Ben"), ("corner-2", "Me"),
                       ("corner-3", "Nobody"), ("dragon", "Me")):
        ann.locator(f"label.tap:has(input[name='{field}'])").filter(has_text=who).click()
    ann.locator("button:has-text('Send the deal')").click()
    ben.locator(".theirs").filter(has_text="Ann says").wait_for()
    ben.locator("[data-confirm-deal]").click()  # one tap
    for page in (scorer, ann, ben):
        page.locator(".game-head").filter(has_text="1 deal played").wait_for()


def test_my_saved_line_stays_when_an_older_page_comes_back_late(table_of_phones, live_app):
    # Ben's phone sends the last part; while the machine's answer is on its way, his phone's
    # regular question sees the new hand and asks for the page; that page comes back last.
    scorer, players = table_of_phones
    seat_everyone(scorer, players, NAMES[:2])
    ann, ben = players[:2]
    ann.locator("button[name=went_out]").click()
    scorer.locator("[data-parts] li.done").filter(has_text="Ann").wait_for()
    ben.locator("[data-parts] li.done").filter(has_text="Ann").wait_for()
    slowed = live_app[0]
    board = ben.url.split("?")[0].replace(live_app[1], "")
    ben.context.set_extra_http_headers({"X-Phone": "ben"})
    slowed.next("ben", "POST", board + "/hands/1/part", after=2)  # saved; answered late
    slowed.next("ben", "GET", board, before=3)  # the poll's page: back after Ben's own
    ben.locator("button.key[value='4']").click()
    line = ben.locator("main > p.flash").filter(has_text="Hand 1 saved from everyone's phones.")
    line.wait_for()
    slowed.dealt_with(ben, held=2)  # the older page came back last
    assert line.is_visible(), "Ben's phone still says his hand was saved"
    assert "1 hand played" in ben.locator(".game-head").inner_text()


def test_a_part_that_did_not_get_through_is_sent_once_the_machine_answers(table_of_phones):
    # No "offline" from the phone (a weak signal often says nothing): the part is sent again
    # as soon as the machine answers the phone's next question.
    scorer, players = table_of_phones
    seat_everyone(scorer, players, NAMES[:2])
    ann, ben = players[:2]
    ben.route("**/hands/1/part", lambda route: route.abort("connectionreset"))
    ben.locator("button.key[value='4']").click()
    ben.locator("[data-part-said]").filter(has_text="No connection").wait_for()
    assert "Ben …" in " ".join(scorer.locator("[data-parts]").inner_text().split())
    ben.unroute("**/hands/1/part")
    scorer.locator("[data-parts] li.done").filter(has_text="Ben 4 cards").wait_for(timeout=5_000)
    ann.locator("button[name=went_out]").click()
    for page in (scorer, ann, ben):
        page.locator(".game-head").filter(has_text="1 hand played").wait_for()
    assert ben.evaluate("() => localStorage.getItem('kc-parts')") is None  # sent, once
    assert scorer.locator(".standings li[data-name='Ben'] .total").inner_text() == "4"
    scorer.console_errors[:] = [e for e in scorer.console_errors
                                if "ERR_CONNECTION_RESET" not in e]


def test_a_question_that_never_comes_back_is_asked_again(table_of_phones):
    # The phone's "anything new?" goes out and the connection goes quiet: no answer, no
    # error. The phone calls it off after a while and asks again, so it follows the table.
    scorer, players = table_of_phones
    seat_everyone(scorer, players, NAMES[:2])
    ann, ben = players[:2]
    held = []

    def first_never_answered(route):
        if held:
            route.continue_()
        else:
            held.append(route)

    ben.route("**/version*", first_never_answered)
    deadline = time.monotonic() + 10
    while not held:  # Ben's phone asks within a second
        assert time.monotonic() < deadline, "Ben's phone never asked"
        ben.wait_for_timeout(50)
    ann.locator("button[name=went_out]").click()
    ben.locator("[data-parts] li.done").filter(has_text="Ann went out").wait_for(timeout=12_000)


def board_path(page) -> str:
    """Return the path of the game's scoreboard this phone shows."""
    return "/games/" + re.search(r"/games/(\d+)", page.url).group(1)


def fill_in(scorer, seat: int, cards: int) -> None:
    """Send a seat's part from the scorer's phone (✎ on the scoreboard: its own keys)."""
    scorer.goto(board_path(scorer) + f"/hands/1/part?seat={seat}")
    scorer.locator(f"button.key[value='{cards}']").click()
    scorer.wait_for_url(re.compile(r"/games/\d+$"))


def test_eleven_or_more_typed_then_enter_is_the_cards_left_not_out(table_of_phones):
    # A stalemate: nobody went out. Ben holds 12: he types it in the box and presses Enter.
    scorer, players = table_of_phones
    seat_everyone(scorer, players, NAMES[:2])
    ann, ben = players[:2]
    ann.locator("button.key[value='3']").click()
    ben.locator("[data-parts] li.done").filter(has_text="Ann 3 cards").wait_for()
    ben.locator("input[name=cards_more]").fill("12")
    ben.locator("input[name=cards_more]").press("Enter")
    scorer.locator(".game-head").filter(has_text="1 hand played").wait_for()
    # Ann held the fewest: the hand is hers, for 0; Ben scores his 12 cards.
    assert scorer.locator(".standings li[data-name='Ann'] .total").inner_text() == "0"
    assert scorer.locator(".standings li[data-name='Ben'] .total").inner_text() == "12"


def test_a_part_that_comes_too_late_says_so_and_moves_on_to_the_next_hand(table_of_phones):
    scorer, players = table_of_phones
    seat_everyone(scorer, players, NAMES[:2])
    ann, ben = players[:2]
    ben.locator(".my-kings label.tap").filter(has_text="1").click()  # kings first...
    ann.locator("button[name=went_out]").click()
    fill_in(scorer, 1, 5)  # ...meanwhile the scorer's phone sends Ben's part: recorded
    scorer.locator(".game-head").filter(has_text="1 hand played").wait_for()
    ben.locator("button.key[value='3']").click()  # ...then the cards: too late
    said = ben.locator("[data-part-said]")
    said.filter(has_text="Hand 1 was recorded already").wait_for()
    assert "To change it" in said.inner_text()
    ben.locator(".game-head").filter(has_text="1 hand played").wait_for()
    assert "Hand 2, from each phone" in ben.locator("[data-parts] h2").inner_text()
    assert ben.locator(".standings li[data-name='Ben'] .total").inner_text() == "5"
    shot(ben, "own-phones-too-late")
    ben.locator("button.key[value='4']").click()  # hand 2's keys: this one is taken
    scorer.locator("[data-parts] li.done").filter(has_text="Ben 4 cards").wait_for()
    scorer.console_errors[:] = [e for e in scorer.console_errors if "409" not in e]


def test_a_part_tapped_offline_for_a_hand_recorded_meanwhile_is_told(table_of_phones):
    scorer, players = table_of_phones
    seat_everyone(scorer, players, NAMES[:2])
    ann, ben = players[:2]
    ben.context.set_offline(True)
    ben.locator("button.key[value='4']").click()
    ben.locator("[data-part-said]").filter(has_text="No connection").wait_for()
    ann.locator("button[name=went_out]").click()
    fill_in(scorer, 1, 6)  # recorded while Ben's phone is away
    scorer.locator(".game-head").filter(has_text="1 hand played").wait_for()
    ben.context.set_offline(False)
    ben.evaluate("() => window.dispatchEvent(new Event('online'))")
    ben.locator(".game-head").filter(has_text="1 hand played").wait_for()
    ben.locator("[data-part-said]").filter(has_text="Hand 1 was recorded already").wait_for()
    assert "Ben 6" in ben.locator("[data-part-said]").inner_text()
    assert ben.evaluate("() => localStorage.getItem('kc-parts')") is None
    assert ben.locator("button.key[value='4']").is_enabled()  # hand 2's keys
    scorer.console_errors[:] = [e for e in scorer.console_errors if not (
        "ERR_INTERNET_DISCONNECTED" in e or "409" in e)]


def test_a_refused_token_is_said_in_a_sentence_and_the_next_tap_goes_through(
        table_of_phones):
    scorer, players = table_of_phones
    seat_everyone(scorer, players, NAMES[:2])
    ann, ben = players[:2]
    # A page left open past its token's life (or a forged one): the machine refuses it.
    ben.evaluate("""() => document.querySelectorAll("form[data-part] input[name=csrf_token]")
        .forEach((i) => { i.value = "expired"; })""")
    ben.locator("button.key[value='4']").click()
    said = ben.locator("[data-part-said]")
    said.wait_for()
    text = said.inner_text()
    assert text == "This page had expired. Your part was not sent: tap it again."
    assert "<" not in text
    ben.locator("button.key[value='4']").click()  # the page came back with a fresh token
    scorer.locator("[data-parts] li.done").filter(has_text="Ben 4 cards").wait_for()
    scorer.console_errors[:] = [e for e in scorer.console_errors if "400" not in e]


def test_a_seated_phones_keys_are_big_enough_and_apart(table_of_phones):
    # axe's target-size (WCAG 2.5.8, as Lighthouse runs it) on a seated phone at 390x844:
    # went out, the kings, the cards and the "11 or more" box.
    scorer, players = table_of_phones
    seat_everyone(scorer, players, NAMES[:2])
    ben = players[1]
    axe = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
    need(axe.exists(), "axe-core in node_modules (npm ci)")
    ben.evaluate(axe.read_text())  # as a tester's tool: not through the page's CSP
    found = ben.evaluate("""async () => (await axe.run(document.querySelector("[data-mine]"),
        {runOnly: ["target-size"]})).violations.map((v) => v.nodes.map((n) => n.target))""")
    assert found == []
    assert ben.locator("[data-mine] input[name=cards_more]").bounding_box()["height"] >= 44


def test_without_javascript_enter_in_the_box_is_the_cards_left_too(table_of_phones, browser,
                                                                   live_server):
    # A phone with scripts off: Enter in a form sends its first button, "I went out",
    # unless the form's first button is a plain Send.
    scorer, players = table_of_phones
    seat_everyone(scorer, players, NAMES[:2])
    ann = players[0]
    context = browser.new_context(viewport=PHONE, java_script_enabled=False,
                                  base_url=live_server)
    try:
        ben = context.new_page()
        join = re.search(r"/games/\d+/join/[0-9a-f]+",
                         scorer.locator(".join small").first.inner_text())
        ben.goto(join.group(0))
        ben.locator("button[data-seat='1']").click()
        ben.locator("#take").click()  # his seat, from the phone that had it
        ben.wait_for_selector("[data-mine]")
        ann.locator("button.key[value='3']").click()
        ben.locator("input[name=cards_more]").fill("12")
        ben.locator("input[name=cards_more]").press("Enter")
        scorer.locator(".game-head").filter(has_text="1 hand played").wait_for()
        assert scorer.locator(".standings li[data-name='Ben'] .total").inner_text() == "12"
    finally:
        context.close()
