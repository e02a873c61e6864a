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

.PHONY: run test bench sync uv serve stop browser

uv:
	@command -v $(UV) >/dev/null 2>&1 || python3 -m pip install --user --quiet uv || curl -LsSf https://astral.sh/uv/install.sh | sh
	@command -v uv >/dev/null 2>&1 || echo 'note: uv is in ~/.local/bin, not on your PATH; for the README commands run: export PATH="$$HOME/.local/bin:$$PATH"'

# Bytecode compiled once here: where PYTHONDONTWRITEBYTECODE is set (many containers) every start
# would otherwise compile ~1,700 modules (~14 s).
sync: uv
	$(UV) sync --frozen --compile-bytecode

run: sync
	$(UV) run ingest run $(INPUTS) --warehouse $(WAREHOUSE) --reports $(REPORTS)

# `make test` (and so CI) includes the slow soak (1,000 documents, a SIGKILL, a re-run).
test: sync browser
	INGEST_RUN_SLOW=1 $(UV) run pytest

# The real-browser test of the HTML report needs headless Chromium and CJK fonts (Debian packages
# chromium, fonts-noto-cjk). Installed with apt-get as root or with passwordless sudo; otherwise
# that test skips and says why.
APT := $(shell [ "$$(id -u)" = 0 ] && echo apt-get || (sudo -n true 2>/dev/null && echo "sudo apt-get"))
browser:
	@if command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi 'Noto Sans CJK'; then :; \
	elif [ -n "$(APT)" ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing chromium and fonts-noto-cjk for the browser test (apt-get)"; \
	  ($(APT) update -qq && DEBIAN_FRONTEND=noninteractive $(APT) install -y -qq chromium fonts-noto-cjk >/dev/null) \
	    || echo "note: apt-get could not install chromium/fonts-noto-cjk; the browser test will skip"; \
	else echo "note: chromium/fonts-noto-cjk are missing and this user cannot apt-get install them; the browser test will skip"; fi

bench: sync
	$(UV) run python -m bench

# A local Prefect server + worker with the `ingest` deployment (prefect.yaml); see README, "Prefect".
serve: sync
	$(UV) run python scripts/prefect_local.py serve

stop:
	$(UV) run --no-sync python scripts/prefect_local.py stop
