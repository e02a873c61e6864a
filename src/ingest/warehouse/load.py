"""The one loader: whole documents replaced in a single transaction, from Arrow tables in memory
or Parquet staging files, so a crash never leaves half a document."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Mapping, Sequence

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from ..records import DOCUMENT_TABLES, DocumentRows
from . import dicts, table_columns
from .rows import TABLES, table_rows, to_arrow

# Where a table's staged rows are: an Arrow table, or a Parquet file written from one.
RowSource = pa.Table | str | Path
_names = itertools.count()


def _sql_string(value: str) -> str:
    return value.replace("'", "''")


class _Relations:
    """SQL names for row sources on one connection; Arrow tables are registered until `close`."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con, self.registered = con, []

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


def replace_documents(con: duckdb.DuckDBPyConnection, doc_ids: Sequence[str],
                      sources: Mapping[str, RowSource]) -> None:
    """Replace the documents `doc_ids` with their rows in `sources` (table -> rows of any
    documents; only `doc_ids`' are taken), in one transaction: all of them land or none does."""
    if not doc_ids:
        return
    columns = table_columns(con, *TABLES)
    relations = _Relations(con)
    con.execute("BEGIN TRANSACTION")
    try:
        ids = _delete_rows(con, relations, doc_ids)
        for table in TABLES:
            if sources.get(table) is None:
                continue
            relation, present = relations.of(sources[table])
            names = ", ".join(f'"{c}"' for c in columns[table] if c in present)
            con.execute(f"INSERT INTO {table} BY NAME SELECT {names} FROM {relation} "
                        f"WHERE doc_id IN (SELECT doc_id FROM {ids})")
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
    finally:
        relations.close()


def rollback(con: duckdb.DuckDBPyConnection) -> None:
    """Roll back the open transaction, if a failed statement or COMMIT left one open."""
    try:
        con.execute("ROLLBACK")
    except duckdb.TransactionException:
        pass  # DuckDB already ended it (a failed COMMIT, an invalidated database)
def delete_documents(con: duckdb.DuckDBPyConnection, doc_ids: Sequence[str]) -> None:
    """Remove every row of the documents `doc_ids`, in one transaction."""
    if not doc_ids:
        return
    relations = _Relations(con)
    con.execute("BEGIN TRANSACTION")
    try:
        _delete_rows(con, relations, doc_ids)
        con.execute("COMMIT")
    except BaseException:
        rollback(con)
        raise
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


def read_back(con: duckdb.DuckDBPyConnection, sources: Mapping[str, RowSource], doc_id: str) -> DocumentRows:
    """One document's rows out of staged sources."""
    relations = _Relations(con)
    try:
        tables: dict[str, list[dict[str, Any]]] = {}
        for table in TABLES:
            source = sources.get(table)
            tables[table] = [] if source is None else dicts(
                con, f"SELECT * FROM {relations.of(source)[0]} WHERE doc_id = ?", [doc_id])
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
