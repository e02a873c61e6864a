"""The report's data, cached like a stage: the cross-document checks are the one cost of an
unchanged re-run that grows with the corpus, and their result depends only on the documents."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import duckdb

from .. import check, outputs, warehouse
from ..outputs import data as report_model
from ..translate.waiting import waiting_count
from .cache import StageCache


def _report_key(con: duckdb.DuckDBPyConnection) -> str:
    """What the report's data depends on: every document's bytes, pipeline version and status,
    how many segments wait for a translation (filling them changes the English shown), the
    schema and check SQL, and the report code."""
    digest = hashlib.sha256(warehouse.documents_digest(con).encode())
    digest.update(f"waiting={waiting_count(con)}".encode())
    digest.update(warehouse.schema_digest().encode())
    digest.update(check.views_digest().encode())
    digest.update(Path(report_model.__file__ or "").read_bytes())
    return digest.hexdigest()


def report_data(con: duckdb.DuckDBPyConnection, summary_line: str, cache_dir: str | Path | None) -> outputs.ReportData:
    """`outputs.collect`, from the stage cache when no document changed since it was collected."""
    cache = StageCache(cache_dir)
    key = _report_key(con) if cache.root else ""
    data = cache.get("report", key) if key else None
    if not isinstance(data, outputs.ReportData):
        # The pairs missing for what the warehouse holds, not only for this run's documents: a
        # re-run that skips everything still says which packages the stored segments wait for.
        data = outputs.collect(con, summary_line=summary_line)
        if key:
            cache.put("report", key, data, keep_only=True)
        return data
    return dataclasses.replace(data, generated_at=report_model.generated_at(), summary_line=summary_line)
