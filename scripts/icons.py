"""Draw the app's PNG icons from its crown, with Debian's chromium: run once, commit the files.

Run: .venv/bin/python scripts/icons.py. Writes static/icons/: icon-192.png and
icon-512.png (rounded, as on a home screen), maskable-192.png and maskable-512.png
(full-bleed, the crown inside the middle 80% that every mask keeps) and
apple-touch-icon.png (180 px, square: iOS rounds it itself).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
BACK, CROWN = "#11161d", "#f2c14e"


def page(size: int, radius: float, crown: float) -> str:
    """Return a page that draws the icon at `size` px: a dark tile, the gold crown."""
    return f"""<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:{size}px;height:{size}px;border-radius:{radius * size}px;background:{BACK};
display:flex;align-items:center;justify-content:center;overflow:hidden">
<span style="font:{crown * size}px/1 'DejaVu Sans',sans-serif;color:{CROWN};
margin-top:{-0.06 * crown * size}px">♚</span></div></body></html>"""


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    drawn = {"icon-192.png": (192, 0.22, 0.70), "icon-512.png": (512, 0.22, 0.70),
             "maskable-192.png": (192, 0, 0.52), "maskable-512.png": (512, 0, 0.52),
             "apple-touch-icon.png": (180, 0, 0.62)}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        for name, (size, radius, crown) in drawn.items():
            tab = browser.new_page(viewport={"width": size, "height": size})
            tab.set_content(page(size, radius, crown))
            tab.screenshot(path=str(OUT / name), omit_background=True)
            tab.close()
        browser.close()


if __name__ == "__main__":
    main()
