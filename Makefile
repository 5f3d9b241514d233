# Two commands do all the set-up: `make run` and `make test` (see README.md).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run demo play load install test lint typecheck pytest soak bench clean messages update-po compile compiled

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The translations (docs/translations.md): the .po catalogs are the source, kept in git; the .mo
# files are their compiled form (gitignored). Without a .mo the game compiles the .po in memory.
LOCALE := src/citadels/present/locale
LANGS := fa ru ko vi
POT := out/citadels.pot
MO_FILES := $(foreach l,$(LANGS),$(LOCALE)/$(l)/LC_MESSAGES/citadels.mo)

# Extract every marked string into the template out/citadels.pot.
messages: $(STAMP)
	mkdir -p out
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ -k NP_:1,2 -k g -k n:1,2 \
		--no-wrap --sort-by-file --add-location=file --project citadels -o $(POT) src/citadels

# Merge the template into each language's catalog (new msgids arrive untranslated).
update-po: messages
	$(VENV)/bin/pybabel update -i $(POT) -d $(LOCALE) -D citadels --no-wrap --ignore-obsolete

$(LOCALE)/%/LC_MESSAGES/citadels.mo: $(LOCALE)/%/LC_MESSAGES/citadels.po $(STAMP)
	$(VENV)/bin/pybabel compile --statistics -D citadels -d $(LOCALE) -l $*

compile: $(MO_FILES)

# The engine compiled with mypyc (docs/api.md, "The compiled engine"), rebuilt when one of its
# sources changes; without a C compiler it builds nothing and the pure-Python engine runs.
# `import citadels` checks the build against the sources' hash, so a stale one never runs.
COMPILED := src/citadels/_compiled/manifest.json
COMPILED_SOURCES := $(shell python3 tools/build_compiled.py --sources)

$(COMPILED): $(STAMP) $(COMPILED_SOURCES) src/citadels/compiled.py tools/build_compiled.py
	$(PY) tools/build_compiled.py

compiled: $(COMPILED)

install: $(STAMP) compile compiled

# Sets up and starts the online game with SQLite (./citadels.sqlite3); it prints the URL to open.
run: install
	$(VENV)/bin/citadels serve --host 127.0.0.1 --port 8000

demo: install
	$(VENV)/bin/citadels demo

# The load benchmark of the server (bounded: 200 tables for 60 seconds).
load: install
	$(PY) benchmarks/load.py --tables 200 --seconds 60

# Play in the terminal: you against three medium bots in the classic edition.
play: install
	$(VENV)/bin/citadels play --edition classic --players 4 --bots medium

lint: install
	$(VENV)/bin/ruff check src tests benchmarks tools
	$(VENV)/bin/ruff format --check src tests benchmarks tools

typecheck: install
	$(VENV)/bin/mypy src

pytest: install
	$(VENV)/bin/pytest -n auto --dist loadgroup

test: lint typecheck pytest

# The long conformance soak (100,000 random games over every edition and player count).
soak: install
	$(PY) -m citadels.soak --games 100000

bench: install
	$(VENV)/bin/citadels bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis src/citadels/_compiled
