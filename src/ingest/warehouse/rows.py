"""Rows (dicts) to Arrow tables: the one conversion every load and every staging file goes through."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pyarrow as pa

from ..records import DOCUMENT_TABLES, DocumentRows

# Every table a document's rows go to, `documents` last (what is deleted first is inserted last).
TABLES = (*DOCUMENT_TABLES, "documents")


def to_arrow(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> pa.Table:
    """An Arrow table of `rows`: the given columns (missing values NULL) or every key the rows have."""
    if columns is None:
        columns = list(dict.fromkeys(key for row in rows for key in row))
    return pa.Table.from_pydict({c: [row.get(c) for row in rows] for c in columns})


def table_rows(documents: Iterable[DocumentRows], table: str) -> list[dict[str, Any]]:
    """The rows several documents give one table."""
    return [row for document in documents for row in document.table(table)]
