"""Per-document stages in batches: a content-keyed stage cache, Parquet staging, one batched writer.

No Prefect here: `run_pipeline` calls these functions directly and the Prefect flow
(`ingest.flow`) wraps them in tasks; both produce the same warehouse rows.

Stage cache. Each stage's output for a document is stored under a key made of what the
output depends on: the document (doc_id, sha256 of its bytes, format), the stage, the
stage's id and, chained, the key of the stage before it. A stage's id is its declared
version (`STAGE_VERSIONS`) plus a digest of the code and data it runs (its modules, the
rule files, the versions of the NLP packages) and, for translation, the identity of the
translation engine (packages and their versions). So a re-run after bumping (or editing)
the extraction stage reads prepare and translate from the cache and recomputes extraction
only; a new translation model recomputes translation and extraction; an edited document
recomputes everything for that document alone. The cache is a folder of pickles next to
the warehouse (`<warehouse>.stages/<stage>/<key[:2]>/<key>.pickle`, zlib-compressed pickles);
deleting it is always safe (it is never pruned). Only successful stage outputs are cached: failures are recomputed.

Staging. A batch's warehouse rows are kept in memory (direct runs) or written as one
Parquet file per table (`<staging>/<label>/<table>.parquet`), which is how batches run on
Dask workers hand their results to the single process that writes DuckDB.

Loading. `load_staged` loads one batch per transaction (all its documents or none); if a
batch cannot be loaded it falls back to one transaction per document
(`warehouse.load_document`), so one bad document cannot cost the others.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import inspect
import os
import pickle
import shutil
import sys
import threading
import zlib
from collections import Counter
from dataclasses import dataclass, field
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from . import pipeline, warehouse
from .translate import cache as translation_cache
from .translate.fidelity import check_fidelity
from .discover import SourceFile

STAGES = ("prepare", "translate", "extract")
# Bump a stage's version when its output for the same input changes in a way the code
# digest below cannot see (the digest already covers edits to the stage's own modules).
STAGE_VERSIONS = {"prepare": "1", "translate": "1", "extract": "1"}
DEFAULT_BATCH_SIZE = 50
DOCUMENTS = "documents"
# documents.pipeline_version of a document whose stages crashed: never equal to a run's
# fingerprint, so the next run tries the document again instead of skipping it.
RETRY_MARK = "!retry"

_PACKAGE = Path(__file__).resolve().parent
# What each stage's output depends on, besides the document and the stage before it.
_STAGE_INPUTS: dict[str, dict[str, tuple[str, ...]]] = {
    "prepare": {
        "files": ("read.py", "clean.py", "metadata.py", "language.py", "segment.py", "data/chrome.txt"),
        "functions": ("prepare_document",),
        "packages": ("charset-normalizer", "beautifulsoup4", "markdown-it-py", "langdetect"),
    },
    "translate": {
        "files": ("translate/engine.py", "translate/argos.py"),
        "functions": ("translate_documents",),
        "packages": ("ctranslate2", "sentencepiece"),
    },
    "extract": {
        "files": ("extract.py", "nlp.py", "claims.py", "numbers.py", "anchors.py", "lang/*.yaml",
                  "data/glossary.yaml", "translate/fidelity.py"),
        "functions": ("extract_document", "_entity_rows", "_document_row"),
        "packages": ("spacy", "sudachipy", "sudachidict-core", "jieba"),
    },
}


# The stage functions as defined (captured at import, so a test's counting wrapper does not change ids).
_PIPELINE_FUNCTIONS = {name: getattr(pipeline, name) for spec in _STAGE_INPUTS.values()
                       for name in spec["functions"] if hasattr(pipeline, name)}


def _sha(*parts: object) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(str(part).encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def _code_digest(stage: str) -> str:
    """Digest of the modules, data files, stage functions and package versions a stage runs."""
    spec = _STAGE_INPUTS[stage]
    parts: list[str] = []
    for pattern in spec["files"]:
        for path in sorted(_PACKAGE.glob(pattern)):
            parts += [path.relative_to(_PACKAGE).as_posix(), hashlib.sha256(path.read_bytes()).hexdigest()]
    for name in spec["functions"]:
        function = _PIPELINE_FUNCTIONS.get(name)
        parts += [name, inspect.getsource(function) if function is not None else "-"]
    for package in spec["packages"]:
        try:
            parts += [package, importlib_metadata.version(package)]
        except importlib_metadata.PackageNotFoundError:
            parts += [package, "-"]
    return _sha(*parts)[:16]


def engine_identity(engine: Any) -> str:
    """What decides a translation engine's output: its name and its models' ids and versions."""
    identity = getattr(engine, "fingerprint", None)
    if identity:
        return str(identity)
    parts = [getattr(engine, "name", type(engine).__name__)]
    packages = getattr(engine, "packages", None)
    if isinstance(packages, dict):
        parts += sorted(f"{getattr(p, 'package_id', p)}@{getattr(p, 'version', '')}" for p in packages.values())
    settings = getattr(engine, "settings", None)
    if settings is not None:
        parts.append(repr(settings))
    return "|".join(map(str, parts))


def stage_ids(engine: Any) -> dict[str, str]:
    """stage -> id: the pipeline version, the stage's declared version and its code digest
    (and, for translation, the engine's identity)."""
    ids = {stage: f"{pipeline.PIPELINE_VERSION}.{STAGE_VERSIONS[stage]}.{_code_digest(stage)}" for stage in STAGES}
    ids["translate"] += "." + _sha(engine_identity(engine))[:16]
    return ids


def run_fingerprint(engine: Any) -> str:
    """documents.pipeline_version: equal across runs only if no stage would produce anything new."""
    return f"{pipeline.engine_fingerprint(engine)}:{_sha(*sorted(stage_ids(engine).items()))[:8]}"


# ---- context and keys ---------------------------------------------------------------------

@dataclass(frozen=True)
class StageContext:
    """Everything a batch needs besides its sources; small and picklable (it travels to Dask workers)."""

    run_id: str
    fingerprint: str
    stage_ids: tuple[tuple[str, str], ...]
    cache_dir: str | None = None
    staging_dir: str | None = None
    warehouse: str | None = None  # read (never written) by workers for cached translations

    def stage_id(self, stage: str) -> str:
        return dict(self.stage_ids)[stage]


def make_context(run_id: str, engine: Any, cache_dir: str | Path | None = None,
                 staging_dir: str | Path | None = None, warehouse_path: str | Path | None = None) -> StageContext:
    return StageContext(run_id, run_fingerprint(engine), tuple(sorted(stage_ids(engine).items())),
                        str(cache_dir) if cache_dir else None, str(staging_dir) if staging_dir else None,
                        str(warehouse_path) if warehouse_path else None)


def stage_keys(source: SourceFile, context: StageContext) -> dict[str, str]:
    """The cache key of each stage of one document, each chained on the one before."""
    keys: dict[str, str] = {}
    previous = _sha("doc", source.doc_id, source.sha256, source.fmt)
    for stage in STAGES:
        previous = keys[stage] = _sha(previous, stage, context.stage_id(stage))
    return keys


def default_cache_dir(warehouse_path: str | Path) -> Path:
    path = Path(warehouse_path)
    return path.with_name(path.stem + ".stages")


def default_staging_dir(warehouse_path: str | Path) -> Path:
    path = Path(warehouse_path)
    return path.with_name(path.stem + ".staging")


# ---- the stage cache ----------------------------------------------------------------------

class StageCache:
    """Pickled stage outputs in a folder; a missing, unreadable or stale entry is a miss."""

    def __init__(self, root: str | Path | None) -> None:
        self.root = Path(root) if root else None

    def _path(self, stage: str, key: str) -> Path:
        assert self.root is not None
        return self.root / stage / key[:2] / f"{key}.pickle"

    def get(self, stage: str, key: str) -> Any | None:
        if self.root is None:
            return None
        try:
            return pickle.loads(zlib.decompress(self._path(stage, key).read_bytes()))
        except FileNotFoundError:
            return None
        except Exception:  # a torn or outdated entry: recompute it
            return None

    def put(self, stage: str, key: str, value: Any, keep_only: bool = False) -> None:
        """Store an entry; `keep_only` drops the stage's other entries (one report, not one per run)."""
        if self.root is None:
            return
        path = self._path(stage, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        temporary.write_bytes(zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1))
        os.replace(temporary, path)  # readers see the whole entry or none
        if keep_only:
            for other in (self.root / stage).glob("*/*.pickle"):
                if other != path:
                    other.unlink(missing_ok=True)


# ---- one batch ----------------------------------------------------------------------------

@dataclass
class StagedBatch:
    """A batch's outcome: per-document status, stage counts, and its rows (in memory or as Parquet)."""

    label: str
    statuses: dict[str, tuple[str, str | None, str | None]]  # doc_id -> (status, error, duplicate_of)
    langs: list[str] = field(default_factory=list)
    work: dict[str, int] = field(default_factory=dict)  # stage -> documents computed
    cached: dict[str, int] = field(default_factory=dict)  # stage -> documents read from the cache
    rows: list[warehouse.DocumentRows] | None = None
    files: dict[str, str] | None = None  # table -> Parquet file
    loaded: bool = False  # set once committed, so a retried load does not load it twice
    worker: str = ""  # where the stages ran: a Dask worker's address, or "pid N"
    refused: set[str] = field(default_factory=set)  # documents the warehouse would not take

    @property
    def doc_ids(self) -> list[str]:
        return list(self.statuses)


def _table_rows(rows: warehouse.DocumentRows, table: str) -> list[dict[str, Any]]:
    return [rows.document] if table == DOCUMENTS else list(getattr(rows, table))


def _tables() -> tuple[str, ...]:
    return (DOCUMENTS, *warehouse.DOCUMENT_TABLES)


def _rows_to_cache(rows: warehouse.DocumentRows) -> dict[str, Any]:
    return {f.name: getattr(rows, f.name) for f in dataclasses.fields(rows)}


def _rows_from_cache(value: Any, source: SourceFile, context: StageContext) -> warehouse.DocumentRows | None:
    try:
        rows = warehouse.DocumentRows(**value)
    except TypeError:  # made when DocumentRows had other fields
        return None
    document = dict(rows.document)
    document.update(path=source.path, run_id=context.run_id, pipeline_version=context.fingerprint,
                    loaded_at=dt.datetime.now(dt.timezone.utc).replace(tzinfo=None))
    rows.document = document
    return rows


def crashed_rows(source: SourceFile, reason: str, context: StageContext) -> warehouse.DocumentRows:
    """The `failed` document row of a document whose stages raised; retried on the next run."""
    prepared = pipeline.PreparedDocument(source, pipeline.FAILED, reason)
    document = pipeline._document_row(prepared, None, None, context.run_id, context.fingerprint + RETRY_MARK)
    return warehouse.DocumentRows(document, **{table: [] for table in warehouse.DOCUMENT_TABLES})


def crash_reason(error: BaseException) -> str:
    return (f"a stage raised {type(error).__name__}: {error}; the other documents were ingested, "
            "this one is retried on the next run (report it if it keeps failing)")


def process_batch(sources: Sequence[SourceFile], context: StageContext, engine: Any = None, *,
                  isolate: bool = True, label: str = "batch") -> StagedBatch:
    """prepare -> translate -> extract for a batch, each stage read from the cache when its key is there.

    With `isolate`, a document whose stages raise becomes a `failed` row and the batch goes on;
    without it the exception propagates (the Prefect flow then reruns the batch's documents
    one per task, so only the bad one fails its task).
    """
    engine = engine if engine is not None else worker_engine(context)
    cache = StageCache(context.cache_dir)
    work: Counter[str] = Counter()
    cached: Counter[str] = Counter()
    keys = {s.doc_id: stage_keys(s, context) for s in sources}
    done: dict[str, warehouse.DocumentRows] = {}
    crashed: dict[str, BaseException] = {}

    def guarded(source: SourceFile, call: Callable[[], Any]) -> Any:
        if not isolate:
            return call()
        try:
            return call()
        except Exception as error:  # noqa: BLE001 - becomes this document's failure
            crashed[source.doc_id] = error
            return None

    # extract: whole documents from the cache
    todo: list[SourceFile] = []
    for source in sources:
        hit = cache.get("extract", keys[source.doc_id]["extract"]) if _cacheable(source) else None
        rows = _rows_from_cache(hit, source, context) if hit is not None else None
        if rows is not None:
            done[source.doc_id] = rows
            cached["extract"] += 1
        else:
            todo.append(source)

    # prepare
    prepared: dict[str, pipeline.PreparedDocument] = {}
    for source in todo:
        hit = cache.get("prepare", keys[source.doc_id]["prepare"]) if _cacheable(source) else None
        if isinstance(hit, pipeline.PreparedDocument):
            hit.source = source
            prepared[source.doc_id] = hit
            cached["prepare"] += 1
            continue
        document = guarded(source, lambda source=source: pipeline.prepare_document(source))
        if document is None:
            continue
        if _cacheable(source):
            work["prepare"] += 1
        if document.status == pipeline.OK:
            cache.put("prepare", keys[source.doc_id]["prepare"], document)
        prepared[source.doc_id] = document

    # translate: cached translations applied, the rest in one engine call per language
    untranslated: list[pipeline.PreparedDocument] = []
    for doc_id, document in prepared.items():
        if document.status != pipeline.OK:
            continue
        hit = cache.get("translate", keys[doc_id]["translate"])
        if isinstance(hit, list) and len(hit) == len(document.segments):
            for record, (text_en, status, engine_name, reason) in zip(document.segments, hit):
                record.text_en, record.translation_status = text_en, status
                record.translation_engine, record.translation_reason = engine_name, reason
            cached["translate"] += 1
        else:
            untranslated.append(document)
    if untranslated:
        _translate(untranslated, engine, isolate, crashed)
        for document in untranslated:
            if document.source.doc_id in crashed:
                continue
            work["translate"] += 1
            cache.put("translate", keys[document.source.doc_id]["translate"],
                      [(r.text_en, r.translation_status, r.translation_engine, r.translation_reason)
                       for r in document.segments])

    # extract
    for doc_id, document in prepared.items():
        if doc_id in crashed:
            continue
        extracted = guarded(document.source, lambda document=document: pipeline.extract_document(
            document, context.run_id, context.fingerprint, check_fidelity=check_fidelity))
        if extracted is None:
            continue
        if document.status == pipeline.OK:
            work["extract"] += 1
            cache.put("extract", keys[doc_id]["extract"], _rows_to_cache(extracted.rows))
        done[doc_id] = extracted.rows

    for source in sources:
        if source.doc_id in crashed:
            done[source.doc_id] = crashed_rows(source, crash_reason(crashed[source.doc_id]), context)
    ordered = [done[s.doc_id] for s in sources]
    batch = StagedBatch(label, {r.document["doc_id"]: (r.document["status"], r.document["error"],
                                                        r.document["duplicate_of"]) for r in ordered},
                        sorted({r.document["lang"] for r in ordered
                                if r.document["lang"] and r.document["status"] == pipeline.OK}),
                        dict(work), dict(cached), rows=ordered, worker=where())
    if context.staging_dir:
        write_staged(batch, Path(context.staging_dir) / label)
    return batch


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


def _translate(documents: list[pipeline.PreparedDocument], engine: Any, isolate: bool,
               crashed: dict[str, BaseException]) -> None:
    try:
        pipeline.translate_documents(documents, engine)
    except Exception as error:  # noqa: BLE001
        if not isolate:
            raise
        if len(documents) == 1:
            crashed[documents[0].source.doc_id] = error
            return
        for document in documents:  # find the document the engine chokes on
            _translate([document], engine, isolate, crashed)


def failed_batch(label: str, sources: Sequence[SourceFile], reason: str, context: StageContext) -> StagedBatch:
    """The outcome of documents whose task failed for good: `failed` rows, retried on the next run."""
    rows = [crashed_rows(source, reason, context) for source in sources]
    return StagedBatch(label, {r.document["doc_id"]: (pipeline.FAILED, r.document["error"], None) for r in rows},
                       rows=rows)


def worker_engine(context: StageContext | None = None) -> Any:
    """The translation engine of this process: the installed Argos packages, if any, built once per run,
    with the warehouse's cached translations of those packages when the warehouse can be read."""
    return _engine_for(context.run_id if context else "", context.warehouse if context else None)


@functools.lru_cache(maxsize=1)
def _engine_for(run_id: str, warehouse_path: str | None) -> Any:
    engine = pipeline.default_engine()
    package_keys = getattr(engine, "package_keys", None)
    if package_keys is not None and warehouse_path and Path(warehouse_path).exists():
        try:  # read-only: nobody writes the warehouse while the stages run; the loader stores new ones
            con = warehouse.connect(warehouse_path, read_only=True, retries=0)
            try:
                engine.cache = translation_cache.snapshot(con, package_keys())
            finally:
                con.close()
        except Exception:  # noqa: BLE001 - held by another writer, or older schema: translate without it
            pass
    return engine


def batches(sources: Sequence[SourceFile], size: int) -> Iterator[tuple[str, list[SourceFile]]]:
    """(label, sources) chunks of at most `size` documents, labelled by position."""
    size = max(1, int(size))
    total = (len(sources) + size - 1) // size
    for number, start in enumerate(range(0, len(sources), size), 1):
        yield f"{number:05d}-of-{total:05d}", list(sources[start:start + size])


# ---- Parquet staging ----------------------------------------------------------------------

def _arrow_table(rows: list[dict[str, Any]]) -> pa.Table:
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    return pa.Table.from_pydict({c: [row.get(c) for row in rows] for c in columns})


def write_staged(batch: StagedBatch, directory: Path) -> None:
    """Write the batch's rows as one Parquet file per table and drop them from memory."""
    assert batch.rows is not None
    directory.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    for table in _tables():
        rows = [row for document in batch.rows for row in _table_rows(document, table)]
        if not rows:
            continue
        path = directory / f"{table}.parquet"
        temporary = path.with_name(path.name + ".tmp")
        pq.write_table(_arrow_table(rows), temporary)
        os.replace(temporary, path)
        files[table] = str(path)
    batch.files, batch.rows = files, None


def _staged_relation(con: duckdb.DuckDBPyConnection, batch: StagedBatch, table: str) -> str | None:
    """A SQL relation over the batch's rows for `table` (a Parquet file, or an Arrow table registered on `con`)."""
    if batch.files is not None:
        path = batch.files.get(table)
        return f"read_parquet('{_sql_string(path)}')" if path else None
    rows = [row for document in batch.rows or () for row in _table_rows(document, table)]
    if not rows:
        return None
    name = f"_staged_{table}"
    con.register(name, _arrow_table(rows))
    return name


def _sql_string(value: str) -> str:
    return value.replace("'", "''")


def _load_batch(con: duckdb.DuckDBPyConnection, batch: StagedBatch, columns: dict[str, list[str]]) -> None:
    registered: list[str] = []
    con.execute("BEGIN TRANSACTION")
    try:
        for table in (*warehouse.DOCUMENT_TABLES, DOCUMENTS):
            con.execute(f"DELETE FROM {table} WHERE doc_id IN (SELECT unnest(?::VARCHAR[]))", [batch.doc_ids])
        for table in (*warehouse.DOCUMENT_TABLES, DOCUMENTS):
            relation = _staged_relation(con, batch, table)
            if relation is None:
                continue
            if relation.startswith("_staged_"):
                registered.append(relation)
            present = {c for c, in con.execute(f"SELECT column_name FROM (DESCRIBE SELECT * FROM {relation})").fetchall()}
            names = ", ".join(f'"{c}"' for c in columns[table] if c in present)
            con.execute(f"INSERT INTO {table} BY NAME SELECT {names} FROM {relation}")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        for name in registered:
            con.unregister(name)


def _document_rows(con: duckdb.DuckDBPyConnection, batch: StagedBatch, doc_id: str) -> warehouse.DocumentRows:
    """One document's rows back out of a staged batch (for the one-document-per-transaction fallback)."""
    if batch.rows is not None:
        return next(r for r in batch.rows if r.document["doc_id"] == doc_id)
    tables: dict[str, list[dict[str, Any]]] = {}
    for table in _tables():
        path = (batch.files or {}).get(table)
        if not path:
            tables[table] = []
            continue
        cursor = con.execute(f"SELECT * FROM read_parquet('{_sql_string(path)}') WHERE doc_id = ?", [doc_id])
        names = [d[0] for d in cursor.description]
        tables[table] = [dict(zip(names, row)) for row in cursor.fetchall()]
    document = tables.pop(DOCUMENTS)[0]
    return warehouse.DocumentRows(document, **{t: tables[t] for t in warehouse.DOCUMENT_TABLES})


def _load_with_fallback(con: duckdb.DuckDBPyConnection, batch: StagedBatch, columns: dict[str, list[str]]) -> None:
    try:
        _load_batch(con, batch, columns)
    except duckdb.Error:
        for doc_id in batch.doc_ids:
            rows = _document_rows(con, batch, doc_id)
            try:
                warehouse.load_document(con, rows)
            except duckdb.Error as error:
                reason = f"the warehouse refused this document's rows ({error}); this is a bug, please report it"
                batch.statuses[doc_id] = (pipeline.FAILED, reason, None)
                batch.refused.add(doc_id)
                _record_refusal(con, rows, reason)
    batch.loaded = True
    if batch.files:
        shutil.rmtree(Path(next(iter(batch.files.values()))).parent, ignore_errors=True)


def _record_refusal(con: duckdb.DuckDBPyConnection, rows: warehouse.DocumentRows, reason: str) -> None:
    """Keep a `failed` row (no segments) for a document the warehouse refused, retried on the next run."""
    document = {**rows.document, "status": pipeline.FAILED, "error": reason,
                "pipeline_version": f"{rows.document.get('pipeline_version') or ''}{RETRY_MARK}"}
    empty = {table: [] for table in warehouse.DOCUMENT_TABLES}
    try:
        warehouse.load_document(con, warehouse.DocumentRows(document, **empty))
    except duckdb.Error:
        pass  # the document row itself is refused: the summary still names the document


@dataclass
class LoadOutcome:
    """What the loader did: the documents loaded per status, and the ones the warehouse refused."""

    statuses: dict[str, tuple[str, str | None, str | None]] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)


def load_staged(con: duckdb.DuckDBPyConnection, staged: Iterable[StagedBatch],
                progress: Callable[[str, int, int], None] | None = None, total: int | None = None) -> LoadOutcome:
    """Load batches (one transaction each; per document if a batch fails) and remove their staging files."""
    outcome = LoadOutcome()
    columns = {t: [c for c, in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
        [t]).fetchall()] for t in _tables()}
    count = 0
    for batch in staged:
        if not batch.loaded:
            _load_with_fallback(con, batch, columns)
        outcome.statuses.update(batch.statuses)
        outcome.refused.update({d: e for d, (status, e, _) in batch.statuses.items() if d in batch.refused})
        count += len(batch.statuses)
        if progress:
            progress("load", count, total or count)
    # New translations travel with their segments (a worker cannot write the warehouse);
    # the single writer files them into the translation cache here.
    translation_cache.store_from_segments(
        con, [doc_id for doc_id, (status, _, _) in outcome.statuses.items() if status == pipeline.OK])
    return outcome


# ---- the report ---------------------------------------------------------------------------

def _report_key(con: duckdb.DuckDBPyConnection) -> str:
    """What the report's data depends on: every document's bytes, pipeline version and status,
    the schema and check SQL, and the report code."""
    digest = hashlib.sha256()
    for row in con.execute("SELECT doc_id, sha256, pipeline_version, status, error FROM documents ORDER BY doc_id"
                           ).fetchall():
        digest.update(repr(row).encode("utf-8"))
    for path in warehouse.sql_files():
        digest.update(path.read_bytes())
    digest.update((_PACKAGE / "report.py").read_bytes())
    return digest.hexdigest()


def report_data(con: duckdb.DuckDBPyConnection, summary: Any = None, cache_dir: str | Path | None = None):
    """`report.collect`, from the stage cache when no document changed since it was collected.

    The cross-document checks (the `conflicts` view) are the one cost of an unchanged re-run
    that grows with the corpus (quadratically in the claims on one subject); their result
    depends only on the documents, so it is cached like a stage.
    """
    from . import report

    cache = StageCache(cache_dir)
    key = _report_key(con) if cache.root else ""
    data = cache.get("report", key) if key else None
    if not isinstance(data, report.ReportData):
        data = report.collect(con, summary)
        if key:
            cache.put("report", key, data, keep_only=True)
        return data
    fresh = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return dataclasses.replace(data, generated_at=fresh,
                               missing_pairs=summary.missing_pairs if summary is not None else data.missing_pairs,
                               summary_line=summary.line() if summary is not None else None)


# ---- faults -------------------------------------------------------------------------------

def is_transient(error: BaseException | None) -> bool:
    """Faults worth retrying after a pause: a locked warehouse, I/O and network hiccups, lost workers.

    A missing or unreadable input is not transient (retrying changes nothing), nor is a bug.
    """
    if error is None:
        return False
    if isinstance(error, warehouse.WarehouseLockedError):
        return True
    if isinstance(error, (FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError)):
        return False
    if isinstance(error, (OSError, TimeoutError, ConnectionError)):
        return True
    if isinstance(error, duckdb.IOException):
        return True
    return type(error).__module__.startswith("distributed") and type(error).__name__ in {
        "CommClosedError", "KilledWorker", "FutureCancelledError"}
