# One command installs and runs the demo; one installs and runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export DAGSTER_HOME ?= $(CURDIR)/.sadie/dagster
WEB_PORT ?= 8080
# The sandbox's one address: the demo's pulled DMOs (WordPress, Drupal, partner API, POI, scrapes)
# keep it in their configs, and `make dev` serves the sandbox there, so they can be pulled again.
export SADIE_SANDBOX_PORT ?= 8765
# the key the demo partner API's config names (the sandbox's partner API takes any key)
export SADIE_DEMO_PARTNER_API_KEY ?= demo-partner-key

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
	mkdir -p $(DAGSTER_HOME) .sadie
	$(BIN)/sadie db upgrade
	@echo "Dagster UI:                     http://127.0.0.1:3000"
	@echo "review and operations web app:  http://127.0.0.1:$(WEB_PORT)  (make demo prints a demo admin)"
	@echo "sandbox (the demo DMOs' sources): http://127.0.0.1:$(SADIE_SANDBOX_PORT)  (its log: .sadie/sandbox.log)"
	$(BIN)/sadie sandbox serve --port $(SADIE_SANDBOX_PORT) --dns-port 0 >.sadie/sandbox.log 2>&1 & sandbox=$$!; \
	$(BIN)/sadie web --port $(WEB_PORT) & web=$$!; trap 'kill $$web $$sandbox 2>/dev/null' EXIT INT TERM; \
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
