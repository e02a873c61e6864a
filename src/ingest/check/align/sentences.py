"""Sentence alignment of two renderings of one article, without a translation model.

A monotonic alignment (dynamic programming, as Gale & Church align parallel text) over the
two documents' segments, in order: 1-1 pairs, merges of two or three sentences of one side
(a translator joins or splits sentences), and skips (a sentence one side leaves out). A pair scores by what the two
sides share whatever their language — rare Latin names, URLs, versions, sized model names,
and numbers compared by value in any notation ("39 million" = "3900 万") or by their written
digits alone ("1.7B" ~ "1.7T", the mark of a magnitude slip) — by block kind (a heading
pairs with a heading), by the CJK character bigrams two renderings in one language share, by
the meaning two sentences share in any languages (their concepts, English word stems through the
bilingual lexicons, weighted by how rare they are in the two documents), and by length, relative
to the two documents' overall length ratio.

Each aligned unit gets a confidence in [0, 1] from its own evidence, raised a little when
its neighbours on both sides are well attested (a sentence between two aligned ones is
most likely their counterpart).

Cost: the spans' features are arrays over what the two documents share, and the scores of a block
of spans against another are a few matrix products (a weighted sum of minima is one product per
count level); the programme then fills a row of cells at a time. tests/test_alignment.py holds it
to the definition above scored one span pair at a time; `python -m bench.alignment` times it.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ...extract.reader import DATE, LABEL, MODEL, QUANTITIES, VERSION, Reading

_SKIP = -0.6  # a sentence left out of the other rendering
_MERGE = -0.35  # joining two sentences of one side
_KIND_MATCH = 0.4
_KIND_CLASH = -1.2  # a heading against a paragraph
_LENGTH_WEIGHT = 0.9
# The steps of the alignment: 1-1, merges of up to three sentences of one side, and skips.
_STEPS = ((1, 1), (2, 1), (1, 2), (3, 1), (1, 3), (1, 0), (0, 1))
_BAND = 0.25  # how far from the diagonal (share of the longer document) a pair may lie
_MIN_BAND = 12
# Shared meaning (weighted Dice of concepts) below the floor is what unrelated sentences share.
_MEANING_WEIGHT = 4.0
_MEANING_FLOOR = 0.12
# What str.isalnum() holds and is not ASCII (`\w` is isalnum() or "_"; the same over every code point).
_NON_ASCII_LETTER = re.compile(r"[^\W\x00-\x7f]")


@dataclass(frozen=True)
class AlignSegment:
    """What alignment needs of one segment."""

    seg_idx: int
    kind: str
    text: str
    names: frozenset[str]
    mentions: tuple[Reading, ...]
    concepts: frozenset[str] = frozenset()  # English word stems of its words (`extract.lexicon`)

    # Computed once per segment, however many renderings it is aligned with.
    @cached_property
    def figures(self) -> tuple[Counter, Counter]:
        """The segment's canonical values (quantities by magnitude, versions, dates, models, labels)
        and the written significant digits of its quantities and model sizes, counted."""
        values: Counter = Counter()
        digits: Counter = Counter()
        for mention in self.mentions:
            if mention.kind in QUANTITIES:
                kind = mention.kind if mention.kind != "fraction" else "multiplier"
                values[("q", kind, round(math.log10(abs(mention.value)), 3) if mention.value else 0.0)] += 1
                digits[mention.digits] += 1
            elif mention.kind in (VERSION, DATE, MODEL, LABEL):
                values[(mention.kind, mention.norm)] += 1
                if mention.kind == MODEL:
                    digits[mention.digits] += 1
        return values, digits

    @cached_property
    def bigrams(self) -> frozenset[str]:
        """Bigrams of the CJK characters of the text: two renderings in one language (a draft and its
        final, two translations) share many; a Chinese and an English rendering none."""
        return frozenset(a + b for a, b in itertools.pairwise(_NON_ASCII_LETTER.findall(self.text)))


@dataclass(frozen=True)
class AlignedUnit:
    """Segments of one rendering aligned with segments of the other (1-1, 2-1 or 1-2)."""

    segs_a: tuple[int, ...]
    segs_b: tuple[int, ...]
    confidence: float
    evidence: float = 0.0


_ROWS_PER_BLOCK = 64  # spans of one side scored at once: bounds memory on long articles


@dataclass(frozen=True)
class _Spans:
    """Every span of `size` consecutive segments of one document, as arrays over the features the
    two documents share (`spans[k]` is `segments[k:k + size]`): a feature only one side has adds
    nothing to any pair's score, except through the sizes of unions kept here per span."""

    names: list[np.ndarray]  # per count threshold t = 1, 2, ...: 1.0 where the span has the name at least t times
    values: list[np.ndarray]  # the same for canonical values (quantities, versions, dates, models)
    digits: list[np.ndarray]  # the same for the written significant digits of quantities and model sizes
    bigrams: np.ndarray  # 1.0 where the span has the shared CJK character bigram
    bigram_count: np.ndarray  # how many distinct CJK bigrams the span has, shared or not
    concepts: np.ndarray  # 1.0 where the span has the shared concept
    concept_weight: np.ndarray  # the summed weights of all the span's concepts
    length: np.ndarray  # characters
    single_kind: np.ndarray  # the block kind's code for a one-segment span, else -1
    heading: np.ndarray  # a heading is in the span


@dataclass(frozen=True)
class _Segments:
    """One document's segments as the counts of what alignment compares."""

    names: list[frozenset[str]]
    values: list[Counter]
    digits: list[Counter]
    bigrams: list[frozenset[str]]
    concepts: list[frozenset[str]]
    length: list[int]
    kind: list[str]


def _segment_features(segments: Sequence[AlignSegment]) -> _Segments:
    return _Segments(
        [segment.names for segment in segments],
        [segment.figures[0] for segment in segments],
        [segment.figures[1] for segment in segments],
        [segment.bigrams for segment in segments],
        [segment.concepts for segment in segments],
        [len(segment.text) for segment in segments],
        [segment.kind for segment in segments],
    )


@dataclass(frozen=True)
class _Weights:
    names: dict[str, float]
    concepts: dict[str, float]


def _weights(a: Sequence[AlignSegment], b: Sequence[AlignSegment]) -> _Weights:
    """Rare names and concepts tie sentences; a name every other sentence repeats ("PyTorch") or a
    concept the whole article is about ("model", "train") says little."""
    names = Counter(name for segment in (*a, *b) for name in segment.names)
    concepts = Counter(concept for segment in (*a, *b) for concept in segment.concepts)
    total = len(a) + len(b)
    return _Weights(
        {name: 1.0 / (1.0 + math.log(count)) for name, count in names.items()},
        {concept: math.log(total / count) for concept, count in concepts.items()},
    )


def _vocabulary(a: Sequence, b: Sequence) -> dict:
    """The features both documents have, each with its column: only these can add to a pair's score."""
    shared = set().union(*a) & set().union(*b) if a and b else set()
    return {feature: column for column, feature in enumerate(sorted(shared, key=repr))}


def _matrix(rows: Sequence, vocabulary: dict) -> np.ndarray:
    """Rows of counts (a Counter) or of members (a set) over the vocabulary's columns."""
    matrix = np.zeros((len(rows), len(vocabulary)))
    if vocabulary:
        at_row, at_column, counts = [], [], []
        for r, row in enumerate(rows):
            for feature in row.keys() & vocabulary.keys() if isinstance(row, Counter) else row & vocabulary.keys():
                at_row.append(r)
                at_column.append(vocabulary[feature])
                counts.append(row[feature] if isinstance(row, Counter) else 1)
        matrix[at_row, at_column] = counts
    return matrix


def _windows(per_segment: np.ndarray, size: int) -> np.ndarray:
    """Row k: the counts of the span of segments k .. k + size - 1."""
    count = max(0, len(per_segment) - size + 1)
    total = np.zeros((count, per_segment.shape[1]))
    for k in range(size):
        total += per_segment[k : k + count]
    return total


def _levels(counts: np.ndarray, top: int) -> list[np.ndarray]:
    """Σ_v w_v min(x_v, y_v) = Σ_t Σ_v w_v [x_v ≥ t][y_v ≥ t]: a weighted sum of minima becomes
    a few matrix products, one per count level t."""
    return [(counts >= t).astype(float) for t in range(1, top + 1)]


class _Scorer:
    """The score and evidence of aligning every span of one to three segments of `a` with every
    such span of `b`, by blocks of rows as the dynamic programme asks for them (each block is a
    few matrix products over the features the two documents share)."""

    def __init__(self, a: Sequence[AlignSegment], b: Sequence[AlignSegment]) -> None:
        weights = _weights(a, b)
        self.ratio = max(1e-6, sum(len(s.text) for s in b)) / max(1e-6, sum(len(s.text) for s in a))
        seg_a, seg_b = _segment_features(a), _segment_features(b)
        kinds = {kind: code for code, kind in enumerate(sorted(set(seg_a.kind) | set(seg_b.kind)))}
        vocab = {name: _vocabulary(getattr(seg_a, name), getattr(seg_b, name)) for name in _FEATURES}
        self.name_weights = np.array([weights.names[name] for name in vocab["names"]])
        self.concept_weights = np.array([weights.concepts[concept] for concept in vocab["concepts"]])
        sizes = range(1, max(di for di, _ in _STEPS) + 1)
        per_segment = {
            (side, name): _matrix(getattr(segs, name), vocab[name])
            for side, segs in (("a", seg_a), ("b", seg_b))
            for name in _FEATURES
        }
        counts = {
            side: {(name, size): _windows(per_segment[(side, name)], size) for name in _FEATURES for size in sizes}
            for side in "ab"
        }
        # count levels beyond the smaller side's largest count can add nothing
        largest = {
            side: {name: max(counts[side][(name, size)].max(initial=0) for size in sizes) for name in _COUNTED} for side in counts
        }
        tops = {name: int(min(largest["a"][name], largest["b"][name])) for name in _COUNTED}
        self.spans_a = {size: _spans(seg_a, size, counts["a"], tops, kinds, weights.concepts) for size in sizes}
        self.spans_b = {size: _spans(seg_b, size, counts["b"], tops, kinds, weights.concepts) for size in sizes}

    def block(self, di: int, dj: int, rows: range, cols: range) -> tuple[np.ndarray, np.ndarray]:
        """(score, evidence) of spans a[di][rows] against b[dj][cols]."""
        x, y = self.spans_a[di], self.spans_b[dj]
        r, c = slice(rows.start, rows.stop), slice(cols.start, cols.stop)
        names = _min_sum(x.names, y.names, r, c, self.name_weights)
        values = _min_sum(x.values, y.values, r, c, None)
        digits = _min_sum(x.digits, y.digits, r, c, None)
        common = x.bigrams[r] @ y.bigrams[c].T
        union = x.bigram_count[r, None] + y.bigram_count[None, c] - common
        with np.errstate(divide="ignore", invalid="ignore"):
            jaccard = np.where(union > 0, common / union, 0.0)
            shared = (x.concepts[r] * self.concept_weights) @ y.concepts[c].T
            total = x.concept_weight[r, None] + y.concept_weight[None, c]
            meaning = np.where((shared > 0) & (total > 0), 2.0 * shared / total, 0.0)
            lengths = (y.length[None, c] / x.length[r, None]) / self.ratio
            both_long = (x.length[r, None] > 0) & (y.length[None, c] > 0)
            length = np.where(both_long, _LENGTH_WEIGHT * np.minimum(2.0, np.abs(np.log(np.where(both_long, lengths, 1.0)))), 0.0)
        text = np.where(jaccard >= 0.2, 4.0 * jaccard, 0.0)
        meaning = np.where(meaning >= _MEANING_FLOOR, _MEANING_WEIGHT * meaning, 0.0)
        evidence = 1.2 * names + 1.5 * values + 0.5 * np.maximum(0, digits - values) + np.maximum(text, meaning)
        same_kind = (x.single_kind[r, None] >= 0) & (x.single_kind[r, None] == y.single_kind[None, c])
        clash = ~same_kind & (x.heading[r, None] != y.heading[None, c])
        score = evidence + np.where(same_kind, _KIND_MATCH, np.where(clash, _KIND_CLASH, 0.0)) - length
        # Unshared numbers on both sides argue against a pair only weakly (a changed number is what we look for).
        return score, evidence


_COUNTED = ("names", "values", "digits")
_FEATURES = (*_COUNTED, "bigrams", "concepts")


def _min_sum(x: list[np.ndarray], y: list[np.ndarray], rows: slice, cols: slice, weights: np.ndarray | None) -> np.ndarray:
    total = np.zeros((rows.stop - rows.start, cols.stop - cols.start))
    for level_x, level_y in zip(x, y):
        total += (level_x[rows] * weights if weights is not None else level_x[rows]) @ level_y[cols].T
    return total


def _spans(
    segs: _Segments,
    size: int,
    counts: dict[tuple[str, int], np.ndarray],
    tops: dict[str, int],
    kinds: dict[str, int],
    concept_weights: dict[str, float],
) -> _Spans:
    bigram_unions = _unions(segs.bigrams, size)
    concept_unions = _unions(segs.concepts, size)
    headings = np.array([kind == "heading" for kind in segs.kind], dtype=float)
    return _Spans(
        names=_levels(counts[("names", size)], tops["names"]),
        values=_levels(counts[("values", size)], tops["values"]),
        digits=_levels(counts[("digits", size)], tops["digits"]),
        bigrams=(counts[("bigrams", size)] > 0).astype(float),
        bigram_count=np.array([len(union) for union in bigram_unions], dtype=float),
        concepts=(counts[("concepts", size)] > 0).astype(float),
        concept_weight=np.array([math.fsum(map(concept_weights.__getitem__, union)) for union in concept_unions]),
        length=_windows(np.array(segs.length, dtype=float)[:, None], size)[:, 0],
        single_kind=np.array([kinds[kind] for kind in segs.kind] if size == 1 else [-1] * len(bigram_unions), dtype=int),
        heading=_windows(headings[:, None], size)[:, 0] > 0,
    )


def _unions(sets: Sequence[AbstractSet], size: int) -> list[AbstractSet]:
    """The union of every `size` consecutive sets."""
    if size == 1:
        return list(sets)
    return [frozenset().union(*window) for window in zip(*(sets[k:] for k in range(size)))]


def align(a: Sequence[AlignSegment], b: Sequence[AlignSegment]) -> list[AlignedUnit]:
    """The best monotonic alignment of two renderings' segments."""
    n, m = len(a), len(b)
    if not n or not m:
        return []
    scorer = _Scorer(a, b)
    band = max(_MIN_BAND, int(_BAND * max(n, m)))
    bounds = []  # the cells near the diagonal of each row, first and last column
    for i in range(n + 1):
        centre = i * m / n
        columns = [
            j
            for j in range(max(0, math.floor(centre - band) - 1), min(m, math.ceil(centre + band) + 1) + 1)
            if abs(centre - j) <= band
        ]
        bounds.append((columns[0], columns[-1]))
    blocks: dict[tuple[int, int], tuple[int, int, np.ndarray, np.ndarray]] = {}

    def scores(step: int, start: int) -> tuple[int, np.ndarray, np.ndarray]:
        """The first column, scores and evidence of the span of a starting at `start` for a step."""
        di, dj = _STEPS[step]
        number = start // _ROWS_PER_BLOCK
        if (step, number) not in blocks:
            rows = range(number * _ROWS_PER_BLOCK, min((number + 1) * _ROWS_PER_BLOCK, n - di + 1))
            first = max(0, min(bounds[i + di][0] for i in rows) - dj)
            last = min(m - dj, max(bounds[i + di][1] for i in rows) - dj)
            cols = range(first, max(first, last + 1))
            blocks.pop((step, number - 2), None)  # the programme moves down: earlier blocks are done with
            blocks[(step, number)] = (rows.start, cols.start, *scorer.block(di, dj, rows, cols))
        row0, col0, score, evidence = blocks[(step, number)]
        return col0, score[start - row0], evidence[start - row0]

    # Row by row: every step from an earlier row at once over the row's cells, then the skip along
    # the row, which depends on the cell before it. Ties go to the earlier step of _STEPS.
    skip_along = _STEPS.index((0, 1))
    cells: list[_Row] = []
    for i in range(n + 1):
        lo, hi = bounds[i]
        best = np.full(hi - lo + 1, _UNREACHED)
        chosen = np.full(hi - lo + 1, -1)
        chosen_evidence = np.zeros(hi - lo + 1)
        for step, (di, dj) in enumerate(_STEPS):
            if not di or i < di:
                continue
            before = cells[i - di]
            # the cells of this row whose predecessor (i - di, j - dj) is a cell of row i - di
            first, last = max(lo, before.first + dj), min(hi, before.first + len(before.total) - 1 + dj)
            if first > last:
                continue
            base = before.total[first - dj - before.first : last - dj - before.first + 1]
            here = slice(first - lo, last - lo + 1)
            if dj:
                col0, score, span_evidence = scores(step, i - di)
                option = base + score[first - dj - col0 : last - dj - col0 + 1] + _MERGE * (di + dj - 2)
                evidence = span_evidence[first - dj - col0 : last - dj - col0 + 1]
            else:
                option, evidence = base + _SKIP, np.zeros(len(base))
            better = option > best[here]
            np.copyto(best[here], option, where=better)
            np.copyto(chosen[here], step, where=better)
            np.copyto(chosen_evidence[here], evidence, where=better)
        total, steps, evidences = best.tolist(), chosen.tolist(), chosen_evidence.tolist()
        if i == 0:
            total[0] = 0.0  # the start (bounds[0] begins at column 0)
        for k in range(1, len(total)):
            along = total[k - 1] + _SKIP
            if along > total[k]:
                total[k], steps[k], evidences[k] = along, skip_along, 0.0
        cells.append(_Row(lo, np.array(total), steps, evidences))
    end = cells[n]
    if not end.first <= m < end.first + len(end.total) or end.total[m - end.first] == _UNREACHED:
        return []
    return _confidences(a, b, _trace(cells, n, m))


_UNREACHED = -math.inf


@dataclass(frozen=True)
class _Row:
    """The cells of one row of the dynamic programme: the best total of each, the step that reached it
    and the evidence of that step's unit."""

    first: int  # the column of the first cell
    total: np.ndarray
    step: list[int]
    evidence: list[float]


def _trace(cells: list[_Row], n: int, m: int) -> list[tuple[tuple[int, ...], tuple[int, ...], float]]:
    units = []
    i, j = n, m
    while (i, j) != (0, 0):
        row = cells[i]
        di, dj = _STEPS[row.step[j - row.first]]
        if di and dj:
            units.append((tuple(range(i - di, i)), tuple(range(j - dj, j)), row.evidence[j - row.first]))
        i, j = i - di, j - dj
    return list(reversed(units))


def _confidences(
    a: Sequence[AlignSegment], b: Sequence[AlignSegment], units: list[tuple[tuple[int, ...], tuple[int, ...], float]]
) -> list[AlignedUnit]:
    """Confidence from a unit's own evidence, raised when both neighbours are well attested."""
    own = [1.0 - math.exp(-evidence / 1.5) for _, _, evidence in units]
    aligned = []
    for index, (xs, ys, evidence) in enumerate(units):
        before = own[index - 1] if index > 0 else 0.0
        after = own[index + 1] if index + 1 < len(units) else 0.0
        support = min(before, after)
        confidence = own[index] + (1.0 - own[index]) * 0.6 * support
        aligned.append(
            AlignedUnit(
                tuple(a[i].seg_idx for i in xs), tuple(b[j].seg_idx for j in ys), round(confidence, 3), round(evidence, 3)
            )
        )
    return aligned
