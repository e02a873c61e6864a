"""Translation cache in the DuckDB warehouse: a segment translated once is never translated again.

Entries are keyed by the package that produced them (argospm id + version) and the
SHA-256 of the exact source segment; the source text is kept for inspection. Decoding
settings (beam size, lengths) are not part of the key: the cache answers "what did this
model say for this segment". Storing entries for a new version of a package deletes the
entries of that package's older versions — and of no other package.

The pipeline owns the connection (one writer process); these functions only run
statements on it and never open, commit or close anything, so they compose with a
transaction the caller may have open. Bulk work is one statement per call: lists are
passed as parameters and UNNESTed by DuckDB, rather than inserted row by row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import duckdb

TABLE = "translation_cache"

DDL = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    package_id      VARCHAR   NOT NULL,  -- argospm name, e.g. 'translate-ja_en'
    package_version VARCHAR   NOT NULL,  -- metadata.json package_version, e.g. '1.1'
    source_sha256   VARCHAR   NOT NULL,  -- hex SHA-256 of the UTF-8 source segment, as given
    source_text     VARCHAR   NOT NULL,
    text_en         VARCHAR   NOT NULL,
    created_at      TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (package_id, package_version, source_sha256)
)
"""


@dataclass(frozen=True)
class PackageKey:
    """Which model produced a cached translation."""

    package_id: str
    version: str


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create the cache table if it does not exist."""
    con.execute(DDL)


def source_hash(text: str) -> str:
    """The cache key of a segment: SHA-256 of its exact UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def lookup(con: duckdb.DuckDBPyConnection, key: PackageKey, texts: Sequence[str]) -> dict[str, str]:
    """Cached translations among `texts` for `key`: {source text: English}."""
    by_hash = {source_hash(text): text for text in texts}
    if not by_hash:
        return {}
    rows = con.execute(
        f"""
        SELECT source_sha256, text_en FROM {TABLE}
        WHERE package_id = ? AND package_version = ?
          AND source_sha256 IN (SELECT unnest(?::VARCHAR[]))
        """,
        [key.package_id, key.version, list(by_hash)],
    ).fetchall()
    return {by_hash[digest]: text_en for digest, text_en in rows}


def store(
    con: duckdb.DuckDBPyConnection, key: PackageKey, pairs: Iterable[tuple[str, str]]
) -> int:
    """Cache (source, English) pairs for `key`; returns how many distinct sources were given.

    Entries of other versions of the same package are deleted first: an upgraded model
    must not be answered by its predecessor, and nothing else may be touched.
    """
    rows = {source_hash(source): (source, text_en) for source, text_en in pairs}
    if not rows:
        return 0
    _invalidate_other_versions(con, key)
    sources, translations = zip(*rows.values(), strict=True)
    con.execute(
        f"""
        INSERT INTO {TABLE} (package_id, package_version, source_sha256, source_text, text_en)
        SELECT ?, ?, unnest(?::VARCHAR[]), unnest(?::VARCHAR[]), unnest(?::VARCHAR[])
        ON CONFLICT DO NOTHING
        """,
        [key.package_id, key.version, list(rows), list(sources), list(translations)],
    )
    return len(rows)


def _invalidate_other_versions(con: duckdb.DuckDBPyConnection, key: PackageKey) -> None:
    """Delete the entries of `key.package_id` made by any version other than `key.version`."""
    con.execute(
        f"DELETE FROM {TABLE} WHERE package_id = ? AND package_version <> ?",
        [key.package_id, key.version],
    )
