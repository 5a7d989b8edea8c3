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
    from scorekeeper.reports import glyphs
    assert len(lines) == 2 and all(
        glyphs.width(unescape(line.split(">", 1)[1].split("<")[0]), 44, True) <= 1080 - 144
        for line in lines)


TABLE = ["👑 Queen Bee 🐝", "W" * 40, "عبد الرحمن", "עדי", "Zoë", "Ann"]


def drawn(svg: str) -> list[tuple[int, int, str, str]]:
    """Return each text of a card's SVG: x, font size, anchor and the text as drawn."""
    import re
    return [(int(x), int(size), anchor, unescape(said)) for x, size, anchor, said in re.findall(
        r'<text x="(\d+)" y="\d+" [^>]*font-size="(\d+)" font-weight="\w+" fill="[^"]+" '
        r'text-anchor="(\w+)">([^<]*)</text>', svg)]


def six_at_the_table(app, client):
    """Return the card of a finished game of six with every kind of name, and its SVG."""
    from scorekeeper.db import read_game
    from scorekeeper.reports import ratings
    game_id = start_game(client, TABLE, target=25)
    client.post(f"/games/{game_id}/hands/new", data=hand_data(
        TABLE, "Ann", {"👑 Queen Bee 🐝": (10, 2), "W" * 40: 3, "عبد الرحمن": 5, "עדי": 2,
                       "Zoë": 1}, number=1))
    with app.test_request_context():
        card = share_card.game_card(read_game(game_id), ratings.game_changes(game_id))
        return card, share_card.svg(card)


def test_every_name_is_drawn_whole_or_cut_and_never_over_another_field(app, client):
    from scorekeeper.reports import glyphs
    card, svg = six_at_the_table(app, client)
    texts = drawn(svg)
    for x, size, anchor, said in texts:
        bold = size in (36, 40, 44, 56)
        wide = glyphs.width(said, size, bold)
        assert (x - wide if anchor == "end" else x) >= 56 and (
            x + wide if anchor == "start" else x) <= 1080 - 56, said
    for row in card.rows:  # each name stops before its score
        name = next(t for t in texts if t[0] == 160 and row.name[:3] in t[3])
        assert 160 + glyphs.width(name[3], 44, True) < 1080 - 96 - glyphs.width(
            row.figure, 44, True), name
    assert any(t[3].startswith("WWW") and t[3].endswith("…") for t in texts)


def test_an_emoji_in_a_name_is_drawn_by_a_bundled_font(app, client):
    from pathlib import Path

    from scorekeeper.reports import glyphs
    drawable = set()
    for font in share_card.FONT_FILES:
        drawable |= set(glyphs.advances(Path(font))[0])
        assert Path(font).parent == glyphs.FONTS  # bundled, with its licence
    assert all(ord(char) in drawable for name in TABLE for char in name)
    assert "Noto Color Emoji" in (glyphs.FONTS / "LICENSE").read_text()
    card, _ = six_at_the_table(app, client)
    width, height = decoded(share_card.png(card))
    assert width == 1080


def test_the_ratings_line_keeps_every_move_each_name_isolated(app, client):
    card, svg = six_at_the_table(app, client)
    moves = next(line for line in card.lines if line.startswith("Ratings:"))
    texts = [said for _, size, _, said in drawn(svg) if size == 32]
    shown = " ".join(texts[[t.startswith("Ratings:") for t in texts].index(True):])
    arabic = next(m for m in moves.split(" · ") if "عبد الرحمن" in m)
    # The Arabic name kept apart, so its move stays on its right: "عبد الرحمن +12".
    assert "\u2068عبد الرحمن\u2069 " + arabic.split(" ")[-1] in shown
    for name in TABLE:
        move = next(m for m in moves.split(" · ") if name in m).split(" ")[-1]
        said = name if len(name) < 20 else name[:8]  # a long name may be cut, not its move
        assert said in shown and move in shown, name
    assert shown.count("·") == len(TABLE) - 1  # no move lost


def test_a_night_of_ten_games_lists_eight_and_names_each_winner(client):
    from scorekeeper.reports import story
    names = ["Ann", "Ben", "عبد الرحمن"]
    for number in range(10):
        game_id = start_game(client, names, target=25)
        winner = names[number % 3]
        if number < 9:  # the last one not finished
            client.post(f"/games/{game_id}/hands/new", data=hand_data(
                names, winner, {n: (10, 2) for n in names if n != winner}, number=1))
    page = unescape(client.get("/history/nights/1").get_data(as_text=True))
    text = page.split('data-share-text="', 1)[1].split('"', 1)[0]
    lines = text.split("\n")
    assert lines[0].endswith("· 10 games")
    games = [line for line in lines if line.startswith("Penalty points:")]
    assert games[:3] == ["Penalty points: Ann", "Penalty points: Ben",
                         "Penalty points: \u2068عبد الرحمن\u2069"]
    assert len(games) == 7 and lines[-1] == "and 3 more games"
    assert client.get("/history/nights/1/card.png").status_code == 200
    del story


def test_a_night_of_four_games_shows_all_four_even_unfinished(client):
    names = ["Ann", "Ben"]
    for number in range(4):
        game_id = start_game(client, names, target=25)
        if number:
            client.post(f"/games/{game_id}/hands/new",
                        data=hand_data(names, "Ann", {"Ben": (10, 2)}, number=1))
    page = unescape(client.get("/history/nights/1").get_data(as_text=True))
    text = page.split('data-share-text="', 1)[1].split('"', 1)[0]
    assert text.count("Penalty points: ") == 4 and "Penalty points: not finished" in text
