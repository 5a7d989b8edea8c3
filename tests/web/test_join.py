"""Join the table by QR: the address a phone on the same Wi-Fi opens, drawn on the server."""

from __future__ import annotations

import re

import pytest
import segno

from scorekeeper.server import network
from scorekeeper.web.views.join import qr_svg
from tests.helpers import start_game


def shown(response) -> str:
    """Return a page as its text reads: the address wraps after its slashes (<wbr>), which
    adds nothing to what is read or copied."""
    return response.get_data(as_text=True).replace("<wbr>", "")


@pytest.fixture(autouse=True)
def on_a_home_network(app):
    """Say this machine is 192.168.1.23 on the Wi-Fi: the app answers to that address."""
    app.config["TRUSTED_HOSTS"] = [*app.config["TRUSTED_HOSTS"], "192.168.1.23"]


def test_the_scoreboard_and_home_show_the_qr_of_the_address_a_phone_opens(client):
    game_id = start_game(client, ["Ann", "Ben"])
    board = client.get(f"/games/{game_id}", base_url="http://192.168.1.23:8000")
    html = shown(board)
    # The game's QR opens it with its join code: a phone that scans it may take a seat.
    code = re.search(rf'src="/join.svg\?to=/games/{game_id}/join/([0-9a-f]{{12}})"', html)
    assert code, "the QR code carries the game's join code"
    assert f"http://192.168.1.23:8000/games/{game_id}/join/{code.group(1)}" in html  # in text
    assert "Join from another phone" in client.get("/").get_data(as_text=True)


def test_the_image_encodes_that_address_and_the_big_page_shows_it_in_text(client):
    image = client.get("/join.svg?to=/games/4", base_url="http://192.168.1.23:8000")
    assert image.mimetype == "image/svg+xml"
    wanted = qr_svg("http://192.168.1.23:8000/games/4")
    assert image.get_data(as_text=True).replace(' xmlns="http://www.w3.org/2000/svg"', "") == wanted
    assert wanted != qr_svg("http://192.168.1.23:8000/games/5")
    big = client.get("/join?to=/games/4", base_url="http://192.168.1.23:8000")
    assert "<code>http://192.168.1.23:8000/games/4</code>" in shown(big)
    assert segno.make("http://192.168.1.23:8000/games/4").designator  # a real QR code


def test_opened_on_the_machine_itself_it_gives_the_machine_s_network_address(client,
                                                                            monkeypatch):
    monkeypatch.setattr(network, "lan_addresses", lambda: ("10.1.2.3",))
    page = client.get("/join?to=/", base_url="http://127.0.0.1:8000")
    assert "<code>http://10.1.2.3:8000/</code>" in shown(page)


def test_a_configured_public_address_wins(app, client):
    app.config["PUBLIC_URL"] = "http://cards.home:8000/"
    page = client.get("/join?to=/history/", base_url="http://127.0.0.1:8000")
    assert "<code>http://cards.home:8000/history/</code>" in shown(page)


def test_it_never_points_a_phone_at_another_site(client):
    page = client.get("/join?to=//evil.example/x", base_url="http://192.168.1.23:8000")
    assert "evil.example" not in page.get_data(as_text=True)
    assert "<code>http://192.168.1.23:8000/</code>" in shown(page)


def test_a_back_link_never_leaves_the_app(client):
    page = client.get("/join?to=/\\evil.example", base_url="http://192.168.1.23:8000")
    html = page.get_data(as_text=True)
    assert "evil.example" not in html and 'href="/"' in html
