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
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

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


@dataclass(frozen=True)
class AlignSegment:
    """What alignment needs of one segment."""

    seg_idx: int
    kind: str
    text: str
    names: frozenset[str]
    mentions: tuple[Reading, ...]
    concepts: frozenset[str] = frozenset()  # English word stems of its words (`extract.lexicon`)


@dataclass(frozen=True)
class AlignedUnit:
    """Segments of one rendering aligned with segments of the other (1-1, 2-1 or 1-2)."""

    segs_a: tuple[int, ...]
    segs_b: tuple[int, ...]
    confidence: float
    evidence: float = 0.0


@dataclass
class _Features:
    names: Counter = field(default_factory=Counter)
    values: Counter = field(default_factory=Counter)  # canonical quantity values, versions, dates, models
    digits: Counter = field(default_factory=Counter)  # written significant digits of quantities
    length: int = 0
    kinds: tuple[str, ...] = ()
    bigrams: set = field(default_factory=set)  # CJK character bigrams (same-language renderings)
    concepts: set = field(default_factory=set)  # English word stems, in any language
    concept_weight: float = 0.0  # the summed weights of `concepts` in this pair
    single_kind: str | None = None  # the block kind of a one-segment span
    heading: bool = False  # a heading is in the span


def _features(segments: Sequence[AlignSegment], concept_weights: dict[str, float]) -> _Features:
    features = _Features()
    for segment in segments:
        features.names.update(segment.names)
        for mention in segment.mentions:
            if mention.kind in QUANTITIES:
                features.values[
                    (
                        "q",
                        mention.kind if mention.kind != "fraction" else "multiplier",
                        round(math.log10(abs(mention.value)), 3) if mention.value else 0.0,
                    )
                ] += 1
                features.digits[mention.digits] += 1
            elif mention.kind in (VERSION, DATE, MODEL, LABEL):
                features.values[(mention.kind, mention.norm)] += 1
                if mention.kind == MODEL:
                    features.digits[mention.digits] += 1
        features.length += len(segment.text)
        features.kinds += (segment.kind,)
        features.bigrams |= _bigrams(segment.text)
        features.concepts |= segment.concepts
    features.concept_weight = math.fsum(concept_weights.get(c, 0.0) for c in features.concepts)
    features.single_kind = features.kinds[0] if len(features.kinds) == 1 else None
    features.heading = "heading" in features.kinds
    return features


def _bigrams(text: str) -> set[str]:
    """Bigrams of the CJK characters of a text: two renderings in one language (a draft and its
    final, two translations) share many; a Chinese and an English rendering none."""
    cjk = [c for c in text if not c.isascii() and c.isalnum()]
    return {a + b for a, b in itertools.pairwise(cjk)}


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


def _shared_meaning(x: _Features, y: _Features, weights: dict[str, float]) -> float:
    """The weighted Dice coefficient of two spans' concepts: the share of what they say, in
    English stems, that both say (0.36 for the median translated sentence pair of a zh
    rendering of an English post, under 0.08 for nine in ten unrelated pairs)."""
    if not x.concepts or not y.concepts:
        return 0.0
    shared_concepts = x.concepts & y.concepts
    if not shared_concepts:
        return 0.0
    total = x.concept_weight + y.concept_weight
    shared = math.fsum(weights.get(c, 0.0) for c in shared_concepts)
    return 2.0 * shared / total if total else 0.0


def _shared(x: Counter, y: Counter) -> int:
    return sum(min(x[k], y[k]) for k in x.keys() & y.keys()) if x and y else 0


def _score(x: _Features, y: _Features, weights: _Weights, ratio: float) -> tuple[float, float]:
    """(score, evidence) of aligning span x with span y. The evidence is what the two share that a
    rendering keeps: names, values, written digits, meaning (the hot loop of the checks: each test
    is skipped when one side has nothing of its kind)."""
    names = (
        math.fsum(weights.names.get(n, 1.0) * min(x.names[n], y.names[n]) for n in x.names.keys() & y.names.keys())
        if x.names and y.names
        else 0
    )
    values = _shared(x.values, y.values)
    digits = _shared(x.digits, y.digits)
    text = 0.0
    if x.bigrams and y.bigrams:
        common = len(x.bigrams & y.bigrams)
        jaccard = common / (len(x.bigrams) + len(y.bigrams) - common)
        text = 4.0 * jaccard if jaccard >= 0.2 else 0.0
    meaning = _shared_meaning(x, y, weights.concepts)
    meaning = _MEANING_WEIGHT * meaning if meaning >= _MEANING_FLOOR else 0.0
    evidence = 1.2 * names + 1.5 * values + 0.5 * max(0, digits - values) + max(text, meaning)
    score = evidence
    if x.single_kind is not None and x.single_kind == y.single_kind:
        score += _KIND_MATCH
    elif x.heading != y.heading:
        score += _KIND_CLASH
    if x.length and y.length:
        score -= _LENGTH_WEIGHT * min(2.0, abs(math.log((y.length / x.length) / ratio)))
    # Unshared numbers on both sides argue against a pair only weakly (a changed number is what we look for).
    return score, evidence


def align(a: Sequence[AlignSegment], b: Sequence[AlignSegment]) -> list[AlignedUnit]:
    """The best monotonic alignment of two renderings' segments."""
    n, m = len(a), len(b)
    if not n or not m:
        return []
    weights = _weights(a, b)
    ratio = max(1e-6, sum(len(s.text) for s in b)) / max(1e-6, sum(len(s.text) for s in a))
    span_a, span_b = _span_features(a, weights.concepts), _span_features(b, weights.concepts)
    band = max(_MIN_BAND, int(_BAND * max(n, m)))
    best: dict[tuple[int, int], tuple[float, tuple[int, int] | None, tuple[int, int, float] | None]] = {(0, 0): (0.0, None, None)}

    for i in range(n + 1):
        centre = i * m / n
        # the cells near the diagonal (the band is tested exactly; the range only bounds the loop)
        for j in range(max(0, math.floor(centre - band) - 1), min(m, math.ceil(centre + band) + 1) + 1):
            if (i, j) == (0, 0) or abs(centre - j) > band:
                continue
            options: list[tuple[float, tuple[int, int] | None, tuple[int, int, float] | None]] = []
            for di, dj in _STEPS:
                pi, pj = i - di, j - dj
                if pi < 0 or pj < 0 or (pi, pj) not in best:
                    continue
                base = best[(pi, pj)][0]
                if di == 0 or dj == 0:
                    options.append((base + _SKIP, (pi, pj), None))
                    continue
                score, evidence = _score(span_a[di][pi], span_b[dj][pj], weights, ratio)
                options.append((base + score + _MERGE * (di + dj - 2), (pi, pj), (di, dj, evidence)))
            if options:
                best[(i, j)] = max(options, key=lambda o: o[0])
    if (n, m) not in best:
        return []
    return _confidences(a, b, _trace(best, n, m))


def _span_features(segments: Sequence[AlignSegment], concept_weights: dict[str, float]) -> list[list[_Features]]:
    """The features of every span of one to three sentences, by length then start
    (`spans[k][i]` is `segments[i:i + k]`): the dynamic programme asks for each from up to five
    cells, and recomputing them was most of the checks' time."""
    longest = max(di for di, _ in _STEPS)
    return [
        [],
        *(
            [_features(segments[start : start + size], concept_weights) for start in range(len(segments) - size + 1)]
            for size in range(1, longest + 1)
        ),
    ]


def _trace(best: dict, n: int, m: int) -> list[tuple[tuple[int, ...], tuple[int, ...], float]]:
    units = []
    i, j = n, m
    while (i, j) != (0, 0):
        _, previous, step = best[(i, j)]
        pi, pj = previous
        if step is not None:
            units.append((tuple(range(pi, i)), tuple(range(pj, j)), step[2]))
        i, j = pi, pj
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
