"""Installable from a phone: the web manifest, its icons, the apple-touch-icon."""

from __future__ import annotations

import struct


def png_size(data: bytes) -> tuple[int, int]:
    """Return a PNG's width and height, read from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_makes_the_app_installable_with_every_icon_it_names(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["short_name"] == "Kings Corners"
    assert manifest["theme_color"] == manifest["background_color"] == "#11161d"
    kinds = set()
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.mimetype == "image/png", icon["src"]
        width, height = png_size(image.data)
        assert f"{width}x{height}" == icon["sizes"], icon["src"]
        assert "immutable" in image.headers["Cache-Control"]  # named by its content
        kinds.add((icon["purpose"], width))
    assert kinds == {("any", 192), ("any", 512), ("maskable", 192), ("maskable", 512)}


def test_every_page_links_the_manifest_the_touch_icon_and_says_what_it_is(client):
    html = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    # The bar's colour follows the phone's theme (theme.js switches both for a phone's choice).
    assert ('<meta name="theme-color" content="#11161d" media="(prefers-color-scheme: dark)">'
            in html)
    assert ('<meta name="theme-color" content="#f2f4f7" media="(prefers-color-scheme: light)">'
            in html)
    assert '<meta name="description" content="' in html
    touch = html.split('<link rel="apple-touch-icon" href="')[1].split('"')[0]
    assert png_size(client.get(touch).data) == (180, 180)
