"""A run's translation after the checks: what `RunOptions.translate` asks to be translated and
is still waiting — the sentences the report shows (`evidence`), every segment (`all`: what
earlier runs left waiting; its own segments were translated in the stages) or nothing (`none`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb

from .. import outputs, warehouse
from ..outputs import ReportData
from ..translate import TranslationEngine, make_engine
from ..translate.waiting import FillResult, Progress, fill_waiting, untranslated, waiting_count


def fill_for_run(
    con: duckdb.DuckDBPyConnection,
    engine: TranslationEngine,
    mode: str,
    report: Callable[[], ReportData],
    progress: Progress | None = None,
) -> FillResult:
    """Fill the waiting segments `mode` asks for; `report` gives the report's data as it stands
    (the evidence to translate first)."""
    waiting = waiting_count(con)
    if mode == "none" or not waiting or not engine.package_keys():
        return FillResult(still_waiting=waiting)
    sentences = report().shown_sentences() if mode == "evidence" else None
    result = fill_waiting(con, engine, sentences, progress)
    result.still_waiting = waiting - result.filled
    return result


def translate_warehouse(
    warehouse_path: str | Path,
    reports_dir: str | Path | None,
    engine: TranslationEngine | None = None,
    progress: Progress | None = None,
) -> tuple[FillResult, list[Path]]:
    """`ingest translate`: fill every waiting segment of the warehouse (cache first, then the
    installed packages), then rewrite the report; with nothing waiting it does nothing. The result
    also counts the segments no installed package translates (`FillResult.untranslated`)."""
    if not Path(warehouse_path).exists():
        raise FileNotFoundError(f"no warehouse at {warehouse_path}; nothing to translate (check --warehouse)")
    con = warehouse.connect(warehouse_path)
    try:
        result = fill_for_run(con, engine or make_engine(), "all", lambda: outputs.collect(con), progress)
        result.untranslated = untranslated(con)[0]
        paths = outputs.write_reports(con, reports_dir) if reports_dir is not None and result.filled else []
    finally:
        con.close()
    return result, paths
