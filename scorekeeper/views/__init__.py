"""Blueprints: thin views that parse, call the core, commit and redirect."""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
from pathlib import Path

from flask import Flask, url_for

from .. import rules


def register_blueprints(app: Flask) -> None:
    """Attach the blueprint `bp` of every module in this package, and the template helpers."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "bp"):
            app.register_blueprint(module.bp)
    _template_helpers(app)


def rules_summary(settings: dict, variant_name: str) -> str:
    """Return a game's settings in a few words, e.g. "to 25 · kings 10, cards 1"."""
    s = settings
    if variant_name == "penalty":
        when = "" if s["end_when"] == "reaches" else " (must pass it)"
        return f"to {s['target']}{when} · king {s['king_points']}, card {s['card_points']}"
    if variant_name == "coronation":
        n = s["deals_to_win"]
        return f"first to {n} deal{'s' if n != 1 else ''}"
    if variant_name == "chips":
        return _chips_summary(s)
    return ""


# How a chips setting that differs from its set is named in the summary.
CHIPS_WORDS = {"ante": "ante {}", "pass_chips": "pass {}", "king_held_chips": "king held {}",
               "missed_draw_chips": "missed draw {}", "card_chips": "card {}",
               "king_chips": "king {}"}


def _chips_summary(s: dict) -> str:
    """Return a chips game's set, how its chips are dealt, what differs, and its target."""
    preset = rules.get_variant("chips").presets.get(s.get("preset"), {})
    words = [f"{str(s.get('preset', '')).capitalize()} set"]
    words.append(f"{s['start_chips']} each" if s.get("start_chips") is not None
                 else f"{s.get('total_chips')} split")
    words += [word.format(s[key]) for key, word in CHIPS_WORDS.items()
              if key in s and s[key] != preset.get(key)]
    if s.get("reset_each_hand") != preset.get("reset_each_hand"):
        words.append("re-split each hand" if s.get("reset_each_hand") else "stacks carry over")
    if s.get("target"):
        words.append(f"to {s['target']}")
    return " · ".join(words)


def round_noun(variant_name: str, count: int | None = None) -> str:
    """Return what a round is called at the table: a deal in coronation, else a hand."""
    word = "deal" if variant_name == "coronation" else "hand"
    return word if count is None or count == 1 else word + "s"


def _template_helpers(app: Flask) -> None:
    """Add `asset()` (a cache-busting static URL) and the variant filters."""
    versions: dict[str, str] = {}

    def asset(filename: str) -> str:
        if filename not in versions or app.debug:
            path = Path(app.static_folder) / filename
            versions[filename] = hashlib.sha1(path.read_bytes()).hexdigest()[:10]
        return url_for("static", filename=filename, v=versions[filename])

    app.jinja_env.globals["asset"] = asset
    app.jinja_env.globals["noun"] = round_noun
    app.jinja_env.filters["variant_label"] = lambda name: rules.get_variant(name).label
    app.jinja_env.filters["rules_summary"] = rules_summary
