"""The share card: a finished game's or a night's result as a PNG, in the phone's language."""

from __future__ import annotations

import struct
import zlib
from html import unescape

from scorekeeper.reports import share_card
from tests.helpers import hand_data, start_game

NAMES = ["Ann", "Ben", "עדי"]


def decoded(png: bytes) -> tuple[int, int]:
    """Decode a PNG's chunks and pixels as a viewer would; return (width, height)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, width = 8, b"", 0
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        data = png[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + data) == crc
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", data[:10])
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += data
        at += 12 + length
    pixels = zlib.decompress(idat)
    assert len(pixels) == height * (1 + width * channels * depth // 8)
    return width, height


def finished(client) -> int:
    game_id = start_game(client, NAMES, target=25)
    client.post(f"/games/{game_id}/hands/new",
                data=hand_data(NAMES, "Ann", {"Ben": (10, 2), "עדי": 7}, number=1))
    return game_id


def test_a_finished_game_s_card_decodes_and_draws_the_standings(client):
    game_id = finished(client)
    answer = client.get(f"/games/{game_id}/card.png")
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    width, height = decoded(answer.data)
    assert width == 1080 and 600 < height < 1400
    board = unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert f'href="/games/{game_id}/card.png" download=' in board  # Share the result
    # The text to copy; the right-to-left name isolated, so "7" stays on its side of it.
    assert "1. Ann: 0 pts\n2. \u2068עדי\u2069: 7 pts\n3. Ben: 28 pts" in board


def test_the_card_speaks_the_phone_s_language(app, client):
    game_id = finished(client)
    with app.test_request_context(headers={"Accept-Language": "es"}):
        from scorekeeper.db import read_game
        spanish = share_card.svg(share_card.game_card(read_game(game_id)))
    with app.test_request_context(headers={"Accept-Language": "en"}):
        from scorekeeper.db import read_game
        english = share_card.svg(share_card.game_card(read_game(game_id)))
    assert "Ann wins!" in english and "Penalty points" in english
    assert "¡Gana Ann!" in spanish and "Ann wins!" not in spanish
    for name in NAMES:
        assert f">{name}<" in english and f">{name}<" in spanish  # every name drawn
    es = client.get(f"/games/{game_id}/card.png", headers={"Accept-Language": "es"}).data
    en = client.get(f"/games/{game_id}/card.png", headers={"Accept-Language": "en"}).data
    assert decoded(es)[0] == decoded(en)[0] == 1080 and es != en


def test_a_night_s_card_says_who_won_most(client):
    finished(client)
    second = start_game(client, NAMES, target=25)
    client.post(f"/games/{second}/hands/new",
                data=hand_data(NAMES, "Ann", {"Ben": 30, "עדי": 2}, number=1))
    answer = client.get("/history/nights/1/card.png")
    assert answer.status_code == 200 and decoded(answer.data)[0] == 1080
    assert client.get("/history/nights/99/card.png").status_code == 404


def test_a_game_not_over_offers_no_share(client):
    game_id = start_game(client, NAMES)
    assert "card.png" not in client.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_game_s_card_carries_the_rating_moves_and_a_long_line_wraps(app, client):
    game_id = finished(client)
    board = unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    with app.test_request_context():
        from scorekeeper.db import read_game
        from scorekeeper.reports import ratings
        changes = ratings.game_changes(game_id)
        card = share_card.game_card(read_game(game_id), changes)
        drawn = share_card.svg(card)
    moves = share_card.rating_line(changes)
    ann = next(c for c in changes if c.name == "Ann")
    assert moves.startswith("Ratings: Ann +") and f"Ann +{ann.change}" in moves
    assert moves in card.lines  # on the card, and in the text to copy, its names isolated
    assert moves.replace("עדי", "\u2068עדי\u2069") in board
    assert "Ratings:" in drawn
    long = share_card.Card("Night", "3 games", "Ann, Ben, Cy and Dee won 1 each of 4 games "
                           "in the longest night there ever was", ())
    lines = [line for line in share_card.svg(long).split("<text")
             if 'font-size="44"' in line]
    assert len(lines) == 2 and all(len(unescape(line.split(">", 1)[1].split("<")[0])) <= 32
                                   for line in lines)
