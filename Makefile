# polis: two commands do all the set-up on a fresh machine with Python 3.11.
#   make play   creates .venv, installs polis, starts a game
#   make test   creates .venv if needed, installs everything the tests need, runs every test
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
EXTRAS ?= dev
STAMP := $(VENV)/.installed-$(EXTRAS)

.PHONY: play test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/polis play quadropolis --mode classic --players 2

test: $(STAMP)
	$(BIN)/python -m pytest -n 2

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/engines.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info
