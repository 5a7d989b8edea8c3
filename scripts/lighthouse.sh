#!/usr/bin/env bash
# Lighthouse on the main pages, light and dark, for the README's figures: npm installs
# Lighthouse and a Node 22 of its own (package.json's devDependencies), Debian's chromium runs
# the pages. Prints a Markdown table; the reports are kept in test-artifacts/lighthouse/.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromium >/dev/null || { echo "needs Debian's chromium (apt-get install chromium)" >&2; exit 1; }
if [ ! -x node_modules/.bin/lighthouse ] || [ ! -x node_modules/.bin/node ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
.venv/bin/python scripts/lighthouse.py
