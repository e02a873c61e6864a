"""The extract stage of one document: entities, anchors, claims and translation issues, as rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..budget import checkpoint
from ..lang import profile
from ..records import DocumentRows, ExtractedDocument, PreparedDocument, Status, as_rows, utc_now
from .anchors import segment_anchors
from .claims import build_claims
from .entities import Entity, entities_of, find_entities
from .fidelity import check_fidelity
from .reader import read, reading_rows
from .releases import document_release
from .segments import SegmentInput


def _entity_rows(doc_id: str, seg_idx: int, entities: Sequence[Entity]) -> list[dict[str, Any]]:
    return [
        {
            "doc_id": doc_id,
            "seg_idx": seg_idx,
            "ent_idx": i,
            "label": e.label,
            "text": e.text,
            "norm": e.norm,
            "value_num": e.value_num,
            "value_max": e.value_max,
            "value_tol": e.value_tol,
            "unit": e.unit,
            "qualifier": e.qualifier,
            "char_start": e.start,
            "char_end": e.end,
        }
        for i, e in enumerate(entities)
    ]


def document_row(
    prepared: PreparedDocument, run_id: str, fingerprint: str, release: str | None = None, release_note: str | None = None
) -> dict[str, Any]:
    """The document's row of the `documents` table."""
    source, meta = prepared.source, prepared.metadata
    return {
        "doc_id": source.doc_id,
        "path": source.path,
        "source_root": source.root,
        "format": source.fmt,
        "sha256": source.sha256,
        "size_bytes": source.size,
        "encoding": prepared.encoding,
        "lang": prepared.lang,
        "lang_variant": prepared.lang_variant,
        "lang_confidence": prepared.lang_confidence,
        "title": meta.title,
        "published_at": meta.published_at,
        "source_url": meta.source_url,
        "translator": meta.translator,
        "author": meta.author,
        "release": release,
        "release_note": release_note,
        "text": prepared.text,
        "status": str(prepared.status),
        "error": prepared.error,
        "duplicate_of": prepared.source.duplicate_of,
        "pipeline_version": fingerprint,
        "run_id": run_id,
        "loaded_at": utc_now(),
    }


def document_only(prepared: PreparedDocument, run_id: str, fingerprint: str) -> DocumentRows:
    """The rows of a document that has nothing but its `documents` row (failed, duplicate)."""
    return DocumentRows(document_row(prepared, run_id, fingerprint))


def extract_document(prepared: PreparedDocument, run_id: str, fingerprint: str) -> ExtractedDocument:
    """Entities, claims and translation issues of a prepared document, as warehouse rows."""
    if prepared.status != Status.OK:
        return ExtractedDocument(prepared, document_only(prepared, run_id, fingerprint))
    # Each segment is read once, by the rules of its language and its document's (an English
    # sentence in a Japanese article, a Japanese caption in an English one).
    doc_lang = profile(prepared.lang).code
    inputs: list[SegmentInput] = []
    entity_rows: list[dict[str, Any]] = []
    mention_rows: list[dict[str, Any]] = []
    anchor_rows: list[dict[str, Any]] = []
    issues: list[dict[str, Any]] = []
    for record in prepared.segments:
        checkpoint()  # the per-document time budget (ingest.stages), checked between segments
        readings = read(record.text, record.lang, doc_lang)
        entities = entities_of(record.text, readings, record.lang, doc_lang)
        entity_rows.extend(_entity_rows(record.doc_id, record.seg_idx, entities))
        mention_rows.extend(reading_rows(record.doc_id, record.seg_idx, readings))
        anchor_rows.extend(
            {"doc_id": record.doc_id, "seg_idx": record.seg_idx, "kind": kind, "anchor": anchor}
            for kind, anchor in segment_anchors(record.text, record.lang, readings)
        )
        inputs.append(
            SegmentInput(
                record.seg_idx, record.kind, record.lang, record.text, record.text_en, record.section, entities, tuple(readings)
            )
        )
        if record.text_en:
            issues.extend(
                {"doc_id": record.doc_id, "seg_idx": record.seg_idx, "kind": i.kind, "expected": i.expected, "detail": i.detail}
                for i in check_fidelity(record.text, record.text_en, record.lang)
            )
    title_entities = find_entities(prepared.metadata.title, doc_lang) if prepared.metadata.title else []
    described = document_release(prepared.metadata.title, title_entities, inputs, prepared.metadata.source_url)
    release, note = described.release, described.note
    claims = build_claims(prepared.source.doc_id, prepared.lang, release, inputs, described.source, prepared.metadata.title)
    return ExtractedDocument(
        prepared,
        DocumentRows(
            document_row(prepared, run_id, fingerprint, release, note),
            segments=as_rows(prepared.segments),
            entities=entity_rows,
            mentions=mention_rows,
            claims=as_rows(claims),
            translation_issues=issues,
            anchors=anchor_rows,
        ),
    )
