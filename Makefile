# polis: two commands do all the set-up on a fresh machine with Python 3.11.
#   make play   creates .venv, installs polis, starts the web app (SQLite store)
#   make test   creates .venv if needed, installs everything the tests need, lints, runs every test
#   make check  the same, but only the quick tier of the tests (no browser, servers or slow ones)
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
TEST_EXTRAS := dev,server,cluster,push,client,arena,rl,openspiel,rl-train
PLAY_EXTRAS := server
# Every install takes its versions from here (`make constraints` writes it anew).
CONSTRAINTS := constraints.txt

.PHONY: play test test-pg lint bench clean vendor api-docs constraints

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# One stamp per set of extras: re-installs only when pyproject.toml or the constraints change.
$(VENV)/.installed-%: pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[$*]'
	touch $@

play: $(VENV)/.installed-$(PLAY_EXTRAS)
	$(BIN)/polis serve

test: $(VENV)/.installed-$(TEST_EXTRAS) web-lint
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2

# The quick tier, before every commit: lint, then every test not marked browser, cluster or
# slow (CONTRIBUTING.md, "Running the tests"), in at most two minutes on two cores.
.PHONY: check
check: $(VENV)/.installed-$(TEST_EXTRAS) web-lint
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 -m "not browser and not cluster and not slow"

lint: $(VENV)/.installed-$(TEST_EXTRAS) web-lint
	$(BIN)/ruff check .
	$(BIN)/mypy

# The web client's checks (Node and npm): layout (prettier), lint (eslint) and the types of the
# modules marked // @ts-check (the TypeScript compiler reads their JSDoc; nothing is built).
# Its unit tests run with the Python tests (tests/cli/test_wording.py runs node --test).
.PHONY: web-lint
web-lint: node_modules/.installed
	npx --no-install prettier --check --log-level warn .
	npx --no-install eslint .
	npx --no-install tsc -p .

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel error
	touch $@

bench: $(VENV)/.installed-$(TEST_EXTRAS)
	$(BIN)/python benchmarks/engines.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info

# constraints.txt: the version of every package that polis and all its extras bring, as pip
# resolves them today for Python 3.11 in a fresh venv (a temporary folder: nothing of .venv
# leaks in). Run it after changing a dependency in pyproject.toml or to take newer releases,
# then make test, and commit both files.
constraints:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(PYTHON) -m venv "$$tmp/venv" && \
	"$$tmp/venv/bin/python" -m pip install --quiet --upgrade pip && \
	"$$tmp/venv/bin/python" -m pip install --quiet -e '.[$(TEST_EXTRAS)]' && \
	{ echo "# Written by 'make constraints' (Python $$("$$tmp/venv/bin/python" -c 'import sys; print(sys.version.split()[0])'), extras $(TEST_EXTRAS))."; \
	  echo "# Every pip install of the Makefile, and so CI, takes these versions: do not edit."; \
	  "$$tmp/venv/bin/python" -m pip freeze --exclude-editable; } > $(CONSTRAINTS).new && \
	mv $(CONSTRAINTS).new $(CONSTRAINTS) && echo "wrote $(CONSTRAINTS)"

# The server's wire contract as documents: docs/server-api.schema.json (the JSON Schema of
# every message, from the types of polis.server.wire) and docs/server-api.md (the prose of
# docs/server-api.in.md with the tables of fields). Run it after changing either; a test
# fails while the committed files differ from what it writes.
api-docs: $(VENV)/.installed-$(PLAY_EXTRAS)
	$(BIN)/python -m polis.server.wire.docs

# The browser libraries vendored under src/polis/server/static/vendor (intl-messageformat,
# which formats the catalogues), rebuilt from the versions package-lock.json pins.
vendor:
	npm ci --no-audit --no-fund
	node scripts/vendor.mjs

# The store tests on PostgreSQL as well (make test runs them only when POLIS_TEST_PG_URL is set).
# Needs a running PostgreSQL server and a role that may create databases, e.g. once:
#   sudo -u postgres psql -c "CREATE ROLE polis LOGIN CREATEDB PASSWORD 'polis'"
# then: make test-pg    (another server: make test-pg PG_URL=postgresql://user:pass@host:port/db)
PG_URL ?= postgresql://polis:polis@127.0.0.1:5432/postgres

test-pg: $(VENV)/.installed-$(TEST_EXTRAS)
	POLIS_TEST_PG_URL='$(PG_URL)' $(BIN)/python -m pytest tests/server -x -n 2 -k postgresql
