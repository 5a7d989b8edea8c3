"""The server's side of pages on a weak signal and hands that wait: the service worker's
script and what it keeps, the offline page, and a hand sent from a phone's queue."""

from __future__ import annotations

import json
import re
import shutil

from scorekeeper.extensions import db
from tests.helpers import STATIC, hand_data, make_app, start_game


def config(client) -> dict:
    """Return what the worker is told: its version, what it keeps, the offline page."""
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"  # checked on every visit
    first = response.get_data(as_text=True).split("\n", 1)[0]
    return json.loads(re.fullmatch(r"var CONFIG = (.*);", first).group(1))


def test_the_worker_keeps_the_apps_files_and_is_named_by_them(client):
    kept = config(client)
    assert re.fullmatch(r"[0-9a-f]{12}", kept["version"])
    assert kept["offline"] == "/offline" and "/offline" in kept["keep"]
    assert any(re.fullmatch(r"/static/app\.css\?v=[0-9a-f]{10}", u) for u in kept["keep"])
    assert any(u.startswith("/static/offline.js?v=") for u in kept["keep"])
    # Not the worker itself, nor the videos a cache would answer badly (byte ranges).
    assert not any(re.search(r"(/sw\.js|\.mp4|\.webm)\?", u) for u in kept["keep"])
    assert "/manifest.webmanifest" in kept["keep"]
    # Every file it keeps is there to keep.
    for url in kept["keep"]:
        assert client.get(url).status_code == 200, url
    # The policy lets it run (worker-src), and it answers from the root: every page.
    assert "worker-src 'self'" in client.get("/sw.js").headers["Content-Security-Policy"]


def test_the_worker_can_say_no_connection_in_each_language(client):
    """With neither the page nor the offline page kept, the worker says it in plain text:
    the same worker for every phone, with the words of each language the app speaks."""
    client.set_cookie("kc_lang", "es")  # first fetched by a phone that chose Spanish
    words = config(client)["words"]
    assert words == {"en": "No connection.", "es": "Sin conexión."}
    client.delete_cookie("kc_lang")
    assert config(client)["words"] == words


def test_a_changed_file_is_a_new_version_of_the_worker(tmp_path):
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    versions = []
    for change in ("", "\n/* changed */\n"):
        with open(static / "app.js", "a") as script:
            script.write(change)
        app = make_app(tmp_path / f"v{len(versions)}.sqlite")
        app.static_folder = str(static)
        versions.append(config(app.test_client()))
        with app.app_context():
            db.engine.dispose()
    assert versions[0]["version"] != versions[1]["version"]
    js = [[u for u in v["keep"] if u.startswith("/static/app.js")] for v in versions]
    assert js[0] != js[1]


def test_the_offline_page_says_there_is_no_connection(client):
    page = client.get("/offline").get_data(as_text=True)
    assert "<h1>No connection</h1>" in page and "Try again" in page


def test_a_hand_from_the_phones_queue_is_told_where_to_go_and_recorded_once(client):
    game_id = start_game(client)
    data = hand_data(["Ann", "Ben", "Cy"], went_out="Ben", hands={"Ann": 3, "Cy": 5})
    queued = {"X-Hand-Queue": "1", "X-Live-Panel": "1"}
    url = f"/games/{game_id}/hands/new"
    first = client.post(url, data=data, headers=queued)
    assert first.status_code == 204 and first.data == b""
    assert first.headers["X-Location"] == f"/games/{game_id}"
    assert "Location" not in first.headers
    # Sent again (its answer was lost on the way): the same answer, nothing recorded twice.
    again = client.post(url, data=data, headers=queued)
    assert again.status_code == 204 and again.headers["X-Location"] == f"/games/{game_id}"
    board = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert board.count("<tr") - 1 == 1  # one hand, under the table's heading row
    assert "saved already" in board  # the message waited for the page, as after a post
    # A refusal is the form's page, as for a plain post.
    bad = client.post(url, data={**data, "token": "other", "cards-0": "abc"}, headers=queued)
    assert bad.status_code == 422 and b'role="alert"' in bad.data
    # A plain post (no JavaScript) is answered as it always was.
    plain = client.post(url, data=hand_data(["Ann", "Ben", "Cy"], went_out="Ann",
                                            hands={"Ben": 1, "Cy": 1}, number=2))
    assert plain.status_code == 302
