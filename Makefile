# tikki — two commands do the whole set-up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
ARGS   ?=

.PHONY: run test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,openspiel,pettingzoo]'
	touch $(STAMP)

## Play Myllymatti in the terminal against two bots (3 players).
run: $(STAMP)
	$(BIN)/tikki play myllymatti --players 3 $(ARGS)

## Lint, type-check and run the whole test suite on both cores.
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check tikki tests benchmarks
	$(BIN)/ruff format --check tikki tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2 -q

## Throughput benchmark with the peer systems (installs bench extras into the venv);
## options through ARGS, e.g. make bench ARGS='--seconds 1 --only mattis'.
bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/throughput.py $(ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
