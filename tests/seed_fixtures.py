"""Fixtures and paths shared by the pipeline tests: the repo, ../shared, one ingested copy of the seeds."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
SHARED = Path(os.environ.get("INGEST_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus"


def corpus_or_skip() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"{CORPUS} is absent (the shared corpus sits beside the repo in CI)")
    return CORPUS


@pytest.fixture(scope="session")
def seeded_warehouse(tmp_path_factory) -> Path:
    """The seeds ingested once (stages called directly) into a fresh warehouse."""
    from ingest import run_pipeline

    base = tmp_path_factory.mktemp("seeded")
    inputs = base / "seeds"
    shutil.copytree(SEEDS, inputs)
    run_pipeline([inputs], base / "ingest.duckdb", base / "reports")
    return base / "ingest.duckdb"


@pytest.fixture
def seeded_con(seeded_warehouse):
    from ingest import warehouse

    con = warehouse.connect(seeded_warehouse, read_only=True)
    yield con
    con.close()


def document_row_counts(db: Path) -> dict[str, int]:
    """Row counts of a warehouse's tables, without `runs` (which grows by one per run)."""
    from ingest import warehouse

    con = warehouse.connect(db, read_only=True)
    try:
        counts = warehouse.table_counts(con)
    finally:
        con.close()
    counts.pop("runs")
    return counts
