"""The pipeline's stages as plain functions, usable with or without Prefect.

prepare (read, clean, metadata, language, segment) and extract work on one
document and never raise: a failure becomes the document's status and reason.
translate works on all prepared documents of a run at once, one batch per
source language. `run_pipeline` chains them and loads the warehouse.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from . import warehouse
from .anchors import segment_anchors
from .claims import SegmentInput, build_claims, document_release
from .clean import clean
from .discover import SourceFile, discover
from .extract import find_entities
from .language import detect_language
from .metadata import Metadata, extract_metadata
from .nlp import get_nlp
from .read import Decoded, ReadError, decode
from .segment import segment
from .translate.engine import TranslationEngine, UntranslatedEngine

# Bump when a stage's output for the same input changes; stored documents made by an
# older version are reprocessed instead of skipped.
PIPELINE_VERSION = "1"
OK, FAILED, DUPLICATE = "ok", "failed", "duplicate"
# Limits for one article (environment variables raise them). The longest real article is
# ~25 KB; a bigger file is a dump or a mistake, and extracting 50 MB would take many minutes.
_MAX_FILE_BYTES = int(os.environ.get("INGEST_MAX_FILE_BYTES", 16 * 1024 * 1024))
_MAX_TEXT_CHARS = int(os.environ.get("INGEST_MAX_TEXT_CHARS", 200_000))


@dataclass
class SegmentRecord:
    doc_id: str
    seg_idx: int
    block_idx: int
    kind: str
    section: str | None
    lang: str
    lang_confidence: float
    char_start: int
    char_end: int
    text: str
    text_en: str | None = None
    translation_status: str | None = None
    translation_engine: str | None = None
    translation_reason: str | None = None


@dataclass
class PreparedDocument:
    source: SourceFile
    status: str
    error: str | None = None
    encoding: str | None = None
    lang: str | None = None
    lang_variant: str | None = None
    lang_confidence: float | None = None
    metadata: Metadata = field(default_factory=Metadata)
    text: str | None = None
    segments: list[SegmentRecord] = field(default_factory=list)


@dataclass
class RunSummary:
    run_id: str
    n_files: int = 0
    loaded: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    duplicates: dict[str, str] = field(default_factory=dict)
    missing_pairs: list[str] = field(default_factory=list)
    report_paths: list[str] = field(default_factory=list)
    work: dict[str, int] = field(default_factory=dict)  # stage -> documents computed this run
    cached: dict[str, int] = field(default_factory=dict)  # stage -> documents read from the stage cache

    def line(self) -> str:
        return (f"{self.n_files} files: {len(self.loaded)} loaded, {len(self.skipped)} unchanged (skipped), "
                f"{len(self.failed)} failed, {len(self.duplicates)} duplicate")

    def stages_line(self) -> str:
        """How many documents each stage computed and how many it read from the stage cache."""
        return "stages: " + ", ".join(f"{stage} {self.work.get(stage, 0)} computed / {self.cached.get(stage, 0)} cached"
                                      for stage in ("prepare", "translate", "extract"))


# ---- prepare ------------------------------------------------------------------------------

def _failed(source: SourceFile, reason: str) -> PreparedDocument:
    return PreparedDocument(source, FAILED, reason)


def _read_bytes(source: SourceFile) -> bytes:
    """The file's bytes, refusing (without reading it all) a file over the size limit."""
    with open(source.path, "rb") as handle:
        raw = handle.read(_MAX_FILE_BYTES + 1)
    if len(raw) > _MAX_FILE_BYTES:
        size = max(source.size or 0, len(raw))
        raise ReadError(f"file is {size / 2**20:.0f} MiB, over the {_MAX_FILE_BYTES / 2**20:.0f} MiB limit "
                        "for one article; split it or remove it")
    if source.sha256 and hashlib.sha256(raw).hexdigest() != source.sha256:
        raise ReadError("file changed between discovery and reading (it is being written?); "
                        "re-run once it is complete")
    return raw


def prepare_document(source: SourceFile) -> PreparedDocument:
    """Read, clean, describe, identify the language of and segment one source file."""
    if source.error:
        return _failed(source, source.error)
    if source.duplicate_of:
        return PreparedDocument(source, DUPLICATE, f"same content as {source.duplicate_of}; ingested once there")
    try:
        decoded = decode(_read_bytes(source))
    except ReadError as error:
        return _failed(source, str(error))
    except OSError as error:
        return _failed(source, f"cannot read file ({error.strerror or error}); check it exists and is readable")
    try:
        return _prepare_text(source, decoded)
    except Exception as error:  # noqa: BLE001 - one bad document must not stop the run
        return _failed(source, f"internal error while preparing the document ({type(error).__name__}: "
                               f"{str(error)[:200]}); please report it with the file")


def _prepare_text(source: SourceFile, decoded: Decoded) -> PreparedDocument:
    cleaned = clean(decoded.text, source.fmt)
    if not cleaned.blocks:
        return _failed(source, "no text left after cleaning (markup, code or chrome only); nothing to ingest")
    text = cleaned.text
    if len(text) > _MAX_TEXT_CHARS:
        return _failed(source, f"article text is {len(text):,} characters after cleaning, over the "
                               f"{_MAX_TEXT_CHARS:,}-character limit for one article; split it or remove it")
    guess = detect_language(text)
    prepared = PreparedDocument(source, OK, error=decoded.warning, encoding=decoded.encoding, lang=guess.lang,
                                lang_variant=guess.variant, lang_confidence=guess.confidence,
                                metadata=extract_metadata(cleaned), text=text)
    for seg in segment(cleaned):
        seg_lang = detect_language(seg.text, context=guess.lang)
        prepared.segments.append(SegmentRecord(
            source.doc_id, seg.seg_idx, seg.block_idx, seg.kind, seg.section, seg_lang.lang,
            seg_lang.confidence, seg.char_start, seg.char_end, seg.text))
    return prepared


# ---- translate ----------------------------------------------------------------------------

def translate_documents(documents: Sequence[PreparedDocument], engine: TranslationEngine) -> None:
    """Translate every segment of the run, one engine call per source language (batched inside)."""
    by_lang: dict[str, list[SegmentRecord]] = defaultdict(list)
    for document in documents:
        for record in document.segments:
            by_lang[record.lang].append(record)
    for lang, records in by_lang.items():
        results = engine.translate(lang, [r.text for r in records])
        for record, result in zip(records, results, strict=True):
            record.text_en = result.text_en
            record.translation_status = result.status
            record.translation_engine = result.engine
            record.translation_reason = result.reason


# ---- extract ------------------------------------------------------------------------------

@dataclass
class ExtractedDocument:
    prepared: PreparedDocument
    rows: warehouse.DocumentRows


def _entity_rows(doc_id: str, seg_idx: int, entities) -> list[dict[str, Any]]:
    return [{"doc_id": doc_id, "seg_idx": seg_idx, "ent_idx": i, "label": e.label, "text": e.text,
             "norm": e.norm, "value_num": e.value_num, "value_max": e.value_max, "value_tol": e.value_tol,
             "unit": e.unit, "qualifier": e.qualifier, "char_start": e.start, "char_end": e.end}
            for i, e in enumerate(entities)]


def _document_row(prepared: PreparedDocument, release: str | None, release_note: str | None,
                  run_id: str, fingerprint: str) -> dict[str, Any]:
    source, meta = prepared.source, prepared.metadata
    return {
        "doc_id": source.doc_id, "path": source.path, "format": source.fmt, "sha256": source.sha256,
        "size_bytes": source.size, "encoding": prepared.encoding, "lang": prepared.lang,
        "lang_variant": prepared.lang_variant, "lang_confidence": prepared.lang_confidence,
        "title": meta.title, "published_at": meta.published_at, "source_url": meta.source_url,
        "translator": meta.translator, "author": meta.author, "release": release,
        "release_note": release_note, "text": prepared.text, "status": prepared.status,
        "error": prepared.error, "duplicate_of": prepared.source.duplicate_of,
        "pipeline_version": fingerprint, "run_id": run_id,
        "loaded_at": dt.datetime.now(dt.timezone.utc).replace(tzinfo=None),
    }


def extract_document(prepared: PreparedDocument, run_id: str, fingerprint: str,
                     check_fidelity: Callable[[str, str, str], list] | None = None) -> ExtractedDocument:
    """Entities, claims and translation issues of a prepared document, as warehouse rows."""
    if prepared.status != OK:
        return ExtractedDocument(prepared, warehouse.DocumentRows(
            _document_row(prepared, None, None, run_id, fingerprint), [], [], [], [], []))
    nlp = get_nlp(prepared.lang)
    docs = nlp.pipe(record.text for record in prepared.segments)
    inputs, entity_rows, anchor_rows, issues = [], [], [], []
    for record, doc in zip(prepared.segments, docs):
        entities = doc._.ingest_entities
        entity_rows.extend(_entity_rows(record.doc_id, record.seg_idx, entities))
        anchor_rows.extend({"doc_id": record.doc_id, "seg_idx": record.seg_idx, "kind": kind, "anchor": anchor}
                           for kind, anchor in segment_anchors(record.text))
        inputs.append(SegmentInput(record.seg_idx, record.kind, record.lang, record.text,
                                   record.text_en, record.section, entities))
        if check_fidelity and record.text_en:
            issues.extend({"doc_id": record.doc_id, "seg_idx": record.seg_idx, "kind": i.kind,
                           "expected": i.expected, "detail": i.detail}
                          for i in check_fidelity(record.text, record.text_en, record.lang))
    title_entities = find_entities(prepared.metadata.title, prepared.lang) if prepared.metadata.title else []
    release, note = document_release(title_entities, inputs)
    claims = build_claims(prepared.source.doc_id, prepared.lang, release, inputs)
    return ExtractedDocument(prepared, warehouse.DocumentRows(
        _document_row(prepared, release, note, run_id, fingerprint),
        warehouse.rows_of(prepared.segments), entity_rows, warehouse.rows_of(claims), issues, anchor_rows))


# ---- run ----------------------------------------------------------------------------------

def engine_fingerprint(engine: TranslationEngine) -> str:
    """Pipeline version plus the engine's identity: a new model means documents are redone."""
    identity = getattr(engine, "fingerprint", engine.name)
    return f"{PIPELINE_VERSION}:{hashlib.sha1(str(identity).encode()).hexdigest()[:8]}"


def unchanged(sources: Iterable[SourceFile], stored: dict[str, tuple[str, str, str]],
              fingerprint: str) -> set[str]:
    """doc_ids whose bytes and pipeline fingerprint match what the warehouse holds."""
    return {s.doc_id for s in sources
            if s.sha256 and stored.get(s.doc_id, (None, None, None))[:2] == (s.sha256, fingerprint)
            and not s.duplicate_of}


def new_run_id() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ-") + uuid.uuid4().hex[:6]


def default_engine() -> TranslationEngine:
    """The installed argostranslate packages, or the engine that records why nothing is translated."""
    try:
        from .translate.argos import make_engine
    except ImportError:
        return UntranslatedEngine()
    return make_engine()


class Run:
    """One run's state and its steps; `run_pipeline` and the Prefect flow both drive it."""

    def __init__(self, paths: Sequence[str | Path], warehouse_path: str | Path,
                 reports_dir: str | Path | None, engine: TranslationEngine | None = None,
                 stage_cache: bool | str | Path = True) -> None:
        from . import stages

        self.paths = [str(p) for p in paths]
        self.warehouse_path = warehouse_path
        self.reports_dir = reports_dir
        self.engine = engine or default_engine()
        # Pipeline version, engine and every stage's version and code: unchanged documents are skipped.
        self.fingerprint = stages.run_fingerprint(self.engine)
        # The stage cache (`True`: next to the warehouse; a path; or `False`: none).
        self.cache_dir = (stages.default_cache_dir(warehouse_path) if stage_cache is True
                          else Path(stage_cache) if stage_cache else None)
        self.summary = RunSummary(new_run_id())
        self.started = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)

    def context(self, staging_dir: str | Path | None = None):
        """The picklable `stages.StageContext` batches of this run need (on any process)."""
        from . import stages

        return stages.make_context(self.summary.run_id, self.engine, self.cache_dir, staging_dir, self.warehouse_path)

    def stage(self, sources: Sequence[SourceFile], batch_size: int | None = None,
              progress: Callable[[str, int, int], None] | None = None) -> list:
        """Run prepare, translate and extract over `sources` in batches, in this process."""
        from . import stages

        context, staged, done = self.context(), [], 0
        for label, batch in stages.batches(sources, batch_size or stages.DEFAULT_BATCH_SIZE):
            staged.append(stages.process_batch(batch, context, self.engine, isolate=True, label=label))
            done += len(batch)
            if progress:
                progress("stages", done, len(sources))
        return staged

    def load_staged(self, staged: Sequence[Any], progress: Callable[[str, int, int], None] | None = None) -> None:
        """Load staged batches into the warehouse (single writer) and count them in the summary."""
        from . import stages

        con = warehouse.connect(self.warehouse_path)
        try:
            outcome = stages.load_staged(con, staged, progress, sum(len(b.statuses) for b in staged))
        finally:
            con.close()
        self.account(staged, outcome.statuses)

    def account(self, staged: Sequence[Any], statuses: dict[str, tuple[str, str | None, str | None]]) -> None:
        """Count loaded documents by status, the stage work done and the missing translation pairs."""
        for doc_id, (status, error, duplicate_of) in statuses.items():
            tally_status(self.summary, doc_id, status, error, duplicate_of)
        for batch in staged:
            for stage, n in batch.work.items():
                self.summary.work[stage] = self.summary.work.get(stage, 0) + n
            for stage, n in batch.cached.items():
                self.summary.cached[stage] = self.summary.cached.get(stage, 0) + n
        langs = sorted({lang for batch in staged for lang in batch.langs})
        self.summary.missing_pairs = self.engine.missing_pairs(langs) if langs else []

    def pending(self, sources: Sequence[SourceFile]) -> list[SourceFile]:
        """The sources that need work; unchanged ones are counted as skipped."""
        self.summary.n_files = len(sources)
        con = warehouse.connect(self.warehouse_path)
        try:
            skip = unchanged(sources, warehouse.stored_fingerprints(con), self.fingerprint)
            self._attach_translation_cache(con)
        finally:
            con.close()
        self.summary.skipped = sorted(skip)
        return [s for s in sources if s.doc_id not in skip]

    def _attach_translation_cache(self, con) -> None:
        """Give this run's engine the warehouse's cached translations of its packages (read once,
        by the single writer): segments translated in earlier runs are not translated again."""
        from .translate.cache import snapshot

        package_keys = getattr(self.engine, "package_keys", None)
        if package_keys is not None:
            self.engine.cache = snapshot(con, package_keys())

    def row(self) -> dict[str, Any]:
        """This run's row of the `runs` table."""
        return _run_row(self)

    def finish(self) -> RunSummary:
        """Record the run and write the reports (their data from the stage cache if no document changed)."""
        from . import report, stages

        con = warehouse.connect(self.warehouse_path)
        try:
            warehouse.record_run(con, _run_row(self))
            if self.reports_dir is not None:
                data = stages.report_data(con, self.summary, self.cache_dir)
                paths, _ = report.write_report_files(data, self.reports_dir)
                self.summary.report_paths = [str(p) for p in paths]
        finally:
            con.close()
        return self.summary


def run_pipeline(paths: Sequence[str | Path], warehouse_path: str | Path, reports_dir: str | Path | None,
                 engine: TranslationEngine | None = None,
                 progress: Callable[[str, int, int], None] | None = None,
                 batch_size: int | None = None, stage_cache: bool | str | Path = True) -> RunSummary:
    """Ingest `paths` into the warehouse and write the report, without Prefect.

    Unchanged documents are skipped; the others go through the stages in batches (each
    stage read from the stage cache when its inputs are unchanged, see `ingest.stages`)
    and are loaded one batch per transaction.
    """
    run = Run(paths, warehouse_path, reports_dir, engine, stage_cache=stage_cache)
    todo = run.pending(discover(paths))
    run.load_staged(run.stage(todo, batch_size, progress), progress)
    return run.finish()


def tally_status(summary: RunSummary, doc_id: str, status: str, error: str | None,
                 duplicate_of: str | None) -> None:
    if status == OK:
        summary.loaded.append(doc_id)
    elif status == DUPLICATE:
        summary.duplicates[doc_id] = duplicate_of or ""
    else:
        summary.failed[doc_id] = error or "unknown error"


def _run_row(run: Run) -> dict[str, Any]:
    summary = run.summary
    return {
        "run_id": summary.run_id, "started_at": run.started,
        "finished_at": dt.datetime.now(dt.timezone.utc).replace(tzinfo=None),
        "inputs": ", ".join(run.paths), "pipeline_version": run.fingerprint, "engine": run.engine.name,
        "missing_pairs": ", ".join(summary.missing_pairs), "n_files": summary.n_files,
        "n_loaded": len(summary.loaded), "n_skipped": len(summary.skipped),
        "n_failed": len(summary.failed), "n_duplicate": len(summary.duplicates),
        "status": "completed" if not summary.failed else "completed_with_failures",
    }
