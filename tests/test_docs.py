"""The README and docs stand alone: every file they link to is in the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve()


def test_every_link_of_the_docs_leads_to_a_file_in_the_repository():
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for document in documents:
        for target in re.findall(r"\]\(([^)#\s]+)", document.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            found = (document.parent / target).resolve()
            assert found.is_relative_to(ROOT), f"{document.name} links outside: {target}"
            assert found.exists(), f"{document.name} links to a missing file: {target}"


def headings(document: Path) -> set[str]:
    """Return the anchors GitHub gives a Markdown file's headings (code blocks skipped)."""
    text = re.sub(r"^```.*?^```", "", document.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")
            for title in re.findall(r"^#+ (.+)$", text, re.M)}


def test_every_link_to_a_part_of_a_page_leads_to_one_of_its_headings():
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for document in documents:
        for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)",
                                         document.read_text(encoding="utf-8")):
            page = (document.parent / target).resolve() if target else document
            if page.suffix == ".md":
                assert anchor in headings(page), f"{document.name} links to {target}#{anchor}"


def test_nothing_in_the_repository_points_at_files_outside_it():
    """The rules and formats are the repository's own docs, not texts beside the checkout."""
    outside = re.compile(r"\.\./shared|\b(?:RULES|GAMELOG|STYLE)\.md\b|\bseeds?/|/work/")
    skip = {".git", ".venv", "node_modules", "test-artifacts", "instance", "__pycache__",
            ".pytest_cache", ".hypothesis", ".ruff_cache", "vendor"}
    for path in ROOT.rglob("*"):
        if set(path.relative_to(ROOT).parts) & skip or not path.is_file() or path == HERE:
            continue
        if path.suffix in {".py", ".md", ".html", ".js", ".css", ".toml", ".ini", ".mako",
                           ".cfg", ".txt"} or path.name in {"Makefile", "run"}:
            found = outside.search(path.read_text(encoding="utf-8", errors="replace"))
            assert not found, f"{path.relative_to(ROOT)} points outside: {found[0]}"
