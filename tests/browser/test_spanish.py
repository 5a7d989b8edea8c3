"""Each variant's scoreboard and hand form in Spanish on a phone, reached by the switch at
the foot of the page (one tap, no JavaScript needed), screenshots in test-artifacts/."""

from __future__ import annotations

from tests.browser.helpers import PHONE, controlled, shot, start_chips, start_coronation


def start_penalty(page, taps, names=("Ann", "Ben", "Cy")):
    page.goto("/")
    taps.tap("text=New game")
    for seat, name in enumerate(names):
        page.fill(f"input[name=seat-{seat}]", name)
    taps.tap("button:has-text('Start game')")
    page.wait_for_selector("#record-hand")


# Legends laid astride their card's top border that wrap onto a second line: the first line
# above the card, the second inside it (Spanish words are longer).
ASTRIDE = """() => [...document.querySelectorAll("fieldset > legend")].filter(legend => {
  const box = legend.getBoundingClientRect(), style = getComputedStyle(legend);
  const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.3;
  const inside = box.top >= legend.parentElement.getBoundingClientRect().top + 1;
  return box.height > 0 && !inside && box.height > line * 1.5;
}).map(legend => legend.textContent.trim())"""


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
    assert page.evaluate(ASTRIDE) == []
    shot(page, "es-penalty-hand")
    # Once tapped, who went out folds into a chip that forms.js words in Spanish.
    taps.tap("[data-went-out] label:has-text('Ben')")
    assert page.locator("[data-out-chip]").inner_text() == "Salió Ben ✎"
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
    assert page.evaluate(ASTRIDE) == []
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
    assert page.evaluate(ASTRIDE) == []
    shot(page, "es-coronation-hand")


def phone_in(browser, base: str, locale: str, scheme: str = "dark"):
    """Return a phone's browser context set to a language (and light or dark)."""
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, base_url=base,
                               locale=locale, color_scheme=scheme)


def test_the_theme_key_says_what_it_does_in_the_pages_language(browser, live_server):
    """The header's ◐ key is named for a screen reader (and a long press) in Spanish on a
    Spanish page, at each of its three taps; the English page says what it always said."""
    said = {
        "es-ES": ["Tema: como el teléfono (oscuro). Toca para pasar a claro.",
                  "Tema: claro. Toca para pasar a oscuro.",
                  "Tema: oscuro. Toca para seguir el ajuste del teléfono."],
        "en-US": ["Theme: as the phone is set (dark). Tap for light.",
                  "Theme: light. Tap for dark.",
                  "Theme: dark. Tap for the phone's setting."],
    }
    for locale, labels in said.items():
        context = phone_in(browser, live_server, locale)
        page = context.new_page()
        page.goto("/")
        assert page.locator("html").get_attribute("lang") == locale[:2]
        key = page.locator("[data-theme-toggle]")
        for label in labels:
            assert key.get_attribute("aria-label") == label
            assert key.get_attribute("title") == label
            key.click()
        assert key.get_attribute("aria-label") == labels[0]  # back to following the phone
        context.close()


def test_with_nothing_kept_the_worker_says_no_connection_in_the_phones_language(
        browser, live_server):
    """A phone that lost what the worker kept (storage cleared), with no connection: a line
    of plain text, in the phone's language first, then the other the app speaks."""
    for locale, said in (("es-MX", ["Sin conexión.", "No connection."]),
                         ("en-GB", ["No connection.", "Sin conexión."])):
        context = phone_in(browser, live_server, locale)
        page = context.new_page()
        page.goto("/")
        controlled(page)
        page.evaluate("""caches.keys().then(names => Promise.all(names.map(
          name => caches.open(name).then(cache => cache.delete("/offline")))))""")
        context.set_offline(True)
        response = page.goto("/players")  # never opened on this phone
        assert response.status == 503
        assert response.headers["content-language"] == f"{locale[:2]}, " + (
            "en" if locale.startswith("es") else "es")
        assert page.locator("body").inner_text().split("\n") == said
        context.close()
