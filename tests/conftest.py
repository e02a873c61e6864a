"""pytest configuration: quiet Prefect, and the shared fixture modules."""

from __future__ import annotations

import os

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")

pytest_plugins = ["seed_fixtures", "hostile_fixtures", "prefect_fixtures", "bench_fixtures"]
