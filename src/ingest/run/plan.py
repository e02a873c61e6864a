"""The plan of a run: which stored documents are gone, what the inputs are, which are unchanged.

Both `run_pipeline` and the Prefect flow's `plan` task call `plan_run` with the warehouse open
for writing (it marks the documents whose file is gone `missing`); `ingest prune` reuses the
same test for a gone file before it removes their rows.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from .. import limits, warehouse
from ..check import update_checks
from ..discover import discover
from ..records import KnownSources, SourceFile, Status
from ..warehouse.load import delete_documents

Stored = dict[str, Any]  # a row of warehouse.stored_documents
GONE_REASON = (
    "the source file is gone since it was ingested: its rows are kept but leave every check; "
    "restore the file and re-run, or remove its rows with `ingest prune`"
)


@dataclass
class Plan:
    """What a run found: every input file, the unchanged ones (skipped), the work, and the
    documents it found gone (marked `missing`)."""

    n_files: int
    skipped: list[str]
    todo: list[SourceFile]
    missing: list[str] = field(default_factory=list)


def plan_run(
    con: duckdb.DuckDBPyConnection,
    paths: Sequence[str],
    fingerprint: str,
    follow_links: bool = False,
    exclude: Sequence[str] = (),
) -> Plan:
    """Mark gone documents `missing`, discover the inputs with the identities the warehouse
    knows, and leave out those it holds with the same bytes and fingerprint."""
    stored = warehouse.stored_documents(con)
    gone = mark_gone(con, stored)
    sources = discover(
        paths,
        follow_links=follow_links,
        known=known_sources(stored, gone),
        extra=orphaned_copies(stored, gone, paths),
        exclude=exclude,
    )
    skip = unchanged(sources, {row["doc_id"]: row for row in stored}, fingerprint)
    return Plan(len(sources), sorted(skip), [s for s in sources if s.doc_id not in skip], sorted(gone))


def mark_gone(con: duckdb.DuckDBPyConnection, stored: Iterable[Stored]) -> set[str]:
    """Mark the documents whose file no longer exists `missing`; returns the newly marked ids."""
    gone = {row["doc_id"] for row in stored if row["status"] != Status.MISSING and not os.path.lexists(row["path"])}
    warehouse.mark_missing(con, sorted(gone), GONE_REASON)
    return gone


def known_sources(stored: Sequence[Stored], gone: set[str]) -> KnownSources:
    """The identities the warehouse holds: ids by path, folder labels, the `ok` copy of each content,
    the contents that failed."""
    canonical: dict[str, str] = {}
    for row in stored:  # sorted by doc_id: the first ok document of some bytes is their original
        if row["status"] == Status.OK and row["doc_id"] not in gone and row["sha256"]:
            canonical.setdefault(row["sha256"], row["doc_id"])
    return KnownSources(
        ids_by_path={row["path"]: row["doc_id"] for row in stored},
        labels_by_root=dict(filter(None, map(_root_label, stored))),
        canonical_by_sha=canonical,
        failed_sha=frozenset(row["sha256"] for row in stored if row["status"] == Status.FAILED and row["sha256"]),
    )


def _root_label(row: Stored) -> tuple[str, str] | None:
    """(input folder, label) for a document named `<label>/<path inside the folder>`; None for
    ids an older version gave (they are kept by path, but name no folder)."""
    root, path, doc_id = row["source_root"], row["path"], row["doc_id"]
    if not root:
        return None
    inside = Path(os.path.relpath(path, root)).as_posix()
    label = doc_id[: -len(inside) - 1] if doc_id.endswith("/" + inside) else ""
    return (root, label) if label else None


def orphaned_copies(stored: Sequence[Stored], gone: set[str], paths: Sequence[str]) -> list[tuple[str, str]]:
    """(folder, path) of stored duplicates to look at again although their folder is not an
    input: their original is gone or no longer has their bytes (or, for a copy of its text, their
    text), or is an input and may change. Otherwise a copy of content would stay out of the checks
    after its original left."""
    originals = {row["doc_id"]: row for row in stored if row["status"] == Status.OK and row["doc_id"] not in gone}
    roots = [Path(os.path.realpath(p)) for p in paths]
    extra = []
    for row in stored:
        if row["status"] != Status.DUPLICATE or row["doc_id"] in gone or not row["source_root"]:
            continue
        original = originals.get(row["duplicate_of"])
        same = original is not None and (
            original["sha256"] == row["sha256"]
            or (original["text_sha256"] is not None and original["text_sha256"] == row["text_sha256"])
        )
        if not same or original is None or _inside(original["path"], roots):
            extra.append((row["source_root"], row["path"]))
    return extra


def _inside(path: str, roots: Sequence[Path]) -> bool:
    return any(Path(path) == root or Path(path).is_relative_to(root) for root in roots)


def unchanged(sources: Iterable[SourceFile], stored: dict[str, Stored], fingerprint: str) -> set[str]:
    """doc_ids whose bytes and pipeline fingerprint match what the warehouse holds as a loaded
    (or deterministically failed) document; a document failed over a per-article limit matches
    only while the limits are the same (`stages`); duplicates and missing ones are always looked
    at again."""
    versions = (fingerprint, fingerprint + limits.current().mark())
    return {
        s.doc_id
        for s in sources
        if s.sha256
        and not s.duplicate_of
        and not s.error
        and (row := stored.get(s.doc_id)) is not None
        and row["sha256"] == s.sha256
        and row["pipeline_version"] in versions
        and row["status"] in (Status.OK, Status.FAILED)
    }


def prune_missing(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Mark documents whose file is gone `missing`, then remove the rows of every `missing`
    document; returns their ids."""
    mark_gone(con, warehouse.stored_documents(con))
    doomed = [
        doc_id
        for (doc_id,) in con.execute(
            "SELECT doc_id FROM documents WHERE status = ? ORDER BY doc_id", [str(Status.MISSING)]
        ).fetchall()
    ]
    delete_documents(con, doomed)
    update_checks(con)
    return doomed
