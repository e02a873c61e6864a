"""The mentions of two aligned sentences, matched one to one: what agrees, what changed, what kind of change.

Matching goes from the surest to the least sure: first every pair whose values agree at the
written precision of both (whatever the notation or the order: "600B" and "6000 亿", the
same values in another order), then, among what is left on both sides, pairs that are
evidently the same figure written differently: the only two left of their kind and of one unit
or counted noun ("64 GPUs" never pairs with "1 day", "2 种方法" with "3 models"), or two with
the same written digits ("1.7B" / "1.7T") or transposed ones ("460" / "406"), or two sized
models of one name. Anything left on one side only is an omission and is not flagged.

Hedges make intervals (`Reading.bounds`): a pair whose values differ but whose intervals
overlap ("almost 300" / "280+") is a note, as is a pair that agrees but is hedged differently
("up to 75%" / "75%"), not a change, unless its digits slipped ("1.35" / "up to 1.53", "5000"
/ "over 50000"): a hedge does not explain a typo. A model's size under two spellings of its name
("OPT-175B" / "OPT-like-175B") agrees. A fraction and a multiplier compare as factors: "1/13"
= "13x" (a reduction to a thirteenth).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ...extract.notation import version_norm, vocabulary
from ...extract.reader import DATE, FRACTION, IDENTIFIER, LABEL, MODEL, MULTIPLIER, NUMBER, QUANTITIES, VERSION, Reading
from ...extract.rules import RELEASE_STATUSES

AGREE, CHANGED, HEDGE = "agree", "changed", "hedge"
# Kinds of change.
MAGNITUDE, DIGITS, VALUE, VERSION_CHANGE, DATE_CHANGE, NAME, SIZE, LABEL_CHANGE = (
    "magnitude",
    "digits",
    "value",
    "version",
    "date",
    "name",
    "size",
    "label",
)
# Identifiers ("Graviton3", "A100") only agree: another identifier is another thing, not a change.
_COMPARED = QUANTITIES | {VERSION, DATE, MODEL, LABEL, IDENTIFIER}
# How sure a change of a sentence's set of versions is (its versions do not pair one to one).
_VERSION_SET_CERTAINTY = 0.6
# How sure the last figure left on both sides of otherwise agreeing sentences is one figure, when
# the nouns it counts share no concept: under ALIGNED_CONTRADICTION_CONFIDENCE, a possible change.
_SLOT_CERTAINTY = 0.45
# How sure the figure next to a range's agreed end is its other end.
_RANGE_END_CERTAINTY = 0.7
_NEAR_RATIO = 1.5
# Hedges that change what a figure claims ("up to 75%" is not "75%"); "about" is how figures are written.
_MEANINGFUL_HEDGES = frozenset({"up_to", "over", "under", "almost"})
_BOUNDS = frozenset({"up_to", "over", "under"})


@dataclass(frozen=True)
class MentionPair:
    a: Reading
    b: Reading
    relation: str  # agree | changed | hedge
    change: str | None  # for `changed`: magnitude | digits | value | version | date | name | size | label
    certainty: float  # how sure the pairing is (1.0: values agree, or the only two left)


def _class(mention: Reading) -> str:
    """Mentions that can be the same figure: numbers with numbers, percentages with percentages,
    multipliers and fractions together."""
    if mention.kind in (MULTIPLIER, FRACTION):
        return MULTIPLIER
    return mention.kind


def _factor(mention: Reading) -> tuple[float, float]:
    """A multiplier or fraction as a factor of at least 1 (1/13 and 13x are both 13), with its tolerance."""
    return _as_factor(mention.value or 0.0, mention.tol)


def _as_factor(value: float, tol: float) -> tuple[float, float]:
    if value and value < 1:
        return 1.0 / value, tol / (value * value)
    return value, tol


def _factor_ends(mention: Reading) -> list[tuple[float, float]]:
    """The low and high ends of a multiplier's or fraction's range as factors, with their tolerance."""
    value = mention.value or 0.0
    return sorted(_as_factor(end, mention.tol) for end in (value, mention.value_max or value))


def _units_compatible(x: Reading, y: Reading) -> bool:
    """Units that can measure one figure: either unknown, or one unit at any of its scales ("MB" / "GB")."""
    return x.unit is None or y.unit is None or _measure(x.unit) == _measure(y.unit)


def _measure(unit: str) -> str:
    """What a unit measures: the base of its scales ("bytes" of "MB"), else the unit itself."""
    return vocabulary().unit_scales.get(unit, (unit, 1.0))[0]


def _in_base(x: Reading, y: Reading) -> tuple[Reading, Reading]:
    """Two figures written in two scales of one unit, in its base ("512 MB" as 512e6 bytes): "512 MB"
    / "512 GB" is a changed magnitude, "1.5 GB" / "1,500 MB" one value. Others as they are (a
    figure without a unit is in the other's: "10 terabytes" / "10TB")."""
    if not x.unit or not y.unit or x.unit == y.unit:
        return x, y
    return _scaled(x), _scaled(y)


def _scaled(m: Reading) -> Reading:
    base, size = vocabulary().unit_scales.get(m.unit or "", (m.unit, 1.0))
    if size == 1.0 or m.value is None:
        return m
    value_max = m.value_max * size if m.value_max is not None else None
    return replace(m, value=m.value * size, value_max=value_max, tol=m.tol * size, unit=base)


# Counted nouns the two renderings use for one thing, seen in the figures they agree on: pairs
# (noun of side a, noun of side b), as `Reading.counted` writes them.
Equivalents = frozenset[tuple[str, str]]


def _same_counted(x: Reading, y: Reading, equivalents: Equivalents = frozenset()) -> bool:
    """Two figures may count the same thing: one unit, or counted nouns that share a concept
    ("downloads" / "下载") or that the two renderings use for one thing elsewhere (`equivalents`:
    "23.7 查询/秒" / "23.7クエリ/秒" agree, so "1.46 查询" and "1.49 クエリ" count one thing although
    the dictionaries gloss 查询 as "check, inquire"). A unit against a noun the rules do not know may
    be a translator's word for it ("50万 トークン" / "500 万个字符"), and a figure whose noun is unknown
    may be either."""
    if x.unit and y.unit:
        return _measure(x.unit) == _measure(y.unit)
    if x.counted and y.counted:
        return bool(set(x.counted.split()) & set(y.counted.split())) or (x.counted, y.counted) in equivalents
    return True


def counted_equivalents(pairs: Iterable[MentionPair]) -> Equivalents:
    """The counted nouns of figures that agree by value, where the nouns share no concept: how the
    two renderings translate a noun the dictionaries do not tie."""
    return frozenset(
        (p.a.counted, p.b.counted)
        for p in pairs
        if p.relation == AGREE and p.a.counted and p.b.counted and not set(p.a.counted.split()) & set(p.b.counted.split())
    )


def _overlap(x: Reading, y: Reading) -> bool:
    """Two figures hedged differently allow overlapping intervals ("almost 300" and "280+" both
    hold 290). Hedged alike, they are two renderings of one hedge: "over 30 million" and "超过三百万"
    state different figures; and a bound against a plain figure is that bound restated without its
    word ("up to 20 minutes" / "15 分钟" changed the figure), while an approximation may be rounded."""
    if x.qualifier == y.qualifier or ("exact" in (x.qualifier, y.qualifier) and {x.qualifier, y.qualifier} & _BOUNDS):
        return False
    bx, by = (_factor_bounds(m) if _class(m) == MULTIPLIER else m.bounds() for m in _in_base(x, y))
    return bx is not None and by is not None and bx[0] <= by[1] and by[0] <= bx[1]


def _factor_bounds(mention: Reading) -> tuple[float, float] | None:
    """A multiplier's or fraction's interval as a factor of at least 1 (1/13 and 13x are both 13)."""
    bounds = mention.bounds()
    if bounds is None or not mention.value or mention.value >= 1:
        return bounds
    low, high = bounds
    return (1.0 / high if high > 0 else 0.0), (1.0 / low if low > 0 else math.inf)


def _agrees(x: Reading, y: Reading) -> bool:
    if {x.kind, y.kind} == {VERSION, NUMBER}:  # "LLVM 19.1.0" / "LLVM 19.1" read as a score-shaped number
        version, number = (x, y) if x.kind == VERSION else (y, x)
        return number.unit is None and (version.version or version.norm) == version_norm(number.text)
    if {x.kind, y.kind} == {MODEL, NUMBER}:  # "GenSLMs 25B model" / "25Bモデル": one size, named or not
        return _values_agree(x.value, x.tol, y.value, y.tol)
    if _class(x) != _class(y):
        return False
    if x.kind == VERSION:
        return _same_version(x, y)
    if x.kind == DATE:
        return _same_date(x.norm, y.norm)
    if x.kind == LABEL:  # ("now stable" / "正式版となった": two statuses of a thing released agree)
        return x.norm == y.norm or {x.norm, y.norm} <= RELEASE_STATUSES
    if x.kind == IDENTIFIER:
        return x.norm.casefold() == y.norm.casefold()
    if x.kind == MODEL:  # one size under a name and its variant ("OPT-175B" / "OPT-like-175B") is one fact
        return _name_variant(x.name, y.name) and _values_agree(x.value, x.tol, y.value, y.tol)
    if x.value is None or y.value is None or not _units_compatible(x, y):
        return False
    if x.name and y.name and x.name != y.name:  # two products' numbers ("Android 15" / "Firefox 15")
        return False
    x, y = _in_base(x, y)
    if _class(x) == MULTIPLIER:  # a range's both ends ("1.69 to 2.65x" is not "1.69 to 2.68x")
        return all(_values_agree(vx, tx, vy, ty) for (vx, tx), (vy, ty) in zip(_factor_ends(x), _factor_ends(y)))
    return _values_agree(x.value, x.tol, y.value, y.tol) and _values_agree(
        x.value_max or x.value, x.tol, y.value_max or y.value, y.tol
    )


def _same_version(x: Reading, y: Reading) -> bool:
    """One version, whether or not its product is written ("CUDA 11.4" = "11.4"; not "CUDA 11.4" = "Python 11.4")."""
    if x.name and y.name and x.name != y.name:
        return False
    return (x.version or x.norm) == (y.version or y.norm)


def _same_date(x: str, y: str) -> bool:
    """Dates agree when every part both write agrees: a translation may add or drop the year or
    the day ("April" / "2025年4月", "Oct 17" / "2024年10月17日"), not change one ("Oct 17" / "10月7日")."""
    return all(a is None or b is None or a == b for a, b in zip(_date_parts(x), _date_parts(y)))


def _date_parts(norm: str) -> tuple[str | None, str, str | None]:
    """Year, month and day of a date as `reader._date` writes it ("2025-04", "--04-17", "--04"), None where unwritten."""
    year, rest = (None, norm[2:]) if norm.startswith("--") else norm.split("-", 1)
    month, _, day = rest.partition("-")
    return year, month, day or None


def _values_agree(a: float | None, tol_a: float, b: float | None, tol_b: float) -> bool:
    """Equal, or intervals of written precision that overlap: "3万" (28,500-31,500) and "29.8k" agree;
    intervals that only touch do not ("129" ends at 129.5 where "130" begins, "3.1" / "3.2")."""
    if a is None or b is None:
        return False
    rounding = 1e-9 * max(abs(a), abs(b), 1.0)
    return abs(a - b) <= rounding or abs(a - b) < tol_a + tol_b - rounding


def _name_variant(x: str | None, y: str | None) -> bool:
    """One model's name, or a variant of it: one spelling apart, or the words of one within the
    other's ("opt" / "opt-like"); not another name ("mobilelm" / "smollm")."""
    if _same_name(x, y):
        return True
    words_x, words_y = (set(re.split(r"[\W_]+", name or "")) - {""} for name in (x, y))
    return bool(words_x and words_y) and (words_x <= words_y or words_y <= words_x)


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
    if x.kind == MODEL:
        return SIZE if _name_variant(x.name, y.name) else NAME
    x, y = _in_base(x, y)
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


def _evidently_same(
    x: Reading, y: Reading, left_x: Sequence[Reading], left_y: Sequence[Reading], equivalents: Equivalents
) -> float:
    """How sure it is that two leftover mentions are one figure (0: not at all); x of side a, y of side b."""
    if _class(x) != _class(y) or not _units_compatible(x, y) or x.kind == IDENTIFIER:
        return 0.0
    if x.kind == MODEL:  # one name and another size, or one size under another name ("MobileLM-360M")
        if _same_name(x.name, y.name):
            return 0.9
        if _values_agree(x.value, x.tol, y.value, y.tol):
            return 0.8
        # another size under a variant of the name ("OPT-like-178B" / "OPT-175B"), when no other
        # model left on either side is a variant of the other's name
        variants = lambda ms, name: [m for m in ms if m.kind == MODEL and _name_variant(m.name, name)]  # noqa: E731
        return 0.7 if len(variants(left_x, y.name)) == len(variants(left_y, x.name)) == 1 else 0.0
    if x.kind in (VERSION, DATE, LABEL):
        same_kind = lambda ms, kind: [m for m in ms if m.kind == kind]  # noqa: E731
        if len(same_kind(left_x, x.kind)) == len(same_kind(left_y, y.kind)) == 1:
            return 0.6 if x.kind == LABEL else 0.8
        # among other versions, the only two left of one product ("PyTorch 2.7" / "PyTorch 2.9")
        of_product = lambda ms: [m for m in ms if m.kind == VERSION and m.name == x.name]  # noqa: E731
        same_product = x.kind == VERSION and bool(x.name) and x.name == y.name
        return 0.8 if same_product and len(of_product(left_x)) == len(of_product(left_y)) == 1 else 0.0
    if x.name or y.name:  # a product's number ("Android 15"), only for the same product's ("15" / "1日" is none)
        of_name = lambda ms: [m for m in ms if m.kind == NUMBER and m.name == x.name]  # noqa: E731
        return 0.8 if x.name == y.name and len(of_name(left_x)) == len(of_name(left_y)) == 1 else 0.0
    if x.value is None or y.value is None or not _same_counted(x, y, equivalents):
        return 0.0
    # When both name what they count, and it is one thing, the figures that could be theirs name it too
    # ("1つのレプリカ" is no rival of "23.7 查询/秒" / "23.0 クエリ/秒"); else any figure of the kind could be.
    named = bool(x.counted and y.counted)
    peers_x = [
        m
        for m in left_x
        if _class(m) == _class(x) and _units_compatible(m, y) and _same_counted(m, y, equivalents) and (m.counted or not named)
    ]
    peers_y = [
        m
        for m in left_y
        if _class(m) == _class(y) and _units_compatible(m, x) and _same_counted(x, m, equivalents) and (m.counted or not named)
    ]
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


def match_mentions(a: Sequence[Reading], b: Sequence[Reading], equivalents: Equivalents = frozenset()) -> list[MentionPair]:
    """The one-to-one pairs between two aligned spans' mentions (URLs and references left out);
    `equivalents`: counted nouns the two renderings use for one thing (`counted_equivalents`)."""
    left_a = [m for m in a if m.kind in _COMPARED]
    left_b = [m for m in b if m.kind in _COMPARED]
    pairs: list[MentionPair] = []
    for x in list(left_a):
        match = next((y for y in left_b if _agrees(x, y)), None)
        if match is None:
            continue
        left_a.remove(x)
        left_b.remove(match)
        hedged = (
            x.kind in QUANTITIES and x.qualifier != match.qualifier and bool({x.qualifier, match.qualifier} & _MEANINGFUL_HEDGES)
        )
        pairs.append(MentionPair(x, match, HEDGE if hedged else AGREE, None, 1.0))
    pairs += _ranges_as_ends(left_a, left_b) + [_swapped(p) for p in _ranges_as_ends(left_b, left_a)]
    while left_a and left_b:
        scored = [(_evidently_same(x, y, left_a, left_b, equivalents), x, y) for x in left_a for y in left_b]
        certainty, x, y = max(scored, key=lambda t: t[0])
        if certainty <= 0:
            break
        left_a.remove(x)
        left_b.remove(y)
        change = change_kind(x, y)
        # "almost 300" / "280+": hedges that meet, unless the digits slipped ("1.35" / "up to 1.53")
        if x.kind in QUANTITIES and change not in (DIGITS, MAGNITUDE) and _overlap(x, y):
            pairs.append(MentionPair(x, y, HEDGE, None, certainty))
        else:
            pairs.append(MentionPair(x, y, CHANGED, change, certainty))
    slot = _last_slot(pairs, left_a, left_b)
    changed_set = _changed_versions(pairs, left_a, left_b)
    return pairs + [p for p in (slot, changed_set) if p]


def _last_slot(pairs: Sequence[MentionPair], left_a: list[Reading], left_b: list[Reading]) -> MentionPair | None:
    """The one figure left on each side of sentences whose other figures of its kind all agree (or
    the two written with the same digits at another power of ten), though the nouns they count share
    no concept ("2.1, 2.0 and 1.16 feature submissions" / "2.1、2.0和1.13功能提交": the dictionaries
    do not tie 功能 to "feature"): one slot, most likely changed, but the nouns leave a doubt, so it
    is never sure enough to be a contradiction, only a possible one; and only a nearby figure (an
    edit, not another quantity: "2T tokens" / "1000 个 GPU" stay apart). Both lists lose what pairs."""
    if len(left_a) != 1 or len(left_b) != 1:
        return None
    x, y = left_a[0], left_b[0]
    if (
        x.kind not in QUANTITIES
        or x.name != y.name
        or _class(x) != _class(y)
        or not _units_compatible(x, y)
        or x.value is None
        or y.value is None
    ):
        return None
    beside_agreed = any(p.relation == AGREE and _class(p.a) == _class(x) for p in pairs) and _near(x, y)
    # (or the same digits at another power of ten: "about 7 billion passengers" / "约7亿人次")
    if not beside_agreed and not (x.digits == y.digits and change_kind(x, y) == MAGNITUDE):
        return None
    left_a.clear()
    left_b.clear()
    if _overlap(x, y):
        return MentionPair(x, y, HEDGE, None, _SLOT_CERTAINTY)
    return MentionPair(x, y, CHANGED, change_kind(x, y), _SLOT_CERTAINTY)


def _near(x: Reading, y: Reading) -> bool:
    """Two figures within _NEAR_RATIO of each other, as factors for multipliers."""
    x, y = _in_base(x, y)
    vx, vy = (_factor(x)[0], _factor(y)[0]) if _class(x) == MULTIPLIER else (abs(x.value or 0.0), abs(y.value or 0.0))
    return vx > 0 and vy > 0 and max(vx, vy) / min(vx, vy) <= _NEAR_RATIO


def _ranges_as_ends(ranges: list[Reading], others: list[Reading]) -> list[MentionPair]:
    """A range that the other side writes as its two ends ("from 1 to 4" / "从1扩展到4"): the range
    agrees with its low end, and the high end is spoken for. When only one end agrees, the figure
    written next to it on that side is the other end, changed ("from 1 to 7" / "从1扩展到4"). Both
    lists lose what pairs."""
    pairs = []
    for x in [m for m in ranges if m.kind in QUANTITIES and m.value is not None and (m.value_max or m.value) > m.value]:
        ends = [
            next((y for y in others if _may_be_end(x, y) and _values_agree(end, x.tol, y.value, y.tol)), None)
            for end in (x.value, x.value_max)
        ]
        low, high = ends
        if low is not None and high is not None and low is not high:
            pairs.append(MentionPair(x, low, AGREE, None, 1.0))
        elif (low is None) != (high is None):
            agreed = low or high
            assert agreed is not None
            peers = sorted((y for y in others if y is not agreed and _may_be_end(x, y)), key=lambda y: y.start)
            after = (
                [y for y in peers if y.start > agreed.start] if low else [y for y in reversed(peers) if y.start < agreed.start]
            )
            if not after or not _same_counted(x, after[0]):
                continue
            low, high = (agreed, after[0]) if low else (after[0], agreed)
            changed = after[0]
            pairs.append(MentionPair(x, changed, CHANGED, change_kind(_end(x, low is agreed), changed), _RANGE_END_CERTAINTY))
        else:
            continue
        ranges.remove(x)
        others.remove(low)
        others.remove(high)
    return pairs


def _may_be_end(x: Reading, y: Reading) -> bool:
    """`y`, a single figure, may be written for an end of the range `x`."""
    # (one unit as written, not one at two scales: a range's ends compare as written)
    return _class(y) == _class(x) and y.value_max == y.value and (x.unit is None or y.unit is None or x.unit == y.unit)


def _end(x: Reading, high: bool) -> Reading:
    """One end of a range as a figure of its own."""
    value = x.value_max if high else x.value
    return Reading(x.kind, x.text, x.start, x.end, value, value, x.tol, x.norm, x.unit, x.qualifier, x.digits, x.name, x.counted)


def _swapped(pair: MentionPair) -> MentionPair:
    return MentionPair(pair.b, pair.a, pair.relation, pair.change, pair.certainty)


def _changed_versions(pairs: Sequence[MentionPair], left_a: Sequence[Reading], left_b: Sequence[Reading]) -> MentionPair | None:
    """A rewritten sentence whose versions changed ("deprecated in v1.29 … not populated from
    v1.33" / "v1.31 で非推奨"): the versions do not pair one to one, but when the two sides share
    none, of one product or none, the set changed. One change, between the first of each side."""
    if any(p.a.kind == VERSION for p in pairs):
        return None
    versions_a = [m for m in left_a if m.kind == VERSION]
    versions_b = [m for m in left_b if m.kind == VERSION]
    if not versions_a or not versions_b:
        return None
    products = {m.name for m in (*versions_a, *versions_b) if m.name}
    if len(products) > 1:
        return None
    return MentionPair(versions_a[0], versions_b[0], CHANGED, VERSION_CHANGE, _VERSION_SET_CERTAINTY)
