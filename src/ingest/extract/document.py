"""The extract stage of one document: entities, anchors, claims and translation issues, as rows."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..budget import checkpoint
from ..lang import profile
from ..records import DocumentRows, ExtractedDocument, PreparedDocument, Status, as_rows, utc_now
from .anchors import segment_anchors
from .claims import SegmentInput, build_claims
from .releases import document_release
from .entities import Entity, find_entities
from .mentions import find_mentions, mention_rows

# check_fidelity(source, translation, lang) -> issues with kind, expected and detail.
FidelityCheck = Callable[[str, str, str], list]


def _entity_rows(doc_id: str, seg_idx: int, entities: Sequence[Entity]) -> list[dict[str, Any]]:
    return [{"doc_id": doc_id, "seg_idx": seg_idx, "ent_idx": i, "label": e.label, "text": e.text,
             "norm": e.norm, "value_num": e.value_num, "value_max": e.value_max, "value_tol": e.value_tol,
             "unit": e.unit, "qualifier": e.qualifier, "char_start": e.start, "char_end": e.end}
            for i, e in enumerate(entities)]


def document_row(prepared: PreparedDocument, run_id: str, fingerprint: str,
                 release: str | None = None, release_note: str | None = None) -> dict[str, Any]:
    """The document's row of the `documents` table."""
    source, meta = prepared.source, prepared.metadata
    return {
        "doc_id": source.doc_id, "path": source.path, "source_root": source.root, "format": source.fmt,
        "sha256": source.sha256,
        "size_bytes": source.size, "encoding": prepared.encoding, "lang": prepared.lang,
        "lang_variant": prepared.lang_variant, "lang_confidence": prepared.lang_confidence,
        "title": meta.title, "published_at": meta.published_at, "source_url": meta.source_url,
        "translator": meta.translator, "author": meta.author, "release": release,
        "release_note": release_note, "text": prepared.text, "status": str(prepared.status),
        "error": prepared.error, "duplicate_of": prepared.source.duplicate_of,
        "pipeline_version": fingerprint, "run_id": run_id,
        "loaded_at": utc_now(),
    }


def document_only(prepared: PreparedDocument, run_id: str, fingerprint: str) -> DocumentRows:
    """The rows of a document that has nothing but its `documents` row (failed, duplicate)."""
    return DocumentRows(document_row(prepared, run_id, fingerprint))


def extract_document(prepared: PreparedDocument, run_id: str, fingerprint: str,
                     check_fidelity: FidelityCheck | None = None) -> ExtractedDocument:
    """Entities, claims and translation issues of a prepared document, as warehouse rows."""
    if prepared.status != Status.OK:
        return ExtractedDocument(prepared, document_only(prepared, run_id, fingerprint))
    # Entity rules follow the document's language (as the spaCy pipeline picked per document did),
    # mentions the segment's. No spaCy Doc is built: nothing read its tokens or `doc.ents`, and
    # tokenising and building Docs was about 40 % of the stage (`ingest.extract.nlp` still offers them).
    rules_lang = profile(prepared.lang).code
    inputs, entity_rows, mention_rows_, anchor_rows, issues = [], [], [], [], []
    for record in prepared.segments:
        checkpoint()  # the per-document time budget (ingest.stages), checked between segments
        entities = find_entities(record.text, rules_lang)
        mentions = find_mentions(record.text, record.lang)
        entity_rows.extend(_entity_rows(record.doc_id, record.seg_idx, entities))
        mention_rows_.extend(mention_rows(record.doc_id, record.seg_idx, mentions))
        anchor_rows.extend({"doc_id": record.doc_id, "seg_idx": record.seg_idx, "kind": kind, "anchor": anchor}
                           for kind, anchor in segment_anchors(record.text, mentions))
        inputs.append(SegmentInput(record.seg_idx, record.kind, record.lang, record.text,
                                   record.text_en, record.section, entities, tuple(mentions)))
        if check_fidelity and record.text_en:
            issues.extend({"doc_id": record.doc_id, "seg_idx": record.seg_idx, "kind": i.kind,
                           "expected": i.expected, "detail": i.detail}
                          for i in check_fidelity(record.text, record.text_en, record.lang))
    title_entities = find_entities(prepared.metadata.title, prepared.lang) if prepared.metadata.title else []
    described = document_release(prepared.metadata.title, title_entities, inputs, prepared.metadata.source_url)
    release, note = described.release, described.note
    claims = build_claims(prepared.source.doc_id, prepared.lang, release, inputs, described.source)
    return ExtractedDocument(prepared, DocumentRows(
        document_row(prepared, run_id, fingerprint, release, note), segments=as_rows(prepared.segments),
        entities=entity_rows, mentions=mention_rows_, claims=as_rows(claims), translation_issues=issues,
        anchors=anchor_rows))
