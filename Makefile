# Two commands for newcomers: `make run` and `make test`. Both bootstrap uv if missing.
SHELL := /bin/bash
export PREFECT_SERVER_ANALYTICS_ENABLED := false
export DO_NOT_TRACK := 1
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS := 180
# The project's own Prefect home (server database, PID files, logs); overridable from the environment.
PREFECT_HOME ?= $(CURDIR)/.prefect
export PREFECT_HOME

UV := $(shell command -v uv 2>/dev/null || echo $(HOME)/.local/bin/uv)
INPUTS ?= seeds
WAREHOUSE ?= warehouse/ingest.duckdb
REPORTS ?= reports

.PHONY: run test bench sync uv serve stop

uv:
	@command -v $(UV) >/dev/null 2>&1 || python3 -m pip install --user --quiet uv || curl -LsSf https://astral.sh/uv/install.sh | sh

sync: uv
	$(UV) sync --frozen

run: sync
	$(UV) run ingest run $(INPUTS) --warehouse $(WAREHOUSE) --reports $(REPORTS)

# `make test` (and so CI) includes the slow soak (1,000 documents, a SIGKILL, a re-run).
test: sync
	INGEST_RUN_SLOW=1 $(UV) run pytest

bench: sync
	$(UV) run python -m bench

# A local Prefect server + worker with the `ingest` deployment (prefect.yaml); see README, "Prefect".
serve: sync
	$(UV) run python scripts/prefect_local.py serve

stop:
	$(UV) run --no-sync python scripts/prefect_local.py stop
