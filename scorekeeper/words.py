"""Small helpers for the words the app shows: plurals, sentences. Standard library only."""

from __future__ import annotations

import unicodedata

# Bidirectional classes that can reorder the text around them.
MOVING = {"R", "AL", "AN", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"}


def plural(count: int, one: str, many: str | None = None) -> str:
    """Return "1 hand", "2 hands" (or the plural given)."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def sentence(text: str) -> str:
    """Return text as a sentence: a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def capital(text: str) -> str:
    """Return text with its first letter in capitals."""
    return text[:1].upper() + text[1:]


def needs_isolating(name: str) -> bool:
    """Tell whether a name could reorder a left-to-right line around it: it has a
    right-to-left letter, an Arabic digit or a direction mark, or no left-to-right letter."""
    classes = {unicodedata.bidirectional(ch) for ch in name}
    return bool(classes & MOVING) or "L" not in classes
