"""What goes over the Wi-Fi: pages compressed, versioned static files kept by the phone."""

from __future__ import annotations

import re

import pytest

from tests.helpers import hand_data, start_game

P = ["Ann", "Ben", "Cy"]


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_a_scoreboard_goes_compressed_to_a_phone_that_takes_it(client, encoding):
    game_id = start_game(client, P)
    for number in range(1, 4):
        client.post(f"/games/{game_id}/hands/new",
                    data=hand_data(P, "Ann", {"Ben": 3, "Cy": 2}, number))
    plain = client.get(f"/games/{game_id}")
    packed = client.get(f"/games/{game_id}", headers={"Accept-Encoding": encoding})
    assert packed.headers["Content-Encoding"] == encoding
    assert len(packed.data) * 3 < len(plain.data)  # a third or less on the wire
    assert "Vary" in packed.headers and "Accept-Encoding" in packed.headers["Vary"]


def test_a_versioned_static_file_is_kept_for_good_and_an_unversioned_one_is_not(client):
    page = client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/app\.css\?v=[0-9a-f]+)"', page).group(1)
    kept = client.get(css, headers={"Accept-Encoding": "gzip, deflate, br"})  # as phones ask
    assert "immutable" in kept.headers["Cache-Control"]
    assert "max-age=31536000" in kept.headers["Cache-Control"]
    assert kept.headers.get("Content-Encoding") in ("br", "deflate", "gzip")
    assert "immutable" not in client.get("/static/app.css").headers.get("Cache-Control", "")
