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
        target = f" · to {s['target']}" if s.get("target") else ""
        return f"{str(s.get('preset', '')).capitalize()} set{target}"
    return ""


def _template_helpers(app: Flask) -> None:
    """Add `asset()` (a cache-busting static URL) and the variant filters."""
    versions: dict[str, str] = {}

    def asset(filename: str) -> str:
        if filename not in versions or app.debug:
            path = Path(app.static_folder) / filename
            versions[filename] = hashlib.sha1(path.read_bytes()).hexdigest()[:10]
        return url_for("static", filename=filename, v=versions[filename])

    app.jinja_env.globals["asset"] = asset
    app.jinja_env.filters["variant_label"] = lambda name: rules.get_variant(name).label
    app.jinja_env.filters["rules_summary"] = rules_summary
