"""Entities: the readings of a segment (`reader`) that state a measured fact, labelled, and the
hardware and maturity words the rules name.

A reading is a VERSION entity when it is a product's version ("PyTorch 2.5"), a PERCENT or a
MULTIPLIER when it is written as one ("75%", "2.3x", "1/4に"), a COUNT or a QUANTITY when a unit
follows it that `entity_units` in lang/common.yaml lists ("504 位贡献者", "100万 トークン"; the
entity's span takes the unit in), a QUANTITY when a Latin magnitude makes it a size ("175B"), and
a DATE when it is a whole calendar date. Each entity keeps exact character offsets into its
segment, a normalised form (`norm`) that compares equal across languages, and for measurements
the value with the precision it was written at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..lang import common_rules, every_language, quotation_pairs
from . import reader
from .notation import alternation, canonical, patterns, vocabulary
from .reader import MODEL_SIZE_MIN, Reading, read
from .rules import Lexical, Rules, hardware_in, maturity_in, product_kind_ids, product_name_pattern, product_named, rules_for

VERSION, HARDWARE, PERCENT, MULTIPLIER = "VERSION", "HARDWARE", "PERCENT", "MULTIPLIER"
QUANTITY, COUNT, DATE, MATURITY = "QUANTITY", "COUNT", "DATE", "MATURITY"
LABELS = (VERSION, HARDWARE, PERCENT, MULTIPLIER, QUANTITY, COUNT, DATE, MATURITY)
# A span of time ("five years", "5年間"): no entity the segment lists, a value claims read (`as_duration`).
DURATION = "DURATION"
# When two entities claim overlapping text the longer one wins; on equal length, this order.
_PRIORITY = {label: rank for rank, label in enumerate((DATE, VERSION, HARDWARE, COUNT, QUANTITY, PERCENT, MULTIPLIER, MATURITY))}


@dataclass(frozen=True)
class Entity:
    label: str
    text: str
    start: int
    end: int
    norm: str
    value_num: float | None = None
    value_max: float | None = None
    value_tol: float | None = None
    unit: str | None = None
    qualifier: str = "exact"
    product: str | None = None  # a VERSION's product ("pytorch")
    version: str | None = None  # ...and its version ("2.5")


@lru_cache(maxsize=1)
def _entity_units() -> dict[str, str]:
    """unit -> the label of the entity a figure with that unit is (QUANTITY, COUNT)."""
    units = {unit: label for label, units in common_rules()["entity_units"].items() for unit in units}
    measured = [*common_rules()["currencies"]["units"], *common_rules()["measures"]]
    return units | dict.fromkeys(measured, QUANTITY)


def _measured(reading: Reading, label: str, end: int, norm: str, unit: str | None) -> Entity:
    return Entity(label, "", reading.start, end, norm, reading.value, reading.value_max, reading.tol, unit, reading.qualifier)


def as_duration(reading: Reading) -> Entity | None:
    """A number of a unit of time ("five years", "5年間", "18 分钟") as a value in seconds, so that
    "1 year" and "12 months" are one value (`durations` in lang/common.yaml)."""
    if reading.kind != reader.NUMBER or reading.unit not in vocabulary().durations or reading.value is None:
        return None
    if reading.unit == "years" and re.fullmatch(r"(?:19|20)\d\d", reading.text):
        return None  # a year ("2022年ACM Gordon Bell Prize"), not 2022 years
    size = vocabulary().durations[reading.unit]
    high = reading.value_max if reading.value_max is not None else reading.value
    number = _range_norm(reading)
    norm = f"{number} {reading.unit.removesuffix('s') if number == '1' else reading.unit}"  # "1 year", "12 months"
    low, tol = reading.value * size, reading.tol * size
    return Entity(DURATION, reading.text, reading.start, reading.end, norm, low, high * size, tol, "s", reading.qualifier)


def _range_norm(reading: Reading) -> str:
    low, high = reading.value or 0.0, reading.value_max or 0.0
    return canonical(low) if high == low else f"{canonical(low)}-{canonical(high)}"


def _labelled(reading: Reading, text: str, rules: Rules) -> Entity | None:
    """The entity a reading is, if any."""
    if reading.kind == reader.VERSION:
        if not reading.name:
            return None  # a bare version ("0.14.5") belongs to no product
        return Entity(
            VERSION, reading.text, reading.start, reading.end, reading.norm, product=reading.name, version=reading.version
        )
    if reading.kind == reader.DATE:
        return Entity(DATE, reading.text, reading.start, reading.end, reading.norm) if len(reading.norm) == 10 else None
    if reading.kind == reader.PERCENT:
        return _measured(reading, PERCENT, reading.end, _range_norm(reading), "%")
    if not any(char.isdigit() for char in reading.text):
        return None  # "two models", "三个模型": a number in words is too vague a count to check
    if reading.kind == reader.MULTIPLIER and reading.text[:1].isdigit():
        return _measured(reading, MULTIPLIER, reading.end, _range_norm(reading), "x")
    if reading.kind == reader.FRACTION:
        # "4分の1" is a factor; "1/4" only with a word that makes it one ("1/4に削減": reduced to a
        # quarter), since a bare "1/4" may be a date or a score.
        after = rules.fraction_factor.match(text, reading.end) if "/" in reading.text else None
        if "/" in reading.text and after is None:
            return None
        value = reading.value or 0.0
        return Entity(
            MULTIPLIER,
            "",
            reading.start,
            after.end() if after else reading.end,
            canonical(round(value, 6)),
            value,
            value,
            0.005,
            "x",
            reading.qualifier,
        )
    magnitude = _MAGNITUDE.fullmatch(reading.text)
    if reading.kind == reader.MODEL and magnitude:  # "Megatron-Turing NLG 530Bモデル": the size is a quantity
        return _measured(reading, QUANTITY, reading.start + magnitude.end("number"), reading.norm.split("@")[-1], None)
    if reading.kind != reader.NUMBER:
        return None
    if reading.unit == "models" and magnitude and (reading.value or 0) >= MODEL_SIZE_MIN:  # "a 175B model": a size
        return _measured(reading, QUANTITY, reading.start + len(reading.text.rstrip("+")), canonical(reading.value or 0), None)
    unit = _entity_unit(reading, text, rules)
    if unit is None and reading.unit and reading.unit in _entity_units():
        unit = (reading.unit, reading.end)  # "$1,199", "a 14.2-inch display": a unit the reader found apart
    if unit is not None:
        name, end = unit
        name = reader.speed_unit(text, reading.start, name, end)
        return _measured(reading, _entity_units()[name], end, f"{canonical(reading.value or 0)} {name}", name)
    if magnitude:  # "175B", "64k", "1.3B 到 175B": a size without a unit
        return _measured(reading, QUANTITY, reading.start + magnitude.end("number"), _range_norm(reading), None)
    return None


# A number (or a range of numbers) written with a Latin magnitude glued to it ("175B", "1M+", "6.7B~66B").
_MAGNITUDE = re.compile(r"(?P<number>(?:[\d,.]+[kKMBT]?\s?\D{1,3}\s?)?[\d,.]+[kKMBT])\+?")
_DIGITS_AT_START = re.compile(r"[\d,.]+")


def _entity_unit(reading: Reading, text: str, rules: Rules) -> tuple[str, int] | None:
    """The unit that makes a number an entity, and where it ends: the longest entity unit right after
    the number ("504 位贡献者", "10GB/秒" rather than "10GB"). A unit glued to the digits ("400Gbps")
    is the number's own: nothing after it is taken for a second one ("400Gbpsノード")."""
    written = patterns().glued_number.fullmatch(reading.text)
    glued = written is not None and written["unit"].lower() in vocabulary().glued_units
    if glued:
        digits = _DIGITS_AT_START.match(reading.text)
        assert digits is not None  # a glued number starts with its digits (glued_number's `num`)
        start = reading.start + digits.end()
    else:
        start = reading.end
    found = [
        (name, match.end()) for name, pattern in rules.units if name in _entity_units() and (match := pattern.match(text, start))
    ]
    if glued and reading.unit in _entity_units():
        found.append((reading.unit, reading.end))
    return max(found, key=lambda unit: unit[1], default=None)


def _with_text(entity: Entity, text: str) -> Entity:
    return entity if entity.text else Entity(**{**entity.__dict__, "text": text[entity.start : entity.end]})


def _lexical(label: str, found: Iterator[Lexical]) -> Iterator[Entity]:
    for match in found:
        yield Entity(label, match.text, match.start, match.end, match.norm)


def _resolve_overlaps(candidates: list[Entity]) -> list[Entity]:
    """Keep the longest of overlapping entities (rule priority on ties), in text order.

    Hardware named inside a count ("384台のNVIDIA V100 GPU") is kept as well: both facts matter.
    """
    ranked = sorted(candidates, key=lambda e: (-(e.end - e.start), _PRIORITY[e.label], e.start))
    kept: list[Entity] = []
    taken = bytearray(max((e.end for e in candidates), default=0))
    for entity in ranked:
        if not any(taken[entity.start : entity.end]):
            kept.append(entity)
            taken[entity.start : entity.end] = b"\x01" * (entity.end - entity.start)
    nested = [
        e
        for e in candidates
        if e.label == HARDWARE and e not in kept and any(k.label == COUNT and k.start <= e.start and e.end <= k.end for k in kept)
    ]
    return sorted(kept + _longest_only(nested), key=lambda e: (e.start, -e.end))


def _longest_only(entities: list[Entity]) -> list[Entity]:
    return [
        e
        for e in entities
        if not any(
            o is not e and o.start <= e.start and e.end <= o.end and (o.end - o.start) > (e.end - e.start) for o in entities
        )
    ]


def entities_of(text: str, readings: Sequence[Reading], lang: str | None, context: str | None = None) -> list[Entity]:
    """The entities of one segment, given its readings: labelled readings, hardware and maturity
    words, non-overlapping, in order."""
    rules = (rules_for(lang, context) if context and context != lang else rules_for(lang)).for_text(text)
    labelled = [_with_text(entity, text) for reading in readings if (entity := _labelled(reading, text, rules))]
    labelled += _versions_named_apart(text, readings, rules)
    return _resolve_overlaps(
        [*labelled, *_lexical(HARDWARE, hardware_in(text, rules)), *_lexical(MATURITY, maturity_in(text, rules))]
    )


def _versions_named_apart(text: str, readings: Sequence[Reading], rules: Rules) -> list[Entity]:
    """A bare version that a version word comes right before or a minimum cue right after
    ("バージョン4.37.0以降", "建议使用 4.37.0 及以上版本", "version 20 or later") is a version of the
    product the segment names last before it, where no version comes between the two (the name's
    own or another's: not "Kubix 1.31 ships version 2 of the API"), and where only the words of a
    version stand between them ("Node.js version 20 or later", "Node.jsのバージョン20以降",
    `possessives` in lang/<code>/rules.yaml) or a word says the name is a dependency ("Hugging Face
    のTransformersライブラリで利用する場合、バージョン4.37.0以降が推奨": `dependency_kinds`). Not
    "Corvid Software shipped version 12 of its Vireo browser", "「Lumora Engine」の最新版となる
    バージョン5.3": the version of what the sentence names after it, or the release's own."""
    found = []
    for version in readings:
        # (a decimal a minimum cue follows is a version right after a name: "Linux kernel 5.15 or later")
        decimal = version.kind == reader.NUMBER and _DECIMAL.fullmatch(version.text) is not None
        if not (version.kind == reader.VERSION or decimal) or version.name:
            continue
        worded = reader.after_version_word(text, version.start) or _version_suffix().match(text, version.end)
        if not (worded or rules.minimum_after.match(text, version.end)):
            continue
        # (not a word for the kind of product: "「Frobdb Engine」のバージョン5.3" is Frobdb's)
        names = [
            m
            for m in _product_names().finditer(text, 0, version.start)
            if (named := product_named(m["name"])) and named not in product_kind_ids()
        ]
        if not names:
            continue
        name = names[-1]
        between = any(other.kind == reader.VERSION and name.start("name") <= other.start < version.start for other in readings)
        adjacent = _version_of().fullmatch(text, name.end(), version.start)
        if between or not (adjacent or (_dependency_kind().match(text, name.end()) and not decimal)):
            continue
        product = product_named(name["name"])
        norm = f"{product} {version.norm}"
        found.append(Entity(VERSION, version.text, version.start, version.end, norm, product=product, version=version.norm))
    return found


_DECIMAL = re.compile(r"\d+\.\d+")


@lru_cache(maxsize=1)
def _product_names() -> re.Pattern:
    return re.compile(product_name_pattern())


@lru_cache(maxsize=1)
def _dependency_kind() -> re.Pattern:
    return re.compile(rf"\s?(?:{alternation(every_language('dependency_kinds'))})(?![A-Za-z])", re.I)


@lru_cache(maxsize=1)
def _version_of() -> re.Pattern:
    """What may stand between a name and its version: closing quotes, a word for the kind of
    product, a possessive, a verb announcing it written in CJK ("Lumenvec 发布 2.3 版本"; not an
    English one: "Corvid Software shipped version 12 of its Vireo browser" is Vireo's) and a
    version word ("」のバージョン", " library version ", " 版本 ")."""
    kinds = alternation([*every_language("dependency_kinds"), *every_language("product_kinds")])
    closers = re.escape("".join(pair[1] for pair in quotation_pairs()) + "\"”'’)")
    announcing = alternation([w for w in every_language("announcing") if len(w) > 1 and not re.search("[A-Za-z]", w)])
    return re.compile(
        rf"[\s{closers}]*(?:(?:{kinds})[\s{closers}]*)?(?:{alternation(every_language('possessives'))})?\s?"
        rf"(?:(?:{announcing})\s?)?(?:(?:{alternation(vocabulary().version_words)})\s?)?",
        re.I,
    )


@lru_cache(maxsize=1)
def _version_suffix() -> re.Pattern:
    """A version word right after a number, written in CJK ("2.3 版本", "12 版"; an English one names
    no version after it: "3.5 vs 2.0"): the number is a version."""
    words = [*vocabulary().version_suffixes, *(w for w in vocabulary().version_words if not re.search("[A-Za-z]", w))]
    return re.compile(rf"\s?(?:{alternation(words)})")


def find_entities(text: str, lang: str | None, context: str | None = None) -> list[Entity]:
    """The entities of one segment written in `lang` (in a document in `context`)."""
    return entities_of(text, read(text, lang, context), lang, context)
