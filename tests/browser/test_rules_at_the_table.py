"""The rules at the table on a phone at 390x844, light and dark, English and Spanish: this
game's rules open with one tap, a tapped score says why, how to play draws its layout, and
axe finds nothing with the sheet and an explanation open."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.extensions import db
from tests.browser.helpers import ARTIFACTS, PHONE, controlled, https_phone
from tests.helpers import ROOT, make_app, need, serve, stop_serving
from tests.site import pages, seed

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_RUN = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
  .concat((await axe.run(document, {runOnly: ["target-size"], resultTypes: ["violations"]}))
  .violations).map(v => `${v.id}: ${v.help}: ` + v.nodes.slice(0, 3).map(
    n => n.target.join(" ")).join(", "))"""
# Where an open explanation or sheet sits: inside the phone's width, and what covers its
# middle is itself (nothing of the page drawn over it).
PLACED = """(selector) => {
  const el = document.querySelector(selector), box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {left: box.left, right: box.right, height: box.height, onTop: el.contains(hit),
          width: document.documentElement.scrollWidth};
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Serve games of every variant, in play and over; return (base URL, pages)."""
    path = tmp_path_factory.mktemp("rules") / "site.sqlite"
    ids = seed(path)
    app = make_app(path, csrf=True)
    server, base = serve(app)
    yield base, pages(ids)
    stop_serving(server)
    with app.app_context():
        db.engine.dispose()


def phone(browser, base: str, scheme: str, lang: str):
    """Return a phone's context, light or dark, in English or Spanish, with axe loaded."""
    need(AXE.exists(), "axe-core in node_modules (npm ci)")
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True,
                                  has_touch=True, base_url=base, color_scheme=scheme,
                                  locale="es-ES" if lang == "es" else "en-US")
    context.add_init_script(path=str(AXE))
    return context


WORDS = {"en": {"sheet": "This game’s rules", "how": "How to play", "layout": "The layout",
                "penalty": "Play to 25: the game ends after the hand in which a total reaches 25",
                "chips": "Everyone starts with 50 chips.",
                "coronation": "The first to win 3 deals wins the match.",
                "why": {"penalty": "Ben: 3 cards: 3 × 1 = 3",
                        "chips": "Ann paid 1 ante and 2 cards: 3 into the pot",
                        "coronation": "Ben: corners crowned: 2; the dragon: slain: 2 points"}},
         "es": {"sheet": "Reglas de esta partida", "how": "Cómo jugar", "layout": "La mesa",
                "penalty": "Jugar hasta 25: la partida termina tras la mano en que un total "
                           "llega a 25",
                "chips": "Todos empiezan con 50 fichas.",
                "coronation": "El primero en ganar 3 repartos gana la partida.",
                "why": {"penalty": "Ben: 3 cartas: 3 × 1 = 3",
                        "chips": "Ann pagó 1 entrada y 2 cartas: 3 al pozo",
                        "coronation": "Ben: esquinas coronadas: 2; el dragón: muerto: 2 puntos"}}}


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_sheet_and_a_tapped_score_on_every_scoreboard(browser, site, scheme, lang):
    base, paths = site
    words = WORDS[lang]
    context = phone(browser, base, scheme, lang)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        for variant in ("penalty", "chips", "coronation"):
            page.goto(paths[f"scoreboard-{variant}"])
            sheet = page.locator("details.rules-sheet")
            assert not sheet.locator(".rules-lines").is_visible()
            page.locator("details.rules-sheet > summary").filter(has_text=words["sheet"]).tap()
            assert words[variant] in sheet.locator(".rules-lines").inner_text()
            # The first hand's cell (or row) of a player: tapped, it says why, fetched on the
            # tap; tapped again, closed.
            who = "Ann" if variant == "chips" else "Ben"
            cell = page.locator(f'[data-why$="/hands/1/why"] details.why[data-name="{who}"]')
            cell.locator("summary").tap()
            said = cell.locator(".why-text")
            expect(said).to_contain_text(words["why"][variant])
            assert said.is_visible() and said.inner_text().startswith(words["why"][variant])
            placed = page.evaluate(PLACED, ".why[open] .why-text")
            assert placed["left"] >= 0 and placed["right"] <= PHONE["width"], placed
            assert placed["onTop"] and placed["width"] <= PHONE["width"], placed
            assert page.evaluate(AXE_RUN) == [], variant
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"rules-{variant}-{lang}-{scheme}.png"),
                            full_page=True)
            cell.locator("summary").tap()
            assert not said.is_visible()
            # How to play, one tap from the scoreboard.
            assert page.locator("a#how-to-play").inner_text() == words["how"]
        page.locator("a#how-to-play").tap()
        page.wait_for_selector("figure.layout svg")
        assert page.locator("svg title").text_content().startswith(words["layout"])
        box = page.locator("figure.layout svg").bounding_box()
        assert box["width"] >= 280 and box["height"] >= 280  # the layout, drawn big
        assert page.evaluate(AXE_RUN) == []
        page.screenshot(path=str(ARTIFACTS / f"rules-how-to-play-{lang}-{scheme}.png"),
                        full_page=True)
    finally:
        context.close()


def test_a_score_tapped_with_no_connection_keeps_its_link_and_says_so(browser, site):
    """The explanation is fetched on the tap: with no connection the cell keeps the link to
    its hand's why page and says it could not be fetched; once back, a tap fetches it."""
    base, paths = site
    context = phone(browser, base, "light", "en")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(paths["scoreboard-penalty"])
        cell = page.locator('[data-why$="/hands/1/why"] details.why[data-name="Ben"]')
        said = cell.locator(".why-text")
        context.set_offline(True)
        cell.locator("summary").tap()
        expect(said.locator(".why-note")).to_have_text(
            "The explanation could not be fetched (no connection?).")
        link = said.locator("a")
        assert link.inner_text() == "Why these points" and link.is_visible()
        assert link.get_attribute("href").endswith("/hands/1/why")
        page.screenshot(path=str(ARTIFACTS / "rules-why-offline.png"))
        context.set_offline(False)
        cell.locator("summary").tap()
        cell.locator("summary").tap()
        expect(said).to_have_text("Ben: 3 cards: 3 × 1 = 3")
    finally:
        context.close()


def test_without_scripts_a_tapped_score_leads_to_its_hands_why_page(browser, site):
    base, paths = site
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  base_url=base, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(paths["scoreboard-penalty"])
        cell = page.locator('[data-why$="/hands/1/why"] details.why[data-name="Ben"]')
        cell.locator("summary").tap()
        cell.locator(".why-text a").tap()
        page.wait_for_url("**/hands/1/why")
        assert page.locator("h1").inner_text() == "Hand 1: why these points"
        assert "Ben: 3 cards: 3 × 1 = 3" in page.locator(".why-lines").inner_text()
        page.screenshot(path=str(ARTIFACTS / "rules-why-page.png"), full_page=True)
        page.locator("a#back").tap()
        page.wait_for_url(f"**{paths['scoreboard-penalty']}")
    finally:
        context.close()


def test_how_to_play_opens_offline_after_one_visit_over_https(browser, tmp_path):
    """Over HTTPS (`make run HTTPS=1`), a phone that opened how to play once opens it again
    with no connection: the service worker keeps it, its stylesheet and its drawing."""
    app = make_app(tmp_path / "tls.sqlite", csrf=True)
    with https_phone(browser, app, tmp_path / "tls") as context:
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto("/games/new")
        controlled(page)
        page.locator("a#how-to-play").tap()
        page.wait_for_selector("figure.layout svg")
        page.goto("/")
        context.set_offline(True)
        page.goto("/how-to-play")
        assert page.locator("h1").inner_text() == "How to play Kings Corners"
        assert page.locator("figure.layout svg").is_visible()
        assert "Deal seven cards" in page.locator("main").inner_text()
        # Drawn in the page's colours: its own stylesheet came from the phone.
        assert page.evaluate("getComputedStyle(document.querySelector('.layout rect'))"
                             ".strokeWidth") == "1.5px"
        page.screenshot(path=str(ARTIFACTS / "rules-how-to-play-offline.png"))
