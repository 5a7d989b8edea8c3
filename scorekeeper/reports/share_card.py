"""A picture of a result to share: a finished game's standings, or a night's, as a PNG.

Drawn on the server as SVG and rendered by resvg (resvg-py) with the font bundled beside this
module (DejaVu Sans), never the machine's own: the same picture on every install, in the
language of the phone that asked. The app's address is on a home network, so the table
shares the picture, not a link.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import resvg_py
from flask_babel import gettext, ngettext

from .. import rules, variants
from ..words import day, needs_isolating, signed

FONTS = Path(__file__).with_name("fonts")
FONT_FILES = [str(FONTS / "DejaVuSans.ttf"), str(FONTS / "DejaVuSans-Bold.ttf")]
WIDTH = 1080
INK, MUTED, GOLD, PANEL, BG, LINE = "#eef2f6", "#a3b1c2", "#f2c14e", "#1a212b", "#11161d", "#334152"


@dataclass(frozen=True)
class Row:
    """One line of the standings: place, name, the figure shown, and whether they won."""

    place: int
    name: str
    figure: str
    won: bool = False


@dataclass(frozen=True)
class Card:
    """What a share card shows, in the phone's language: a title, a line under it, the
    headline (who won), the standings, a few lines of story, and a foot."""

    title: str
    subtitle: str
    headline: str
    rows: tuple[Row, ...]
    lines: tuple[str, ...] = ()
    foot: str = ""


def _text(x: int, y: int, text: str, size: int, fill: str = INK, weight: str = "normal",
          anchor: str = "start") -> str:
    return (f'<text x="{x}" y="{y}" font-family="DejaVu Sans" font-size="{size}" '
            f'font-weight="{weight}" fill="{fill}" text-anchor="{anchor}">{escape(text)}</text>')


def _fit(text: str, most: int) -> str:
    """Shorten a long name or line to `most` characters, with an ellipsis."""
    return text if len(text) <= most else text[:most - 1].rstrip() + "…"


def _wrap(text: str, most: int, lines: int = 2) -> list[str]:
    """Break a line into at most `lines` lines of at most `most` characters, between words
    (the last one shortened with an ellipsis if it still does not fit)."""
    out: list[str] = []
    for word in text.split():
        if out and len(out[-1]) + 1 + len(word) <= most:
            out[-1] += " " + word
        elif len(out) < lines:
            out.append(word)
        else:
            out[-1] += " " + word
            break
    return [_fit(line, most) for line in out] or [""]


def _chars(size: int, bold: bool = False, width: int = WIDTH - 144) -> int:
    """Return how many characters of DejaVu Sans at `size` px fit in `width` px (its letters
    average about 0.58 em, bold ones 0.65 em)."""
    return int(width / (size * (0.65 if bold else 0.58)))


def svg(card: Card) -> str:
    """Return the card as SVG: 1080 px wide, as tall as its rows and lines need."""
    headline = _wrap(card.headline, _chars(44, bold=True)) if card.headline else []
    lines = [part for line in card.lines for part in _wrap(line, _chars(32))]
    top = 244 + 56 * len(headline)
    row_h = 104
    lines_h = 52 * len(lines) + (40 if lines else 0)
    height = top + row_h * len(card.rows) + lines_h + 150
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}">',
             f'<rect width="{WIDTH}" height="{height}" fill="{BG}"/>',
             _text(72, 96, "♚ Kings Corners", 36, GOLD, "bold"),
             _text(72, 168, _fit(card.title, _chars(56, bold=True)), 56, INK, "bold"),
             _text(72, 218, _fit(card.subtitle, _chars(32)), 32, MUTED)]
    for i, line in enumerate(headline):
        parts.append(_text(72, 280 + 56 * i, line, 44, GOLD, "bold"))
    y = top + 10
    for row in card.rows:
        fill = "#3b2d0b" if row.won else PANEL
        # The name stops short of the figure at the row's end.
        room = WIDTH - 96 - 160 - 32 - int(len(row.figure) * 44 * 0.65)
        parts += [f'<rect x="56" y="{y}" width="{WIDTH - 112}" height="{row_h - 14}" rx="22" '
                  f'fill="{fill}" stroke="{GOLD if row.won else LINE}" stroke-width="2"/>',
                  _text(110, y + 62, str(row.place), 40, MUTED, "bold", "middle"),
                  _text(160, y + 62, _fit(row.name, _chars(44, True, room)), 44, INK, "bold"),
                  _text(WIDTH - 96, y + 62, row.figure, 44, INK, "bold", "end")]
        y += row_h
    if lines:
        y += 40
        for line in lines:
            parts.append(_text(72, y + 20, line, 32, INK))
            y += 52
    if card.foot:
        parts.append(_text(72, height - 60, _fit(card.foot, _chars(28)), 28, MUTED))
    parts.append("</svg>")
    return "".join(parts)


def png(card: Card) -> bytes:
    """Return the card as a PNG, drawn with the bundled font only."""
    return bytes(resvg_py.svg_to_bytes(svg_string=svg(card), font_files=FONT_FILES,
                                       skip_system_fonts=True, font_family="DejaVu Sans"))


def text(card: Card) -> str:
    """Return the card as plain text, to copy into a chat: each name that could reorder
    the line around it (a right-to-left one) isolated with Unicode's own marks."""
    names = [row.name for row in card.rows]

    def isolated(line: str) -> str:
        for name in sorted(names, key=len, reverse=True):
            if needs_isolating(name):
                line = line.replace(name, f"\u2068{name}\u2069")
        return line

    out = [f"♚ {card.title} · {card.subtitle}"]
    if card.headline:
        out.append(isolated(card.headline))
    out += [f"{row.place}. {isolated(row.name)}: {row.figure}" for row in card.rows]
    out += [isolated(line) for line in card.lines]
    return "\n".join(out)


def places(totals: dict[str, int], lower_is_better: bool) -> dict[str, int]:
    """Return each player's place, a tie sharing it (1, 2, 2, 4)."""
    def ahead(a: int, b: int) -> bool:
        return a < b if lower_is_better else a > b
    return {name: 1 + sum(ahead(other, total) for other in totals.values())
            for name, total in totals.items()}


def rating_line(changes) -> str:
    """Return a finished game's rating moves in a line: "Ratings: Cy +41 (an upset) · Ann −12"
    (`changes`: reports.ratings.game_changes)."""
    upset, said = gettext("an upset"), gettext("Ratings:")  # outside f-strings: extracted
    moves = [f"{c.name} {signed(c.change)}" + (f" ({upset})" if c.upset else "")
             for c in changes]
    return f"{said} {' · '.join(moves)}" if moves else ""


def game_card(game, changes=()) -> Card:
    """Return a game's card: its variant, day and hands, who won, the standings, and the
    rating moves it made (`changes`, once it is over)."""
    home = variants.get(game.variant)
    result = game.result
    placed = places(dict(result.totals), rules.get_variant(game.variant).lower_is_better)
    rows = tuple(Row(placed[name], name,
                     f"{result.totals[name]} {home.unit(game.settings, result.totals[name])}",
                     name in result.winners)
                 for name in sorted(game.players, key=lambda n: (placed[n],
                                                                  game.players.index(n))))
    headline = (ngettext("%(names)s wins!", "%(names)s win!", len(result.winners),
                         names=" & ".join(result.winners)) if result.over else "")
    moves = rating_line(changes)
    return Card(home.label, f"{day(game.played_on)} · {home.played(len(result.rounds))}",
                headline, rows, (moves,) if moves else (), foot=home.summary(game.settings))


def night_card(title: str, when, games, story: list[str]) -> Card:
    """Return a night's card: its story (reports.story) over the standings of its wins, then
    each finished game's winner."""
    done = [g for g in games if g.result.over]
    wins: dict[str, int] = {}
    for game in games:
        for name in game.players:
            wins.setdefault(name, 0)
    for game in done:
        for name in game.result.winners:
            wins[name] += 1
    placed = places(wins, lower_is_better=False)
    rows = tuple(Row(placed[name], name, ngettext("%(num)d win", "%(num)d wins", count),
                     placed[name] == 1 and count > 0)
                 for name, count in sorted(wins.items(), key=lambda i: (placed[i[0]], i[0])))
    games_line = [f"{variants.get(g.variant).label}: " + " & ".join(g.result.winners)
                  for g in done]
    count = ngettext("%(num)d game", "%(num)d games", len(games))
    return Card(title, count if title == day(when) else f"{day(when)} · {count}",
                story[0] if story else "", rows, tuple((story[1:] + games_line)[:6]))
