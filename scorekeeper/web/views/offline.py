"""Pages that open on a weak signal, and hands that wait for the connection.

- /sw.js: the service worker (static/sw.js with what it keeps named above it), served
  from the root so it covers every page. Its cache is named by a hash of every file it
  keeps, so a new version of the app is a new worker that drops the old cache.
- /offline: what a page that was never opened on the phone shows with no connection.
- A hand sent by offline.js (the `X-Hand-Queue` header) gets 204 with `X-Location` where
  the form would have been sent on (302): the phone decides whether to go there, and the
  flashed message waits for that page instead of being read by the fetch.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request, url_for
from flask_babel import force_locale, gettext

from ..i18n import LANGUAGES
from ..pages import asset_url

bp = Blueprint("offline", __name__)
QUEUED = "X-Hand-Queue"
# Not kept ahead: the worker itself, the vendored videos (a video asks for byte ranges,
# which a cache answers badly; the screen-awake fallback is for plain HTTP anyway) and text.
SKIPPED = {".md", ".mp4", ".webm"}


def _kept() -> list[str]:
    """Return the static files the worker keeps from its install on, as versioned URLs."""
    folder = Path(current_app.static_folder)
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                   if p.is_file() and p.suffix not in SKIPPED and p.name != "sw.js"
                   and p.name != "LICENSE")
    return [asset_url(name) for name in files]


def _words() -> dict[str, str]:
    """Return what the worker says when it has neither the page nor the offline page, in
    each language the app speaks (sw.js puts the phone's own first)."""
    words = {}
    for code in LANGUAGES:
        with force_locale(code):
            words[code] = gettext("No connection.")
    return words


def _worker() -> str:
    """Return the worker's script: what it keeps and its version, then static/sw.js."""
    app = current_app
    cached = app.extensions.get("offline-worker")
    if cached and not app.debug:
        return cached
    source = (Path(app.static_folder) / "sw.js").read_text()
    # How to play is kept from the install on too: it is the same for every game, so it
    # opens with no connection on a phone that has opened the app once.
    kept = [*_kept(), url_for("offline.page"), url_for("main.how_to_play"),
            url_for("main.manifest")]
    templates = Path(app.root_path, app.template_folder)
    digest = hashlib.sha256(source.encode())
    for name in ("base.html", "offline.html", "how_to_play.html"):
        digest.update((templates / name).read_bytes())
    # The offline page it keeps is in the catalogue's words: new words, a new cache.
    for catalogue in sorted((Path(app.root_path) / "web" / "translations").glob("*/*/*.po")):
        digest.update(catalogue.read_bytes())
    digest.update("\n".join(kept).encode())
    config = {"version": digest.hexdigest()[:12], "keep": kept,
              "offline": url_for("offline.page"), "static": app.static_url_path + "/",
              "words": _words()}
    # Where a hand is recorded (hands.record): /games/<id>/hands/new.
    hand = url_for("hands.record", game_id=1).replace("/1/", "/\\d+/")
    script = (f"var CONFIG = {json.dumps(config)};\n"
              f"CONFIG.hand = new RegExp({json.dumps('^' + hand + '$')});\n{source}")
    app.extensions["offline-worker"] = script
    return script


@bp.route("/sw.js")
def worker():
    """Serve the service worker; the phone checks it for a new version on every visit."""
    return Response(_worker(), mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache"})


@bp.route("/offline")
def page():
    """Say there is no connection and no copy of the page asked for."""
    return render_template("offline.html")


@bp.after_app_request
def _queued(response):
    """Answer a hand sent from the phone's queue with where to go next, not a redirect."""
    if request.headers.get(QUEUED) and response.status_code in (301, 302, 303):
        where = response.headers.pop("Location")
        response.status_code = 204
        response.set_data(b"")
        response.headers.pop("Content-Type", None)
        response.headers["X-Location"] = where
    return response
