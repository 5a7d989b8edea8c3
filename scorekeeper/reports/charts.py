"""Line charts drawn on the server as SVG: no script, nothing from a CDN, readable on a
phone in a dim room. `line_chart` is generic; `game_chart` draws one game's running totals."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence

from flask_babel import gettext
from markupsafe import Markup, escape

from .. import rules, variants
from ..words import decimal, needs_isolating

# The colours come from the page's stylesheet (app.css: --chart-1..6 and the .chart rules),
# not from here: a chart is drawn once per state of a game and kept, and each phone shows it
# in its own theme, light or dark. Dashes tell apart the pairs some colour-blind eyes confuse
# (coral and green, blue and violet).
SERIES = 6  # classes s1..s6, each with a colour of its own in both themes
DASHES = ("", "", "9 5", "2 5", "14 4 3 4", "6 4")
FSI, PDI = "\u2068", "\u2069"  # isolate a name, as <bdi> does in HTML: a right-to-left
#                                 name keeps its value after it, not before
FONT = 16  # user units; a 360-wide chart is drawn about 330 px wide on a phone: 14.7 px
CHAR = FONT * 0.6  # rough width of one character, enough to lay out the legend
MARKERS_UP_TO = 40  # points per line; more than that and dots only clutter


def _fmt(value: float) -> str:
    """Return a number as a short label: 12, 2.5, -3 (2,5 in Spanish)."""
    if float(value).is_integer():
        return str(int(value))
    return decimal(f"{value:.1f}".rstrip("0").rstrip("."))


def nice_ticks(lo: float, hi: float, count: int = 4) -> list[float]:
    """Return round tick values (steps of 1, 2 or 5 times a power of ten) covering lo..hi."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / count
    power = 10 ** math.floor(math.log10(raw))
    # Steps of 2.5 only from 25 up: a tick at 2.5 cards or points means nothing.
    steps = (1, 2, 2.5, 5, 10) if power >= 10 else (1, 2, 5, 10)
    step = next(m * power for m in steps if m * power >= raw)
    if step < 1 and float(lo).is_integer() and float(hi).is_integer():
        step = 1
    ticks = [math.floor(lo / step) * step]
    while ticks[-1] < hi - step * 1e-9:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def _isolated(name: str) -> str:
    """Return a name as SVG text, isolated if it could reorder the legend's line."""
    return f"{FSI}{escape(name)}{PDI}" if needs_isolating(name) else str(escape(name))


def _series(index: int) -> str:
    """Return the class that gives the index-th series its colour: s1..s6, then round again."""
    return f"s{index % SERIES + 1}"


def _legend(names: Sequence[str], last: Mapping[str, float | None], width: float,
            left: float) -> tuple[list[str], float]:
    """Return the legend's SVG parts (swatch, name, last value) flowed into rows, and its height."""
    parts: list[str] = []
    x, y, row = left, FONT + 4, FONT + 10
    for i, name in enumerate(names):
        value = last.get(name)
        text = name if value is None else f"{name} {_fmt(value)}"
        item = 26 + len(text) * CHAR + 14
        if x > left and x + item > width:
            x, y = left, y + row
        series, dash = _series(i), DASHES[i % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<g class="key {series}"><line class="swatch" x1="{x:.1f}" y1="{y - FONT * 0.35:.1f}" '
            f'x2="{x + 20:.1f}" y2="{y - FONT * 0.35:.1f}" stroke-width="3.5"{dash_attr}/>'
            f'<text x="{x + 26:.1f}" y="{y:.1f}"><tspan class="name">{_isolated(name)}'
            "</tspan>"
            + ("" if value is None else
               f' <tspan class="value" font-weight="700">{_fmt(value)}</tspan>')
            + "</text></g>")
        x += item
    return parts, y + 8


def line_chart(series: Mapping[str, Sequence[float | None]], target: float | None = None, *,
               labels: Sequence[str] | None = None, title: str | None = None,
               desc: str | None = None, x_label: str = "", y_label: str = "",
               target_label: str | None = None, show_last: bool = True, width: int = 360,
               height: int = 220, chart_id: str | None = None,
               from_zero: bool = True) -> Markup:
    """Return SVG markup: one line per series (None leaves a gap), a legend, an optional target.

    `series` maps a name to its values at x = 0, 1, 2...; `labels` names those x positions.
    The legend shows each name with its colour and, with `show_last`, its last value.
    """
    names = list(series)
    count = max((len(values) for values in series.values()), default=0)
    values = [v for vs in series.values() for v in vs if v is not None]
    last = {name: next((v for v in reversed(series[name]) if v is not None), None)
            if show_last else None for name in names}
    if title is None:
        title = gettext("Chart")
    if chart_id is None:
        digest = hashlib.sha1(repr((sorted(series.items()), target, title)).encode())
        chart_id = "chart-" + digest.hexdigest()[:10]
    if desc is None:
        shown = ", ".join(f"{name} {_fmt(v)}" for name, v in last.items() if v is not None)
        desc = (gettext("Last values: %(shown)s.", shown=shown) if shown
                else gettext("No values yet.")) + (
            " " + gettext("Target line at %(target)s.", target=_fmt(target))
            if target is not None else "")

    # The axis starts at 0 unless told (a rating's line, far from 0, would be flat).
    floor = [0] if from_zero or not values else []
    ticks = nice_ticks(min(values + floor + ([target] if target is not None else [])),
                       max(values + floor + ([target] if target is not None else [])))
    lo, hi = ticks[0], ticks[-1]
    left = 10 + max(len(_fmt(t)) for t in ticks) * CHAR + (FONT + 4 if y_label else 0)
    legend, legend_height = _legend(names, last, width - 8, 8)
    top = legend_height + FONT + 4  # room above the top line for the target's label
    right = width - 14
    bottom = top + height - (FONT * 2 + 16 if x_label else FONT + 14)
    total_height = top + height

    def px(i: int) -> float:
        return (left + right) / 2 if count <= 1 else left + (right - left) * i / (count - 1)

    def py(v: float) -> float:
        return bottom - (bottom - top) * (v - lo) / (hi - lo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} '
           f'{total_height:.0f}" width="100%" role="img" '
           f'aria-labelledby="{chart_id}-title {chart_id}-desc" font-size="{FONT}" '
           f'font-family="system-ui, -apple-system, Roboto, sans-serif" '
           f'style="display:block;height:auto;max-width:100%">',
           f'<title id="{chart_id}-title">{escape(title)}</title>',
           f'<desc id="{chart_id}-desc">{escape(desc)}</desc>', *legend]
    for t in ticks:
        out.append(f'<line x1="{left:.1f}" y1="{py(t):.1f}" x2="{right:.1f}" y2="{py(t):.1f}" '
                   f'class="grid" stroke-width="{1.5 if t == 0 else 1}"/>'
                   f'<text class="tick" x="{left - 6:.1f}" y="{py(t) + FONT * 0.35:.1f}" '
                   f'text-anchor="end">{_fmt(t)}</text>')
    step = max(1, math.ceil(count / max(1, int((right - left) // (FONT * 2.6)))))
    for i in range(0, count, step):
        label = labels[i] if labels is not None and i < len(labels) else str(i)
        # A label that would run past the right edge (the last point's, or a month's near
        # it) ends at its point instead.
        past = px(i) + len(label) * CHAR / 2 > width
        anchor = "end" if (i == count - 1 and count > 1) or past else "middle"
        out.append(f'<text class="tick" x="{px(i):.1f}" y="{bottom + FONT + 6:.1f}" '
                   f'text-anchor="{anchor}">{escape(label)}</text>')
    if x_label:
        out.append(f'<text class="tick" x="{(left + right) / 2:.1f}" y="{total_height - 6:.1f}" '
                   f'text-anchor="middle">{escape(x_label)}</text>')
    if y_label:
        middle = (top + bottom) / 2
        out.append(f'<text class="tick" x="{FONT:.1f}" y="{middle:.1f}" text-anchor="middle" '
                   f'transform="rotate(-90 {FONT:.1f} {middle:.1f})">{escape(y_label)}</text>')
    if target is not None:
        out.append(f'<line class="target" x1="{left:.1f}" y1="{py(target):.1f}" '
                   f'x2="{right:.1f}" y2="{py(target):.1f}" stroke-width="1.5" '
                   f'stroke-dasharray="6 5" opacity=".75"/>')
    xs = [f"{px(i):.1f}" for i in range(count)]  # every series' points share their x
    for index, name in enumerate(names):
        out.append(_line(series[name], index, name, xs, py, count))
    if target is not None:  # over the lines, so a line can never hide it
        text = (target_label if target_label is not None else
                gettext("target %(target)s", target=_fmt(target)))
        out.append(f'<text class="target" x="{left + 4:.1f}" y="{py(target) - 6:.1f}" '
                   f'font-size="{FONT}" stroke-width="4" '
                   f'paint-order="stroke">{escape(text)}</text>')
    out.append("</svg>")
    return Markup("".join(out))


def _line(values: Sequence[float | None], index: int, name: str, xs: Sequence[str], py,
          count: int) -> str:
    """Return one series as polylines broken at gaps, with a dot on each point (`xs`: each
    point's x, written once for every series)."""
    dash = DASHES[index % len(DASHES)]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    runs: list[list[tuple[str, str]]] = [[]]
    for i, value in enumerate(values):
        if value is None:
            runs.append([])
        else:
            runs[-1].append((xs[i], f"{py(value):.1f}"))
    parts = [f'<g class="series {_series(index)}" data-name="{escape(name)}">']
    for run in filter(None, runs):
        points = " ".join(f"{x},{y}" for x, y in run)
        parts.append(f'<polyline points="{points}" fill="none" '
                     f'stroke-width="3" stroke-linejoin="round" stroke-linecap="round"'
                     f'{dash_attr}/>')
        if count <= MARKERS_UP_TO or len(run) == 1:
            parts.extend(f'<circle cx="{x}" cy="{y}" r="3.5"/>' for x, y in run)
    parts.append("</g>")
    return "".join(parts)


def game_series(core: rules.Game, result: rules.GameResult) -> dict[str, list[int]]:
    """Return each player's running total before the first hand and after every hand."""
    start = variants.get(core.variant).chart_start(core, result)
    return {name: [start[name]] + [r.totals[name] for r in result.rounds]
            for name in core.players}


def game_chart_title(core: rules.Game) -> str:
    """Return the heading of a game's chart, e.g. "Penalty points, hand by hand"."""
    home = variants.get(core.variant)
    return gettext("%(what)s, %(round)s by %(round)s", what=home.totals_label(core.settings),
                   round=home.word())


def game_chart(core: rules.Game, result: rules.GameResult, chart_id: str | None = None) -> Markup:
    """Return the line chart of every player's running total by hand, with the target line."""
    if not result.rounds:
        return Markup("")
    home = variants.get(core.variant)
    what, hand = home.totals_label(core.settings), home.word()
    target = home.target(core.settings)
    series = game_series(core, result)
    n = len(result.rounds)
    shown = ", ".join(f"{name} {values[-1]}" for name, values in series.items())
    desc = gettext("%(what)s after %(round)s %(number)s: %(shown)s.", what=what, round=hand,
                   number=n, shown=shown)
    if target is not None:
        desc += " " + gettext("The game ends at %(target)s.", target=target)
    return line_chart(series, target, labels=["0"] + [str(i) for i in range(1, n + 1)],
                      title=game_chart_title(core), desc=desc, x_label=hand,
                      target_label=(gettext("ends at %(target)s", target=target)
                                    if target is not None else None),
                      chart_id=chart_id)
