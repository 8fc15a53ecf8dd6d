# One command installs and runs the demo; one installs and runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export DAGSTER_HOME ?= $(CURDIR)/.sadie/dagster
WEB_PORT ?= 8080

.PHONY: install demo dev test test-fast bench clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/sadie demo

dev: $(STAMP)
	mkdir -p $(DAGSTER_HOME)
	$(BIN)/sadie db upgrade
	@echo "Dagster UI:                     http://127.0.0.1:3000"
	@echo "review and operations web app:  http://127.0.0.1:$(WEB_PORT)  (make demo prints a demo admin)"
	$(BIN)/sadie web --port $(WEB_PORT) & web=$$!; trap 'kill $$web 2>/dev/null' EXIT INT TERM; \
	$(BIN)/dagster dev -w workspace.yaml

# three workers on two cores, a test file each at a time (pytest-xdist): the slow tests mostly wait
# on child processes (daemons, browsers), and each worker has its own database
test: $(STAMP)
	$(BIN)/python -m pytest -q -n 3 --dist loadfile

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow and not browser"

bench: $(STAMP)
	$(BIN)/python benchmarks/listings_ingest.py

clean:
	rm -rf .sadie
