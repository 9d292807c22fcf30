# Pendragon: the two quick-start commands are `make play` and `make test`.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Optional groups the test suite exercises (research adapters, ...).
EXTRAS := rl,web,sim

.PHONY: play play-terminal test lint typecheck pytest bench bench-server golden clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,$(EXTRAS)]'
	touch $(STAMP)

# The online table on localhost (SQLite); `make play-terminal` for a game in the terminal.
play: $(STAMP)
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

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
