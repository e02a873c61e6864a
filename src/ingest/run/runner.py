"""One run: plan (skip what is unchanged), stages in batches, load, then check, record and report.

`Run` is the one driver of a run's steps: `run_pipeline` calls them in this process, the Prefect
flow (`ingest.flow`) calls the same methods from its tasks. Both produce the same warehouse rows.
"""

from __future__ import annotations

import collections
import datetime as dt
import os
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from .. import outputs, warehouse
from ..check import update_checks
from ..identity import STAGES, run_fingerprint
from ..outputs import check_reports_dir
from ..records import DocumentOutcome, SourceFile, Status, utc_now
from ..settings import RunOptions
from ..translate import CachedEngine, TranslationEngine, make_engine
from ..translate.cache import snapshot
from ..warehouse.load import record_run
from .batches import StageContext, batches, make_context, process_batch, stage_workers
from .cache import usable_cache_dir
from .fill import fill_for_run
from .loading import load_staged
from .plan import Plan, plan_run, prune_missing
from .report_cache import report_data
from .staging import StagedBatch

Progress = Callable[[str, int, int], None]

# Staged rows wait in memory for the loader until this many documents are staged. It bounds peak
# memory at any corpus size (the rows take about 0.2 MB per document: 2.5 GB at 10,000 documents when
# all were loaded at the end), and each load holds the warehouse's lock only for a moment.
LOAD_EVERY_DOCUMENTS = 500
# Fewer documents than this run their stages in the run's process: a spawned worker spends 3-4 s
# importing the stages and loading spaCy and the lexicons, more than it saves on 150 generated
# documents (8.6 s in one process, 7.8 s with two workers; 600 documents: 28.7 s and 17.5 s).
MIN_DOCUMENTS_FOR_WORKERS = 200


def _offset(progress: Progress | None, before: int, total: int) -> Progress | None:
    """`progress` for a load of some of the documents: counts from `before`, out of `total`."""
    if progress is None:
        return None
    return lambda step, done, _: progress(step, before + done, total)


@dataclass
class RunSummary:
    run_id: str
    n_files: int = 0
    loaded: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    duplicates: dict[str, str] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)  # documents whose file this run found gone
    excluded: dict[str, str] = field(default_factory=dict)  # doc_id -> the pattern that excluded it
    missing_pairs: list[str] = field(default_factory=list)
    report_paths: list[str] = field(default_factory=list)
    work: dict[str, int] = field(default_factory=dict)  # stage -> documents computed this run
    cached: dict[str, int] = field(default_factory=dict)  # stage -> documents read from the stage cache
    warnings: list[str] = field(default_factory=list)  # what the run did differently than asked, and why
    filled: int = 0  # segments translated after the checks (--translate evidence: the report's sentences)
    waiting: int = 0  # segments left waiting for `ingest translate`

    def count(self, outcome: DocumentOutcome) -> None:
        """Tally one loaded document by its status."""
        if outcome.status == Status.OK:
            self.loaded.append(outcome.doc_id)
        elif outcome.status == Status.DUPLICATE:
            self.duplicates[outcome.doc_id] = outcome.duplicate_of or ""
        elif outcome.status == Status.EXCLUDED:
            self.excluded[outcome.doc_id] = outcome.error or ""
        else:
            self.failed[outcome.doc_id] = outcome.error or "unknown error"

    def result(self, **extra: Any) -> dict[str, Any]:
        """The run's outcome as plain data (what the flow returns and the CLI prints)."""
        return {
            "run_id": self.run_id,
            "files": self.n_files,
            "loaded": len(self.loaded),
            "skipped": len(self.skipped),
            "failed": len(self.failed),
            "duplicates": len(self.duplicates),
            "missing": self.missing,
            "missing_pairs": self.missing_pairs,
            "reports": self.report_paths,
            "errors": self.failed,
            "work": self.work,
            "cached": self.cached,
            "warnings": self.warnings,
            "filled": self.filled,
            "waiting": self.waiting,
            "excluded": self.excluded,
            "line": self.line(),
            "stages_line": self.stages_line(),
            **extra,
        }

    def line(self) -> str:
        return (
            f"{self.n_files} files: {len(self.loaded)} loaded, {len(self.skipped)} unchanged (skipped), "
            f"{len(self.failed)} failed, {len(self.duplicates)} duplicate"
            + (f", {len(self.missing)} missing (file gone)" if self.missing else "")
            + (f", {len(self.excluded)} excluded" if self.excluded else "")
        )

    def planned(self, plan: Plan) -> None:
        """Take what the plan found: the files, the unchanged ones, the gone ones."""
        self.n_files, self.skipped, self.missing = plan.n_files, plan.skipped, plan.missing

    def stages_line(self) -> str:
        """How many documents each stage computed and how many it read from the stage cache."""
        return "stages: " + ", ".join(
            f"{stage} {self.work.get(stage, 0)} computed / {self.cached.get(stage, 0)} cached" for stage in STAGES
        )


def new_run_id() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ-") + uuid.uuid4().hex[:6]


class Run:
    """One run's state and its steps; `run_pipeline` and the Prefect flow both drive it."""

    def __init__(self, options: RunOptions, engine: TranslationEngine | None = None, processes: int = 1) -> None:
        self.options = options
        self.own_engine = engine is None  # workers can build the same one (`_processes`)
        self.processes = processes  # worker processes for the stages: 1 none, 0 one per core (`_processes`)
        self.engine = engine or make_engine()
        self.translator = self.engine  # without the run's cache snapshot: filling uses the warehouse's cache
        # Pipeline version, engine and every stage's version and code: unchanged documents are skipped.
        self.fingerprint = run_fingerprint(self.engine)
        self.summary = RunSummary(new_run_id())
        self.cache_dir: Path | None = None
        if options.stage_cache:
            self.cache_dir, problem = usable_cache_dir(options.warehouse_path)
            self.summary.warnings += [problem] if problem else []
        if options.reports_dir is not None:
            check_reports_dir(options.reports_dir)  # before any work: the data would load, then the report fail
        self.started = utc_now()
        self.langs: set[str] = set()  # languages of the documents loaded so far
        self.report: outputs.ReportData | None = None  # what `finish` reported
        self.markdown: str | None = None

    def context(self, staging_dir: str | Path | None = None) -> StageContext:
        """The picklable context batches of this run need (on any process)."""
        return make_context(
            self.summary.run_id, self.engine, self.cache_dir, staging_dir, self.options.warehouse_path, self.options.translate
        )

    def pending(self) -> list[SourceFile]:
        """Plan the run (`plan.plan_run`): the sources that need work; unchanged ones are counted
        as skipped, gone ones marked missing. Reads the warehouse's cached translations for this
        run's engine (once, by the single writer)."""
        con = warehouse.connect(self.options.warehouse_path)
        try:
            plan = plan_run(con, self.options.paths, self.fingerprint, self.options.follow_links, self.options.exclude)
            if self.engine.package_keys():
                self.engine = CachedEngine(self.engine, snapshot(con, self.engine.package_keys()))
        finally:
            con.close()
        self.summary.planned(plan)
        return plan.todo

    def stage_and_load(self, sources: Sequence[SourceFile], progress: Progress | None = None) -> None:
        """Run prepare, translate and extract over `sources` in batches, loading the staged rows
        every `LOAD_EVERY_DOCUMENTS` documents (this process is the one writer). The batches run in
        worker processes when that pays (`_processes`), else in this process; off the main thread
        in a worker's main thread all the same, where the stage budget can stop one long call
        (`batches.process_batch_where_budgets_hold`)."""
        context, pending, done, loaded = self.context(), [], 0, 0
        work = list(batches(sources, self.options.batch_size))
        processes = self._processes(len(sources), len(work))
        off_main_thread = threading.current_thread() is not threading.main_thread()
        staged = (
            _in_processes(work, context, processes, self.engine)
            if processes > 1 or (off_main_thread and self.own_engine)
            else (process_batch(batch, context, self.engine, isolate=True, label=label) for label, batch in work)
        )
        for (_, batch), outcome in zip(work, staged, strict=True):
            pending.append(outcome)
            done += len(batch)
            if progress:
                progress("stages", done, len(sources))
            if done - loaded >= LOAD_EVERY_DOCUMENTS or done == len(sources):
                self.load_staged(pending, _offset(progress, loaded, len(sources)))
                pending, loaded = [], done

    def _processes(self, n_documents: int, n_batches: int) -> int:
        """How many worker processes run the stages: INGEST_STAGE_PROCESSES, else the run's `processes`
        (0: one per core; 1: none, the stages run in this process), never more than batches, and
        none under MIN_DOCUMENTS_FOR_WORKERS. Only with the run's own engine and no translation
        package: a given engine may not travel to another process, and CTranslate2 already spreads
        a translation over every core."""
        if not self.own_engine or self.engine.package_keys() or n_batches < 2 or n_documents < MIN_DOCUMENTS_FOR_WORKERS:
            return 1
        configured = os.environ.get("INGEST_STAGE_PROCESSES", "").strip()
        wanted = int(configured) if configured.isdigit() else self.processes
        return max(1, min(wanted or len(os.sched_getaffinity(0)), n_batches))

    def load_staged(self, staged: Sequence[StagedBatch], progress: Progress | None = None) -> None:
        """Load staged batches into the warehouse (single writer) and count them in the summary."""
        con = warehouse.connect(self.options.warehouse_path)
        try:
            outcomes = load_staged(con, staged, progress, sum(len(b.outcomes) for b in staged))
        finally:
            con.close()
        self.account(staged, outcomes)

    def account(self, staged: Sequence[StagedBatch], outcomes: Iterable[DocumentOutcome]) -> None:
        """Count loaded documents by status, the stage work done and the missing translation pairs."""
        for outcome in outcomes:
            self.summary.count(outcome)
        for batch in staged:
            for stage, n in batch.work.items():
                self.summary.work[stage] = self.summary.work.get(stage, 0) + n
            for stage, n in batch.cached.items():
                self.summary.cached[stage] = self.summary.cached.get(stage, 0) + n
        self.langs.update(lang for batch in staged for lang in batch.langs)
        self.summary.missing_pairs = self.engine.missing_pairs(sorted(self.langs)) if self.langs else []

    def row(self) -> dict[str, Any]:
        """This run's row of the `runs` table."""
        summary = self.summary
        return {
            "run_id": summary.run_id,
            "started_at": self.started,
            "finished_at": utc_now(),
            "inputs": ", ".join(self.options.paths),
            "pipeline_version": self.fingerprint,
            "engine": self.engine.name,
            "missing_pairs": ", ".join(summary.missing_pairs),
            "n_files": summary.n_files,
            "n_loaded": len(summary.loaded),
            "n_skipped": len(summary.skipped),
            "n_failed": len(summary.failed),
            "n_duplicate": len(summary.duplicates),
            "n_missing": len(summary.missing),
            "status": "completed" if not summary.failed else "completed_with_failures",
        }

    def fill(self, con: duckdb.DuckDBPyConnection, progress: Progress | None = None) -> None:
        """Translate what `translate` asks for and the stages left waiting (after the checks)."""
        filled = fill_for_run(
            con, self.translator, self.options.translate, lambda: report_data(con, self.summary.line(), self.cache_dir), progress
        )
        self.summary.filled, self.summary.waiting = filled.filled, filled.still_waiting

    def finish(self, progress: Progress | None = None, report: bool = False) -> RunSummary:
        """Check, translate what waits for the report, record the run and write the reports (their
        data from the stage cache if nothing changed); with `report`, keep the report's data and
        Markdown (`self.report`, `self.markdown`) even without a reports folder."""
        con = warehouse.connect(self.options.warehouse_path)
        try:
            update_checks(con)
            self.fill(con, progress)
            record_run(con, self.row())
            if self.options.reports_dir is not None or report:
                self.report = report_data(con, self.summary.line(), self.cache_dir)
        finally:
            con.close()
        if self.report is not None and self.options.reports_dir is not None:
            paths, self.markdown = outputs.write_report_files(self.report, self.options.reports_dir)
            self.summary.report_paths = [str(p) for p in paths]
        elif self.report is not None:
            self.markdown = outputs.render_markdown(self.report)
        return self.summary


def _in_processes(
    work: Sequence[tuple[str, list[SourceFile]]], context: StageContext, processes: int, engine: TranslationEngine
) -> Iterator[StagedBatch]:
    """Each batch's staged rows, in order, computed by `processes` spawned workers (each builds its
    engine from `context`, as a Dask worker does), at most two batches per worker ahead of the
    loader so staged rows never pile up in memory. A batch whose worker died (killed, out of
    memory) is computed again in this process, so the run loses nothing."""
    ahead = 2 * processes
    pool = stage_workers(processes)
    futures: collections.deque[Future[StagedBatch]] = collections.deque()
    submitted, broken = 0, False
    try:
        for index, (label, batch) in enumerate(work):
            while not broken and submitted < len(work) and len(futures) < ahead:
                next_label, next_batch = work[submitted]
                try:
                    futures.append(pool.submit(process_batch, next_batch, context, None, isolate=True, label=next_label))
                    submitted += 1
                except BrokenProcessPool:
                    broken = True
            if index < submitted:
                try:
                    yield futures.popleft().result()
                    continue
                except BrokenProcessPool:
                    broken = True
            yield process_batch(batch, context, engine, isolate=True, label=label)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_pipeline(
    paths: Sequence[str | Path],
    warehouse_path: str | Path,
    reports_dir: str | Path | None,
    engine: TranslationEngine | None = None,
    progress: Progress | None = None,
    **options: Any,
) -> RunSummary:
    """Ingest `paths` into the warehouse and write the report, without Prefect; `options` are any
    other run parameters (`RunOptions`: batch_size, stage_cache, follow_links, translate...).

    Unchanged documents are skipped; the others go through the stages in batches (each
    stage read from the stage cache when its inputs are unchanged, see `ingest.run.batches`)
    and are loaded one batch per transaction.
    """
    return run(
        RunOptions(
            paths=tuple(str(p) for p in paths),
            warehouse_path=str(warehouse_path),
            reports_dir=str(reports_dir) if reports_dir is not None else None,
            **options,
        ),
        engine,
        progress,
    )


def run(
    options: RunOptions, engine: TranslationEngine | None = None, progress: Progress | None = None, processes: int = 1
) -> RunSummary:
    """A run of `options` driven from this process (see `run_pipeline`); its stages in `processes`
    spawned workers (0: one per core), which re-import the program's main module: a script that
    asks for workers keeps its work under `if __name__ == "__main__":`."""
    current = Run(options, engine, processes)
    todo = current.pending()
    current.stage_and_load(todo, progress)
    return current.finish(progress)


def prune(warehouse_path: str | Path) -> list[str]:
    """Remove the rows of every document whose source file is gone (`missing`, or found gone now)
    from the warehouse, and bring the cross-document checks up to date; returns their doc_ids."""
    if not Path(warehouse_path).exists():
        raise FileNotFoundError(f"no warehouse at {warehouse_path}; nothing to prune (check --warehouse)")
    con = warehouse.connect(warehouse_path)
    try:
        return prune_missing(con)
    finally:
        con.close()
