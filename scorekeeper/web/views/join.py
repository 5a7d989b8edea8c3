"""Join the table by QR: the address a phone on the same Wi-Fi opens, drawn on the server."""

from __future__ import annotations

import re

import segno
from flask import Blueprint, Response, current_app, render_template, request, url_for
from markupsafe import Markup, escape

from ...server.network import phone_url
from .. import passcode

bp = Blueprint("join", __name__)


# The app's own pages have short paths (/games/12/watch); a longer one is no page of it,
# and a QR code of thousands of characters costs the server a second to draw.
LONGEST_PATH = 100


def _path() -> str:
    """Return the page to join (a path of this app only, never another site)."""
    wanted = request.args.get("to", "/")
    return (wanted if len(wanted) <= LONGEST_PATH
            and re.fullmatch(r"/(?!/)[A-Za-z0-9_\-./]*", wanted) else "/")


@bp.app_template_global()
def join_url(path: str) -> str:
    """Return the address of `path` that a phone at the table opens."""
    return phone_url(request.scheme, request.host, path, current_app.config.get("PUBLIC_URL"))


@bp.app_template_filter()
def breakable(url: str) -> Markup:
    """Return an address, escaped, that wraps after a slash of its path rather than inside
    a part of it (a "2081" is not cut in two on a narrow phone; a part wider than a line
    still is, by the CSS)."""
    scheme, found, rest = url.partition("://")
    if not found:
        scheme, rest = "", url
    host, slash, path = rest.partition("/")
    return (Markup("{}://").format(scheme) if found else Markup()) + escape(host) + (
        Markup("/<wbr>").join(escape(part) for part in ("", *path.split("/"))) if slash
        else Markup())


def qr_svg(url: str) -> str:
    """Return a QR code of `url` as SVG: dark on light, a quiet zone, sharp when scaled."""
    code = segno.make(url, error="m")
    return code.svg_inline(scale=1, border=2, dark="#11161d", light="#ffffff",
                           omitsize=True, svgclass="qr", title=f"QR code of {url}")


@bp.route("/join")
def page():
    """Show the QR code big, for the table, with the address in text beside it."""
    url = join_url(_path())
    # A game's QR code, on a phone that may change things: it may give the game a new code.
    game = re.fullmatch(r"/games/([0-9]{1,9})/join/[0-9a-f]+", _path()) \
        if passcode.unlocked() else None
    return render_template("join.html", url=url, qr=Markup(qr_svg(url)), back=_path(),
                           new_code_url=url_for("seats.new_code", game_id=game.group(1))
                           if game else None)


@bp.route("/join.svg")
def image():
    """Return the QR code of a page's address, as an image."""
    svg = qr_svg(join_url(_path())).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-cache"})
