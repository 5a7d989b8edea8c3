"""The table's main flow in Firefox ESR: Debian's firefox-esr, driven by puppeteer-core
over WebDriver BiDi (tests/browser/firefox_flow.mjs), against the live server."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.helpers import need

FLOW = Path(__file__).with_name("firefox_flow.mjs")
PUPPETEER = Path(__file__).resolve().parents[2] / "node_modules" / "puppeteer-core"


def test_the_main_flow_in_firefox(live_server):
    firefox = shutil.which("firefox-esr") or shutil.which("firefox")
    need(firefox is not None, "Firefox ESR (apt-get install firefox-esr)")
    need(shutil.which("node") is not None and PUPPETEER.exists(),
         "Node and puppeteer-core (npm ci)")
    run = subprocess.run(["node", str(FLOW), live_server], capture_output=True, text=True,
                         timeout=180, env={"FIREFOX": firefox, "PATH": "/usr/bin:/bin",
                                           "HOME": str(Path.home())})
    assert run.returncode == 0, run.stdout + run.stderr
    assert "the main flow passed in Firefox" in run.stdout
