"""Renderings of one article, compared without a translation model: their sentences aligned
(`sentences`), the mentions of aligned sentences matched one to one with the kind of every
change (`compare`), and the group's original, sources and arbiter (`groups`).

Pure functions over records: `ingest.check.renderings` reads the documents from the warehouse
and stores what these return.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from threadpoolctl import threadpool_limits

from ...extract.reader import DATE, MODEL, NUMBER, QUANTITIES, VERSION
from ..thresholds import (
    CONFIDENT_UNIT,
    RENDERING_COVERAGE,
    RENDERING_FIGURES_KEPT,
    RENDERING_MIN_SURE,
    RENDERING_MIN_UNITS,
    SHORT_RENDERING_COVERAGE,
)
from .compare import CHANGED, MentionPair, counted_equivalents, match_mentions
from .groups import identical_share
from .sentences import AlignedUnit, AlignSegment, align

K = TypeVar("K")

# The figures a translation keeps, and how many it takes to judge by them.
FIGURES = QUANTITIES | {VERSION, DATE, MODEL}
MIN_FIGURES = 10


@dataclass(frozen=True)
class PlacedPair:
    """A matched pair of mentions and where each stands: (segment, index of the mention in it)."""

    unit: int
    where_a: tuple[int, int]
    where_b: tuple[int, int]
    pair: MentionPair


@dataclass(frozen=True)
class PairResult:
    units: list[AlignedUnit]
    pairs: list[PlacedPair]
    identical_share: float
    coverage: float  # the smaller share of either document's segments in confidently aligned units
    figures_kept: float  # the smaller share of either side's figures in those units that have a partner

    @property
    def same_article(self) -> bool:
        """Renderings of one article: most of each aligns (nearly all of a short one, and more than a
        few sentences), and the aligned sentences keep their figures (a write-up that retells most of
        a post in its own words drops many)."""
        sure = sum(unit.confidence >= CONFIDENT_UNIT for unit in self.units)
        needed = SHORT_RENDERING_COVERAGE if sure < RENDERING_MIN_UNITS else RENDERING_COVERAGE
        return sure >= RENDERING_MIN_SURE and self.coverage >= needed and self.figures_kept >= RENDERING_FIGURES_KEPT


def compare_all(pairs: Mapping[K, tuple[Sequence[AlignSegment], Sequence[AlignSegment]]]) -> dict[K, PairResult]:
    """`compare_renderings` of every pair. The matrix products of the alignment are small: on
    OpenBLAS's threads they cost three times the CPU of one thread (its workers spin while they
    wait), so they run on one (and a call to set that costs ~1 ms: once for all the pairs)."""
    with threadpool_limits(limits=1, user_api="blas"):
        return {key: compare_renderings(a, b) for key, (a, b) in pairs.items()}


def compare_renderings(a: Sequence[AlignSegment], b: Sequence[AlignSegment]) -> PairResult:
    """Align two renderings and match the mentions of every aligned unit."""
    units = align(a, b)
    by_idx_a = {s.seg_idx: s for s in a}
    by_idx_b = {s.seg_idx: s for s in b}
    where = {id(m): (s.seg_idx, k) for s in (*a, *b) for k, m in enumerate(s.mentions)}
    mentions = [
        ([m for i in unit.segs_a for m in by_idx_a[i].mentions], [m for i in unit.segs_b for m in by_idx_b[i].mentions])
        for unit in units
    ]
    matched = [match_mentions(mentions_a, mentions_b) for mentions_a, mentions_b in mentions]
    # Matched again where the figures the renderings agree on tie counted nouns the dictionaries do not.
    equivalents = counted_equivalents(p for unit_pairs in matched for p in unit_pairs)
    if equivalents:
        matched = [match_mentions(mentions_a, mentions_b, equivalents) for mentions_a, mentions_b in mentions]
    named_a, named_b = _product_numbers(a), _product_numbers(b)
    matched = [[p for p in unit_pairs if not _another_product(p, named_a, named_b)] for unit_pairs in matched]
    pairs = [PlacedPair(index, where[id(p.a)], where[id(p.b)], p) for index, unit_pairs in enumerate(matched) for p in unit_pairs]
    texts = [("".join(by_idx_a[i].text for i in unit.segs_a), "".join(by_idx_b[i].text for i in unit.segs_b)) for unit in units]
    confident = [u for u in units if u.confidence >= CONFIDENT_UNIT]
    # Both documents must be mostly aligned: a translation covers most of its original, a short
    # summary or an article that quotes a few sentences of another does not.
    coverage = min(sum(len(u.segs_a) for u in confident) / max(1, len(a)), sum(len(u.segs_b) for u in confident) / max(1, len(b)))
    return PairResult(
        units, pairs, identical_share(texts), round(min(1.0, coverage), 3), _figures_kept(confident, by_idx_a, by_idx_b, pairs)
    )


def _product_numbers(segments: Sequence[AlignSegment]) -> set[tuple[str, str | None]]:
    """(product name, number) of every product a document names with a number ("Watch 4"), read as a
    number or, where a release word follows it ("Pulsar Watch 4 is out"), as a version."""
    return {
        (m.name, m.norm if m.kind == NUMBER else m.version)
        for s in segments
        for m in s.mentions
        if m.kind in (NUMBER, VERSION) and m.name
    }


def _another_product(pair: MentionPair, named_a: set[tuple[str, str | None]], named_b: set[tuple[str, str | None]]) -> bool:
    """A product's number changed between two renderings, where either rendering names the product
    with the other's number too: that rendering names two products of a line ("up from 2,000 nits
    on the Watch 3" in an article about the Watch 4, whose translation says "the previous
    generation" and names the Watch 4 there), not one figure written two ways."""
    a, b = pair.a, pair.b
    return (
        pair.relation == CHANGED
        and a.kind == b.kind == NUMBER
        and bool(a.name)
        and ((a.name, b.norm) in named_a or (b.name, a.norm) in named_b)
    )


def _figures_kept(
    confident: Sequence[AlignedUnit],
    by_idx_a: dict[int, AlignSegment],
    by_idx_b: dict[int, AlignSegment],
    pairs: Sequence[PlacedPair],
) -> float:
    """Of the figures in confidently aligned sentences, the smaller share on either side that the
    other side states too, alike or changed (1.0 with too few figures to tell)."""
    paired_a = {p.where_a for p in pairs}
    paired_b = {p.where_b for p in pairs}
    shares = []
    for segments, by_idx, paired in (
        ([i for u in confident for i in u.segs_a], by_idx_a, paired_a),
        ([i for u in confident for i in u.segs_b], by_idx_b, paired_b),
    ):
        figures = [(i, k) for i in segments for k, m in enumerate(by_idx[i].mentions) if m.kind in FIGURES]
        if len(figures) < MIN_FIGURES:
            return 1.0
        shares.append(sum(f in paired for f in figures) / len(figures))
    return round(min(shares), 3)


__all__ = ["AlignSegment", "AlignedUnit", "MentionPair", "PairResult", "PlacedPair", "compare_all", "compare_renderings"]
