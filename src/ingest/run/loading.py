"""Loading staged batches: one transaction per batch, per document if a batch is refused.

If a batch cannot be loaded, its documents are loaded one per transaction, so one bad
document cannot cost the others; a document the warehouse refuses keeps a `failed` row
(retried on the next run). New translations travel with their segments (a worker cannot
write the warehouse); the single writer files them into the translation cache here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import duckdb

from ..errors import WarehouseError
from ..records import DocumentOutcome, DocumentRows, Status
from ..translate import cache as translation_cache
from ..warehouse import is_storage_fault, storage_error
from ..warehouse.load import RowSource, ids_held_by_other_files, load_document, read_back, replace_documents
from .batches import RETRY_MARK
from .staging import StagedBatch

Progress = Callable[[str, int, int], None]


def _storage_fault(con: duckdb.DuckDBPyConnection, error: duckdb.Error) -> WarehouseError:
    """Retrying document by document cannot help a full disk, and blaming each document would hide the cause."""
    path = con.execute("SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchone()
    return storage_error(path[0] if path else "the warehouse", error)


def _load_with_fallback(con: duckdb.DuckDBPyConnection, batch: StagedBatch) -> None:
    sources = batch.sources()
    held = _held_by_another_file(con, batch, sources)
    doc_ids = [doc_id for doc_id in batch.doc_ids if doc_id not in held]
    try:
        batch.outcomes.update(replace_documents(con, doc_ids, sources))
    except duckdb.Error as error:
        if is_storage_fault(error):
            raise _storage_fault(con, error) from error
        for doc_id in doc_ids:
            try:
                batch.outcomes.update(replace_documents(con, [doc_id], sources))
            except duckdb.Error as error:
                if is_storage_fault(error):
                    raise _storage_fault(con, error) from error
                reason = f"the warehouse refused this document's rows ({error}); this is a bug, please report it"
                batch.outcomes[doc_id] = DocumentOutcome(doc_id, Status.FAILED, reason)
                batch.refused.add(doc_id)
                _record_refusal(con, read_back(con, sources, doc_id), reason)
    batch.loaded = True
    batch.discard_files()


def _held_by_another_file(con: duckdb.DuckDBPyConnection, batch: StagedBatch, sources: Mapping[str, RowSource]) -> set[str]:
    """The batch's documents whose id another file that still exists holds (two runs at once, each
    with a folder of one name): they fail, saying to run again, instead of replacing that file; the
    next run's plan gives them an id of their own. (A file whose id moved with its folder is gone:
    its id is taken over as before.)"""
    held = {doc_id: path for doc_id, path in ids_held_by_other_files(con, sources).items() if Path(path).exists()}
    for doc_id, path in held.items():
        reason = (
            f"not loaded: a run at the same time loaded another file under this id ({path}, a folder of the same "
            "name); run again and this file gets an id of its own"
        )
        batch.outcomes[doc_id] = DocumentOutcome(doc_id, Status.FAILED, reason)
    return set(held)


def _record_refusal(con: duckdb.DuckDBPyConnection, rows: DocumentRows, reason: str) -> None:
    """Keep a `failed` row (no segments) for a document the warehouse refused, retried on the next run."""
    document = {
        **rows.document,
        "status": str(Status.FAILED),
        "error": reason,
        "pipeline_version": f"{rows.document.get('pipeline_version') or ''}{RETRY_MARK}",
    }
    try:
        load_document(con, DocumentRows(document))
    except duckdb.Error:
        pass  # the document row itself is refused: the summary still names the document


def load_staged(
    con: duckdb.DuckDBPyConnection, staged: Iterable[StagedBatch], progress: Progress | None = None, total: int | None = None
) -> list[DocumentOutcome]:
    """Load batches (one transaction each; per document if a batch fails) and remove their staging files."""
    outcomes: list[DocumentOutcome] = []
    for batch in staged:
        if not batch.loaded:
            _load_with_fallback(con, batch)
        outcomes.extend(batch.outcomes.values())
        if progress:
            progress("load", len(outcomes), total or len(outcomes))
    translation_cache.store_from_segments(con, [o.doc_id for o in outcomes if o.status == Status.OK])
    return outcomes
