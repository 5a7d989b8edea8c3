"""Lighthouse (npm, under Node 22 from npm's `node` package, with Debian's chromium) on the
main pages in mobile mode, light and dark: the figures in the README.

Run: make lighthouse (or bash scripts/lighthouse.sh). It fills a throwaway database with the
games the page audits walk (tests/site.py), serves it on loopback, and prints one Markdown
table of the four scores per page; each report is kept in test-artifacts/lighthouse/.
`python scripts/lighthouse.py --pages` does all but Lighthouse: it opens each page it would
audit and prints its status and address (the suite runs it: Lighthouse is not installed there).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.helpers import make_app, serve  # noqa: E402
from tests.site import pages, seed  # noqa: E402

MAIN = {"Home": "home", "Scoreboard": "scoreboard-penalty", "Record a hand": "record-penalty",
        "History": "history", "Players": "roster"}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
OUT = ROOT / "test-artifacts" / "lighthouse"


def audit(url: str, scheme: str, name: str) -> dict[str, int]:
    """Run Lighthouse on one page as a phone set to a theme; return its scores out of 100."""
    report = OUT / f"{name}-{scheme}.json"
    flags = ("--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage "
             f"--blink-settings=preferredColorScheme={0 if scheme == 'dark' else 1}")
    subprocess.run(
        [str(ROOT / "node_modules/.bin/node"), str(ROOT / "node_modules/lighthouse/cli/index.js"),
         url, "--quiet", "--output=json", f"--output-path={report}",
         f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={flags}"],
        check=True, env={"CHROME_PATH": shutil.which("chromium") or "", "PATH": "/usr/bin:/bin",
                         "HOME": tempfile.gettempdir()})
    found = json.loads(report.read_text())["categories"]
    return {c: round(found[c]["score"] * 100) for c in CATEGORIES}


def main(only_pages: bool = False) -> None:
    path = Path(tempfile.mkdtemp()) / "lighthouse.sqlite"
    paths = pages(seed(path))
    server, base = serve(make_app(path, csrf=True))
    if only_pages:
        try:
            for name in MAIN.values():
                with urllib.request.urlopen(base + paths[name]) as page:
                    print(page.status, page.url)
        finally:
            server.close()
        return
    OUT.mkdir(parents=True, exist_ok=True)
    rows = ["| Page | Theme | Performance | Accessibility | Best practices | SEO |",
            "| --- | --- | --- | --- | --- | --- |"]
    try:
        for label, name in MAIN.items():
            for scheme in ("light", "dark"):
                s = audit(base + paths[name], scheme, name)
                rows.append(f"| {label} | {scheme} | " + " | ".join(str(s[c]) for c in CATEGORIES)
                            + " |")
                print(rows[-1], file=sys.stderr)
    finally:
        server.close()
    print("\n".join(rows))


if __name__ == "__main__":
    main(only_pages=sys.argv[1:] == ["--pages"])
