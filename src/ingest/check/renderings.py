"""Renderings of one article, kept aligned in the warehouse after every load.

The `document_pairs` view says which documents render one article (rare names and URLs
they share). Every pair whose documents changed since it was last aligned (their bytes or
pipeline version), or that the current alignment code has not aligned, is aligned again (`ingest.align`) and its rows
replaced in `alignments`, `aligned_units` and `mention_pairs`; then the groups of renderings
(`renderings`) and what each group says about every changed figure (`verdicts`) are
recomputed. Work is proportional to the pairs that changed; an unchanged re-run reads two
small tables and stops.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

import duckdb
import pyarrow as pa

from ..extract.reader import Reading, reading_from_row
from ..identity import align_digest
from ..warehouse import dicts, transaction
from ..warehouse.load import insert_rows
from . import align
from .align.compare import AGREE, CHANGED, HEDGE
from .align.groups import Rendering, arbiter, groups, original, sources

_PAIR_TABLES = ("alignments", "aligned_units", "mention_pairs")
Pair = tuple[str, str]


def update_renderings(con: duckdb.DuckDBPyConnection) -> int:
    """Re-align the document pairs that changed; returns how many pairs were aligned."""
    current = _current_pairs(con)
    stored = {
        (r["doc_a"], r["doc_b"]): (r["key_a"], r["key_b"], r["version"])
        for r in dicts(con, "SELECT doc_a, doc_b, key_a, key_b, version FROM alignments")
    }
    todo = sorted(pair for pair, key in current.items() if stored.get(pair) != key)
    gone = sorted(pair for pair in stored if pair not in current)
    if not todo and not gone:
        return 0
    with transaction(con):
        _delete_pairs(con, todo + gone)
        for batch in _batches(todo):
            segments = _segments(con, {doc for pair in batch for doc in pair})
            results = align.compare_all({pair: (segments.get(pair[0], []), segments.get(pair[1], [])) for pair in batch})
            _insert_results(con, current, results)
        _refresh_groups(con)
    return len(todo)


# Pairs are aligned in batches whose documents number at most this many: the segments, names and
# mentions of every document at once took 1.5 GB at 10,000 documents.
BATCH_DOCUMENTS = 1000


def _batches(pairs: list[Pair]) -> Iterator[list[Pair]]:
    """`pairs` in order, cut where a batch would read more than BATCH_DOCUMENTS documents."""
    batch: list[Pair] = []
    documents: set[str] = set()
    for pair in pairs:
        if batch and len(documents | set(pair)) > BATCH_DOCUMENTS:
            yield batch
            batch, documents = [], set()
        batch.append(pair)
        documents.update(pair)
    if batch:
        yield batch


def _insert_results(
    con: duckdb.DuckDBPyConnection, current: dict[Pair, tuple[str, str, str]], results: dict[Pair, align.PairResult]
) -> None:
    insert_rows(
        con,
        "alignments",
        [
            {
                "doc_a": a,
                "doc_b": b,
                "key_a": current[(a, b)][0],
                "key_b": current[(a, b)][1],
                "version": align_digest(),
                "identical_share": result.identical_share,
                "coverage": result.coverage,
                "figures_kept": result.figures_kept,
                "same_article": result.same_article,
            }
            for (a, b), result in results.items()
        ],
    )
    insert_rows(con, "aligned_units", [row for pair, result in results.items() for row in _unit_rows(pair, result)])
    insert_rows(con, "mention_pairs", [row for pair, result in results.items() for row in _pair_rows(pair, result)])


def _current_pairs(con: duckdb.DuckDBPyConnection) -> dict[Pair, tuple[str, str, str]]:
    """Each document pair with what its alignment depends on: both documents' bytes and
    pipeline version, and the alignment code."""
    rows = dicts(
        con,
        "SELECT p.doc_a, p.doc_b, da.sha256 || ':' || da.pipeline_version AS key_a, "
        "db.sha256 || ':' || db.pipeline_version AS key_b FROM document_pairs p "
        "JOIN documents da ON da.doc_id = p.doc_a JOIN documents db ON db.doc_id = p.doc_b "
        "WHERE da.status = 'ok' AND db.status = 'ok'",
    )
    return {(r["doc_a"], r["doc_b"]): (r["key_a"], r["key_b"], align_digest()) for r in rows}


def _segments(con: duckdb.DuckDBPyConnection, docs: Iterable[str]) -> dict[str, list[align.AlignSegment]]:
    """Each document's segments with their names and mentions, as alignment reads them."""
    ids = sorted(docs)
    if not ids:
        return {}
    names: dict[tuple[str, int], set[str]] = defaultdict(set)
    concepts: dict[tuple[str, int], set[str]] = defaultdict(set)
    for doc, seg, kind, anchor in con.execute(
        "SELECT doc_id, seg_idx, kind, anchor FROM anchors "
        "WHERE kind IN ('name', 'url', 'concept') "
        "AND doc_id IN (SELECT unnest(?::VARCHAR[]))",
        [ids],
    ).fetchall():
        (concepts if kind == "concept" else names)[(doc, seg)].add(anchor)
    mentions: dict[tuple[str, int], list[Reading]] = defaultdict(list)
    for row in dicts(
        con, "SELECT * FROM mentions WHERE doc_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY doc_id, seg_idx, mention_idx", [ids]
    ):
        mentions[(row["doc_id"], row["seg_idx"])].append(reading_from_row(row))
    segments: dict[str, list[align.AlignSegment]] = defaultdict(list)
    for doc, seg, kind, text in con.execute(
        "SELECT doc_id, seg_idx, kind, text FROM segments WHERE doc_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY doc_id, seg_idx",
        [ids],
    ).fetchall():
        segments[doc].append(
            align.AlignSegment(
                seg, kind, text, frozenset(names[(doc, seg)]), tuple(mentions[(doc, seg)]), frozenset(concepts[(doc, seg)])
            )
        )
    return segments


def _unit_rows(pair: Pair, result: align.PairResult) -> Iterable[dict[str, Any]]:
    for index, unit in enumerate(result.units):
        yield {
            "doc_a": pair[0],
            "doc_b": pair[1],
            "unit_idx": index,
            "seg_a_first": unit.segs_a[0],
            "seg_a_last": unit.segs_a[-1],
            "seg_b_first": unit.segs_b[0],
            "seg_b_last": unit.segs_b[-1],
            "confidence": unit.confidence,
            "evidence": unit.evidence,
        }


def _pair_rows(pair: Pair, result: align.PairResult) -> Iterable[dict[str, Any]]:
    for placed in result.pairs:
        unit = result.units[placed.unit]
        yield {
            "doc_a": pair[0],
            "doc_b": pair[1],
            "unit_idx": placed.unit,
            "seg_a": placed.where_a[0],
            "mention_a": placed.where_a[1],
            "seg_b": placed.where_b[0],
            "mention_b": placed.where_b[1],
            "relation": placed.pair.relation,
            "change": placed.pair.change,
            "certainty": placed.pair.certainty,
            "confidence": round(placed.pair.certainty * unit.confidence, 3),
        }


def _delete_pairs(con: duckdb.DuckDBPyConnection, pairs: list[Pair]) -> None:
    if not pairs:
        return
    con.register("_ingest_pairs", pa.table({"doc_a": [a for a, _ in pairs], "doc_b": [b for _, b in pairs]}))
    try:
        for table in _PAIR_TABLES:
            con.execute(f"DELETE FROM {table} WHERE (doc_a, doc_b) IN (SELECT (doc_a, doc_b) FROM _ingest_pairs)")
    finally:
        con.unregister("_ingest_pairs")


def _refresh_groups(con: duckdb.DuckDBPyConnection) -> None:
    """The groups of renderings (pairs that alignment bears out), their originals and sources,
    and a verdict on every changed figure."""
    renderings = {
        r["doc_id"]: Rendering(r["doc_id"], r["lang"] or "", r["title"])
        for r in dicts(con, "SELECT doc_id, lang, title FROM documents")
    }
    aligned = dicts(con, "SELECT doc_a, doc_b, identical_share, same_article FROM alignments")
    shares = {(r["doc_a"], r["doc_b"]): r["identical_share"] or 0.0 for r in aligned}
    renders = [(r["doc_a"], r["doc_b"]) for r in aligned if r["same_article"]]
    membership, source_of, original_of = [], {}, {}
    for group in groups(renders):
        first = original(group, renderings)
        group_sources = sources(group, renderings, shares)
        source_of.update(group_sources)
        for doc in group:
            original_of[doc] = first
            membership.append({"doc_id": doc, "group_id": group[0], "original": doc == first, "source": group_sources[doc]})
    con.execute("DELETE FROM renderings")
    insert_rows(con, "renderings", membership)
    con.execute("DELETE FROM verdicts")
    insert_rows(con, "verdicts", _verdicts(con, original_of, source_of))
    con.execute("""UPDATE verdicts v SET arbiter = arbiter_text(v.original, v.supported, ma.text, mb.text, v.docs_a,
                                                              v.docs_b, v.sources_a, v.sources_b)
                   FROM mentions ma, mentions mb
                   WHERE ma.doc_id = v.doc_a AND ma.seg_idx = v.seg_a AND ma.mention_idx = v.mention_a
                     AND mb.doc_id = v.doc_b AND mb.seg_idx = v.seg_b AND mb.mention_idx = v.mention_b""")


def _verdicts(
    con: duckdb.DuckDBPyConnection, original_of: dict[str, str | None], source_of: dict[str, str]
) -> list[dict[str, Any]]:
    """For every changed figure: which value the group's other renderings state, if any, and
    whether another pair of the group already reports the same change (a figure changed in one of
    three renderings differs from both others: one change, reported once, from the original's
    side when it states the figure). Only pairs taken for renderings count: a pair of the group
    aligned but not taken (one joined through a third) reports no change, so a change it shows
    must not mark the taken pair's as a repeat."""
    rows = dicts(
        con,
        "SELECT p.*, ma.norm AS norm_a, mb.norm AS norm_b FROM mention_pairs p "
        "JOIN alignments al ON al.doc_a = p.doc_a AND al.doc_b = p.doc_b AND al.same_article "
        "JOIN mentions ma ON ma.doc_id = p.doc_a AND ma.seg_idx = p.seg_a AND ma.mention_idx = p.mention_a "
        "JOIN mentions mb ON mb.doc_id = p.doc_b AND mb.seg_idx = p.seg_b AND mb.mention_idx = p.mention_b "
        "ORDER BY p.doc_a, p.doc_b, p.seg_a, p.mention_a",
    )
    figure = _Figures()
    # The partners a changed mention has, by their value: partners of one mention that state one
    # value state one figure, even where their own sentences were not aligned with each other.
    partners: dict[tuple[str, int, int], dict[str, tuple[str, int, int]]] = defaultdict(dict)
    for row in rows:
        a, b = (row["doc_a"], row["seg_a"], row["mention_a"]), (row["doc_b"], row["seg_b"], row["mention_b"])
        if row["relation"] in (AGREE, HEDGE):
            figure.join(a, b)
        elif row["relation"] == CHANGED:
            for mention, partner, value in ((a, b, row["norm_b"]), (b, a, row["norm_a"])):
                figure.join(partners[mention].setdefault(value, partner), partner)
    changed = sorted(
        (row for row in rows if row["relation"] == CHANGED),
        key=lambda r: (original_of.get(r["doc_a"]) not in (r["doc_a"], r["doc_b"]), r["doc_a"], r["doc_b"]),
    )
    reported: set[frozenset] = set()
    members = figure.members()
    verdicts = []
    for row in changed:
        a, b = (row["doc_a"], row["seg_a"], row["mention_a"]), (row["doc_b"], row["seg_b"], row["mention_b"])
        change = frozenset((figure.root(a), figure.root(b)))
        repeats = change in reported
        reported.add(change)
        side_of = {row["doc_a"]: "a", row["doc_b"]: "b"}
        for doc, *_ in members[figure.root(a)]:
            side_of.setdefault(doc, "a")
        for doc, *_ in members[figure.root(b)]:
            side_of.setdefault(doc, "b")
        verdict = arbiter(side_of, original_of.get(row["doc_a"]), source_of)
        verdicts.append(
            {
                "doc_a": row["doc_a"],
                "doc_b": row["doc_b"],
                "seg_a": row["seg_a"],
                "mention_a": row["mention_a"],
                "seg_b": row["seg_b"],
                "mention_b": row["mention_b"],
                **vars(verdict),
                "repeats": repeats,
            }
        )
    return verdicts


class _Figures:
    """Mentions of one figure across a group's renderings: those joined by agreements."""

    def __init__(self) -> None:
        self.parent: dict[tuple[str, int, int], tuple[str, int, int]] = {}

    def root(self, mention: tuple[str, int, int]) -> tuple[str, int, int]:
        while self.parent.setdefault(mention, mention) != mention:
            self.parent[mention] = self.parent[self.parent[mention]]
            mention = self.parent[mention]
        return mention

    def join(self, a: tuple[str, int, int], b: tuple[str, int, int]) -> None:
        self.parent[self.root(a)] = self.root(b)

    def members(self) -> dict[tuple[str, int, int], list[tuple[str, int, int]]]:
        """Each figure (by its root) with its mentions, in order."""
        found: dict[tuple[str, int, int], list[tuple[str, int, int]]] = defaultdict(list)
        for mention in sorted(self.parent):
            found[self.root(mention)].append(mention)
        return found
