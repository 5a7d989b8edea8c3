"""The README and docs stand alone: every file they link to is in the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_link_of_the_docs_leads_to_a_file_in_the_repository():
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for document in documents:
        for target in re.findall(r"\]\(([^)#\s]+)", document.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            found = (document.parent / target).resolve()
            assert found.is_relative_to(ROOT), f"{document.name} links outside: {target}"
            assert found.exists(), f"{document.name} links to a missing file: {target}"
