"""Sentence alignment of renderings (`ingest.check.align.sentences`) against an oracle written straight
from its definition: every span pair scored one at a time with counters and sets, and the dynamic
programme over a dictionary of cells. The module scores spans with matrix products over the
features the two documents share, a row of cells at a time; both must choose the same units with the
same evidence, whatever the documents."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from ingest.check.align import AlignSegment, compare_all, compare_renderings
from ingest.check.align import sentences as module
from ingest.extract.reader import read

_NAMES = ["ACME", "Orion", "Zeta", "Helix", "Nova", "Quartz"]
_CONCEPTS = ["train", "model", "memory", "speed", "gpu", "cluster", "data", "token", "release", "cost"]
_EN = ["{name} {v}.{w} runs {p}% faster on {n} GPUs.", "{name} adds {n} features.", "Overview", "{name} uses {m}B parameters."]
_JA = [
    "{name} {v}.{w} は {n} 個の GPU で {p}% 高速に動作する。",
    "{name} は {n} つの機能を追加した。",
    "概要",
    "{name} は {m}B パラメータを使う。",
]


def _document(rng: random.Random, lang: str, length: int) -> list[AlignSegment]:
    templates = _EN if lang == "en" else _JA
    segments = []
    for i in range(length):
        k = rng.randrange(len(templates))
        values = {"v": rng.randint(1, 3), "w": rng.randint(0, 9), "p": rng.choice([10, 20, 35]), "n": rng.randint(2, 9)}
        text = templates[k].format(name=rng.choice(_NAMES), m=rng.choice([7, 13, 70]), **values)
        kind = "heading" if k == 2 else "p"
        names = frozenset(rng.sample(_NAMES, rng.randint(0, 2)))
        concepts = frozenset(rng.sample(_CONCEPTS, rng.randint(0, 4)))
        segments.append(AlignSegment(i, kind, text, names, tuple(read(text, lang)), concepts))
    return segments


def _rendering(rng: random.Random, original: list[AlignSegment], lang: str) -> list[AlignSegment]:
    """Another rendering: most sentences kept in order (some in the other language), some dropped,
    some added, a few figures changed."""
    out = []
    for segment in original:
        roll = rng.random()
        if roll < 0.1:
            continue  # left out
        text = segment.text
        if lang == "ja" and roll < 0.6:
            text = text.replace("runs", "は").replace("faster", "高速")
        if roll > 0.9:
            text = text.replace("%", "0%")  # a changed figure
        out.append(AlignSegment(len(out), segment.kind, text, segment.names, tuple(read(text, lang)), segment.concepts))
        if rng.random() < 0.08:
            out.append(AlignSegment(len(out), "p", "追加の文。", frozenset(), (), frozenset({"cost"})))
    return out


# The oracle: the definition of a span pair's score, one pair at a time.
def _features(segments: list[AlignSegment]) -> dict:
    """A span's features from its segments' own (`AlignSegment.figures`, `.bigrams`: what a segment
    says is not under test here; how spans and pairs are scored from it is)."""
    values: Counter = Counter()
    digits: Counter = Counter()
    names: Counter = Counter()
    bigrams: set[str] = set()
    concepts: set[str] = set()
    for segment in segments:
        names.update(segment.names)
        values.update(segment.figures[0])
        digits.update(segment.figures[1])
        bigrams |= segment.bigrams
        concepts |= segment.concepts
    kinds = [s.kind for s in segments]
    return {"names": names, "values": values, "digits": digits, "bigrams": bigrams, "concepts": concepts,
            "length": sum(len(s.text) for s in segments), "single_kind": kinds[0] if len(kinds) == 1 else None,
            "heading": "heading" in kinds}  # fmt: skip


def _score(x: dict, y: dict, names_w: dict, concepts_w: dict, ratio: float) -> tuple[float, float]:
    def shared(p: Counter, q: Counter) -> int:
        return sum(min(p[k], q[k]) for k in p.keys() & q.keys())

    names = math.fsum(names_w[n] * min(x["names"][n], y["names"][n]) for n in x["names"].keys() & y["names"].keys())
    values, digits = shared(x["values"], y["values"]), shared(x["digits"], y["digits"])
    common = len(x["bigrams"] & y["bigrams"])
    union = len(x["bigrams"]) + len(y["bigrams"]) - common
    jaccard = common / union if union else 0.0
    text = 4.0 * jaccard if jaccard >= 0.2 else 0.0
    total = math.fsum(concepts_w[c] for c in x["concepts"]) + math.fsum(concepts_w[c] for c in y["concepts"])
    both = x["concepts"] & y["concepts"]
    dice = 2.0 * math.fsum(concepts_w[c] for c in both) / total if both and total else 0.0
    meaning = 4.0 * dice if dice >= 0.12 else 0.0
    evidence = 1.2 * names + 1.5 * values + 0.5 * max(0, digits - values) + max(text, meaning)
    score = evidence
    if x["single_kind"] is not None and x["single_kind"] == y["single_kind"]:
        score += 0.4
    elif x["heading"] != y["heading"]:
        score -= 1.2
    if x["length"] and y["length"]:
        score -= 0.9 * min(2.0, abs(math.log((y["length"] / x["length"]) / ratio)))
    return score, evidence


def _oracle_align(a: list[AlignSegment], b: list[AlignSegment]) -> list[tuple[tuple[int, ...], tuple[int, ...], float]]:
    n, m = len(a), len(b)
    weights = module._weights(a, b)
    ratio = max(1e-6, sum(len(s.text) for s in b)) / max(1e-6, sum(len(s.text) for s in a))
    band = max(12, int(0.25 * max(n, m)))
    best: dict = {(0, 0): (0.0, None, None)}
    for i in range(n + 1):
        for j in range(m + 1):
            if (i, j) == (0, 0) or abs(i * m / n - j) > band:
                continue
            options = []
            for di, dj in module._STEPS:
                if (i - di, j - dj) not in best:
                    continue
                base = best[(i - di, j - dj)][0]
                if not di or not dj:
                    options.append((base - 0.6, (i - di, j - dj), None))
                    continue
                x, y = _features(a[i - di : i]), _features(b[j - dj : j])
                score, evidence = _score(x, y, weights.names, weights.concepts, ratio)
                options.append((base + score - 0.35 * (di + dj - 2), (i - di, j - dj), evidence))
            if options:
                best[(i, j)] = max(options, key=lambda o: o[0])
    units, cell = [], (n, m)
    while cell != (0, 0):
        _, previous, evidence = best[cell]
        if evidence is not None:
            units.append((tuple(range(previous[0], cell[0])), tuple(range(previous[1], cell[1])), evidence))
        cell = previous
    return list(reversed(units))


@pytest.mark.parametrize("seed", range(12))
def test_alignment_chooses_what_the_definition_chooses(seed):
    rng = random.Random(seed)
    original = _document(rng, "en", rng.randint(8, 90))
    other = _rendering(rng, original, rng.choice(["en", "ja"]))
    expected = _oracle_align(original, other)
    got = module.align(original, other)
    assert [(u.segs_a, u.segs_b) for u in got] == [(xs, ys) for xs, ys, _ in expected]
    assert [u.evidence for u in got] == [round(e, 3) for _, _, e in expected]


def test_alignment_scores_equal_the_definition_for_every_span_pair():
    rng = random.Random(99)
    a = _document(rng, "en", 30)
    b = _rendering(rng, a, "ja")
    scorer = module._Scorer(a, b)
    weights = module._weights(a, b)
    for di, dj in [(1, 1), (2, 1), (1, 2), (3, 1), (1, 3)]:
        score, evidence = scorer.block(di, dj, range(len(a) - di + 1), range(len(b) - dj + 1))
        for i in range(len(a) - di + 1):
            for j in range(len(b) - dj + 1):
                want = _score(_features(a[i : i + di]), _features(b[j : j + dj]), weights.names, weights.concepts, scorer.ratio)
                assert score[i, j] == pytest.approx(want[0], abs=1e-12) and evidence[i, j] == pytest.approx(want[1], abs=1e-12)


def test_compare_all_is_compare_renderings_pair_by_pair():
    rng = random.Random(5)
    a = _document(rng, "en", 20)
    b = _rendering(rng, a, "ja")
    assert compare_all({"x": (a, b)})["x"] == compare_renderings(a, b)
