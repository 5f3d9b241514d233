# Two commands do all the set-up: `make run` and `make test` (see README.md).
VENV ?= .venv
PY := $(VENV)/bin/python
# One .venv, installed at two depths, each with its stamp (newer than pyproject.toml: done):
# - SERVE_STAMP: the package with the tools that build the compiled engine (the `compiled`
#   extra): all `make run`, `make play` and `make demo` need, a few hundred MB;
# - DEV_STAMP: the development extra on top (tests, linters, the RL and Ray backends): `make
#   install`, `make test` and the rest. It holds the serving install too, so it renews both
#   stamps, and `make run` after `make test` installs nothing more.
SERVE_STAMP := $(VENV)/.installed-serve
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run demo play load install install-serve test lint typecheck pytest soak bench clean messages update-po web-i18n compile compiled FORCE

$(PY):
	python3 -m venv $(VENV)

# --no-compile: the serving install skips writing bytecode for every installed file (about a
# third of pip's CPU on a fresh clone); Python writes it for the modules it imports, once.
$(SERVE_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --no-compile --disable-pip-version-check -e ".[compiled]"
	touch $(SERVE_STAMP)

$(DEV_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $(SERVE_STAMP) $(DEV_STAMP)

# The translations (docs/translations.md): the .po catalogs are the source, kept in git; the .mo
# files are their compiled form (gitignored). Without a .mo the game compiles the .po in memory.
LOCALE := src/citadels/present/locale
LANGS := fa ru ko vi
POT := out/citadels.pot
MO_FILES := $(foreach l,$(LANGS),$(LOCALE)/$(l)/LC_MESSAGES/citadels.mo)

# The browser's strings (src/citadels/web/i18n/<lang>.json) are msgids of the same catalogs, in
# the context web:<key>, with en.json as their source list; tools/web_i18n.py writes the other
# languages' tables from the catalogs. PREFER=po or PREFER=json says which side wins where a
# catalog and a table translate a key differently (without it the tool stops and lists them).
PREFER ?=
WEB_I18N := $(PY) tools/web_i18n.py $(if $(strip $(PREFER)),--prefer $(PREFER))

# Extract every marked string, and every key of the browser's en.json, into the template
# out/citadels.pot.
messages: $(SERVE_STAMP)
	mkdir -p out
	$(VENV)/bin/pybabel extract -F babel.cfg -k N_ -k NP_:1,2 -k NC_:1c,2 -k g -k n:1,2 \
		--no-wrap --sort-by-file --add-location=file --project citadels -o $(POT) src/citadels
	$(PY) tools/web_i18n.py pot $(POT)

# Merge the template into each language's catalog (new msgids arrive untranslated; a browser key
# other work added to the JSON tables by hand is imported first, with its translations), then
# write the browser's tables from the catalogs.
update-po: messages
	$(WEB_I18N) import
	$(VENV)/bin/pybabel update -i $(POT) -d $(LOCALE) -D citadels --no-wrap --ignore-obsolete \
		--no-fuzzy-matching
	$(WEB_I18N) write

# Only the browser's strings: import keys found only in the JSON tables, then write the tables
# from the catalogs (no extraction from the sources).
web-i18n: $(SERVE_STAMP)
	$(WEB_I18N)

PO_FILES := $(MO_FILES:.mo=.po)
# One pybabel run compiles every language (a run per language cost a second and a half each of
# a fresh `make run`); its stamp is in the .venv, and a missing .mo forces the run again.
MO_STAMP := $(VENV)/.compiled-mo
MO_MISSING := $(filter-out $(wildcard $(MO_FILES)),$(MO_FILES))

$(MO_STAMP): $(PO_FILES) $(SERVE_STAMP) $(if $(MO_MISSING),FORCE)
	$(VENV)/bin/pybabel compile --statistics -D citadels -d $(LOCALE)
	touch $(MO_STAMP)

FORCE:

compile: $(MO_STAMP)

# The engine compiled with mypyc (docs/api.md, "The compiled engine"), rebuilt when one of its
# sources changes; without a C compiler it builds nothing and the pure-Python engine runs.
# `import citadels` checks the build against the sources' hash, so a stale one never runs.
COMPILED := src/citadels/_compiled/manifest.json
COMPILED_SOURCES := $(shell python3 tools/build_compiled.py --sources)

$(COMPILED): $(SERVE_STAMP) $(COMPILED_SOURCES) src/citadels/compiled.py tools/build_compiled.py
	$(PY) tools/build_compiled.py

compiled: $(COMPILED)

# Everything: the development install, the translations and the compiled engine.
install: $(DEV_STAMP) compile compiled

# Only what serving and playing need (no development extra).
install-serve: $(SERVE_STAMP) compile compiled

# Sets up and starts the online game with SQLite (./citadels.sqlite3); it prints the URL to open.
# Ctrl+C stops it.
run: install-serve
	$(VENV)/bin/citadels serve --host 127.0.0.1 --port 8000

demo: install-serve
	$(VENV)/bin/citadels demo

# The load benchmark of the server (bounded: 200 tables for 60 seconds).
load: install
	$(PY) benchmarks/load.py --tables 200 --seconds 60

# Play in the terminal: you against three medium bots in the classic edition;
# `make play RESUME=FILE` goes on with a saved game (the hint printed on leaving says so).
RESUME ?=
play: install-serve
ifeq ($(strip $(RESUME)),)
	CITADELS_MAKE=play $(VENV)/bin/citadels play --edition classic --players 4 --bots medium
else
	CITADELS_MAKE=play $(VENV)/bin/citadels play --resume "$(RESUME)"
endif

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
