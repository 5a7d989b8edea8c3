"""A picture of a result to share: a finished game's standings, or a night's, as a PNG.

Drawn on the server as SVG and rendered by resvg (resvg-py) with the font bundled beside this
module (DejaVu Sans), never the machine's own: the same picture on every install, in the
language of the phone that asked. The app's address is on a home network, so the table
shares the picture, not a link.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from xml.sax.saxutils import escape

from flask_babel import gettext, ngettext

from .. import rules, variants
from ..words import day, needs_isolating, points, signed
from . import crowd, glyphs, renderer
from .history import label

FONT_FILES = [str(glyphs.REGULAR), str(glyphs.BOLD), str(glyphs.EMOJI)]
FAMILY = "DejaVu Sans, Noto Color Emoji"  # a letter DejaVu does not have: the emoji font's
WIDTH = 1080
MOST_GAMES = 8  # a night's games listed on its card; more are counted
MOST_PLAYERS = 8  # a crowd night's standings on its card: its top; the others are counted
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
    return (f'<text x="{x}" y="{y}" font-family="{FAMILY}" font-size="{size}" '
            f'font-weight="{weight}" fill="{fill}" text-anchor="{anchor}">{escape(text)}</text>')


def _isolated(line: str, names) -> str:
    """Return a line with each name in it that could reorder the line around it (a
    right-to-left one) isolated by Unicode's own marks, as the pages isolate it in <bdi>."""
    for name in sorted(set(names), key=len, reverse=True):
        if needs_isolating(name):
            line = line.replace(name, f"\u2068{name}\u2069")
    return line


def _clusters(text: str) -> list[str]:
    """Return a text's letters, each with the marks and joiners that go with it (an accent,
    an emoji's skin tone or its zero-width joins): a cut never falls inside one."""
    out: list[str] = []
    for char in text:
        joined = out and (out[-1].endswith("\u200d") or char == "\u200d"
                          or unicodedata.category(char) in ("Mn", "Me")
                          or "\ufe00" <= char <= "\ufe0f" or "\U0001f3fb" <= char <= "\U0001f3ff")
        if joined:
            out[-1] += char
        else:
            out.append(char)
    return out


def _fit(text: str, size: int, room: float, bold: bool = False) -> str:
    """Return a line as it fits in `room` px, cut with an ellipsis if it does not."""
    if glyphs.width(text, size, bold) <= room:
        return text
    letters = _clusters(text)
    while letters and glyphs.width("".join(letters).rstrip() + "…", size, bold) > room:
        letters.pop()
    return "".join(letters).rstrip() + "…"


def _break(text: str, size: int, room: float, bold: bool, level: int = 0) -> list[str]:
    """Break a line into lines that each fit in `room` px: between its parts (" · "), then
    between words, then, for one word wider than a line, between letters."""
    def fits(line: str) -> bool:
        return glyphs.width(line, size, bold) <= room
    if fits(text):
        return [text]
    if level == 0:
        items = text.split(" · ")
        parts = [item + " ·" for item in items[:-1]] + items[-1:]
    elif level == 1:
        parts = text.split(" ")
    else:
        parts = _clusters(text)
    if len(parts) == 1:
        return _break(text, size, room, bold, level + 1)
    lines: list[str] = []
    for part in parts:
        joined = f"{lines[-1]}{'' if level == 2 else ' '}{part}" if lines else part
        if lines and fits(joined):
            lines[-1] = joined
        elif level == 2 or fits(part):
            lines.append(part)
        else:
            lines.extend(_break(part, size, room, bold, level + 1))
    return lines


def _wrap(text: str, size: int, room: float, bold: bool = False, most: int = 3) -> list[str]:
    """Return a line broken to fit in `room` px, in at most `most` lines (the last one cut
    with an ellipsis if the text goes on)."""
    lines = _break(text, size, room, bold)
    if len(lines) > most:
        lines = lines[:most - 1] + [_fit(lines[most - 1] + "…", size, room, bold)]
    return lines


def svg(card: Card) -> str:
    """Return the card as SVG: 1080 px wide, as tall as its rows and lines need. Every text
    is measured with the fonts' own metrics and wrapped or cut to stay off its neighbours;
    every name in it is isolated, so a right-to-left one keeps its figure on its side."""
    names = [row.name for row in card.rows]
    room = WIDTH - 144

    def said(line: str, size: int, bold: bool = False) -> str:
        # A name wider than half a line is cut in it, so the rest of the line still shows.
        line = _isolated(line, names)
        for name in names:
            if name in line and glyphs.width(name, size, bold) > room / 2:
                line = line.replace(name, _fit(name, size, room / 2, bold))
        return line

    title = _wrap(said(card.title, 56, True), 56, room, True, most=2)
    headline = _wrap(said(card.headline, 44, True), 44, room, True, most=2)
    lines = [part for line in card.lines
             for part in _wrap(said(line, 32), 32, room, most=len(card.rows) + 3)]
    last = 168 + 64 * (len(title) - 1)  # the title's last line
    shown = headline if card.headline else []
    top = last + 76 + 56 * len(shown)
    row_h = 104
    lines_h = 52 * len(lines) + (40 if lines else 0)
    height = top + row_h * len(card.rows) + lines_h + 150
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}">',
             f'<rect width="{WIDTH}" height="{height}" fill="{BG}"/>',
             _text(72, 96, "♚ Kings Corners", 36, GOLD, "bold")]
    parts += [_text(72, 168 + 64 * i, line, 56, INK, "bold") for i, line in enumerate(title)]
    parts.append(_text(72, last + 50, _fit(card.subtitle, 32, room), 32, MUTED))
    parts += [_text(72, last + 112 + 56 * i, line, 44, GOLD, "bold")
              for i, line in enumerate(shown)]
    y = top + 10
    for row in card.rows:
        fill = "#3b2d0b" if row.won else PANEL
        figure = glyphs.width(row.figure, 44, bold=True)
        name = _fit(row.name, 44, WIDTH - 96 - 32 - figure - 160, bold=True)
        parts += [f'<rect x="56" y="{y}" width="{WIDTH - 112}" height="{row_h - 14}" rx="22" '
                  f'fill="{fill}" stroke="{GOLD if row.won else LINE}" stroke-width="2"/>',
                  _text(110, y + 62, str(row.place), 40, MUTED, "bold", "middle"),
                  _text(160, y + 62, name, 44, INK, "bold"),
                  _text(WIDTH - 96, y + 62, row.figure, 44, INK, "bold", "end")]
        y += row_h
    if lines:
        y += 40
        for line in lines:
            parts.append(_text(72, y + 20, line, 32, INK))
            y += 52
    if card.foot:
        parts.append(_text(72, height - 60, _fit(card.foot, 28, room), 28, MUTED))
    parts.append("</svg>")
    return "".join(parts)


def png(card: Card) -> bytes:
    """Return the card as a PNG, drawn with the bundled fonts only, away from the server's
    threads (reports.renderer; in a renderer.turn() on a server)."""
    return renderer.png(svg(card), FONT_FILES, "DejaVu Sans")


def text(card: Card) -> str:
    """Return the card as plain text, to copy into a chat: each name that could reorder
    the line around it (a right-to-left one) isolated with Unicode's own marks."""
    names = [row.name for row in card.rows]

    def isolated(line: str) -> str:
        return _isolated(line, names)

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


def night_card(summary, story: list[str],
               crowded: crowd.Night | None | object = crowd.UNREAD) -> Card:
    """Return a night's card (`summary`: history.NightSummary): its story (reports.story)
    over the standings of its wins, then each game's winner, MOST_GAMES at most and the
    number of the others ("and 3 more games"). A crowd night's card is its own
    (crowd_card; `crowded`: crowd.of_night, if read already)."""
    if crowded is crowd.UNREAD:
        crowded = crowd.of_night(summary.night.id)
    if crowded is not None:
        return crowd_card(summary, crowded, story)
    games = [g for g in summary.games if g.readable]
    wins: dict[str, int] = {}
    for game in games:
        for name in game.players:
            wins.setdefault(name, 0)
        for name in game.winners if game.over else ():
            wins[name] += 1
    placed = places(wins, lower_is_better=False)
    rows = tuple(Row(placed[name], name, ngettext("%(num)d win", "%(num)d wins", count),
                     placed[name] == 1 and count > 0)
                 for name, count in sorted(wins.items(), key=lambda i: (placed[i[0]], i[0])))
    unfinished = gettext("not finished")
    said = [f"{variants.get(g.variant).label}: "
            + (" & ".join(g.winners) if g.over else unfinished) for g in games]
    if len(said) > MOST_GAMES:
        more = len(said) - MOST_GAMES + 1
        said[MOST_GAMES - 1:] = [ngettext("and %(num)d more game", "and %(num)d more games",
                                          more)]
    count = ngettext("%(num)d game", "%(num)d games", len(games))
    title, when = label(summary.night), summary.night.started_at
    return Card(title, count if title == day(when) else f"{day(when)} · {count}",
                story[0] if story else "", rows, tuple(story[1:] + said))


def crowd_card(summary, night: crowd.Night, story: list[str]) -> Card:
    """Return a crowd night's card: its rounds and tables, its story (who won the night by
    its standings, the top table of each round: reports.story), over the night's standings,
    MOST_PLAYERS at most and the number of the others ("and 3 more players")."""
    shown = night.standings[:MOST_PLAYERS]
    rows = tuple(Row(line.place, line.name,
                     ngettext("%(points)s point", "%(points)s points",
                              1 if line.points == 1 else 2, points=points(line.points)),
                     night.over and line.place == 1) for line in shown)
    more = len(night.standings) - len(shown)
    counted = [ngettext("and %(num)d more player", "and %(num)d more players", more)] \
        if more else []
    sizes = " · ".join([ngettext("%(num)d round", "%(num)d rounds", night.round),
                        ngettext("%(num)d table", "%(num)d tables", night.count)])
    title, when = label(summary.night), summary.night.started_at
    return Card(title, sizes if title == day(when) else f"{day(when)} · {sizes}",
                story[0] if story else "", rows, tuple(counted + story[1:]))
