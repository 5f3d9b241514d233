# Two commands do all the set-up: `make run` and `make test` (see README.md).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run install test lint typecheck pytest soak bench clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

run: install
	$(VENV)/bin/citadels demo

lint: install
	$(VENV)/bin/ruff check src tests benchmarks

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
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
