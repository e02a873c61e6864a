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

Engines running where the warehouse cannot be written (Prefect task threads, Dask
workers) use a `SnapshotCache`: the entries of the installed packages, read by the
run's single writer before staging. Their new translations reach the warehouse with
the segments, and `store_from_segments` files them into the cache after loading.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

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


class TranslationCache(Protocol):
    """Where translations of a package are looked up and stored."""

    def lookup(self, key: PackageKey, texts: Sequence[str]) -> dict[str, str]: ...

    def store(self, key: PackageKey, pairs: Iterable[tuple[str, str]]) -> int: ...


def engine_label(engine_name: str, key: PackageKey) -> str:
    """`segments.translation_engine` of a segment this package translated: 'argos:translate-ja_en@1.1'."""
    return f"{engine_name}:{key.package_id}@{key.version}"


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


def store(con: duckdb.DuckDBPyConnection, key: PackageKey, pairs: Iterable[tuple[str, str]]) -> int:
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


class WarehouseCache:
    """The cache read and written directly on a warehouse connection."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        ensure_schema(con)
        self.con = con

    def lookup(self, key: PackageKey, texts: Sequence[str]) -> dict[str, str]:
        return lookup(self.con, key, texts)

    def store(self, key: PackageKey, pairs: Iterable[tuple[str, str]]) -> int:
        return store(self.con, key, pairs)


class SnapshotCache:
    """Cached entries of some packages held in memory; new translations are kept for the run."""

    def __init__(self, entries: dict[tuple[PackageKey, str], str] | None = None) -> None:
        self.entries = entries or {}

    def lookup(self, key: PackageKey, texts: Sequence[str]) -> dict[str, str]:
        return {text: self.entries[(key, source_hash(text))] for text in texts if (key, source_hash(text)) in self.entries}

    def store(self, key: PackageKey, pairs: Iterable[tuple[str, str]]) -> int:
        added = {(key, source_hash(source)): text_en for source, text_en in pairs}
        self.entries.update(added)
        return len(added)


def snapshot(con: duckdb.DuckDBPyConnection, keys: Iterable[PackageKey]) -> SnapshotCache:
    """The warehouse's entries for `keys` (the installed packages), as an in-memory cache."""
    ensure_schema(con)
    entries: dict[tuple[PackageKey, str], str] = {}
    for key in keys:
        rows = con.execute(
            f"SELECT source_sha256, text_en FROM {TABLE} WHERE package_id = ? AND package_version = ?",
            [key.package_id, key.version],
        ).fetchall()
        entries.update({(key, digest): text_en for digest, text_en in rows})
    return SnapshotCache(entries)


def store_from_segments(con: duckdb.DuckDBPyConnection, doc_ids: Sequence[str]) -> int:
    """File the translations loaded with `doc_ids` into the cache (the segments' `engine_label`s name the package)."""
    if not doc_ids:
        return 0
    ensure_schema(con)
    rows = con.execute(
        """
        SELECT DISTINCT split_part(split_part(translation_engine, ':', 2), '@', 1),
               split_part(translation_engine, '@', 2), text, text_en
        FROM segments
        WHERE doc_id IN (SELECT unnest(?::VARCHAR[])) AND translation_status = 'translated'
          AND translation_engine LIKE '%:%@%' AND text_en IS NOT NULL
        """,
        [list(doc_ids)],
    ).fetchall()
    by_key: dict[PackageKey, list[tuple[str, str]]] = {}
    for package_id, version, text, text_en in rows:
        by_key.setdefault(PackageKey(package_id, version), []).append((text, text_en))
    return sum(store(con, key, pairs) for key, pairs in by_key.items())
