# The two commands of the README: `make play` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: play test lint typecheck unit bench fuzz chaos clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,rl,scale,train,lab]'
	touch $@

play: $(STAMP)
	$(BIN)/gamenight

# Browser tests drive Debian's Chromium through Playwright (its own download cannot work here).
CHROMIUM ?= /usr/bin/chromium

# fonts-nanum: Chromium here has no Korean font, and the Korean screenshots need one.
$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-nanum >/dev/null

test: $(DEV_STAMP) $(CHROMIUM) lint typecheck unit

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

unit: $(DEV_STAMP)
	GAMENIGHT_CHROMIUM=$(CHROMIUM) $(BIN)/pytest

bench: $(STAMP)
	$(BIN)/gamenight centrix bench
	$(BIN)/gamenight colorcity bench

# Hostile input for every engine parser, WebSocket message and REST endpoint; prints the
# figures and fails unless every failure count is 0 (a short run is part of `make unit`).
FUZZ_INPUTS ?= 100000
fuzz: $(DEV_STAMP)
	$(BIN)/python -m tests.fuzz --inputs $(FUZZ_INPUTS)

# The long chaos run (issue 14): ≥ 100 server SIGKILLs on PostgreSQL + Redis and SQLite, each
# run on a redis-server and a database of its own; `python -m tests.chaos --help` for the knobs.
CHAOS_ARGS ?= --kills 100
chaos: $(DEV_STAMP)
	$(BIN)/python -m tests.chaos $(CHAOS_ARGS)

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
