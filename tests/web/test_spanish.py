"""Spanish: the language a phone asks for (or chose), the switch, every word in the
catalogue, and pages kept or drawn once never shown in the other language."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages import pofile
from babel.messages.mofile import read_mo

from scorekeeper import create_app, rules
from scorekeeper.extensions import db
from scorekeeper.web import i18n
from tests.helpers import ROOT, STATIC, WEB, hand_data, start_game, with_part

PO = WEB / "translations" / "es" / "LC_MESSAGES" / "messages.po"
ES = {"Accept-Language": "es-ES,es;q=0.9"}
P = ["Ann", "Ben", "Cy"]


def lang_of(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> set[str]:
    """Return what `pybabel extract` finds in the templates and the code (babel.cfg)."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", "extract",
                    "-F", "babel.cfg", "-o", str(pot), "."],
                   cwd=ROOT, check=True)
    with pot.open("rb") as f:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in pofile.read_po(f) if m.id}


def test_every_string_to_translate_has_its_spanish_in_the_catalogue(extracted):
    """What `pybabel extract` finds in the templates and the code is all in messages.po,
    translated, none fuzzy: a page in Spanish has no English left in a corner."""
    wanted = extracted
    with PO.open("rb") as f:
        catalogue = pofile.read_po(f, locale="es")
    have = {}
    for m in catalogue:
        if m.id:
            key = m.id if isinstance(m.id, str) else m.id[0]
            strings = [m.string] if isinstance(m.string, str) else list(m.string)
            have[key] = (strings, m.fuzzy)
    assert len(wanted) > 100
    missing = sorted(w for w in wanted if w not in have)
    assert not missing, f"not in messages.po (run pybabel update, see docs/languages.md): {missing}"
    empty = sorted(w for w in wanted if not all(have[w][0]))
    assert not empty, f"no Spanish yet: {empty}"
    fuzzy = sorted(w for w in wanted if have[w][1])
    assert not fuzzy, f"fuzzy (check and clear the flag): {fuzzy}"


def test_a_catalogue_missing_or_older_than_its_po_file_is_compiled_on_start(tmp_path):
    folder = tmp_path / "translations"
    shutil.copytree(PO.parent.parent.parent, folder, ignore=shutil.ignore_patterns("*.mo"))
    mo = folder / "es" / "LC_MESSAGES" / "messages.mo"
    assert i18n.compiled(folder, tmp_path / "instance") == [str(folder)]
    assert mo.stat().st_mtime >= PO.stat().st_mtime
    with mo.open("rb") as compiled:
        assert read_mo(compiled).get("New game").string == "Nueva partida"
    os.utime(mo, (0, 0))  # last week's Spanish
    i18n.compiled(folder, tmp_path / "instance")
    assert mo.stat().st_mtime > 0


def test_a_catalogue_that_cannot_be_written_beside_its_po_file_goes_to_the_instance(tmp_path):
    folder = tmp_path / "translations"
    shutil.copytree(PO.parent.parent.parent, folder, ignore=shutil.ignore_patterns("*.mo"))
    # A file that cannot be written (a dangling link: refused even to root).
    (folder / "es" / "LC_MESSAGES" / "messages.mo").symlink_to(tmp_path / "gone" / "mo")
    instance = tmp_path / "instance"
    assert i18n.compiled(folder, instance) == [str(instance / "translations"), str(folder)]
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://",
                      "BABEL_TRANSLATION_DIRECTORIES": ";".join(
                          i18n.compiled(folder, instance))})
    with app.app_context():
        db.create_all()
    home = app.test_client().get("/", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Nueva partida" in home


@pytest.mark.parametrize("header", [None, "en", "en-GB,en;q=0.9", "de-DE", "fr, en;q=0.5"])
def test_without_spanish_asked_for_pages_are_english(client, header):
    start_game(client, P)
    headers = {"Accept-Language": header} if header else {}
    for url in ["/", "/games/1", "/settings", "/history/"]:
        html = client.get(url, headers=headers).get_data(as_text=True)
        assert lang_of(html) == "en", url
        assert ">History<" in html and ">Noches<" not in html, url
    assert "Español" in client.get("/", headers=headers).get_data(as_text=True)


@pytest.mark.parametrize("header", ["es", "es-MX", "es-419,es;q=0.9,en;q=0.8", "fr, es;q=0.5"])
def test_a_phone_that_asks_for_spanish_gets_spanish(client, header):
    start_game(client, P)
    html = client.get("/games/1", headers={"Accept-Language": header}).get_data(as_text=True)
    assert lang_of(html) == "es"
    # The header's words are short ones (Noches, Rivales), so the brand fits at 390 px.
    assert ">Noches<" in html and ">Rivales<" in html
    assert "Clasificación" in html and "Anotar mano 1" in html
    assert ">History<" not in html and "Standings" not in html


def test_the_switch_is_remembered_by_the_phone_and_needs_no_passcode(app):
    phone = app.test_client()
    start_game(phone, P)
    assert phone.post("/settings/passcode", data={"passcode": "four 4 you"}).status_code == 302
    other = app.test_client()  # a phone without the passcode, asking for English
    response = other.post("/language", data={"lang": "es", "next": "/games/1"})
    assert response.status_code == 303 and response.headers["Location"] == "/games/1"
    assert "kc_lang=es" in response.headers["Set-Cookie"]
    assert "Max-Age=" in response.headers["Set-Cookie"]
    html = other.get("/games/1", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert lang_of(html) == "es" and "Clasificación" in html
    assert 'value="en" lang="en"' in html  # the way back, one tap
    other.post("/language", data={"lang": "en", "next": "/"})
    html = other.get("/games/1", headers=ES).get_data(as_text=True)
    assert lang_of(html) == "en" and "Standings" in html


def test_the_switch_refuses_an_unknown_language_and_another_site(client):
    response = client.post("/language", data={"lang": "xx", "next": "/"})
    assert response.status_code == 400 and "Set-Cookie" not in response.headers
    assert "English" in response.get_data(as_text=True)
    response = client.post("/language", data={"lang": "es", "next": "https://evil.example/"})
    assert response.headers["Location"] == "/"


def test_a_board_drawn_once_is_drawn_again_for_the_other_language(client):
    """The board and chart are kept per state of the game, and history per change stamp:
    a Spanish phone after an English one still gets Spanish, and back."""
    start_game(client, P)
    client.post("/games/1/hands/new", data=hand_data(P, "Ben", {"Ann": 3, "Cy": 2}))
    for _ in range(2):
        en = client.get("/games/1").get_data(as_text=True)
        es = client.get("/games/1", headers=ES).get_data(as_text=True)
        assert "Hand by hand" in en and "Mano a mano" not in en
        assert "Mano a mano" in es and "Hand by hand" not in es
        en = client.get("/history/", headers={"Accept-Language": "en"}).get_data(as_text=True)
        es = client.get("/history/", headers=ES).get_data(as_text=True)
        assert lang_of(en) == "en" and lang_of(es) == "es"
        assert es != en


def test_pages_say_they_vary_by_language(client):
    response = client.get("/")
    assert "Accept-Language" in response.headers["Vary"]
    assert "Cookie" in response.headers["Vary"]


def test_days_follow_the_language(client):
    start_game(client, P)
    en = client.get("/games/1").get_data(as_text=True)
    es = client.get("/games/1", headers=ES).get_data(as_text=True)
    day_en = re.search(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d [A-Z][a-z]{2} \d{4}", en)
    assert day_en, "an English day, e.g. Sat 21 Nov 2026"
    assert re.search(r"(lun|mar|mié|jue|vie|sáb|dom) \d{1,2} [a-z]{3,4} \d{4}", es), es[:2000]
    assert day_en.group(0) not in es


def test_every_word_the_rules_define_is_extracted_where_it_is_written(extracted):
    """The rules (standard library only) say their labels in English, each marked with N_
    where it is written, so `pybabel extract` finds it there: a new setting or variant
    cannot stay English in Spanish, and no list elsewhere copies them."""
    said = {"absolute", "incredible", "normal", "draw"}  # coronation's classes of a deal
    for variant in rules.VARIANTS.values():
        said |= {variant.label, variant.blurb, *variant.presets}
        for setting in variant.settings:
            said |= {setting.label, *setting.choices} | ({setting.help} - {""})
    assert len(said) > 30
    assert said - extracted == set()


def test_each_variant_named_in_a_refusal_is_marked_for_the_catalogue():
    """The rules put a variant's label, in lower case, into a refusal ("a penalty points
    game records no passes"); its home marks those words, so they are said in Spanish."""
    from scorekeeper import variants

    for home in variants.homes():
        assert home.in_a_sentence == home.rules.label.lower()


def test_the_switch_comes_back_to_the_page_it_was_tapped_on_with_its_query(client):
    page = "http://localhost/history/?page=2"
    response = client.post("/language", data={"lang": "es", "next": "/history/"},
                           headers={"Referer": page})
    assert response.headers["Location"] == "/history/?page=2"
    response = client.post("/language", data={"lang": "es", "next": "/history/"},
                           headers={"Referer": "http://evil.example/x"})
    assert response.headers["Location"] == "/history/"


def visible_text(html: str) -> str:
    """Return what a page shows in its main part: no tags, scripts, styles or charts."""
    body = re.sub(r"(?s)<(script|style|svg)\b.*?</\1>", " ", html.split("<main", 1)[-1])
    return " ".join(re.sub(r"<[^>]+>", " ", body).split())


# English a page showed before it was translated; none of it may come back in Spanish.
ENGLISH = ["New game", "Players, clockwise", "game night", "Hand by hand", "to go",
           "Stacks", "chips in play", "in the pot", "Undo", "Best night", "Head to head",
           "win rate", "Rename", "Merge", "Back up", "Restore", "Import", "No connection",
           "Try again", "certificate", "Delete this game", "Keep it", " each", " set ",
           "takes the", "went out", "Move to another night", "New name"]


def test_the_pages_around_a_game_say_nothing_in_english(client):
    """New game, history, a night and a game, players, a chip pot with taps, backup, import,
    trust, offline: in Spanish, with the game's own words from the glossary."""
    start_game(client, P)
    client.post("/games/1/hands/new", data=hand_data(P, "Ben", {"Ann": 3, "Cy": 2}))
    start_game(client, P, variant="chips", preset="house")
    client.post("/games/2/chips/tap", data={"number": "1", "player": "0", "kind": "pass",
                                            "token": "tap-1"})
    client.post("/games/2/hands/new", data=hand_data(P, "Ben", {"Ann": 3, "Cy": 2}))
    client.post("/games/2/chips/tap", data={"number": "2", "player": "0", "kind": "pass",
                                            "token": "tap-2"})
    client.set_cookie("kc_lang", "es")
    said = {}
    for url in ["/games/new", "/history/", "/history/nights/1", "/history/games/1",
                "/history/games/2", "/games/2", "/games/2/hands/new", "/players",
                "/players/1", "/players/1/more", "/players/1/merge", "/backup", "/import", "/trust",
                "/offline", "/games/1/delete"]:
        response = client.get(url)
        assert response.status_code == 200, url
        said[url] = text = visible_text(response.get_data(as_text=True))
        english = [words for words in ENGLISH
                   if re.search(rf"(?<![\w]){re.escape(words)}(?![\w])", text)]
        assert not english, f"{url} still says {english}: {text[:600]}"
    assert "Jugadores, en el sentido de las agujas del reloj" in said["/games/new"]
    assert "1 noche de juego" in said["/history/"]
    assert "hasta 25 · rey 10, carta 1" in said["/history/nights/1"]
    assert "faltan 22" in said["/history/games/1"]
    assert "Reglas de la casa · 50 cada uno" in said["/games/2"]
    assert "Pase" in said["/games/2"] and "en el pozo" in said["/games/2"]
    assert "se lleva el pozo de" in said["/games/2"]
    assert "fichas en el pozo hasta ahora" in said["/games/2/hands/new"]
    assert "Gráficos, rivales y cara a cara" in said["/players/1"]
    assert "Mejor noche" in said["/players/1/more"]
    assert "<h2>Cara a cara</h2>" not in client.get("/players/1/more").get_data(as_text=True)
    assert "Copia de seguridad y restaurar" in said["/backup"]
    assert "Sin conexión" in said["/offline"]


def test_a_message_after_a_change_is_in_the_phones_language(client):
    start_game(client, P)
    client.set_cookie("kc_lang", "es")
    html = client.post("/games/1/hands/new", data=hand_data(P, "Ben", {"Ann": 3, "Cy": 2}),
                       follow_redirects=True).get_data(as_text=True)
    assert "Guardado: Mano 1" in html and "Hand 1 saved" not in html
    html = client.post("/games/1/hands/new", data=hand_data(P, None, {"Ann": 3}, number=2)
                       ).get_data(as_text=True)
    assert "¿Cuántas cartas le quedan a Ben?" in html
    html = client.get("/games/99").get_data(as_text=True)
    assert "No encontrado" in html and "Not found" not in html


# -- the refusals of the rules and storage, said where they are shown -----------------------

def test_a_refused_hand_says_why_in_spanish_and_the_same_hand_in_english_is_unchanged(client):
    start_game(client, P)
    bad = hand_data(P, "Ben", {"Ann": (2, 0), "Cy": (1, 3)})
    english = client.post("/games/1/hands/new", data=bad).get_data(as_text=True)
    assert "Cy holds 1 card, so cannot hold 3 kings" in english
    client.set_cookie("kc_lang", "es")
    html = client.post("/games/1/hands/new", data=bad).get_data(as_text=True)
    assert "A Cy le queda 1 carta, así que no puede tener 3 reyes" in html
    assert "holds" not in html and "cannot" not in html
    seen = client.post("/games/1/hands/new", data=hand_data(P, "Ben", {"Ann": (5, 3), "Cy": (5, 2)})
                       ).get_data(as_text=True)
    assert "una baraja tiene solo 4 reyes, y en las manos hay 5" in seen.lower()


def test_a_move_from_another_phone_is_told_in_spanish(client):
    start_game(client, P)
    client.post("/games/1/hands/new", data=hand_data(P, "Ann", {"Ben": 3, "Cy": 2},
                                                     token="save-1"))
    client.post("/games/1/hands/new", data=hand_data(P, "Ben", {"Ann": 3, "Cy": 2}, number=2))
    client.set_cookie("kc_lang", "es")
    html = client.post("/games/1/hands/1/undo", data={"token": "save-1", "confirmed": "1"},
                       follow_redirects=True).get_data(as_text=True)
    assert ("Mano 1 ya no es la última: desde entonces se anotó mano 2 (¿en otro teléfono?), "
            "así que no se ha deshecho nada.") in html
    assert "no longer the last" not in html


def test_an_import_refused_names_its_place_and_says_why_in_spanish(client):
    log = {"format": "kings-corners-game/1", "variant": "penalty", "players": P,
           "rounds": [{"went_out": "Ann", "hands": {"Ben": {"cards": 3}, "Cy": {"cards": 2}}},
                      {"went_out": "Ann", "hands": {"Ben": {"cards": 1, "kings": 2},
                                                    "Cy": {"cards": 2}}}]}
    client.set_cookie("kc_lang", "es")
    html = client.post("/import", data={"text": json.dumps(log)}).get_data(as_text=True)
    assert ("No se ha importado nada. Ronda 2, hands.Ben.kings: a Ben le queda 1 carta, así "
            "que no puede tener 2 reyes") in html


def test_a_passcode_too_short_is_refused_in_spanish(client):
    client.set_cookie("kc_lang", "es")
    page = client.get("/settings").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    data = {"passcode": "12", **({"csrf_token": csrf.group(1)} if csrf else {})}
    html = client.post("/settings/passcode", data=data).get_data(as_text=True)
    assert "Una clave necesita al menos 4 caracteres." in html


REFUSALS = ("RuleError", "Conflict", "Refused", "Taken", "Changed")


def test_every_refusal_is_a_sentence_the_catalogue_can_hold():
    """A refusal built with an f-string, % or str(error) is English on a Spanish page: the
    catalogue can only hold a literal sentence with %(name)s slots (or a Word naming one)."""
    import ast

    def named(call: ast.Call) -> str:
        f = call.func
        return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""

    def literal(node) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.IfExp):
            return literal(node.body) and literal(node.orelse)
        if isinstance(node, ast.Call) and named(node) == "Word":
            return all(isinstance(a, ast.Constant) for a in node.args)
        return isinstance(node, (ast.Name, ast.Attribute))  # a Word kept under a name

    def calls(tree):
        """Yield each refusal built: RuleError(...) and its kin, and the sentence a
        refusal's own class gives super().__init__."""
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and named(node) in REFUSALS:
                yield node
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(b, (ast.Name, ast.Attribute)) and
                    (b.id if isinstance(b, ast.Name) else b.attr) in REFUSALS
                    for b in node.bases):
                for inner in ast.walk(node):
                    if (isinstance(inner, ast.Call) and named(inner) == "__init__"
                            and isinstance(inner.func.value, ast.Call)
                            and named(inner.func.value) == "super"):
                        yield inner

    checked, wrong = 0, []
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        for node in calls(ast.parse(path.read_text(), str(path))):
            checked += 1
            if not node.args or not literal(node.args[0]):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert checked > 80
    assert not wrong, f"refusals the catalogue cannot hold: {wrong}"


def test_a_chart_with_no_description_of_its_own_describes_itself_in_the_language(app):
    """A chart says its last values and target to a screen reader; in Spanish, in Spanish."""
    from scorekeeper.reports.charts import line_chart

    def drawn(series, headers=None):
        with app.test_request_context(headers=headers or {}):
            return str(line_chart(series, 25))

    es = drawn({"Ann": [0, 4], "Ben": [0, 2.5]}, ES)
    assert "Últimos valores: Ann 4, Ben 2,5. Línea de meta en 25." in es  # a decimal comma
    assert ">Gráfico</title>" in es and "Last values" not in es and "Target" not in es
    assert ">meta 25</text>" in es and ">2,5</tspan>" in es
    assert "Aún no hay valores. Línea de meta en 25." in drawn({"Ann": [None]}, ES)
    en = drawn({"Ann": [0, 4], "Ben": [0, 2.5]})
    assert "Last values: Ann 4, Ben 2.5. Target line at 25." in en and ">Chart</title>" in en
    assert ">target 25</text>" in en and ">2.5</tspan>" in en
    assert "No values yet." in drawn({"Ann": [None]})


def test_the_manifest_is_in_the_phones_language(client):
    """What a phone's "Add to Home Screen" shows: its name and description, in its language
    (asked for, or chosen with the switch); the name under the icon stays Kings Corners."""
    en = client.get("/manifest.webmanifest", headers={"Accept-Language": "en-GB"})
    es = client.get("/manifest.webmanifest", headers=ES)
    for response in (en, es):
        assert response.headers["Cache-Control"] == "no-cache"
        assert {"Accept-Language", "Cookie"} <= set(response.vary)
        assert response.get_json()["short_name"] == "Kings Corners"
    en, es = en.get_json(), es.get_json()
    assert en["lang"] == "en" and en["name"] == "Kings Corners Scorekeeper"
    assert en["description"].startswith("The score of tonight's Kings Corners game")
    assert es["lang"] == "es" and es["name"] == "Marcador de Kings Corners"
    assert es["description"].startswith("El marcador de la partida de Kings Corners")
    assert "puntos de castigo, pozo de fichas o coronación" in es["description"]
    client.set_cookie("kc_lang", "es")
    chosen = client.get("/manifest.webmanifest", headers={"Accept-Language": "en"}).get_json()
    assert chosen == es


def test_every_spanish_string_formats_as_its_english_does():
    """A template formats its words even with nothing to put in (Jinja's gettext does
    `words % {}`), so a bare "%" in the Spanish broke the player page (500, "incomplete
    format"). Wherever the English formats, the Spanish must too, with the same names."""
    with PO.open("rb") as f:
        catalogue = pofile.read_po(f, locale="es")
    broken = []
    for m in catalogue:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        names = {"num": 2} | {n: "x" for n in re.findall(r"%\((\w+)\)", " ".join(ids))}
        try:
            for english in ids:
                english % names
        except (ValueError, TypeError, KeyError):
            continue  # said by the code, never formatted without its values
        for spanish in strings:
            try:
                spanish % names
            except (ValueError, TypeError, KeyError) as error:
                broken.append(f"{ids[0]!r} -> {spanish!r}: {error}")
    assert broken == []


def test_a_players_page_writes_numbers_and_months_in_spanish(client):
    """Two game nights a month apart: the win-rate chart's dates and a player's average
    penalty per hand follow the language ("14 nov", "2,5"); English keeps "14 Nov", "2.5"."""
    for day, went_out in (("2026-10-03", "Ben"), ("2026-11-14", "Ann")):
        log = {"format": "kings-corners-game/1", "variant": "penalty", "players": P,
               "played_on": day, "ended": True,
               "rounds": [{"went_out": went_out,
                           "hands": {name: {"cards": 5} for name in P if name != went_out}}]}
        assert client.post("/import", data={"text": json.dumps(log)}).status_code == 302
    english = visible_text(client.get("/players/1").get_data(as_text=True))
    assert "Penalty per hand 2.5" in english
    chart = with_part(client, "/players/1").get_data(as_text=True)
    assert ">3 Oct<" in chart and ">14 Nov<" in chart
    client.set_cookie("kc_lang", "es")
    html = with_part(client, "/players/1").get_data(as_text=True)
    assert "Castigo por mano 2,5" in visible_text(html)
    assert ">3 oct<" in html and ">14 nov<" in html and "Nov<" not in html


def test_a_refused_setting_names_it_in_spanish(client):
    """A rule's label and its refusal, both in the page's language."""
    client.set_cookie("kc_lang", "es")
    html = client.post("/games/new", data={
        "variant": "penalty", "dealer": "0", "seat-0": "Ann", "seat-1": "Ben",
        "rules-penalty-target-other": "0"}).get_data(as_text=True)
    assert "Jugar hasta: debe ser al menos 1, no 0" in html
    assert "Play to" not in html


def test_every_word_a_script_asks_for_is_in_the_one_list_of_script_words(app):
    """The scripts ask for their words by key, with no English copy at the call: each key
    must be in js_words() (scorekeeper/web/i18n.py), and each word there must be asked for."""
    scripts = [p for p in STATIC.rglob("*.js") if "vendor" not in p.parts]
    asked = {key for path in scripts
             for key in re.findall(r'\bsay\("(\w+)"', path.read_text(encoding="utf-8"))}
    with app.test_request_context("/", headers={"Accept-Language": "es"}):
        words = i18n.js_words()
    assert len(asked) > 25
    assert asked - set(words) == set(), "asked for, but not in js_words()"
    assert set(words) - asked == set(), "in js_words(), but no script asks for it"


def test_every_word_the_catalogue_holds_is_found_where_it_is_said(tmp_path):
    """docs/languages.md updates the catalogue from `pybabel extract`, dropping what it does
    not find: a word looked up at run time without a mark (N_), or marked inside an
    f-string (which pybabel does not read), was dropped that way and shown in English
    again ("an upset", "leads", a chip pot's lines)."""
    pot = tmp_path / "messages.pot"
    subprocess.run([str(Path(sys.executable).parent / "pybabel"), "extract", "-F", "babel.cfg",
                    "--no-location", "-o", str(pot), "."], cwd=ROOT, check=True,
                   capture_output=True, timeout=120)

    def words(path) -> set:
        with open(path, "rb") as file:
            return {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                    for m in pofile.read_po(file) if m.id}

    assert words(PO) - words(pot) == set()
