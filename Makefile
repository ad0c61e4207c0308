# The two commands of the README: `make play` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: play test lint typecheck page unit bench bench-server figures calibration fuzz chaos native clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The editable install builds the optional C core of Centrix (setup.py) in place; where it
# cannot compile the install goes on and the engine runs on its pure-Python path.
$(STAMP): $(BIN)/python pyproject.toml setup.py src/gamenight/centrix/_speedups.c
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,rl,scale,train,lab,bench,rllib]'
	touch $@

play: $(STAMP)
	$(BIN)/gamenight

# Browser tests drive Debian's Chromium through Playwright (its own download cannot work here).
CHROMIUM ?= /usr/bin/chromium

# fonts-nanum: Chromium here has no Korean font, and the Korean screenshots and reports
# need one. Both are targets (grouped: one install makes both), so a machine with Chromium
# alone still gets the font.
KOREAN_FONT ?= /usr/share/fonts/truetype/nanum/NanumGothic.ttf
$(CHROMIUM) $(KOREAN_FONT) &:
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-nanum >/dev/null

# fonts-noto-cjk: Noto Sans CJK, the Korean font of Android and of most Linux desktops, whose
# lines are taller and glyphs wider than Nanum Gothic's. The Korean layout tests run with each
# (tests/browser/conftest.py, KOREAN_FONTS).
NOTO_CJK_FONT ?= /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
$(NOTO_CJK_FONT):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null

test: $(DEV_STAMP) $(CHROMIUM) $(KOREAN_FONT) $(NOTO_CJK_FONT) lint typecheck page unit

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

# The suite runs on the compiled core (with the differential test against the Python
# engine), then the Centrix engine and bot tests again on the pure-Python fallback alone.
unit: $(DEV_STAMP)
	GAMENIGHT_CHROMIUM=$(CHROMIUM) $(BIN)/pytest
	GAMENIGHT_PURE=1 $(BIN)/pytest -q tests/centrix tests/bots tests/conformance

# The page: TypeScript's checker over the // @ts-check ES modules (no build step: they are
# served as they are) and Node's own test runner over their pure parts, the modules' size
# bars and the message types generated from messages.schema.json (node
# tests/js/generate-messages.js writes them). TypeScript's version is pinned by the
# committed package-lock.json.
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

page: $(NODE_STAMP)
	npx --no-install tsc --noEmit -p tsconfig.json
	node --test tests/js/

# The C core, built in place (what the editable install does) after editing _speedups.c.
native: $(STAMP)
	$(BIN)/python setup.py --quiet build_ext --inplace

bench: $(STAMP)
	$(BIN)/gamenight centrix bench
	$(BIN)/gamenight colorcity bench
	$(BIN)/gamenight bench analyse

# Is the analysis' chance to win calibrated? 200 Centrix and 200 Color City games of the
# ladder's bots, one process (docs/learning.md): about 10 minutes.
calibration: $(STAMP)
	nice -n 10 $(BIN)/gamenight bench calibration

# Every figure the README and the docs quote, measured again (a few minutes on one core):
# docs/figures.json and the docs' figure tables; the longer ones are listed with their own
# commands (docs/benchmarks.md). tests/test_figures.py holds the docs to the file.
figures: $(DEV_STAMP)
	$(BIN)/gamenight bench figures

# The table server against its own stack's echo (issue 20; docs/benchmarks.md): a few minutes.
bench-server: $(STAMP)
	$(BIN)/gamenight bench server --tables 500 --seconds 20

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
	rm -rf $(VENV) build dist src/*.egg-info src/gamenight/centrix/*.so .pytest_cache .mypy_cache .ruff_cache .hypothesis node_modules
