"""The mentions of two aligned sentences, matched one to one: what agrees, what changed, what kind of change.

Matching goes from the surest to the least sure: first every pair whose values agree at the
written precision of both (whatever the notation or the order: "600B" and "6000 亿", the
same values in another order), then, among what is left on both sides, pairs that are
evidently the same figure written differently: the only two left of their kind and unit, or
two with the same written digits ("1.7B" / "1.7T") or transposed ones ("460" / "406"), or two
sized models of one size or one name. Anything left on one side only is an omission and is not flagged.

A pair that agrees but is hedged differently ("up to 75%" / "75%") is a note, not a change.
A fraction and a multiplier compare as factors: "1/13" = "13x" (a reduction to a thirteenth).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Sequence

from ...extract.reader import DATE, FRACTION, LABEL, MODEL, MULTIPLIER, NUMBER, QUANTITIES, VERSION, Reading

AGREE, CHANGED, HEDGE = "agree", "changed", "hedge"
# Kinds of change.
MAGNITUDE, DIGITS, VALUE, VERSION_CHANGE, DATE_CHANGE, NAME, SIZE, LABEL_CHANGE = (
    "magnitude", "digits", "value", "version", "date", "name", "size", "label")
_COMPARED = QUANTITIES | {VERSION, DATE, MODEL, LABEL}


@dataclass(frozen=True)
class MentionPair:
    a: Reading
    b: Reading
    relation: str            # agree | changed | hedge
    change: str | None       # for `changed`: magnitude | digits | value | version | date | name | size | label
    certainty: float         # how sure the pairing is (1.0: values agree, or the only two left)


def _class(mention: Reading) -> str:
    """Mentions that can be the same figure: numbers with numbers, percentages with percentages,
    multipliers and fractions together."""
    if mention.kind in (MULTIPLIER, FRACTION):
        return MULTIPLIER
    return mention.kind


def _factor(mention: Reading) -> tuple[float, float]:
    """A multiplier or fraction as a factor of at least 1 (1/13 and 13x are both 13), with its tolerance."""
    value = mention.value or 0.0
    if value and value < 1:
        return 1.0 / value, mention.tol / (value * value)
    return value, mention.tol


def _units_compatible(x: Reading, y: Reading) -> bool:
    return x.unit is None or y.unit is None or x.unit == y.unit


def _agrees(x: Reading, y: Reading) -> bool:
    if {x.kind, y.kind} == {MODEL, NUMBER}:  # "GenSLMs 25B model" / "25Bモデル": one size, named or not
        return _values_agree(x.value, x.tol, y.value, y.tol)
    if _class(x) != _class(y):
        return False
    if x.kind == VERSION:
        return _same_version(x, y)
    if x.kind in (DATE, LABEL):
        return x.norm == y.norm
    if x.kind == MODEL:
        return _same_name(x.name, y.name) and _values_agree(x.value, x.tol, y.value, y.tol)
    if x.value is None or y.value is None or not _units_compatible(x, y):
        return False
    if _class(x) == MULTIPLIER:
        (vx, tx), (vy, ty) = _factor(x), _factor(y)
        return _values_agree(vx, tx, vy, ty)
    return (_values_agree(x.value, x.tol, y.value, y.tol)
            and _values_agree(x.value_max or x.value, x.tol, y.value_max or y.value, y.tol))


def _same_version(x: Reading, y: Reading) -> bool:
    """One version, whether or not its product is written ("CUDA 11.4" = "11.4"; not "CUDA 11.4" = "Python 11.4")."""
    if x.name and y.name and x.name != y.name:
        return False
    return (x.version or x.norm) == (y.version or y.norm)


def _values_agree(a: float | None, tol_a: float, b: float | None, tol_b: float) -> bool:
    if a is None or b is None:
        return False
    return abs(a - b) <= tol_a + tol_b + 1e-9 * max(abs(a), abs(b), 1.0)


def _same_name(x: str | None, y: str | None) -> bool:
    """Model names agree when they are one spelling apart ("MobileLM" / "MobileLLM")."""
    if not x or not y:
        return x == y
    return x == y or _edit_distance(x, y) <= max(1, min(len(x), len(y)) // 6)


def _edit_distance(x: str, y: str) -> int:
    previous = list(range(len(y) + 1))
    for i, cx in enumerate(x, 1):
        current = [i]
        for j, cy in enumerate(y, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (cx != cy)))
        previous = current
    return previous[-1]


def change_kind(x: Reading, y: Reading) -> str:
    """What changed between two mentions of one figure."""
    if x.kind == VERSION:
        return VERSION_CHANGE
    if x.kind == DATE:
        return DATE_CHANGE
    if x.kind == LABEL:
        return LABEL_CHANGE
    if x.kind == MODEL and not _same_name(x.name, y.name):
        return NAME
    if x.kind == MODEL:
        return SIZE
    vx, vy = (_factor(x)[0], _factor(y)[0]) if _class(x) == MULTIPLIER else (x.value or 0.0, y.value or 0.0)
    if vx > 0 and vy > 0:
        exponent = math.log10(max(vx, vy) / min(vx, vy))
        if exponent >= 0.95 and abs(exponent - round(exponent)) < 0.03:
            return MAGNITUDE
        if exponent < 1 and _transposed(x, y):
            return DIGITS
    return VALUE


def _transposed(x: Reading, y: Reading) -> bool:
    """The same digits in another order or with one changed, at one magnitude ("460" / "406", "426" / "462")."""
    dx, dy = (re.sub(r"\D", "", m.norm) for m in (x, y))
    return len(dx) == len(dy) >= 2 and (sorted(dx) == sorted(dy) or sum(a != b for a, b in zip(dx, dy)) == 1)


def _evidently_same(x: Reading, y: Reading, left_x: Sequence[Reading], left_y: Sequence[Reading]) -> float:
    """How sure it is that two leftover mentions are one figure (0: not at all)."""
    if _class(x) != _class(y) or not _units_compatible(x, y):
        return 0.0
    if x.kind == MODEL:
        if _same_name(x.name, y.name):
            return 0.9
        return 0.8 if _values_agree(x.value, x.tol, y.value, y.tol) else 0.0
    if x.kind in (VERSION, DATE, LABEL):
        same_kind = lambda ms, kind: [m for m in ms if m.kind == kind]  # noqa: E731
        alone = len(same_kind(left_x, x.kind)) == len(same_kind(left_y, y.kind)) == 1
        return (0.6 if x.kind == LABEL else 0.8) if alone else 0.0
    if x.value is None or y.value is None:
        return 0.0
    peers_x = [m for m in left_x if _class(m) == _class(x) and _units_compatible(m, y)]
    peers_y = [m for m in left_y if _class(m) == _class(y) and _units_compatible(m, x)]
    if len(peers_x) == len(peers_y) == 1:  # the only two figures of their kind left
        if x.digits == y.digits:
            return 0.95
        return 0.85 if x.unit and x.unit == y.unit else 0.7
    # Among several left, only strong signs pair two: the same two or more written digits
    # ("1.7B" / "1.7T"), or digits transposed or one of them changed ("460" / "406").
    if len(x.digits) >= 2 and x.digits == y.digits:
        return 0.9
    if _transposed(x, y):
        return 0.75
    return 0.0


def match_mentions(a: Sequence[Reading], b: Sequence[Reading]) -> list[MentionPair]:
    """The one-to-one pairs between two aligned spans' mentions (identifiers, URLs and references left out)."""
    left_a = [m for m in a if m.kind in _COMPARED]
    left_b = [m for m in b if m.kind in _COMPARED]
    pairs: list[MentionPair] = []
    for x in list(left_a):
        match = next((y for y in left_b if _agrees(x, y)), None)
        if match is None:
            continue
        left_a.remove(x)
        left_b.remove(match)
        hedged = x.qualifier != match.qualifier and x.kind in QUANTITIES and "up_to" in (x.qualifier, match.qualifier)
        pairs.append(MentionPair(x, match, HEDGE if hedged else AGREE, None, 1.0))
    while left_a and left_b:
        scored = [(_evidently_same(x, y, left_a, left_b), x, y) for x in left_a for y in left_b]
        certainty, x, y = max(scored, key=lambda t: t[0])
        if certainty <= 0:
            break
        left_a.remove(x)
        left_b.remove(y)
        pairs.append(MentionPair(x, y, CHANGED, change_kind(x, y), certainty))
    return pairs

