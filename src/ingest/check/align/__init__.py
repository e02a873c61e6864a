"""Renderings of one article, compared without a translation model: their sentences aligned
(`sentences`), the mentions of aligned sentences matched one to one with the kind of every
change (`compare`), and the group's original, sources and arbiter (`groups`).

Pure functions over records: `ingest.run.renderings` reads the documents from the warehouse
and stores what these return.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .compare import MentionPair, match_mentions
from .groups import identical_share
from ..thresholds import CONFIDENT_UNIT, RENDERING_COVERAGE
from .sentences import AlignedUnit, AlignSegment, align


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




def compare_renderings(a: Sequence[AlignSegment], b: Sequence[AlignSegment]) -> PairResult:
    """Align two renderings and match the mentions of every aligned unit."""
    units = align(a, b)
    by_idx_a = {s.seg_idx: s for s in a}
    by_idx_b = {s.seg_idx: s for s in b}
    where = {id(m): (s.seg_idx, k) for s in (*a, *b) for k, m in enumerate(s.mentions)}
    pairs, texts = [], []
    for index, unit in enumerate(units):
        mentions_a = [m for i in unit.segs_a for m in by_idx_a[i].mentions]
        mentions_b = [m for i in unit.segs_b for m in by_idx_b[i].mentions]
        pairs.extend(PlacedPair(index, where[id(p.a)], where[id(p.b)], p) for p in match_mentions(mentions_a, mentions_b))
        texts.append(("".join(by_idx_a[i].text for i in unit.segs_a), "".join(by_idx_b[i].text for i in unit.segs_b)))
    confident = [u for u in units if u.confidence >= CONFIDENT_UNIT]
    # Both documents must be mostly aligned: a translation covers most of its original, a short
    # summary or an article that quotes a few sentences of another does not.
    coverage = min(sum(len(u.segs_a) for u in confident) / max(1, len(a)),
                   sum(len(u.segs_b) for u in confident) / max(1, len(b)))
    return PairResult(units, pairs, identical_share(texts), round(min(1.0, coverage), 3))


__all__ = ["RENDERING_COVERAGE", "AlignSegment", "AlignedUnit", "MentionPair", "PairResult", "PlacedPair", "compare_renderings"]
