"""Each variant's scoreboard and hand form in Spanish on a phone, reached by the switch at
the foot of the page (one tap, no JavaScript needed), screenshots in test-artifacts/."""

from __future__ import annotations

from tests.browser.conftest import shot
from tests.browser.test_chips_browser import start as start_chips
from tests.browser.test_coronation_browser import start as start_coronation


def start_penalty(page, taps, names=("Ann", "Ben", "Cy")):
    page.goto("/")
    taps.tap("text=New game")
    for seat, name in enumerate(names):
        page.fill(f"input[name=seat-{seat}]", name)
    taps.tap("button:has-text('Start game')")
    page.wait_for_selector("#record-hand")


def in_spanish(page, taps) -> None:
    """Tap the switch at the foot of the page: the same page comes back in Spanish."""
    before = page.url
    taps.tap("footer.language button[value=es]")
    page.wait_for_selector("html[lang=es]")
    assert page.url == before


def test_each_variant_in_spanish_on_a_phone(phone):
    page, taps = phone
    start_penalty(page, taps)
    in_spanish(page, taps)
    assert page.locator("h2").first.inner_text() == "Clasificación"
    assert page.locator("#record-hand").inner_text() == "Anotar mano 1"
    # The header's short words leave the whole name in view at 390 px ("Kings Corne…" before).
    brand = page.locator(".brand")
    assert brand.evaluate("b => b.scrollWidth <= b.clientWidth"), "the brand is cut"
    # The keep-awake switch (its words set by wakelock.js) speaks Spanish too.
    assert page.locator("[data-awake-label]").inner_text().startswith("Pantalla")
    shot(page, "es-penalty-scoreboard")
    taps.tap("#record-hand")
    assert page.locator("legend").first.inner_text() == "¿Quién salió?"
    assert page.locator("#save-hand").inner_text() == "Guardar mano 1"
    shot(page, "es-penalty-hand")
    # Once tapped, who went out folds into a chip that forms.js words in Spanish.
    taps.tap("[data-went-out] label:has-text('Ben')")
    assert page.locator("[data-out-chip]").inner_text() == "salió Ben ✎"
    # The choice is remembered: a new game, then chips and coronation, all in Spanish.
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "es"
    taps.tap("footer.language button[value=en]")
    page.wait_for_selector("html[lang=en]")
    start_chips(page, taps, ["Ann", "Ben", "Cy"], preset="House")
    in_spanish(page, taps)
    assert page.locator(".live .tapkey").first.inner_text().startswith("Pase")
    assert "Fichas al empezar" in page.locator(".chips-standings h2").inner_text()
    shot(page, "es-chips-scoreboard")
    taps.tap("#record-hand")
    assert page.locator("#save-hand").inner_text() == "Guardar mano 1"
    shot(page, "es-chips-hand")
    page.goto("/")
    taps.tap("footer.language button[value=en]")
    page.wait_for_selector("html[lang=en]")
    start_coronation(page, taps)
    page.wait_for_selector("#deals-won")
    in_spanish(page, taps)
    assert page.locator("#deals-won h2").inner_text().startswith("Repartos ganados")
    shot(page, "es-coronation-scoreboard")
    taps.tap("#record-hand")
    assert page.locator("#save-hand").inner_text() == "Guardar reparto 1"
    assert "¿Quién mató al dragón?" in page.locator(".deal-dragon legend").inner_text()
    shot(page, "es-coronation-hand")
