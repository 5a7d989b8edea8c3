"""How wide a line of text is drawn on a share card, read from the bundled fonts' own tables.

A share card lays out a name or a sentence to stop short of the figure beside it: it needs
each letter's advance, not a guessed average ("WWWW" is three times "iiii"). A TrueType font
says it in two tables: `cmap` (which glyph draws a character) and `hmtx` (how far that glyph
moves the pen). A character is drawn by the first font that has it, as the renderer picks
it: DejaVu Sans, then the emoji font.
"""

from __future__ import annotations

import struct
import unicodedata
from functools import cache
from pathlib import Path

FONTS = Path(__file__).with_name("fonts")
REGULAR, BOLD = FONTS / "DejaVuSans.ttf", FONTS / "DejaVuSans-Bold.ttf"
EMOJI = FONTS / "NotoColorEmoji.ttf"


def _tables(data: bytes) -> dict[bytes, int]:
    """Return where each table of a font file starts."""
    (count,) = struct.unpack_from(">H", data, 4)
    return {data[12 + 16 * i:16 + 16 * i]: struct.unpack_from(">I", data, 20 + 16 * i)[0]
            for i in range(count)}


def _characters(data: bytes, cmap: int) -> dict[int, int]:
    """Return the glyph of each character, from the font's Unicode character map."""
    (count,) = struct.unpack_from(">H", data, cmap + 2)
    found: dict[int, int] = {}
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        at = cmap + offset
        (form,) = struct.unpack_from(">H", data, at)
        if (platform, encoding) == (3, 10) and form == 12:
            (groups,) = struct.unpack_from(">I", data, at + 12)
            for g in range(groups):
                first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
                found.update((char, glyph + char - first) for char in range(first, last + 1))
        elif (platform, encoding) == (3, 1) and form == 4:
            segments = struct.unpack_from(">H", data, at + 6)[0] // 2
            ends = struct.unpack_from(f">{segments}H", data, at + 14)
            starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
            deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 4 * segments)
            ranges_at = at + 16 + 6 * segments
            ranges = struct.unpack_from(f">{segments}H", data, ranges_at)
            for s in range(segments):
                for char in range(starts[s], ends[s] + 1):
                    if char == 0xFFFF:
                        continue
                    if ranges[s] == 0:
                        glyph = (char + deltas[s]) & 0xFFFF
                    else:
                        where = ranges_at + 2 * s + ranges[s] + 2 * (char - starts[s])
                        glyph = struct.unpack_from(">H", data, where)[0]
                        glyph = (glyph + deltas[s]) & 0xFFFF if glyph else 0
                    if glyph:
                        found.setdefault(char, glyph)
    return found


@cache
def advances(path: Path) -> tuple[dict[int, float], float]:
    """Return each character's advance in ems in a font, and its missing glyph's."""
    data = path.read_bytes()
    at = _tables(data)
    (per_em,) = struct.unpack_from(">H", data, at[b"head"] + 18)
    (metrics,) = struct.unpack_from(">H", data, at[b"hhea"] + 34)
    widths = struct.unpack_from(">" + "Hh" * metrics, data, at[b"hmtx"])[::2]

    def advance(glyph: int) -> float:
        return widths[min(glyph, metrics - 1)] / per_em

    return ({char: advance(glyph) for char, glyph in _characters(data, at[b"cmap"]).items()},
            advance(0))


def width(text: str, size: float, bold: bool = False) -> float:
    """Return how many pixels `text` takes at `size` px, as the card's fonts draw it."""
    own, missing = advances(BOLD if bold else REGULAR)
    emoji, _ = advances(EMOJI)
    total = 0.0
    for char in text:
        point = ord(char)
        if point in own:
            total += own[point]
        elif unicodedata.category(char) in ("Cf", "Mn", "Me"):
            continue  # joiners, isolating marks, accents: no width of their own
        else:
            total += emoji.get(point, missing)
    return total * size
