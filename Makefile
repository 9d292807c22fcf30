# Pendragon: the two quick-start commands are `make play` and `make test`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip
# pyproject.toml declares compatible ranges; this file holds the exact versions installed here
# (and in CI), transitive ones included. `make lock` regenerates it.
CONSTRAINTS := constraints.txt
# Two installs into the same .venv: `make play` takes only what the online table needs (the web
# extra); everything else (tests, lint, mypy, benchmarks, the terminal game) takes every group.
PLAY_STAMP := $(VENV)/.installed-play
STAMP  := $(VENV)/.installed-all
# Optional groups the test suite exercises (research adapters, ...).
EXTRAS := rl,web,sim
# Example plugin packages with their own pyproject.toml (examples/plugin-game/, ...): installed
# editable after pendragon, without dependencies, for the tests. None at all is fine.
EXAMPLE_PROJECTS := $(wildcard examples/*/pyproject.toml)

.PHONY: play play-terminal test lint typecheck pytest bench bench-server golden lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(PLAY_STAMP): pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(PIP) install --quiet -c $(CONSTRAINTS) pip
	$(PIP) install --quiet -c $(CONSTRAINTS) -e '.[web]'
	touch $@

$(STAMP): pyproject.toml $(CONSTRAINTS) $(EXAMPLE_PROJECTS) | $(BIN)/python
	$(PIP) install --quiet -c $(CONSTRAINTS) pip
	$(PIP) install --quiet -c $(CONSTRAINTS) -e '.[dev,$(EXTRAS)]'
	$(foreach p,$(EXAMPLE_PROJECTS),$(PIP) install --quiet --no-deps -e ./$(dir $(p)) &&) true
	touch $@ $(PLAY_STAMP)

# The online table on localhost (SQLite); `make play-terminal` for a game in the terminal.
play: $(PLAY_STAMP)
	$(BIN)/pendragon serve

play-terminal: $(STAMP)
	$(BIN)/pendragon play soc --players 5 --seat 0

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

# As root (CI, a fresh machine) the Debian packages of the browser and database tests are
# installed and PostgreSQL started first; otherwise those tests skip, saying why.
pytest: $(STAMP)
	@if [ -z "$${PENDRAGON_TEST_POSTGRES:-}" ] && [ "$$(id -u)" = 0 ]; then \
		PENDRAGON_TEST_POSTGRES="$$(bash scripts/system-deps.sh | tail -n 1)"; \
		export PENDRAGON_TEST_POSTGRES; \
	fi; \
	$(BIN)/python -m pytest -n 2

bench: $(STAMP)
	$(BIN)/python -m bench.run
	$(BIN)/python -m bench.envs

bench-server: $(STAMP)
	$(BIN)/python -m bench.server

golden: $(STAMP)
	$(BIN)/python -m pendragon.tools.golden --write

# Moves every package to the newest release pyproject.toml's ranges allow: installs
# '.[dev,$(EXTRAS)]' unconstrained into a throwaway venv and rewrites $(CONSTRAINTS) below its
# header comment from `pip freeze`. Run `make test` before committing the result.
lock:
	set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(PYTHON) -m venv "$$tmp/venv"; \
	"$$tmp/venv/bin/python" -m pip install --quiet --upgrade pip; \
	"$$tmp/venv/bin/python" -m pip install --quiet -e '.[dev,$(EXTRAS)]'; \
	{ sed '/^[^#]/,$$d' $(CONSTRAINTS); \
	  "$$tmp/venv/bin/python" -m pip freeze --all --exclude-editable \
	    | grep -v -E '^#|@ file:|^(pendragon|setuptools|wheel)==' | LC_ALL=C sort -f; \
	} > "$$tmp/constraints.txt"; \
	cp "$$tmp/constraints.txt" $(CONSTRAINTS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
