"""The pipeline's stages as plain functions, usable with or without Prefect.

prepare (read, clean, metadata, language, segment) and extract work on one
document and never raise: a failure becomes the document's status and reason.
translate works on all prepared documents of a run at once, one batch per
source language. `run_pipeline` chains them and loads the warehouse.
"""

from __future__ import annotations

import datetime as dt
import hashlib
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
from .read import ReadError, decode
from .segment import segment
from .translate.engine import TranslationEngine, UntranslatedEngine

# Bump when a stage's output for the same input changes; stored documents made by an
# older version are reprocessed instead of skipped.
PIPELINE_VERSION = "1"
OK, FAILED, DUPLICATE = "ok", "failed", "duplicate"
_MAX_FILE_BYTES = 64 * 1024 * 1024


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

    def line(self) -> str:
        return (f"{self.n_files} files: {len(self.loaded)} loaded, {len(self.skipped)} unchanged (skipped), "
                f"{len(self.failed)} failed, {len(self.duplicates)} duplicate")


# ---- prepare ------------------------------------------------------------------------------

def _failed(source: SourceFile, reason: str) -> PreparedDocument:
    return PreparedDocument(source, FAILED, reason)


def _read_bytes(source: SourceFile) -> bytes:
    path = Path(source.path)
    if path.stat().st_size > _MAX_FILE_BYTES:
        raise ReadError(f"file is {path.stat().st_size / 2**20:.0f} MiB, over the "
                        f"{_MAX_FILE_BYTES // 2**20} MiB limit for one article; split it or remove it")
    return path.read_bytes()


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
    cleaned = clean(decoded.text, source.fmt)
    if not cleaned.blocks:
        return _failed(source, "no text left after cleaning (markup, code or chrome only); nothing to ingest")
    guess = detect_language(cleaned.text)
    prepared = PreparedDocument(source, OK, encoding=decoded.encoding, lang=guess.lang,
                                lang_variant=guess.variant, lang_confidence=guess.confidence,
                                metadata=extract_metadata(cleaned), text=cleaned.text)
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
                 reports_dir: str | Path | None, engine: TranslationEngine | None = None) -> None:
        self.paths = [str(p) for p in paths]
        self.warehouse_path = warehouse_path
        self.reports_dir = reports_dir
        self.engine = engine or default_engine()
        self.fingerprint = engine_fingerprint(self.engine)
        self.summary = RunSummary(new_run_id())
        self.started = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)

    def pending(self, sources: Sequence[SourceFile]) -> list[SourceFile]:
        """The sources that need work; unchanged ones are counted as skipped."""
        self.summary.n_files = len(sources)
        con = warehouse.connect(self.warehouse_path)
        try:
            skip = unchanged(sources, warehouse.stored_fingerprints(con), self.fingerprint)
        finally:
            con.close()
        self.summary.skipped = sorted(skip)
        return [s for s in sources if s.doc_id not in skip]

    def translate(self, documents: Sequence[PreparedDocument]) -> None:
        translate_documents([d for d in documents if d.status == OK], self.engine)
        self.summary.missing_pairs = self.engine.missing_pairs(sorted({d.lang for d in documents if d.lang}))

    def extract(self, document: PreparedDocument) -> ExtractedDocument:
        return extract_document(document, self.summary.run_id, self.fingerprint)

    def load(self, extracted: Sequence[ExtractedDocument],
             progress: Callable[[str, int, int], None] | None = None) -> None:
        """Load each document in its own transaction, in one connection."""
        con = warehouse.connect(self.warehouse_path)
        try:
            for i, document in enumerate(extracted, 1):
                warehouse.load_document(con, document.rows)
                tally(self.summary, document.prepared)
                if progress:
                    progress("load", i, len(extracted))
        finally:
            con.close()

    def finish(self) -> RunSummary:
        """Record the run and write the reports."""
        from .report import write_reports

        con = warehouse.connect(self.warehouse_path)
        try:
            warehouse.record_run(con, _run_row(self))
            if self.reports_dir is not None:
                self.summary.report_paths = [str(p) for p in write_reports(con, self.reports_dir, self.summary)]
        finally:
            con.close()
        return self.summary


def run_pipeline(paths: Sequence[str | Path], warehouse_path: str | Path, reports_dir: str | Path | None,
                 engine: TranslationEngine | None = None,
                 progress: Callable[[str, int, int], None] | None = None) -> RunSummary:
    """Ingest `paths` into the warehouse and write the report, without Prefect."""
    run = Run(paths, warehouse_path, reports_dir, engine)
    todo = run.pending(discover(paths))
    prepared = []
    for i, source in enumerate(todo, 1):
        prepared.append(prepare_document(source))
        if progress:
            progress("prepare", i, len(todo))
    run.translate(prepared)
    run.load([run.extract(d) for d in prepared], progress)
    return run.finish()


def tally(summary: RunSummary, document: PreparedDocument) -> None:
    doc_id = document.source.doc_id
    if document.status == OK:
        summary.loaded.append(doc_id)
    elif document.status == DUPLICATE:
        summary.duplicates[doc_id] = document.source.duplicate_of or ""
    else:
        summary.failed[doc_id] = document.error or "unknown error"


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
