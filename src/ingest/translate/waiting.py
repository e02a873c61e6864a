"""Filling the segments a run left `waiting` (`--translate evidence|none`), in the warehouse.

A run that translates evidence first loads every document with its segments `waiting`, runs
the checks, then fills the segments whose sentences the report shows; `ingest translate` (or a
later `--translate all` run) fills the rest. Filling a segment writes everything that a
translation made at stage time would have written: the segment's English, status and engine,
the English of the claims made from it (`claims.evidence_en` is a copy of the segment's), its
fidelity issues and the translation cache — in one transaction per batch of whole documents,
so a crash never leaves half a document translated.

Segments are translated across documents: a batch collects the waiting segments of many
documents and hands the engine one call per language (which sorts them by length and batches
by tokens), so a few sentences per document still make full batches.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import duckdb

from ..extract.fidelity import check_fidelity
from ..transaction import transaction
from . import cache as translation_cache
from .cache import PackageKey
from .engine import CACHED, TRANSLATED, WAITING, CachedEngine, Translation, TranslationEngine

Progress = Callable[[str, int, int], None]
# Segments per transaction: enough to fill the engine's batches, few enough that an interrupted
# fill loses little work (what was committed stays).
BATCH_SEGMENTS = 2_000


@dataclass(frozen=True)
class WaitingSegment:
    doc_id: str
    seg_idx: int
    lang: str
    text: str


@dataclass
class FillResult:
    """What a fill did: segments translated by the engine, answered from the cache, still waiting."""

    translated: int = 0
    cached: int = 0
    still_waiting: int = 0
    untranslated: dict[str, int] = field(default_factory=dict)  # language -> segments no package translates

    @property
    def filled(self) -> int:
        return self.translated + self.cached


def untranslated(con: duckdb.DuckDBPyConnection) -> tuple[dict[str, int], dict[str, int]]:
    """Segments of `ok` documents that no installed package could translate, by language: those of
    languages documents are written in (a package would translate them), and the rest (a segment
    detected as Catalan or Danish in a Japanese article is a name, an identifier or a short heading)."""
    rows = con.execute(
        "SELECT s.lang, count(*), bool_or(s.lang IN (SELECT lang FROM documents WHERE status = 'ok')) "
        "FROM segments s JOIN documents d USING (doc_id) WHERE d.status = 'ok' "
        "AND s.translation_status = 'untranslated' GROUP BY 1 ORDER BY 1"
    ).fetchall()
    return {lang: n for lang, n, written in rows if written}, {lang: n for lang, n, written in rows if not written}


def waiting_count(con: duckdb.DuckDBPyConnection) -> int:
    """Segments of `ok` documents that wait for a translation."""
    row = con.execute(
        "SELECT count(*) FROM segments s JOIN documents d USING (doc_id) WHERE d.status = 'ok' AND s.translation_status = ?",
        [WAITING],
    ).fetchone()
    assert row is not None  # count(*) always returns one row
    return row[0]


def waiting_segments(
    con: duckdb.DuckDBPyConnection, sentences: Collection[tuple[str, str]] | None = None
) -> list[WaitingSegment]:
    """The waiting segments of `ok` documents, by document; only those whose (doc_id, text) is
    among `sentences` when given."""
    query = (
        "SELECT s.doc_id, s.seg_idx, s.lang, s.text FROM segments s JOIN documents d USING (doc_id) "
        "WHERE d.status = 'ok' AND s.translation_status = ?"
    )
    parameters: list = [WAITING]
    if sentences is not None:
        wanted = sorted(set(sentences))
        if not wanted:
            return []
        query += " AND (s.doc_id, s.text) IN (SELECT (unnest(?::VARCHAR[]), unnest(?::VARCHAR[])))"
        parameters += [[doc_id for doc_id, _ in wanted], [text for _, text in wanted]]
    rows = con.execute(query + " ORDER BY s.doc_id, s.seg_idx", parameters).fetchall()
    return [WaitingSegment(*row) for row in rows]


def fill_waiting(
    con: duckdb.DuckDBPyConnection,
    engine: TranslationEngine,
    sentences: Collection[tuple[str, str]] | None = None,
    progress: Progress | None = None,
    batch_segments: int = BATCH_SEGMENTS,
) -> FillResult:
    """Translate the waiting segments (only those of `sentences`, (doc_id, text) pairs, when given)
    with the warehouse's translation cache first, then `engine` (uncached: the cache used is the
    warehouse's, written in each batch's transaction). Segments of a language no installed
    package translates stay waiting."""
    todo = waiting_segments(con, sentences)
    result, done = FillResult(), 0
    for batch in _document_batches(todo, batch_segments):
        buffered = _BufferedCache(con)
        translations = _translate(CachedEngine(engine, buffered), batch)
        _write(con, batch, translations, buffered)
        for translation in translations:
            result.translated += translation.status == TRANSLATED
            result.cached += translation.status == CACHED
        done += len(batch)
        if progress:
            progress("translate", done, len(todo))
    result.still_waiting = len(todo) - result.filled
    return result


def _document_batches(segments: Sequence[WaitingSegment], size: int) -> Iterator[list[WaitingSegment]]:
    """Consecutive runs of whole documents with at least `size` segments (the last may have fewer)."""
    batch: list[WaitingSegment] = []
    for index, segment in enumerate(segments):
        batch.append(segment)
        document_ends = index + 1 == len(segments) or segments[index + 1].doc_id != segment.doc_id
        if document_ends and len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _translate(engine: TranslationEngine, batch: Sequence[WaitingSegment]) -> list[Translation]:
    """One engine call per language over the batch's segments; results in the batch's order."""
    positions: dict[str, list[int]] = defaultdict(list)
    for position, segment in enumerate(batch):
        positions[segment.lang].append(position)
    results: dict[int, Translation] = {}
    for lang, indices in positions.items():
        results.update(zip(indices, engine.translate(lang, [batch[i].text for i in indices]), strict=True))
    return [results[position] for position in range(len(batch))]


class _BufferedCache:
    """Looks translations up in the warehouse; keeps new ones until the batch's transaction files them."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.pending: list[tuple[PackageKey, list[tuple[str, str]]]] = []

    def lookup(self, key: PackageKey, texts: Sequence[str]) -> dict[str, str]:
        return translation_cache.lookup(self.con, key, texts)

    def store(self, key: PackageKey, pairs: Iterable[tuple[str, str]]) -> int:
        pairs = list(pairs)
        self.pending.append((key, pairs))
        return len(pairs)

    def flush(self) -> None:
        for key, pairs in self.pending:
            translation_cache.store(self.con, key, pairs)
        self.pending.clear()


def _write(
    con: duckdb.DuckDBPyConnection, batch: Sequence[WaitingSegment], translations: Sequence[Translation], buffered: _BufferedCache
) -> None:
    """Segments, claims' English, fidelity issues and the cache of one batch, in one transaction."""
    filled = [
        (segment, t)
        for segment, t in zip(batch, translations, strict=True)
        if t.status in (TRANSLATED, CACHED) and t.text_en is not None
    ]
    if not filled and not buffered.pending:
        return
    columns = {
        "doc_id": [s.doc_id for s, _ in filled],
        "seg_idx": [s.seg_idx for s, _ in filled],
        "text_en": [t.text_en for _, t in filled],
        "status": [t.status for _, t in filled],
        "engine": [t.engine for _, t in filled],
    }
    filled_rows = (
        "(SELECT unnest(?::VARCHAR[]) AS doc_id, unnest(?::INTEGER[]) AS seg_idx, "
        "unnest(?::VARCHAR[]) AS text_en, unnest(?::VARCHAR[]) AS status, unnest(?::VARCHAR[]) AS engine)"
    )
    issues = [
        (s.doc_id, s.seg_idx, i.kind, i.expected, i.detail)
        for s, t in filled
        for i in check_fidelity(s.text, t.text_en or "", s.lang)
    ]
    with transaction(con):
        con.execute(
            f"UPDATE segments SET text_en = f.text_en, translation_status = f.status, "
            f"translation_engine = f.engine, translation_reason = NULL FROM {filled_rows} f "
            "WHERE segments.doc_id = f.doc_id AND segments.seg_idx = f.seg_idx",
            list(columns.values()),
        )
        con.execute(
            f"UPDATE claims SET evidence_en = f.text_en FROM {filled_rows} f "
            "WHERE claims.doc_id = f.doc_id AND claims.seg_idx = f.seg_idx",
            list(columns.values()),
        )
        con.execute(
            f"DELETE FROM translation_issues t USING {filled_rows} f WHERE t.doc_id = f.doc_id AND t.seg_idx = f.seg_idx",
            list(columns.values()),
        )
        if issues:
            con.executemany(
                "INSERT INTO translation_issues (doc_id, seg_idx, kind, expected, detail) VALUES (?, ?, ?, ?, ?)", issues
            )
        buffered.flush()
