# Kings Corners Scorekeeper: `make run` to play, `make test` to check everything.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

.PHONY: install install-test audit-tools run test lint bench lighthouse clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

install-test: $(VENV)/.installed-test

$(VENV)/.installed-test: $(VENV)/.installed pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# The page audits' tools (axe-core, vnu.jar) from package-lock.json; without npm the audits
# are skipped here (CI installs npm and fails instead).
audit-tools: node_modules/.package-lock.json

node_modules/.package-lock.json: package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: the axe-core and HTML checks will be skipped"; fi

run: install
	$(BIN)/flask --app app db upgrade
	$(BIN)/python -m scorekeeper.serve --port $(PORT)

test: install-test audit-tools
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: install-test
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/bench_live.py
	$(BIN)/python bench/bench_years.py

lighthouse: install
	bash scripts/lighthouse.sh

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
