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
from flask_babel import ngettext

from .. import rules, variants
from ..words import day, needs_isolating

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


def svg(card: Card) -> str:
    """Return the card as SVG: 1080 px wide, as tall as its rows and lines need."""
    top = 300
    row_h = 104
    lines_h = 64 * len(card.lines) + (40 if card.lines else 0)
    height = top + row_h * len(card.rows) + lines_h + 150
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}">',
             f'<rect width="{WIDTH}" height="{height}" fill="{BG}"/>',
             _text(72, 96, "♚ Kings Corners", 36, GOLD, "bold"),
             _text(72, 168, _fit(card.title, 34), 56, INK, "bold"),
             _text(72, 218, _fit(card.subtitle, 52), 32, MUTED)]
    if card.headline:
        parts.append(_text(72, 272, _fit(card.headline, 40), 44, GOLD, "bold"))
    y = top + 10
    for row in card.rows:
        fill = "#3b2d0b" if row.won else PANEL
        parts += [f'<rect x="56" y="{y}" width="{WIDTH - 112}" height="{row_h - 14}" rx="22" '
                  f'fill="{fill}" stroke="{GOLD if row.won else LINE}" stroke-width="2"/>',
                  _text(110, y + 62, str(row.place), 40, MUTED, "bold", "middle"),
                  _text(160, y + 62, _fit(row.name, 24), 44, INK, "bold"),
                  _text(WIDTH - 96, y + 62, row.figure, 44, INK, "bold", "end")]
        y += row_h
    if card.lines:
        y += 40
        for line in card.lines:
            parts.append(_text(72, y + 20, _fit(line, 52), 32, INK))
            y += 64
    if card.foot:
        parts.append(_text(72, height - 60, _fit(card.foot, 56), 28, MUTED))
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


def game_card(game) -> Card:
    """Return a game's card: its variant, day and hands, who won, the standings."""
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
    return Card(home.label, f"{day(game.played_on)} · {home.played(len(result.rounds))}",
                headline, rows, foot=home.summary(game.settings))


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
    return Card(title, f"{day(when)} · " + ngettext("%(num)d game", "%(num)d games", len(games)),
                story[0] if story else "", rows, tuple((story[1:] + games_line)[:6]))
