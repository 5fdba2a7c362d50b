# tikki — two commands do the whole set-up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
ARGS   ?=

.PHONY: run cluster play test check typecheck-js test-newest test-compiled compiled lint typecheck unit bench bench-compiled load clean catalogs catalogs-python catalogs-web

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,web,plot,postgres,openspiel,pettingzoo,gym,parquet,ray,learn]'
	touch $(STAMP)

## Start the web table (lobby at the printed URL; Ctrl-C stops it), e.g. ARGS='--port 8080'.
run: $(STAMP)
	$(BIN)/tikki serve $(ARGS)

## N tikki processes on one PostgreSQL behind nginx (both from Debian's packages, installed
## and started by .ci/services.sh when missing); prints the URL; Ctrl-C stops it all.
## E.g. make cluster N=2 ARGS='--port 9000' (docs/hosting.md).
N ?= 3
cluster: $(STAMP)
	$(BIN)/python -m tikki.server.cluster_run --nodes $(N) $(ARGS)

## Play Myllymatti in the terminal against two bots (3 players), e.g. ARGS='--seed 7'.
play: $(STAMP)
	$(BIN)/tikki play myllymatti --players 3 $(ARGS)

## Lint, type-check (Python and the front end's JavaScript) and run the whole test suite on
## both cores.
test: lint typecheck typecheck-js unit

## The fast inner loop, at most 3 minutes here: lint, type-check, and the engine's and the
## rules' tests and doctests (the `engine` mark, pyproject.toml) with a small conformance
## campaign (`make test` runs the full campaign).
CHECK_GAMES := 20
CHECK_DEEP  := 1

check: lint typecheck
	TIKKI_CONFORMANCE_GAMES=$(CHECK_GAMES) TIKKI_CONFORMANCE_DEEP=$(CHECK_DEEP) $(BIN)/pytest -n 2 -q -m engine

lint: $(STAMP)
	$(BIN)/ruff check tikki tools tests benchmarks conftest.py
	$(BIN)/ruff format --check tikki tools tests benchmarks conftest.py

typecheck: $(STAMP)
	$(BIN)/mypy

## The front end's `// @ts-check` modules through TypeScript's checker (typescript pinned in
## package.json / package-lock.json, installed by npm into node_modules/).
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

typecheck-js: $(NODE_STAMP)
	node_modules/.bin/tsc --noEmit -p tsconfig.json

unit: $(STAMP)
	$(BIN)/pytest -n 2 --dist worksteal -q --durations=40

## A second, fast pass on the newest supported Python (3.13; CI runs it after `make test`):
## a fresh venv with the bare install and the test extras, and the engine's tests (rules,
## conformance, records; no browser, no server). Without a Python 3.13 it says so loudly
## and passes (.ci/test-newest.sh). PYTHON_NEWEST names an interpreter to try first.
## The tests: the `newest` mark (pyproject.toml), but for the conformance harness's long
## random playouts, which run once, in `make test`.
VENV_NEWEST := .venv-newest

test-newest:
	bash .ci/test-newest.sh $(VENV_NEWEST) newest -k 'not test_random_playouts'

## The optional compiled build: a copy of the tree in .build-compiled with the
## engine's hot modules compiled by mypyc (setup.py's COMPILED_MODULES; gcc and the Python
## headers, nothing else), then the tests marked `compiled` (pyproject.toml) on it (CI runs
## it after `make test`).
## The package itself stays pure Python: `TIKKI_MYPYC=1 pip install .` installs a compiled one.
BUILD_COMPILED := .build-compiled

compiled: $(STAMP)
	bash .ci/test-compiled.sh $(BIN)/python $(BUILD_COMPILED)

test-compiled: $(STAMP)
	bash .ci/test-compiled.sh $(BIN)/python $(BUILD_COMPILED) -m compiled tests

## The throughput benchmark on the compiled build, e.g. make bench-compiled ARGS='--seconds 1'.
bench-compiled: compiled
	$(BIN)/python -m pip install -q -e '.[bench]'
	cd $(BUILD_COMPILED) && PYTHONPATH=. ../$(BIN)/python benchmarks/throughput.py $(ARGS)

## Throughput benchmark with the peer systems (installs bench extras into the venv);
## options through ARGS, e.g. make bench ARGS='--seconds 1 --only mattis'.
bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/throughput.py $(ARGS)

## Load benchmark of the web table (200 tables by default), e.g. ARGS='--tables 50'.
load: $(STAMP)
	$(BIN)/python benchmarks/load.py $(ARGS)

## Translations: extract the texts, merge them into the fi/de catalogs, compile them.
## Each domain has its own step; the compiled catalogs and the browser's JSON are committed.
catalogs: catalogs-python catalogs-web

catalogs-python: $(STAMP)
	$(BIN)/python -m tools.catalogs extract update compile

## The web front end's catalogs: extract the texts of tikki/web, update
## tikki/locale/{fi,de}/LC_MESSAGES/web.po and write tikki/web/static/i18n/*.json and
## tikki/web/static/sentences.js (the event logs' sentences, from tikki/sentences.py).
catalogs-web: $(STAMP)
	$(BIN)/python -m tools.web_catalogs

clean:
	rm -rf $(VENV) $(VENV_NEWEST) node_modules $(BUILD_COMPILED) .mypy_cache .ruff_cache .pytest_cache .hypothesis
