# Kings Corners Scorekeeper: `make run` to play, `make test` to check everything.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
HTTPS ?=  # make run HTTPS=1: over HTTPS, on a certificate made on the first run

.PHONY: install install-test audit-tools run test lint bench lighthouse clean
# The compiled message catalogues (Spanish), built from the .po files beside them.
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard scorekeeper/web/translations/*/LC_MESSAGES/messages.po))
# Installing and starting say what they do in a line each, not the commands behind it.
.SILENT: $(VENV)/.installed $(VENV)/.installed-test $(CATALOGUES) run

install: $(VENV)/.installed $(CATALOGUES)

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || { echo "Creating the virtual environment in $(VENV)/"; \
	  $(PYTHON) -m venv $(VENV); }
	echo "Installing the app's packages (a minute or two the first time)"
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

scorekeeper/web/translations/%/LC_MESSAGES/messages.mo: scorekeeper/web/translations/%/LC_MESSAGES/messages.po $(VENV)/.installed
	echo "Compiling the $* translation"
	$(BIN)/pybabel -q compile -i $< -o $@ -l $*

install-test: $(VENV)/.installed-test

$(VENV)/.installed-test: $(VENV)/.installed pyproject.toml
	echo "Installing the test tools (pytest, Playwright, ruff)"
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# The page audits' tools (axe-core, vnu.jar) and ESLint from package-lock.json; without npm
# the audits and the scripts' lint are skipped here (CI installs npm and fails instead).
audit-tools: node_modules/.package-lock.json

node_modules/.package-lock.json: package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error; \
	else echo "npm not found: the axe-core and HTML checks will be skipped"; fi

run: install
	$(BIN)/kings-corners serve --port $(PORT)$(if $(filter-out 0 no,$(HTTPS)), --https)

# Everything but the browser on every core; then the browser, one page at a time (a phone's
# timing is what it checks: it is not shared with the rest).
# The suite starts the app in many processes (its workers, servers, commands): each reads
# the modules compiled by the first, even where PYTHONDONTWRITEBYTECODE is set (about 7 s).
TESTS := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest

test: install install-test audit-tools
	$(BIN)/ruff check .
	@if [ -x node_modules/.bin/eslint ]; then node_modules/.bin/eslint static; \
	elif [ -n "$$CI" ]; then echo "eslint is missing: npm ci"; exit 1; \
	else echo "npm not found: the phones' scripts are not linted"; fi
	$(TESTS) -m 'not browser'
	$(TESTS) -m browser -n 0

# The limits of docs/performance.md, judged at twenty years of weekly nights (a few minutes),
# then under a crowd's load: eight tables (two processes on PostgreSQL with TEST_DATABASE_URL).
bench: install-test
	$(BIN)/python bench/bench_years.py 20
	$(BIN)/python bench/bench_load.py 8

lighthouse: install
	bash scripts/lighthouse.sh

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache
