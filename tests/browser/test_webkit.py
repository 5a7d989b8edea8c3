"""The table's main flow in WebKit, the engine of Safari on every iPhone: Debian's
WebKitGTK, driven over WebDriver (WebKitWebDriver) on a virtual screen (Xvfb), at 390x844.

New game, three hands, a correction, undo, another phone's save shown live, a chips tap,
the dark theme and Spanish, a player's page with its part fetched into place. No uncaught
error on any page.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.browser.helpers import ARTIFACTS, PHONE, Taps
from tests.helpers import need

# Debian's WebKitGTK browser for automation, under its architecture's library folder.
MINIBROWSER = next(iter(sorted(Path("/usr/lib").glob("*/webkit2gtk-4.*/MiniBrowser"))),
                   Path("/usr/lib/webkit2gtk-4.1/MiniBrowser"))
# Uncaught errors and rejected promises, kept by the page; read after each step. Set as each
# page loads (WebDriver classic cannot run a script before the page's own), so it sees what
# happens after the load: every tap, poll, preview and refresh.
WATCH_ERRORS = """
if (!window.__errors) {
  window.__errors = [];
  window.addEventListener("error", e => window.__errors.push(String(e.message)));
  window.addEventListener("unhandledrejection", e => window.__errors.push(String(e.reason)));
}
return window.__errors;
"""


@pytest.fixture(scope="module")
def webkit():
    """Start WebKitGTK's MiniBrowser under WebKitWebDriver on a virtual screen."""
    need(shutil.which("WebKitWebDriver") is not None and MINIBROWSER.exists(),
         "WebKitGTK's driver (apt-get install webkit2gtk-driver)")
    need(shutil.which("Xvfb") is not None, "a virtual screen (apt-get install xvfb)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.webkitgtk.service import Service

    # Xvfb picks a free display itself and writes its number once it is ready.
    read, write = os.pipe()
    screen = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24",
                               "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as told:
        display = ":" + told.readline().strip()
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = display
    options = webdriver.WebKitGTKOptions()
    options.binary_location = str(MINIBROWSER)
    options.add_argument("--automation")
    driver = webdriver.WebKitGTK(options=options,
                                 service=Service(executable_path=shutil.which("WebKitWebDriver")))
    try:
        driver.set_window_size(PHONE["width"], PHONE["height"])
        driver.implicitly_wait(0)
        yield driver
    finally:
        driver.quit()
        screen.terminate()
        screen.wait()
        if old is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = old


@pytest.fixture(autouse=True)
def forgets(request):
    """After each test, the one WebKit browser forgets its cookies: every test's server is
    on 127.0.0.1, where a language chosen or a seat held would follow the phone into the
    next test (a crowd night's test once opened in the Spanish an earlier test chose)."""
    yield
    if "webkit" in request.fixturenames:
        request.getfixturevalue("webkit").delete_all_cookies()


class Phone:
    """The WebKit page as a person at the table uses it: taps, and what it shows."""

    def __init__(self, driver, base: str) -> None:
        self.driver, self.base, self.errors = driver, base, []

    def open(self, path: str) -> None:
        self.driver.get(self.base + path)
        self.watch()

    def watch(self) -> None:
        """Start keeping the page's errors (again, after a page load)."""
        self.errors += [e for e in self.driver.execute_script(WATCH_ERRORS) or []
                        if e not in self.errors]

    def until(self, check, what: str, seconds: float = 10) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                if check():
                    return
            except Exception:  # noqa: BLE001  (a page between two loads: look again)
                pass
            assert time.monotonic() < deadline, f"WebKit: still not {what} after {seconds} s"
            time.sleep(0.1)

    def css(self, selector: str):
        return self.driver.find_elements("css selector", selector)

    def tap(self, selector: str, text: str | None = None) -> None:
        """Tap the first element that matches and whose text is, or begins with, `text`."""
        def found():
            for element in self.css(selector):
                shown = element.text.strip()
                if text is None or shown == text or shown.startswith(text):
                    return element
            return None
        self.until(found, f"showing {selector} {text or ''}")
        element = found()
        # In the middle of the screen, clear of the floating "saved" notice and the dock.
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def shows(self, selector: str, text: str, seconds: float = 10) -> None:
        self.until(lambda: any(text in e.text for e in self.css(selector)),
                   f"showing {text!r} in {selector}", seconds)
        self.watch()

    def start(self, game: str, names=("Ann", "Ben", "Cy")) -> None:
        """Start a game of `game` from New game: the names typed, the game tapped, Start."""
        self.open("/games/new")
        for seat, name in enumerate(names):
            box = self.css(f"input[name=seat-{seat}]")[0]
            box.clear()
            box.send_keys(name)
        self.tap("#new-game label.tap", game)
        self.tap("button[type=submit]", "Start game")

    def hand(self, went_out: str, cards: dict[str, int], next_number: int) -> None:
        """Record a hand from the scoreboard: who went out, each other's cards, Save."""
        self.tap("#record-hand")
        self.shows("#save-hand", "Save")
        self.tap("[data-went-out] label.tap", went_out)
        for name, count in cards.items():
            self.tap(f".player[data-name='{name}'] .taps.cards label.tap", str(count))
        self.previewed()
        self.tap("#save-hand")
        self.shows("#record-hand", f"Record hand {next_number}")

    def previewed(self) -> None:
        """Wait until the round form's preview has answered the last tap."""
        self.until(lambda: not self.css("#hand-form[data-previewing]"), "done previewing")

    def totals(self) -> dict[str, int]:
        return {row.get_attribute("data-name"): int(row.find_element("css selector",
                                                                     ".total").text)
                for row in self.css(".standings li")}


def test_the_main_flow_in_webkit(webkit, live_server, phone):
    me = Phone(webkit, live_server)
    me.start("Penalty points")
    me.shows("#record-hand", "Record hand 1")
    board = webkit.current_url

    me.hand("Ann", {"Ben": 3, "Cy": 2}, 2)
    me.hand("Ben", {"Ann": 4, "Cy": 1}, 3)
    me.hand("Cy", {"Ann": 2, "Ben": 5}, 4)
    assert me.totals() == {"Ann": 6, "Ben": 8, "Cy": 3}

    # A correction: hand 1, Ben held 6, not 3.
    me.tap("a.edit")
    me.shows("h1", "Edit hand 1")
    me.tap(".player[data-name='Ben'] .taps.cards label.tap", "6")
    me.previewed()
    me.tap("#save-hand")
    me.shows("#record-hand", "Record hand 4")
    assert me.totals() == {"Ann": 6, "Ben": 11, "Cy": 3}

    # Undo, right after a save.
    me.hand("Ann", {"Ben": 1, "Cy": 1}, 5)
    me.tap("[data-saved-toast] button", "Undo")
    me.shows("#record-hand", "Record hand 4")

    # Another phone saves a hand: this one shows it without a tap.
    page, taps = phone
    page.goto(board)
    other = Taps(page)
    other.tap("#record-hand")
    other.tap(page.locator("[data-went-out] label.tap").filter(has_text="Ben"))
    for name, count in {"Ann": 1, "Cy": 2}.items():
        other.tap(page.locator(f".player[data-name='{name}'] .taps.cards label.tap")
                  .filter(has_text=str(count)).first)
    other.tap("#save-hand")
    page.wait_for_selector(".standings")
    me.shows("#record-hand", "Record hand 5", seconds=5)

    # Dark, by the theme key; then Spanish, by the switch at the foot.
    me.tap("[data-theme-toggle]")
    me.until(lambda: webkit.execute_script(
        "return document.documentElement.dataset.theme") in ("dark", "light"), "themed")
    me.tap("footer.language button", "Español")
    me.shows("#record-hand", "mano 5")
    assert webkit.execute_script("return document.documentElement.lang") == "es"
    me.tap("footer.language button", "English")
    me.shows("#record-hand", "Record hand 5")

    # A chips game: a pass tapped goes into the pot.
    me.start("Chip pot")
    me.shows("#live .pot", "3")
    me.tap("#live .live-player[data-name='Cy'] .tapkey")
    me.shows("#live .pot", "4")
    me.until(lambda: not me.css("#live .pending"), "saved")
    webkit.refresh()
    me.shows("#live .pot", "4")

    # A player's page: the record at once, the rest fetched into place with no tap.
    me.tap("header.bar nav a", "Players")
    me.tap(".roster-list a", "Ann")
    me.shows(".figures", "win rate")
    me.shows("[data-slot=more]", "Best night")
    assert not me.css("[data-slot=more] a.button"), "the part's link is still there"
    ARTIFACTS.mkdir(exist_ok=True)
    webkit.save_screenshot(str(ARTIFACTS / "webkit-player.png"))  # to look at

    me.watch()
    assert me.errors == [], f"WebKit reported errors: {me.errors}"


def test_a_player_on_an_iphone_takes_a_seat_and_sends_a_part(webkit, live_server, phone):
    """Ben's iPhone scans the table's code, takes his seat, sends kings then cards; Ann's
    phone (Chromium) sends "I went out": the hand records itself and WebKit shows it."""
    page, _ = phone
    page.goto("/games/new")
    for seat, name in enumerate(("Ann", "Ben")):
        page.fill(f"input[name=seat-{seat}]", name)
    page.locator("button:has-text('Start game')").click()
    page.wait_for_selector("#record-hand")
    join = page.locator(".join small").first.inner_text()
    path = join[join.index("/games/"):]
    ben = Phone(webkit, live_server)
    ben.open(path)
    ben.shows("h1", "Which one are you?")
    ben.tap("button[data-seat='1']")
    ben.shows(".mine-head", "Ben")
    ben.tap(".my-kings label.tap", "1")
    ben.tap("button.key", "3")
    ben.shows("[data-parts] li.done", "Ben 3 cards (1 king)")
    page.locator(f"a[href='{path.split('/join/')[0]}/seat']").click()
    page.locator("button[data-seat='0']").click()
    page.locator("button[name=went_out]").click()
    ben.shows(".game-head", "1 hand played", seconds=5)
    assert ben.totals() == {"Ann": 0, "Ben": 12}
    ben.watch()
    assert ben.errors == [], f"WebKit reported errors: {ben.errors}"


# A weak signal, as the page sees it: while window.__cut is set, a part's post fails.
CUT_PARTS = """
const real = window.fetch;
window.fetch = function (url, options) {
  if (window.__cut && String(url).includes("/part")) return Promise.reject(new TypeError("cut"));
  return real.call(this, url, options);
};
window.__cut = true;
"""


def test_an_iphone_s_late_parts_are_told_and_eleven_or_more_is_cards(webkit, live_server,
                                                                      phone):
    """Ben's part comes after the hand was recorded, once with a connection and once
    queued without one: his iPhone says so and shows the next hand. Then 12 typed in the
    "11 or more" box and Enter, in a stalemate: 12 cards, not "I went out"."""
    page, _ = phone
    page.goto("/games/new")
    for seat, name in enumerate(("Ann", "Ben")):
        page.fill(f"input[name=seat-{seat}]", name)
    page.locator("button:has-text('Start game')").click()
    page.wait_for_selector("#record-hand")
    join = page.locator(".join small").first.inner_text()
    path = join[join.index("/games/"):]
    board = path.split("/join/")[0]
    ben = Phone(webkit, live_server)
    ben.open(path)
    ben.tap("button[data-seat='1']")
    ben.shows(".mine-head", "Ben")
    page.goto(board + "/seat")
    page.locator("button[data-seat='0']").click()
    page.wait_for_selector("[data-mine]")

    def ann_out_and_bens_part_from_anns_phone(number: int, cards: int) -> None:
        page.locator("button[name=went_out]").click()
        page.goto(f"{board}/hands/{number}/part?seat=1")  # ✎: Ben's part, on Ann's phone
        page.locator(f"button.key[value='{cards}']").click()
        page.locator(".game-head").filter(has_text=f"{number} hand").wait_for()

    ben.tap(".my-kings label.tap", "1")  # kings first...
    ann_out_and_bens_part_from_anns_phone(1, 5)
    ben.tap("button.key", "3")  # ...then the cards, too late
    ben.shows("[data-part-said]", "Hand 1 was recorded already")
    ben.shows(".game-head", "1 hand played")
    assert ben.totals() == {"Ann": 0, "Ben": 5}

    ben.driver.execute_script(CUT_PARTS)
    ben.tap("button.key", "4")
    ben.shows("[data-part-said]", "No connection")
    ann_out_and_bens_part_from_anns_phone(2, 6)
    ben.driver.execute_script("window.__cut = false; window.dispatchEvent(new Event('online'))")
    ben.shows("[data-part-said]", "Hand 2 was recorded already")
    ben.shows(".game-head", "2 hands played")
    assert ben.totals() == {"Ann": 0, "Ben": 11}

    page.locator("button.key[value='3']").click()  # Ann holds 3: nobody went out
    ben.shows("[data-parts] li.done", "Ann 3 cards")
    from selenium.webdriver.common.keys import Keys

    box = ben.css("input[name=cards_more]")[0]
    ben.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.send_keys("12", Keys.ENTER)
    ben.shows(".game-head", "3 hands played")
    assert ben.totals() == {"Ann": 0, "Ben": 5 + 6 + 12}
    ben.watch()
    assert ben.errors == [], f"WebKit reported errors: {ben.errors}"


def test_the_rules_at_the_table_in_webkit(webkit, live_server):
    """On an iPhone's engine, in English and Spanish: this game's rules open with a tap, a
    tapped score says why inside the screen, and how to play draws its layout."""
    me = Phone(webkit, live_server)
    me.start("Penalty points")
    me.hand("Ann", {"Ben": 3, "Cy": 2}, 2)
    for lang, words in (("en", ("This game’s rules", "Play to 25", "Ben: 3 cards: 3 × 1 = 3",
                                "How to play", "How to play Kings Corners")),
                        ("es", ("Reglas de esta partida", "Jugar hasta 25",
                                "Ben: 3 cartas: 3 × 1 = 3", "Cómo jugar",
                                "Cómo jugar a Kings Corners"))):
        sheet, rule, why, link, title = words
        assert not me.css(".rules-lines")[0].is_displayed()
        me.tap("details.rules-sheet > summary", sheet)
        me.shows(".rules-lines", rule)
        # Ben's score of the hand just recorded: its words are fetched when it is tapped.
        cell = me.css('table.hands tbody tr:last-child details.why[data-name="Ben"]')[0]
        me.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
        cell.find_element("css selector", "summary").click()
        me.shows(".why[open] .why-text", why)
        box = me.driver.execute_script(
            "const r = document.querySelector('.why[open] .why-text').getBoundingClientRect();"
            "return [r.left, r.right, document.documentElement.scrollWidth, innerWidth];")
        # Inside the screen (MiniBrowser's window is a little wider than a phone's).
        assert box[0] >= 0 and box[1] <= box[3] and box[2] <= box[3], box
        webkit.save_screenshot(str(ARTIFACTS / f"webkit-rules-{lang}.png"))
        board = webkit.current_url
        me.tap("a#how-to-play", link)
        me.shows("h1", title)
        assert me.css("figure.layout svg")[0].is_displayed()
        webkit.save_screenshot(str(ARTIFACTS / f"webkit-how-to-play-{lang}.png"))
        if lang == "en":
            me.tap("footer.language button", "Español")
            me.shows("h1", "Cómo jugar")
        me.open(board.replace(live_server, ""))
    me.tap("footer.language button", "English")
    me.watch()
    assert me.errors == [], f"WebKit reported errors: {me.errors}"


def _end_the_round(page) -> None:
    """End every table's game of the round being played, from the host's phone (Chromium):
    End game now on each table's scoreboard."""
    page.goto("/crowds/1")
    links = page.locator(".crowd-round").first.locator(".crowd-table a.button")
    boards = [links.nth(i).get_attribute("href") for i in range(links.count())]
    for board in boards:
        page.goto(board)
        page.locator("button:has-text('End game now')").click()
        page.click("dialog.ask button[value=yes]")
        page.wait_for_selector(".banner .winner")


def test_a_crowd_night_on_an_iphone(webkit, live_server, phone):
    """A night for a crowd: Ann's iPhone joins by the night's QR code with one tap on her
    name, is taken to her table and seat, sends her own part, is offered her next table
    when the host seats round 2, and sees the night's winner."""
    from urllib.parse import parse_qs, urlparse

    page, _ = phone
    page.goto("/crowds/new")
    page.fill("#new_names", "Ann\nBen\nCy\nDee\nEve")
    page.fill("#table_size", "3")
    page.fill("#rounds", "2")
    page.locator("button:has-text('Seat everyone')").click()
    page.locator("h1").filter(has_text="Round 1 of 2").wait_for()
    join = parse_qs(urlparse(page.locator("#crowd-qr").get_attribute("href")).query)["to"][0]
    ann = Phone(webkit, live_server)
    ann.open(join)
    ann.shows("h1", "Which one are you?")
    ann.tap("button.big", "Ann")
    ann.shows("main", "Round 1: table")
    ann.shows(".mine-head", "Ann")
    ann.tap("button[name=went_out]")
    ann.shows("[data-parts] li.done", "Ann went out")

    _end_the_round(page)
    page.goto("/crowds/1")
    page.locator("#next-round").click()
    page.locator("main").filter(has_text="Round 2 is seated").wait_for()
    ann.tap("[data-next-game] a")  # her finished board offers her next table
    ann.shows("main", "Round 2: table")
    ann.shows(".mine-head", "Ann")

    _end_the_round(page)
    ann.open("/crowds/1")
    ann.shows("h1", "The night is over")
    ann.shows(".crowd-winner", "the night")
    ann.watch()
    assert ann.errors == [], f"WebKit reported errors: {ann.errors}"
