"""The benchmark corpus of 1,000 documents, ingested once per session (stages called directly)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Ingested:
    inputs: Path
    db: Path
    reports: Path


@pytest.fixture(scope="session")
def bench_1000(tmp_path_factory) -> Ingested:
    """1,000 generated articles (bench/corpus.py, seed 0) in a warehouse with its report (~1-2 min)."""
    from bench.corpus import build_corpus
    from ingest import run_pipeline
    from ingest.translate.engine import UntranslatedEngine

    base = tmp_path_factory.mktemp("bench-1000")
    build_corpus(1000, base / "in", seed=0)
    run_pipeline([base / "in"], base / "w.duckdb", base / "reports", engine=UntranslatedEngine())
    return Ingested(base / "in", base / "w.duckdb", base / "reports")
