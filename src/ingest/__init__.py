"""ingest: multilingual technical-news ingestion into a DuckDB warehouse, with claims and
cross-source consistency checks.

The public API is imported lazily, so that light modules (`ingest.deploy`, run by a Prefect
worker before the flow loads) do not pay for spaCy, DuckDB and CTranslate2:

    from ingest import RunOptions, run_pipeline
    summary = run_pipeline(["articles/"], "warehouse/ingest.duckdb", "reports")
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["IngestError", "RunOptions", "RunSummary", "Status", "prune", "run", "run_pipeline"]

_EXPORTS = {
    "IngestError": "ingest.errors",
    "RunOptions": "ingest.settings",
    "Status": "ingest.records",
    "RunSummary": "ingest.run.runner",
    "run": "ingest.run.runner",
    "run_pipeline": "ingest.run.runner",
    "prune": "ingest.run.runner",
}

if TYPE_CHECKING:
    from .errors import IngestError
    from .records import Status
    from .run.runner import RunSummary, prune, run, run_pipeline
    from .settings import RunOptions


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'ingest' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
