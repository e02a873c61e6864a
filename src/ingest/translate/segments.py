"""The one place that writes a translation onto segments (fresh from an engine or from the stage cache)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from ..records import PreparedDocument, SegmentRecord
from .engine import Translation, TranslationEngine


def apply_translations(records: Iterable[SegmentRecord], translations: Iterable[Translation]) -> None:
    """Set each record's English, translation status, engine and reason from its translation."""
    for record, result in zip(records, translations, strict=True):
        record.text_en = result.text_en
        record.translation_status = result.status
        record.translation_engine = result.engine
        record.translation_reason = result.reason


def translations_of(records: Iterable[SegmentRecord]) -> list[Translation]:
    """The translations the records carry (what the stage cache stores)."""
    return [Translation(r.text_en, r.translation_status or "", r.translation_engine, r.translation_reason) for r in records]


def translate_documents(documents: Sequence[PreparedDocument], engine: TranslationEngine) -> None:
    """Translate every segment of the documents, one engine call per source language (batched inside)."""
    by_lang: dict[str, list[SegmentRecord]] = defaultdict(list)
    for document in documents:
        for record in document.segments:
            by_lang[record.lang].append(record)
    for lang, records in by_lang.items():
        apply_translations(records, engine.translate(lang, [r.text for r in records]))
