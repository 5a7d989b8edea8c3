"""The markup of every page: valid HTML by the Nu HTML checker (vnu.jar from npm, run with the
system Java), each player's name isolated for right-to-left scripts, and plurals right."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scorekeeper.extensions import db
from scorekeeper.web import passcode
from tests.helpers import ROOT, make_app, need, with_part
from tests.site import RTL, pages, seed

VNU = ROOT / "node_modules/vnu-jar/build/dist/vnu.jar"
# Rendered in Spanish too: a page of each kind, where its words differ most.
SPANISH = ("home", "new-game", "scoreboard-penalty", "scoreboard-chips", "scoreboard-coronation",
           "scoreboard-penalty-over", "record-penalty", "record-chips", "record-coronation",
           "edit-penalty", "history", "night", "history-game-chips", "roster", "player",
           "player-more", "player-rtl", "player-rtl-more", "settings", "backup", "import",
           "delete-game")
WITH_PART = ("player", "player-rtl", "player-all-time")


# The pages are drawn once, on the worker that runs these tests (not once on each).
pytestmark = pytest.mark.xdist_group("markup")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, str]:
    """Return the HTML of every page, as a phone gets it (CSRF on), plus the pages a refused
    form, the passcode and an expired form show: name -> HTML."""
    path = tmp_path_factory.mktemp("markup") / "site.sqlite"
    ids = seed(path)
    app = make_app(path, csrf=True)
    client = app.test_client()
    out = {}
    for name, url in pages(ids).items():
        # A player's page as a phone shows it: with its part fetched into place.
        response = with_part(client, url) if name in WITH_PART else client.get(url)
        assert response.status_code in (200, 404), (name, response.status_code)
        out[name] = response.get_data(as_text=True)
    # Refused forms keep what was typed and say why, on the page.
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', out["new-game"])[1]
    out["new-game-refused"] = client.post("/games/new", data={
        "csrf_token": token, "variant": "coronation", "seat-0": "Ann", "seat-1": "Ben",
        "seat-2": "Cy", "dealer": "0"}).get_data(as_text=True)
    form = out["record-penalty"]
    out["record-refused"] = client.post(f"/games/{ids['penalty']}/hands/new", data={
        "csrf_token": token, "number": "3", "went_out": "0", "cards-1": "2", "kings-1": "3",
        "token": re.search(r'name="token" type="hidden" value="([^"]+)"', form)[1],
    }).get_data(as_text=True)
    out["expired-form"] = client.post(f"/games/{ids['penalty']}/end").get_data(as_text=True)
    # The same kinds of page in Spanish (a phone that chose it): its longer words, its own
    # markup (a bare "%" once broke the player page), a refused form in its words.
    spanish = app.test_client()
    spanish.set_cookie("kc_lang", "es")
    for name, url in pages(ids).items():
        if name in SPANISH:
            response = with_part(spanish, url) if name in WITH_PART else spanish.get(url)
            assert response.status_code == 200, ("es", name, response.status_code)
            out[f"es-{name}"] = response.get_data(as_text=True)
            assert '<html lang="es"' in out[f"es-{name}"], name
    out["es-new-game-refused"] = spanish.post("/games/new", data={
        "csrf_token": token, "variant": "coronation", "seat-0": "Ann", "seat-1": "Ben",
        "seat-2": "Cy", "dealer": "0"}).get_data(as_text=True)
    with app.app_context():  # a table with a passcode, seen from a phone without it
        passcode.store("table-secret-1")
        db.session.commit()
    stranger = app.test_client()
    out["unlock"] = stranger.get(f"/games/{ids['penalty']}/hands/new",
                                 follow_redirects=True).get_data(as_text=True)
    out["locked-scoreboard"] = stranger.get(f"/games/{ids['penalty']}").get_data(as_text=True)
    with app.app_context():
        db.engine.dispose()
    empty = make_app(path.with_name("empty.sqlite"), csrf=True)  # before the first game
    with empty.test_client() as first:
        out["home-empty"] = first.get("/").get_data(as_text=True)
        out["watch-empty"] = first.get("/watch").get_data(as_text=True)
    with empty.app_context():
        db.engine.dispose()
    return out


def test_every_page_is_valid_html(rendered, tmp_path):
    java = shutil.which("java")
    need(java is not None, "Java (apt-get install default-jre-headless)")
    need(VNU.exists(), "vnu-jar in node_modules (npm ci)")
    for name, text in rendered.items():
        (tmp_path / f"{name}.html").write_text(text, encoding="utf-8")
    run = subprocess.run([java, "-jar", str(VNU), "--errors-only", "--format", "json",
                          str(tmp_path)], capture_output=True, text=True, timeout=300)
    messages = json.loads(run.stderr or "{}").get("messages", [])
    errors = [f"{Path(m.get('url', '')).stem}:{m.get('lastLine')}: {m['message']}"
              for m in messages if m.get("type") == "error"]
    assert len(rendered) > 30
    assert errors == [], "\n".join(errors)


def test_every_page_has_a_description_and_one_h1(rendered):
    for name, text in rendered.items():
        assert re.search(r'<meta name="description" content="[^"]{20,}">', text), name
        assert len(re.findall(r"<h1\b", text)) == 1, name


def visible_text(text: str) -> str:
    """Return a page's text as read: no tags, no scripts, no attributes."""
    text = re.sub(r"<(title|script|style)\b.*?</\1>", " ", text, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def test_a_right_to_left_name_is_isolated_wherever_it_is_shown(rendered):
    """Bare, "دانة 1" reads as "1 دانة": the number jumps to the other side of the name."""
    shown, bare = 0, []
    for name, text in rendered.items():
        # (A chart's <desc> is read out, not laid out: nothing there to isolate.)
        body = re.sub(r"<(title|desc|script|style)\b.*?</\1>", "", text, flags=re.S)
        body = re.sub(r"<[^>]*>", lambda tag: tag[0] if "bdi>" in tag[0] else "<>", body)
        for hit in re.finditer(re.escape(RTL), body):
            shown += 1
            before, after = body[:hit.start()], body[hit.end():]
            if not ((before.endswith("<bdi>") and after.startswith("</bdi>")) or (
                    before.endswith("\u2068") and after.startswith("\u2069"))):
                bare.append(f"{name}: …{before[-40:]}[{RTL}]{after[:40]}…".replace("\n", " "))
    assert shown > 20
    assert bare == [], "\n".join(bare)


NOUNS = ("hands", "games", "deals", "chips", "points", "wins", "players", "nights", "kings",
         "cards", "taps", "passes", "corners", "losses")


def test_one_of_anything_is_singular(rendered):
    for name, text in rendered.items():
        wrong = re.findall(rf"(?<![\d.,])1 ({'|'.join(NOUNS)})\b", visible_text(text))
        assert wrong == [], f"{name}: 1 {wrong}"
