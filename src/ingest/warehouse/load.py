"""The one loader: whole documents replaced in a single transaction, from Arrow tables in memory
or Parquet staging files, so a crash never leaves half a document.

The loader is also where copies are settled, inside the same transaction and so under the
warehouse's single writer (`settle_copies`): an `ok` document whose cleaned text another `ok`
document already holds becomes its `duplicate` (byte-different renderings of one text: another
encoding, CRLF, a BOM, NFD, full-width digits; and the same bytes loaded by two concurrent runs,
which each planned before the other loaded), and a duplicate of a document that failed fails the
same way (three empty files are three failed rows, not one failed and two duplicates).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from ..records import DOCUMENT_TABLES, DocumentOutcome, DocumentRows, Status
from . import dicts, table_columns, transaction
from .rows import TABLES, table_rows, to_arrow

# Where a table's staged rows are: an Arrow table, or a Parquet file written from one.
RowSource: TypeAlias = pa.Table | str | Path
_names = itertools.count()


def _sql_string(value: str) -> str:
    return value.replace("'", "''")


class _Relations:
    """SQL names for row sources on one connection; Arrow tables are registered until `close`."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.registered: list[str] = []

    def of(self, source: RowSource) -> tuple[str, list[str]]:
        """(relation, its columns)."""
        if isinstance(source, pa.Table):
            name = f"_ingest_rows_{next(_names)}"
            self.con.register(name, source)
            self.registered.append(name)
            return name, source.column_names
        return f"read_parquet('{_sql_string(str(source))}')", pq.read_schema(source).names

    def close(self) -> None:
        for name in self.registered:
            try:
                self.con.unregister(name)
            except duckdb.Error:
                pass  # the transaction failed and was rolled back; keep its error, not this one


def replace_documents(
    con: duckdb.DuckDBPyConnection, doc_ids: Sequence[str], sources: Mapping[str, RowSource]
) -> dict[str, DocumentOutcome]:
    """Replace the documents `doc_ids` with their rows in `sources` (table -> rows of any
    documents; only `doc_ids`' are taken), in one transaction: all of them land or none does.
    Returns the outcome of each document whose status `settle_copies` changed."""
    if not doc_ids:
        return {}
    columns = table_columns(con, *TABLES)
    relations = _Relations(con)
    try:
        with transaction(con):
            ids = _delete_rows(con, relations, doc_ids)
            for table in TABLES:
                if sources.get(table) is None:
                    continue
                relation, present = relations.of(sources[table])
                names = ", ".join(f'"{c}"' for c in columns[table] if c in present)
                con.execute(
                    f"INSERT INTO {table} BY NAME SELECT {names} FROM {relation} WHERE doc_id IN (SELECT doc_id FROM {ids})"
                )
            settled = settle_copies(con, ids)
    finally:
        relations.close()
    return settled


def settle_copies(con: duckdb.DuckDBPyConnection, ids: str) -> dict[str, DocumentOutcome]:
    """Inside the loading transaction: the documents of `ids` (a relation of doc_ids) that copy the
    text of an `ok` document loaded before become its duplicates (with their rows removed), and the
    duplicates of a failed document fail with its reason. Returns their new outcomes."""
    # Every ok document's text fingerprint (rows loaded by an older version get theirs here, once).
    con.execute(
        "UPDATE documents SET text_sha256 = sha256(text) WHERE status = 'ok' AND text IS NOT NULL AND text_sha256 IS NULL"
    )
    copies = con.execute(f"""
        WITH held AS (SELECT doc_id, text_sha256, doc_id IN (SELECT doc_id FROM {ids}) AS new
                      FROM documents WHERE status = 'ok' AND text_sha256 IS NOT NULL),
             original AS (SELECT text_sha256, first(doc_id ORDER BY new, doc_id) AS doc_id FROM held GROUP BY ALL)
        SELECT held.doc_id, original.doc_id FROM held JOIN original USING (text_sha256)
        WHERE held.new AND held.doc_id <> original.doc_id ORDER BY 1""").fetchall()
    settled = {}
    for doc_id, original in copies:
        reason = f"same text as {original} (a copy in another encoding, line ending or Unicode form); ingested once there"
        con.execute(
            "UPDATE documents SET status = 'duplicate', duplicate_of = ?, error = ? WHERE doc_id = ?", [original, reason, doc_id]
        )
        for table in DOCUMENT_TABLES:
            con.execute(f"DELETE FROM {table} WHERE doc_id = ?", [doc_id])
        settled[doc_id] = DocumentOutcome(doc_id, Status.DUPLICATE, reason, original)
    failed = con.execute(f"""
        UPDATE documents AS copy SET status = 'failed', error = original.error, duplicate_of = NULL
        FROM documents AS original
        WHERE copy.doc_id IN (SELECT doc_id FROM {ids}) AND copy.status = 'duplicate'
          AND original.doc_id = copy.duplicate_of AND original.status = 'failed'
        RETURNING copy.doc_id, copy.error""").fetchall()
    settled.update({doc_id: DocumentOutcome(doc_id, Status.FAILED, error) for doc_id, error in failed})
    return settled


def delete_documents(con: duckdb.DuckDBPyConnection, doc_ids: Sequence[str]) -> None:
    """Remove every row of the documents `doc_ids`, in one transaction."""
    if not doc_ids:
        return
    relations = _Relations(con)
    try:
        with transaction(con):
            _delete_rows(con, relations, doc_ids)
    finally:
        relations.close()


def _delete_rows(con: duckdb.DuckDBPyConnection, relations: _Relations, doc_ids: Sequence[str]) -> str:
    """Delete the documents' rows from every table (inside the caller's transaction); returns
    the relation naming their ids."""
    ids, _ = relations.of(pa.table({"doc_id": pa.array(list(doc_ids), pa.string())}))
    for table in TABLES:
        con.execute(f"DELETE FROM {table} WHERE doc_id IN (SELECT doc_id FROM {ids})")
    return ids


def arrow_sources(documents: Sequence[DocumentRows]) -> dict[str, pa.Table]:
    """Each table's rows of `documents` as one Arrow table (tables without rows left out)."""
    return {table: to_arrow(rows) for table in TABLES if (rows := table_rows(documents, table))}


def load_documents(con: duckdb.DuckDBPyConnection, documents: Sequence[DocumentRows]) -> None:
    """Replace whole documents' rows in one transaction; a doc_id given twice keeps its last rows."""
    latest = {rows.doc_id: rows for rows in documents}
    replace_documents(con, list(latest), arrow_sources(list(latest.values())))


def load_document(con: duckdb.DuckDBPyConnection, rows: DocumentRows) -> None:
    """Replace one document's rows in a single transaction: all of it lands or none does."""
    load_documents(con, [rows])


def ids_held_by_other_files(con: duckdb.DuckDBPyConnection, sources: Mapping[str, RowSource]) -> dict[str, str]:
    """Staged documents whose id the warehouse holds for another file: doc_id -> that file's path.
    (Two runs that planned two folders of one name before either loaded both labelled theirs
    alike; the plan of any later run gives the second folder a label of its own.)"""
    if sources.get("documents") is None:
        return {}
    cursor = con.cursor()  # its own results: the connection may hold one not yet fetched
    relations = _Relations(cursor)
    try:
        staged = relations.of(sources["documents"])[0]
        rows = cursor.execute(
            f"SELECT d.doc_id, d.path FROM documents d JOIN {staged} s USING (doc_id) "
            "WHERE d.path IS NOT NULL AND d.path IS DISTINCT FROM s.path"
        ).fetchall()
    finally:
        relations.close()
        cursor.close()
    return dict(rows)


def read_back(con: duckdb.DuckDBPyConnection, sources: Mapping[str, RowSource], doc_id: str) -> DocumentRows:
    """One document's rows out of staged sources."""
    relations = _Relations(con)
    try:
        tables: dict[str, list[dict[str, Any]]] = {}
        for table in TABLES:
            source = sources.get(table)
            tables[table] = (
                [] if source is None else dicts(con, f"SELECT * FROM {relations.of(source)[0]} WHERE doc_id = ?", [doc_id])
            )
    finally:
        relations.close()
    return DocumentRows(tables.pop("documents")[0], **{t: tables[t] for t in DOCUMENT_TABLES})


def insert_rows(con: duckdb.DuckDBPyConnection, table: str, rows: Sequence[dict[str, Any]]) -> None:
    """Append rows to a table (columns it lacks are left out, columns the rows lack are NULL)."""
    if not rows:
        return
    relations = _Relations(con)
    try:
        relation, present = relations.of(to_arrow(rows))
        names = ", ".join(f'"{c}"' for c in table_columns(con, table)[table] if c in present)
        con.execute(f"INSERT INTO {table} BY NAME SELECT {names} FROM {relation}")
    finally:
        relations.close()


def record_run(con: duckdb.DuckDBPyConnection, run: dict[str, Any]) -> None:
    """Store (or replace) a run's row of the `runs` table."""
    con.execute("DELETE FROM runs WHERE run_id = ?", [run["run_id"]])
    insert_rows(con, "runs", [run])
