"""prepare -> translate -> extract over a batch of documents, each stage read from the stage
cache when its inputs are unchanged. No Prefect here: `run_pipeline` calls this directly
and the Prefect flow wraps it in tasks; both produce the same rows.

A stage's cache key chains the document (doc_id, sha256 of its bytes, format), the stage,
its id (`identity.stage_ids`) and the key of the stage before it. So a re-run after
changing the extraction code reads prepare and translate from the cache and recomputes
extraction only; a new translation model recomputes translation and extraction; an
edited document recomputes that document alone. Only successful outputs are cached.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import prepare, stages, warehouse
from ..extract.document import document_only
from ..identity import STAGES, run_fingerprint, sha, stage_ids
from ..limits import current as current_limits
from ..records import DOCUMENT_TABLES, DocumentRows, PreparedDocument, SegmentRecord, SourceFile, Status, utc_now
from ..translate import TranslationEngine, make_engine
from ..translate import cache as translation_cache
from ..translate import segments as translation
from ..translate.engine import Translation, WaitingEngine
from .cache import StageCache
from .staging import StagedBatch

# documents.pipeline_version of a document whose stages crashed: never equal to a run's
# fingerprint, so the next run tries the document again instead of skipping it.
RETRY_MARK = "!retry"


@dataclass(frozen=True)
class StageContext:
    """Everything a batch needs besides its sources; small and picklable (it travels to Dask workers)."""

    run_id: str
    fingerprint: str
    stage_ids: tuple[tuple[str, str], ...]
    cache_dir: str | None = None
    staging_dir: str | None = None
    warehouse: str | None = None  # read (never written) by workers for cached translations
    translate: str = "all"  # RunOptions.translate: anything but "all" leaves segments `waiting`

    def stage_id(self, stage: str) -> str:
        """The stage's id; a translate stage that defers (evidence, none: the same output) has its
        own, and so the extraction after it, while the documents' fingerprint stays that of the
        code and models: a re-run in another mode skips unchanged documents and fills what waits."""
        stage_id = dict(self.stage_ids)[stage]
        return f"{stage_id}.deferred" if stage == "translate" and self.defers else stage_id

    @property
    def defers(self) -> bool:
        """Whether the stages leave translation for later (evidence first, or none)."""
        return self.translate != "all"


def make_context(
    run_id: str,
    engine: TranslationEngine,
    cache_dir: str | Path | None = None,
    staging_dir: str | Path | None = None,
    warehouse_path: str | Path | None = None,
    translate: str = "all",
) -> StageContext:
    return StageContext(
        run_id,
        run_fingerprint(engine),
        tuple(sorted(stage_ids(engine).items())),
        str(cache_dir) if cache_dir else None,
        str(staging_dir) if staging_dir else None,
        str(warehouse_path) if warehouse_path else None,
        translate,
    )


def stage_keys(source: SourceFile, context: StageContext) -> dict[str, str]:
    """The cache key of each stage of one document, each chained on the one before. The per-article
    limits are part of it: an entry made under other limits is no answer under these (lowered, the
    document may now be refused)."""
    keys: dict[str, str] = {}
    previous = sha("doc", source.doc_id, source.sha256, source.fmt, current_limits().mark())
    for stage in STAGES:
        previous = keys[stage] = sha(previous, stage, context.stage_id(stage))
    return keys


def batches(sources: Sequence[SourceFile], size: int) -> Iterator[tuple[str, list[SourceFile]]]:
    """(label, sources) chunks of at most `size` documents, labelled by position."""
    size = max(1, int(size))
    total = (len(sources) + size - 1) // size
    for number, start in enumerate(range(0, len(sources), size), 1):
        yield f"{number:05d}-of-{total:05d}", list(sources[start : start + size])


def crash_reason(error: BaseException) -> str:
    return (
        f"a stage raised {type(error).__name__}: {error}; the other documents were ingested, "
        "this one is retried on the next run (report it if it keeps failing)"
    )


def crashed_rows(source: SourceFile, reason: str, context: StageContext) -> DocumentRows:
    """The `failed` document row of a document whose stages raised; retried on the next run."""
    return document_only(PreparedDocument(source, Status.FAILED, reason), context.run_id, context.fingerprint + RETRY_MARK)


def failed_batch(label: str, sources: Sequence[SourceFile], reason: str, context: StageContext) -> StagedBatch:
    """The outcome of documents whose task failed for good: `failed` rows, retried on the next run."""
    return StagedBatch.of(label, [crashed_rows(source, reason, context) for source in sources])


def where() -> str:
    """This process as a place stages run: its Dask worker address, or its PID."""
    if "distributed" in sys.modules:
        try:
            return sys.modules["distributed"].get_worker().address
        except ValueError:  # not inside a Dask worker
            pass
    return f"pid {os.getpid()}"


def _cacheable(source: SourceFile) -> bool:
    """Unreadable files and duplicates are cheap and must not be cached (their cause may go away)."""
    return bool(source.sha256) and not source.error and not source.duplicate_of


def _restamped(value: Any, source: SourceFile, context: StageContext) -> DocumentRows | None:
    """Cached extract rows, re-stamped with this run's path, id and fingerprint; None unless the
    entry has the shape of this version's rows for this document."""
    try:
        rows = DocumentRows(**value)
    except TypeError:  # made when DocumentRows had other fields
        return None
    tables = [getattr(rows, table) for table in DOCUMENT_TABLES]
    if (
        not isinstance(rows.document, dict)
        or rows.document.get("doc_id") != source.doc_id
        or not all(isinstance(table, list) and all(isinstance(row, dict) for row in table) for table in tables)
    ):
        return None
    rows.document = {
        **rows.document,
        "path": source.path,
        "source_root": source.root,
        "run_id": context.run_id,
        "pipeline_version": context.fingerprint,
        "loaded_at": utc_now(),
    }
    return rows


class _Batch:
    """One batch going through the stages: what is done, computed, cached and crashed."""

    def __init__(self, sources: Sequence[SourceFile], context: StageContext, engine: TranslationEngine, isolate: bool) -> None:
        self.sources, self.context, self.engine, self.isolate = sources, context, engine, isolate
        self.cache = StageCache(context.cache_dir)
        self.keys = {s.doc_id: stage_keys(s, context) for s in sources}
        self.work: Counter[str] = Counter()
        self.cached: Counter[str] = Counter()
        self.done: dict[str, DocumentRows] = {}
        self.crashed: dict[str, BaseException] = {}

    def guarded(self, source: SourceFile, call: Callable[[], Any]) -> Any:
        """`call()`, or None with the document marked crashed when isolating failures."""
        if not self.isolate:
            return call()
        try:
            return call()
        except Exception as error:
            self.crashed[source.doc_id] = error
            return None

    def from_extract_cache(self) -> list[SourceFile]:
        """Take whole documents from the extract cache; the sources still to process."""
        todo = []
        for source in self.sources:
            hit = self.cache.get("extract", self.keys[source.doc_id]["extract"]) if _cacheable(source) else None
            rows = _restamped(hit, source, self.context) if hit is not None else None
            if rows is not None:
                self.done[source.doc_id] = rows
                self.cached["extract"] += 1
            else:
                todo.append(source)
        return todo

    def prepare(self, todo: list[SourceFile]) -> dict[str, PreparedDocument]:
        prepared: dict[str, PreparedDocument] = {}
        for source in todo:
            key = self.keys[source.doc_id]["prepare"]
            hit = self.cache.get("prepare", key) if _cacheable(source) else None
            if isinstance(hit, PreparedDocument) and all(isinstance(s, SegmentRecord) for s in hit.segments):
                hit.source = source
                prepared[source.doc_id] = hit
                self.cached["prepare"] += 1
                continue
            document = self.guarded(source, functools.partial(prepare.prepare_document, source))
            if document is None:
                continue
            if _cacheable(source):
                self.work["prepare"] += 1
            if document.status == Status.OK:
                self.cache.put("prepare", key, document)
            prepared[source.doc_id] = document
        return prepared

    def translate(self, prepared: dict[str, PreparedDocument]) -> None:
        """Cached translations applied, the rest in one engine call per language."""
        untranslated = []
        for doc_id, document in prepared.items():
            if document.status != Status.OK:
                continue
            hit = self.cache.get("translate", self.keys[doc_id]["translate"])
            if isinstance(hit, list) and len(hit) == len(document.segments) and all(isinstance(t, Translation) for t in hit):
                translation.apply_translations(document.segments, hit)
                self.cached["translate"] += 1
            else:
                untranslated.append(document)
        if not untranslated:
            return
        self._translate(untranslated)
        for document in untranslated:
            if document.source.doc_id not in self.crashed:
                self.work["translate"] += 1
                self.cache.put(
                    "translate", self.keys[document.source.doc_id]["translate"], translation.translations_of(document.segments)
                )

    def _translate(self, documents: list[PreparedDocument]) -> None:
        try:
            translation.translate_documents(documents, self.engine)
        except Exception as error:
            if not self.isolate:
                raise
            if len(documents) == 1:
                self.crashed[documents[0].source.doc_id] = error
                return
            for document in documents:  # find the document the engine chokes on
                self._translate([document])

    def extract(self, prepared: dict[str, PreparedDocument]) -> None:
        for doc_id, document in prepared.items():
            if doc_id in self.crashed:
                continue
            extracted = self.guarded(
                document.source, functools.partial(stages.extract, document, self.context.run_id, self.context.fingerprint)
            )
            if extracted is None:
                continue
            if extracted.prepared.status == Status.OK:  # not one that ran out of time (ingest.stages)
                self.work["extract"] += 1
                self.cache.put("extract", self.keys[doc_id]["extract"], vars(extracted.rows))
            self.done[doc_id] = extracted.rows

    def rows(self) -> list[DocumentRows]:
        """Every document's rows, in source order; crashed documents as `failed` rows."""
        for source in self.sources:
            if source.doc_id in self.crashed:
                self.done[source.doc_id] = crashed_rows(source, crash_reason(self.crashed[source.doc_id]), self.context)
        return [self.done[s.doc_id] for s in self.sources]


def process_batch(
    sources: Sequence[SourceFile],
    context: StageContext,
    engine: TranslationEngine | None = None,
    *,
    isolate: bool = True,
    label: str = "batch",
) -> StagedBatch:
    """prepare -> translate -> extract for a batch, each stage read from the cache when its key is there.

    With `isolate`, a document whose stages raise becomes a `failed` row and the batch goes on;
    without it the exception propagates (the Prefect flow then reruns the batch's documents
    one per task, so only the bad one fails its task).
    """
    engine = engine if engine is not None else worker_engine(context)
    if context.defers:  # the run translates after the checks, what the report shows first
        engine = WaitingEngine(engine)
    batch = _Batch(sources, context, engine, isolate)
    prepared = batch.prepare(batch.from_extract_cache())
    batch.translate(prepared)
    batch.extract(prepared)
    staged = StagedBatch.of(label, batch.rows(), work=dict(batch.work), cached=dict(batch.cached), worker=where())
    if context.staging_dir:
        staged.write(Path(context.staging_dir) / label)
    return staged


def process_batch_where_budgets_hold(
    sources: Sequence[SourceFile], context: StageContext, *, isolate: bool, label: str
) -> StagedBatch:
    """`process_batch` with the engine `context` builds, where the stage budget can stop even one
    long call (`ingest.budget`): in this thread when it is the main thread; else (a Dask worker's
    thread, a run started from a thread: no signal reaches them) in a spawned stage worker of this
    process, kept for the next batch. A process that may have no children (a daemonic Dask worker)
    runs the batch here, where the budget is checked between segments only."""
    if threading.current_thread() is threading.main_thread() or multiprocessing.current_process().daemon:
        return process_batch(sources, context, isolate=isolate, label=label)
    pool = _budget_workers()
    try:
        staged = pool.submit(process_batch, sources, context, None, isolate=isolate, label=label).result()
    except BrokenProcessPool:
        with _BUDGET_WORKERS_LOCK:  # the worker died (killed, out of memory): the next batch gets a new one
            if _BUDGET_WORKERS and _BUDGET_WORKERS[0] is pool:
                _BUDGET_WORKERS.clear()
        raise
    staged.worker = where()  # the Dask worker whose stage worker it was
    return staged


_BUDGET_WORKERS: list[ProcessPoolExecutor] = []  # this process's, created on first use
_BUDGET_WORKERS_LOCK = threading.Lock()


def _budget_workers() -> ProcessPoolExecutor:
    with _BUDGET_WORKERS_LOCK:
        if not _BUDGET_WORKERS:
            _BUDGET_WORKERS.append(stage_workers(len(os.sched_getaffinity(0))))
        return _BUDGET_WORKERS[0]


def stage_workers(processes: int) -> ProcessPoolExecutor:
    """Up to `processes` worker processes for stage batches, started as batches need them: spawned
    (a fork would copy this process's threads and their locks), each ending with this process."""
    return ProcessPoolExecutor(
        max_workers=processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_exit_with_parent,
        initargs=(os.getpid(),),
    )


def _exit_with_parent(parent: int) -> None:
    """In a stage worker: exit when the process that started it is gone (killed: nothing else tells
    its workers, which would otherwise wait for work for ever)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def worker_engine(context: StageContext | None = None) -> TranslationEngine:
    """The translation engine of this process, built once per run: the installed packages, if
    any, behind the warehouse's cached translations when the warehouse can be read."""
    return _engine_for(context.run_id if context else "", context.warehouse if context else None)


@functools.lru_cache(maxsize=1)
def _engine_for(run_id: str, warehouse_path: str | None) -> TranslationEngine:
    engine = make_engine()
    if not engine.package_keys() or not warehouse_path or not Path(warehouse_path).exists():
        return engine
    try:  # read-only: nobody writes the warehouse while the stages run; the loader stores new ones
        con = warehouse.connect(warehouse_path, read_only=True, retries=0)
        try:
            return make_engine(translation_cache.snapshot(con, engine.package_keys()))
        finally:
            con.close()
    except Exception:
        return engine
