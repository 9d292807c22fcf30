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
BUILD_STAMP := $(VENV)/.installed-build
STAMP  := $(VENV)/.installed-all
# Optional groups the test suite exercises (research adapters, the learning baseline, ...).
EXTRAS := rl,web,sim,learn
# The learn extra's torch: 2.13.0, whose CPU build (about 190 MB, against some 2.6 GB for the
# CUDA build a plain install takes) this project's machines keep on disk, where pip finds it;
# `make lock` installs it first so that the lock keeps it (docs/research.md).
TORCH_CPU := torch==2.13.0
# Example plugin packages with their own pyproject.toml (examples/plugin-game/, ...): installed
# editable after pendragon, without dependencies, for the tests. None at all is fine.
EXAMPLE_PROJECTS := $(wildcard examples/*/pyproject.toml)

.PHONY: play play-terminal test lint typecheck pytest pytest-pure build bench bench-server golden lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# pyproject.toml's [build-system] requires (a test keeps the two the same): installed into
# .venv so that the editable installs below build without an isolated environment.
BUILD_REQUIRES := setuptools==80.9.0 mypy==1.18.2
# The compiled core (setup.py): mypyc compiles these modules in place; the manifest lists
# them with their sources' hashes. `make build` compiles again after any of them changed.
# Of those, the search bots and the games' heuristics (the rollout policies).
BOT_SOURCES := $(wildcard src/pendragon/bots/*.py src/pendragon/games/*/heuristic*.py) \
	src/pendragon/games/soc/evidence.py src/pendragon/games/soc/saboteur.py \
	src/pendragon/games/soc/talk.py \
	src/pendragon/games/soc_card/leaf.py
COMPILED_SOURCES := $(filter-out %/__init__.py src/pendragon/core/errors.py src/pendragon/bots/base.py, \
	$(wildcard src/pendragon/core/*.py src/pendragon/games/*/rules/*.py) $(BOT_SOURCES))
MANIFEST := src/pendragon/_compiled.json
# The pure pass (`make test`, beside mypy): what the compiled pass cannot see. The
# doctests of the compiled modules (the compiled pass cannot collect them), the test of the
# two builds, and the checks that hold the pure build to the same games: golden games, perft,
# scenarios, conformance (the first 2 games of each table and variant: the same games the
# compiled pass checks first), chance drawn from counts, and the fuzz suite on a tenth of its
# examples (bad input meets Python's types there, not the compiler's). The other rules and
# bot suites would only run the same code again (docs/testing.md).
PURE_SUITES := src/pendragon/core src/pendragon/games/soc/rules src/pendragon/games/soc_card/rules \
	src/pendragon/games/grail_cup/rules src/pendragon/bots \
	$(filter-out src/pendragon/bots/%,$(BOT_SOURCES)) \
	tests/test_golden.py tests/test_perft.py tests/test_scenarios.py tests/test_conformance.py \
	tests/test_compiled.py tests/test_chance_counts.py tests/test_fuzz.py
PURE_ENV := PENDRAGON_PURE=1 PENDRAGON_EXPECT=pure PENDRAGON_CONFORMANCE_GAMES=2 \
	PENDRAGON_FUZZ_SHARE=0.1

# `make play` installs the pure build: it starts in well under two minutes on a new machine;
# `make build` compiles (about a minute more), and later starts use the compiled build.
$(PLAY_STAMP): pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(PIP) install --quiet -c $(CONSTRAINTS) pip $(filter setuptools%,$(BUILD_REQUIRES))
	PENDRAGON_PURE=1 $(PIP) install --quiet --no-build-isolation -c $(CONSTRAINTS) -e '.[web]'
	touch $@

# What the compile needs and nothing more (pip, setuptools, mypy with mypyc): `make test`
# compiles while the rest installs.
$(BUILD_STAMP): $(CONSTRAINTS) | $(BIN)/python
	$(PIP) install --quiet -c $(CONSTRAINTS) pip $(BUILD_REQUIRES)
	touch $@

# Everything else installs every group, pure (the editable install compiles nothing: `make
# build` compiles in place, beside this install, lint and mypy under `make test`), and the
# example plugin packages in the same pip run. `--no-compile`: pip writes no byte code for
# the thousands of modules installed (two thirds of its CPU); the first test run writes it
# for the modules the suite imports (below), and every later process reads it.
$(STAMP): pyproject.toml setup.py $(CONSTRAINTS) $(EXAMPLE_PROJECTS) | $(BUILD_STAMP)
	PENDRAGON_PURE=1 $(PIP) install --quiet --no-compile --no-build-isolation -c $(CONSTRAINTS) \
		-e '.[dev,$(EXTRAS)]' $(foreach p,$(EXAMPLE_PROJECTS),-e ./$(dir $(p)))
	touch $@ $(PLAY_STAMP)

# Compiles the core in place when a compiled module changed since the last build (or none
# was made). Without a C compiler it says so and the package runs pure. It needs only the
# build requirements: mypyc checks the compiled modules, which import nothing outside the
# standard library and pendragon, and follows the rest of the package silently (setup.py),
# so it runs while the dependencies install. mypyc type-checks afresh (a build that is not
# `separate` reads no cache) and writes a cache of its own, apart from `make typecheck`'s.
$(MANIFEST): $(COMPILED_SOURCES) setup.py | $(BUILD_STAMP)
	MYPY_CACHE_DIR=build/mypyc-cache $(BIN)/python setup.py --quiet build_ext --inplace --parallel 2

build: $(MANIFEST)

# The online table on localhost (SQLite); `make play-terminal` for a game in the terminal.
play: $(PLAY_STAMP)
	$(BIN)/pendragon serve

play-terminal: $(STAMP)
	$(BIN)/pendragon play soc --players 5 --seat 0

# The test run starts dozens of Python processes (servers, the command line, workers): each
# reads byte code the first one wrote (of pendragon, the tests and what pip left without)
# instead of compiling its imports again, even where the environment asks Python to write
# none (PYTHONDONTWRITEBYTECODE, set on some CI machines).
test lint typecheck pytest pytest-pure: export PYTHONDONTWRITEBYTECODE :=

# The core compiles while the dependencies install (pip keeps to one core); then ruff and
# mypy, and once the compile is done the pure pass (it compares the two builds), beside
# them; each job's output kept together. Then the compiled pass, on both cores.
test: $(BUILD_STAMP)
	$(MAKE) --no-print-directory -j3 --output-sync=target lint typecheck pytest-pure
	$(MAKE) --no-print-directory pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

# The whole suite on the compiled build (the pure one where no C compiler works). As root
# (CI, a fresh machine) the Debian packages of the browser and database tests are installed
# and PostgreSQL started first; otherwise those tests skip, saying why.
pytest: $(STAMP) $(MANIFEST)
	@if [ -z "$${PENDRAGON_TEST_POSTGRES:-}" ] && [ "$$(id -u)" = 0 ]; then \
		PENDRAGON_TEST_POSTGRES="$$(bash scripts/system-deps.sh | tail -n 1)"; \
		export PENDRAGON_TEST_POSTGRES; \
	fi; \
	PENDRAGON_EXPECT=$$($(BIN)/python -c 'import setup; print(setup.expected_mode())') \
		$(BIN)/python -m pytest -n 2 --dist worksteal

# The pure Python build's own checks (PURE_SUITES): both builds give the same games. After
# the compile: tests/test_compiled.py runs the compiled build beside the pure one (it would
# skip those checks, and a compile finishing under it would change what it sees).
pytest-pure: $(STAMP) $(MANIFEST)
	$(PURE_ENV) $(BIN)/python -m pytest -n 2 --dist worksteal $(PURE_SUITES)

bench: $(STAMP) $(MANIFEST)
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
	"$$tmp/venv/bin/python" -m pip install --quiet $(TORCH_CPU); \
	"$$tmp/venv/bin/python" -m pip install --quiet -e '.[dev,$(EXTRAS)]'; \
	{ sed '/^[^#]/,$$d' $(CONSTRAINTS); \
	  "$$tmp/venv/bin/python" -m pip freeze --all --exclude-editable \
	    | grep -v -E '^#|@ file:|^(pendragon|setuptools|wheel)==' | LC_ALL=C sort -f; \
	} > "$$tmp/constraints.txt"; \
	cp "$$tmp/constraints.txt" $(CONSTRAINTS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build $(MANIFEST)
	find src -name '*.so' -delete
