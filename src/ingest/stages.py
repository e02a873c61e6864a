"""The extract stage as runs call it: under the per-document time budget, with failures over a
per-article limit marked so that they are tried again once the limits change.

A failed document's row normally carries the run's fingerprint, so the next run with the same code
skips it: right for a file that cannot be decoded, wrong for one refused over a limit
(`INGEST_MAX_TEXT_CHARS`, the stage budget ...) after the limit was raised. Such a row carries
the fingerprint plus `limits.Limits.mark()` instead: `run.plan.unchanged` skips it while the
limits are the same and takes it up again when they differ.
"""

from __future__ import annotations

from . import limits as per_article
from .budget import Budget, BudgetExceeded
from .extract import document
from .records import ExtractedDocument, PreparedDocument, Status


def extract(prepared: PreparedDocument, run_id: str, fingerprint: str) -> ExtractedDocument:
    """`extract_document` under the stage budget; a document that outlasts it fails, over a limit."""
    limits = per_article.current()
    try:
        with Budget("extraction", limits.max_stage_seconds):
            extracted = document.extract_document(prepared, run_id, fingerprint)
    except BudgetExceeded as error:
        prepared = PreparedDocument(prepared.source, Status.FAILED, str(error), limited=True)
        extracted = ExtractedDocument(prepared, document.document_only(prepared, run_id, fingerprint))
    if prepared.limited:
        extracted.rows.document["pipeline_version"] = fingerprint + limits.mark()
    return extracted
