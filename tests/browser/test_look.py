"""Every page, light and dark, as a phone at 390x844 shows it: axe-core finds nothing, one h1,
no text under 14 px, every tap target at least 44x44, and screenshots to look at. The theme
follows the phone, a phone's own choice is remembered and on before the first paint, and the
charts follow it."""

from __future__ import annotations

import functools
import json

import pytest

from scorekeeper.extensions import db
from scorekeeper.web import passcode
from tests.browser.helpers import ARTIFACTS, PHONE, parts_in_place
from tests.helpers import ROOT, make_app, need, serve, stop_serving
from tests.site import pages, seed

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
THEMES = ("light", "dark")
KEY = "kings-corners:theme"
# The pages the README's screenshots and a person look at first.
MAIN = ("home", "new-game", "scoreboard-penalty", "scoreboard-chips", "scoreboard-coronation",
        "scoreboard-penalty-over", "record-penalty", "record-chips", "record-coronation",
        "history", "night", "history-game-penalty", "roster", "player", "settings",
        "how-to-play")
# The same audit in Spanish, on the pages where its longer words would break something first.
SPANISH = ("home", "new-game", "scoreboard-penalty", "scoreboard-chips", "scoreboard-coronation",
           "record-penalty", "record-chips", "record-coronation", "history", "player",
           "settings", "how-to-play")

# What a page breaks of the table's sizes, read in the page: text under 14 px (an SVG's text
# at the size it is drawn), tap targets under 44x44, and the number of h1 headings.
SIZES = """() => {
  const visible = el => {
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" &&
      !el.closest(".sr, [hidden], [aria-hidden=true]");
  };
  const say = el => (el.getAttribute("aria-label") || el.textContent || el.value || el.name ||
    el.tagName).trim().replace(/\\s+/g, " ").slice(0, 40);
  const small = [];
  for (const el of document.body.querySelectorAll("*")) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !visible(el)) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    const svg = el.closest("svg");
    if (svg) size *= svg.getScreenCTM().a;
    if (size < 13.95) small.push(`${say(el)} (${size.toFixed(1)} px)`);
  }
  const targets = [];
  const tappable = "a[href], button, summary, select, textarea, input:not([type=hidden])";
  for (const el of document.body.querySelectorAll(tappable)) {
    if (!visible(el)) continue;
    // A key drawn as a label around an invisible radio: the label is what a thumb taps.
    const label = el.closest("label");
    const hit = getComputedStyle(el).opacity === "0" && label ? label : el;
    const box = hit.getBoundingClientRect();
    if (box.width < 43.5 || box.height < 43.5)
      targets.push(`${say(el)} (${Math.round(box.width)}x${Math.round(box.height)})`);
  }
  return {small: [...new Set(small)], targets: [...new Set(targets)],
          h1: document.querySelectorAll("h1").length,
          wide: document.documentElement.scrollWidth > 390 ? [document.documentElement.scrollWidth]
                                                          : []};
}"""

AXE_RUN = """async () => {
  const said = (result) => result.violations.map(v => `${v.id}: ${v.help} (${v.nodes.length}): ` +
    v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "));
  const found = said(await axe.run(document, {resultTypes: ["violations"]}));
  // Target size and spacing (WCAG 2.5.8, off by default in axe; Lighthouse runs it), the
  // Save dock set aside: whatever row it is over as the page opens counts as "partially
  // obscured", on one phone's screen and not another's (docs/testing.md).
  const docks = [...document.querySelectorAll(".dock")];
  docks.forEach((dock) => { dock.style.visibility = "hidden"; });
  try {
    return found.concat(said(await axe.run(document, {runOnly: ["target-size"],
                                                      resultTypes: ["violations"]})));
  } finally {
    docks.forEach((dock) => { dock.style.visibility = ""; });
  }
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Serve games of every variant, in play and over; return (base URL, pages)."""
    path = tmp_path_factory.mktemp("look") / "site.sqlite"
    ids = seed(path)
    app = make_app(path, csrf=True)
    server, base = serve(app)
    yield base, pages(ids), app
    stop_serving(server)
    with app.app_context():
        db.engine.dispose()


def phone_context(browser, base: str, scheme: str, axe: bool = False, locale: str = "en-US"):
    """Return a phone's browser context with the phone set to light or dark (and a language)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                                  has_touch=True, base_url=base, color_scheme=scheme,
                                  locale=locale)
    if axe:
        context.add_init_script(path=str(AXE))  # as a tester's tool: the page's CSP still holds
    return context


@pytest.fixture(scope="module")
def walk(browser, site):
    """Open every page in a theme once; return what each breaks (cached per theme)."""
    need(AXE.exists(), "axe-core in node_modules (npm ci)")
    base, paths, app = site

    @functools.cache
    def run(scheme: str, lang: str = "en") -> dict[str, dict]:
        """Walk every page in English, or the SPANISH ones in Spanish (a phone set to it)."""
        context = phone_context(browser, base, scheme, axe=True,
                                locale="es-ES" if lang == "es" else "en-US")
        page = context.new_page()
        page.set_default_timeout(15_000)
        found = {}
        walked = paths if lang == "en" else {name: paths[name] for name in SPANISH}
        for name, path in walked.items():
            page.goto(path)
            parts_in_place(page)
            assert page.locator("html").get_attribute("lang") == lang, name
            found[name] = page.evaluate(SIZES) | {"axe": page.evaluate(AXE_RUN)}
            if name in MAIN:
                ARTIFACTS.mkdir(exist_ok=True)
                shown = name if lang == "en" else f"{lang}-{name}"
                page.screenshot(path=str(ARTIFACTS / f"look-{shown}-{scheme}.png"),
                                full_page=True)
            if name == "new-game":  # each variant's own settings, shown by a tap
                for variant in ("chips", "coronation"):
                    page.locator(f"label:has(input[name=variant][value={variant}])").click()
                    found[f"new-game-{variant}"] = page.evaluate(SIZES) | {
                        "axe": page.evaluate(AXE_RUN)}
            if name.startswith("record-"):  # with "who went out" tapped: the preview shows
                page.locator("form label.tap").first.click()
                page.wait_for_selector("form:not([data-previewing])", state="attached")
                found[f"{name}-tapped"] = page.evaluate(SIZES) | {"axe": page.evaluate(AXE_RUN)}
        if lang != "en":
            context.close()
            return found
        with app.app_context():  # last: a table with a passcode, from a phone without it
            passcode.store("table-secret-1")
            db.session.commit()
        page.goto(paths["record-penalty"])  # asks for the passcode first
        found["unlock"] = page.evaluate(SIZES) | {"axe": page.evaluate(AXE_RUN)}
        page.goto(paths["scoreboard-penalty"])  # read-only: the padlock in the bar
        found["locked-scoreboard"] = page.evaluate(SIZES) | {"axe": page.evaluate(AXE_RUN)}
        with app.app_context():
            passcode.clear()
            db.session.commit()
        context.close()
        return found

    return run


def report(found: dict[str, dict], key: str) -> str:
    """Return the problems of one kind, page by page, for an assertion message."""
    return json.dumps({name: f[key] for name, f in found.items() if f[key]}, indent=1,
                      ensure_ascii=False)


@pytest.mark.parametrize("scheme", THEMES)
def test_axe_finds_nothing_on_any_page(walk, scheme):
    found = walk(scheme)
    assert len(found) > 30
    assert not any(f["axe"] for f in found.values()), report(found, "axe")


@pytest.mark.parametrize("scheme", THEMES)
def test_no_text_under_14px_on_any_page(walk, scheme):
    found = walk(scheme)
    assert not any(f["small"] for f in found.values()), report(found, "small")


def test_every_tap_target_is_at_least_44_by_44(walk):
    found = walk("light")
    assert not any(f["targets"] for f in found.values()), report(found, "targets")


# Each key of a form and how much of it the Save dock covers, as the page opens.
UNDER_DOCK = """() => {
  const dock = document.querySelector(".dock .button").getBoundingClientRect();
  const keys = [...document.querySelectorAll(
    "form .tap, form .other input, form .key, form summary")].filter(
    (el) => !el.closest(".dock") && el.getBoundingClientRect().height > 0);
  return keys.map((el) => {
    const box = el.getBoundingClientRect();
    const covered = Math.max(0, Math.min(box.bottom, dock.bottom) - Math.max(box.top, dock.top));
    return [el.id || el.textContent.trim() || el.name, Math.round(covered),
            Math.round(box.height)];
  }).filter(([, covered, height]) => covered > 0 && covered < height);
}"""


@pytest.mark.parametrize("screen", [PHONE, {"width": 412, "height": 823}],
                         ids=["390x844", "lighthouse-412x823"])
def test_the_save_dock_covers_no_key_as_the_record_form_opens(browser, site, screen):
    """Nothing to save before who went out is tapped: the Save button waits at the end of
    the form, so no key opens half under it (a thumb's miss, and Lighthouse's target-size
    finding on the record form at its 412x823)."""
    need(AXE.exists(), "axe-core in node_modules (npm ci)")
    base, paths, _ = site
    context = browser.new_context(viewport=screen, is_mobile=True, has_touch=True,
                                  base_url=base)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    try:
        for name in ("record-penalty", "record-chips"):
            page.goto(paths[name])
            assert page.evaluate(UNDER_DOCK) == [], name
            assert page.evaluate("""async () => (await axe.run(document, {runOnly:
                ["target-size"]})).violations.map((v) => v.nodes.map((n) => n.target))""") \
                == [], name
    finally:
        context.close()


def test_no_page_is_wider_than_the_phone(walk):
    """A page wider than the screen makes the phone zoom the whole page out."""
    found = walk("light")
    assert not any(f["wide"] for f in found.values()), report(found, "wide")


def test_every_page_has_exactly_one_h1(walk):
    found = walk("dark")
    assert {name: f["h1"] for name, f in found.items() if f["h1"] != 1} == {}


def test_the_spanish_pages_pass_the_same_audit(walk):
    """Spanish words are longer: in Spanish too, axe finds nothing, no text is under 14 px,
    every tap target is 44x44, nothing is wider than the phone, one h1 a page."""
    found = walk("light", "es")
    assert len(found) >= len(SPANISH) + 4  # with each variant's settings and a tapped form
    for key in ("axe", "small", "targets", "wide"):
        assert not any(f[key] for f in found.values()), report(found, key)
    assert {name: f["h1"] for name, f in found.items() if f["h1"] != 1} == {}


# The theme

def background(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def chart_colours(page) -> list[str]:
    """Return the drawn colour of each line of the page's chart, and of its grid."""
    return page.evaluate("""() => [
      ...[...document.querySelectorAll(".chart .series polyline")].map(
        l => getComputedStyle(l).stroke),
      getComputedStyle(document.querySelector(".chart .grid")).stroke]""")


DARK_BG, LIGHT_BG = "rgb(17, 22, 29)", "rgb(242, 244, 247)"


def test_the_page_follows_the_phone_light_or_dark(browser, site):
    base, paths, _ = site
    for scheme, colour in (("light", LIGHT_BG), ("dark", DARK_BG)):
        context = phone_context(browser, base, scheme)
        page = context.new_page()
        page.goto(paths["scoreboard-penalty"])
        assert background(page) == colour
        bar = page.locator('meta[name=theme-color]').evaluate_all(
            "ms => ms.filter(m => matchMedia(m.media).matches).map(m => m.content)")
        assert bar == [{"light": "#f2f4f7", "dark": "#11161d"}[scheme]]
        context.close()


def test_the_theme_key_is_one_tap_remembered_and_on_before_the_first_paint(browser, site):
    base, paths, _ = site
    context = phone_context(browser, base, "dark")
    # Note the theme on <html> at the moment <body> arrives, before anything is painted.
    context.add_init_script("""new MutationObserver((_, observer) => {
      if (document.body) { window.__atBody = document.documentElement.dataset.theme || "auto";
                           observer.disconnect(); }
    }).observe(document, {childList: true, subtree: true});""")
    page = context.new_page()
    page.goto(paths["scoreboard-penalty"])
    key = page.locator("[data-theme-toggle]")
    assert key.is_visible() and background(page) == DARK_BG
    assert "as the phone is set" in key.get_attribute("aria-label")
    box = key.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    dark_chart = chart_colours(page)

    key.click()  # one tap: light, though the phone is dark
    assert background(page) == LIGHT_BG
    assert key.get_attribute("aria-label").startswith("Theme: light.")
    assert page.evaluate("key => localStorage.getItem(key)", KEY) == "light"
    assert page.locator("meta[name=theme-color]").evaluate_all(
        "ms => ms.map(m => m.content)") == ["#f2f4f7", "#f2f4f7"]
    light_chart = chart_colours(page)
    # The chart is the same drawing (kept per game state) and still changes colour.
    assert all(a != b for a, b in zip(dark_chart, light_chart, strict=True))
    assert len(set(light_chart[:-1])) == len(light_chart) - 1  # a colour per player

    for path in (paths["history"], paths["record-chips"], paths["scoreboard-penalty"]):
        page.goto(path)  # remembered on every page, and on before the first paint
        assert page.evaluate("window.__atBody") == "light"
        assert background(page) == LIGHT_BG
    assert chart_colours(page) == light_chart

    key.click()  # dark, chosen
    assert background(page) == DARK_BG and key.get_attribute("data-choice") == "dark"
    key.click()  # back to following the phone
    assert page.evaluate("key => localStorage.getItem(key)", KEY) is None
    page.reload()
    assert page.evaluate("window.__atBody") == "auto" and background(page) == DARK_BG
    context.close()


def test_a_phone_that_switches_to_light_takes_a_following_page_with_it(browser, site):
    base, paths, _ = site
    context = phone_context(browser, base, "dark")
    page = context.new_page()
    page.goto(paths["history-game-penalty"])
    dark_chart = chart_colours(page)
    page.emulate_media(color_scheme="light")  # the phone switches at dusk, say
    assert background(page) == LIGHT_BG
    assert chart_colours(page) != dark_chart
    assert "(light)" in page.locator("[data-theme-toggle]").get_attribute("aria-label")
    context.close()


def test_a_right_to_left_name_keeps_its_value_after_it_in_the_chart_legend(browser, site):
    base, paths, _ = site
    context = phone_context(browser, base, "light")
    page = context.new_page()
    page.goto(paths["scoreboard-penalty"])
    key = page.locator(".chart .key").filter(has_text="دانة")
    name, value = key.locator(".name").bounding_box(), key.locator(".value").bounding_box()
    assert value["x"] >= name["x"] + name["width"] - 1
    context.close()


# Where a text's lines break: the character before each break and the one after it.
LINE_BREAKS = """(selector) => {
  const tops = [];
  const walker = document.createTreeWalker(document.querySelector(selector),
                                           NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      tops.push([node.data[i], Math.round(range.getBoundingClientRect().top)]);
    }
  }
  return tops.slice(1).flatMap(([char, top], i) =>
    top > tops[i][1] ? [tops[i][0] + char] : []);
}"""


@pytest.mark.parametrize("where, selector", [("scoreboard-penalty", "a.card.join small"),
                                             ("join", ".join-url code")])
def test_a_join_address_wraps_only_after_a_slash(browser, site, where, selector):
    """The address under a join QR code was cut wherever the line ran out ("games/20" then
    "81/join"), which a player copying it by hand misreads; it now wraps after a slash."""
    base, paths, _ = site
    context = phone_context(browser, base, "light")
    page = context.new_page()
    page.goto(paths[where] if where != "join" else "/join?to=/games/1/watch/0123456789abcdef")
    breaks = page.evaluate(LINE_BREAKS, selector)
    context.close()
    assert breaks, "the address fits one line: nothing was tried"
    assert all(pair[0] == "/" for pair in breaks), breaks


def test_each_player_card_has_its_name_inside_it_with_no_strip_above(browser, site):
    """A legend laid over a card's top border left a band of the page's background across
    the top of each player's card; the name is now the card's heading, inside its border."""
    base, paths, _ = site
    context = phone_context(browser, base, "light")
    page = context.new_page()
    page.goto(paths["record-penalty"])
    cards = page.locator("fieldset.player")
    assert cards.count() == 3
    for i in range(cards.count()):
        card = cards.nth(i).bounding_box()
        legend = cards.nth(i).locator("legend").bounding_box()
        assert legend["y"] >= card["y"] + 1, cards.nth(i).locator("legend").inner_text()
    context.close()
