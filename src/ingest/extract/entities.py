"""Rule-based entity extraction; the rules live in the language profiles (`ingest/lang/`).

Each entity keeps exact character offsets into the segment text it was found
in, a normalised form (`norm`) that compares equal across languages, and for
measurements a numeric value with the precision it was written at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from ..metadata import parse_date
from .numbers import Number, canonical, parse_cjk_numeral, parse_number
from .rules import Rules, rules_for

VERSION, HARDWARE, PERCENT, MULTIPLIER = "VERSION", "HARDWARE", "PERCENT", "MULTIPLIER"
QUANTITY, COUNT, DATE, MATURITY = "QUANTITY", "COUNT", "DATE", "MATURITY"
LABELS = (VERSION, HARDWARE, PERCENT, MULTIPLIER, QUANTITY, COUNT, DATE, MATURITY)
# When two rules claim overlapping text the longer match wins; on equal length, this order.
_PRIORITY = {label: rank for rank, label in enumerate(
    (DATE, VERSION, HARDWARE, COUNT, QUANTITY, PERCENT, MULTIPLIER, MATURITY))}
_QUALIFIER_WINDOW = 6


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
    extra: dict = field(default_factory=dict, compare=False, hash=False)


# ---- matchers -----------------------------------------------------------------------------

def version_entities(text: str, rules: Rules) -> Iterator[Entity]:
    """Product versions ("PyTorch 2.5") and the lists that continue them ("CUDA 11.6 および 11.7")."""
    for product, pattern in rules.versions:
        for match in pattern.finditer(text):
            version = match["ver"].rstrip("+")
            yield Entity(VERSION, match.group(), match.start(), match.end(), f"{product} {version}",
                         extra={"product": product, "version": version})
            yield from _version_list(text, match.end(), product, rules)


def _version_list(text: str, position: int, product: str, rules: Rules) -> Iterator[Entity]:
    """'CUDA 11.6 および 11.7': the later numbers are versions of the same product."""
    while (follow := rules.version_list.match(text, position)) is not None:
        version = follow["ver"]
        yield Entity(VERSION, version, follow.start("ver"), follow.end("ver"), f"{product} {version}",
                     extra={"product": product, "version": version})
        position = follow.end()


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _hardware(text: str, rules: Rules) -> Iterator[Entity]:
    for template, pattern in rules.hardware:
        for match in pattern.finditer(text):
            groups = [_slug(g) for g in match.groups() if g][:1]
            yield Entity(HARDWARE, match.group(), match.start(), match.end(), template.format(*groups))


def _measure(label: str, match: re.Match, unit: str | None) -> Entity:
    """A PERCENT or MULTIPLIER entity from a match with `num`, `lo`/`hi`, `den` or `cjk` groups."""
    groups = match.groupdict()
    if groups.get("lo"):
        low, high = parse_number(groups["lo"]), parse_number(groups["hi"])
        norm = f"{canonical(low.value)}-{canonical(high.value)}"
        return Entity(label, match.group(), match.start(), match.end(), norm, low.value, high.value,
                      max(low.tolerance, high.tolerance), unit)
    if groups.get("den"):
        value = float(groups["num"]) / float(groups["den"])
        return Entity(label, match.group(), match.start(), match.end(), canonical(round(value, 6)),
                      value, value, 0.005, unit)
    if groups.get("cjk"):
        whole, _, decimals = groups["cjk"].partition("点")
        value = float(parse_cjk_numeral(whole) or 0)
        if decimals:
            value += float("0." + "".join(str(parse_cjk_numeral(d)) for d in decimals))
        return Entity(label, match.group(), match.start(), match.end(), canonical(value), value, value, 0.5, unit)
    number = parse_number(groups["num"])
    return Entity(label, match.group(), match.start(), match.end(), canonical(number.value),
                  number.value, number.value, number.tolerance, unit)


def _measures(text: str, rules: Rules) -> Iterator[Entity]:
    for pattern in rules.percent:
        for match in pattern.finditer(text):
            yield _measure(PERCENT, match, "%")
    for pattern in rules.multiplier:
        for match in pattern.finditer(text):
            yield _measure(MULTIPLIER, match, "x")


def _counted(label: str, pairs: list[tuple[str, re.Pattern]], text: str) -> Iterator[Entity]:
    for unit, pattern in pairs:
        for match in pattern.finditer(text):
            number: Number | None = parse_number(match["number"])
            if number is None:
                continue
            yield Entity(label, match.group(), match.start(), match.end(),
                         f"{canonical(number.value)} {unit}", number.value, number.value, number.tolerance, unit)


def _magnitude_quantities(text: str, rules: Rules) -> Iterator[Entity]:
    for match in rules.magnitude_quantity.finditer(text):
        number = parse_number(match["number"])
        yield Entity(QUANTITY, match.group(), match.start(), match.end(), canonical(number.value),
                     number.value, number.value, number.tolerance)


def _dates(text: str, rules: Rules) -> Iterator[Entity]:
    for pattern in rules.dates:
        for match in pattern.finditer(text):
            date = parse_date(match.group())
            if date:
                yield Entity(DATE, match.group(), match.start(), match.end(), date.isoformat())


def maturity_entities(text: str, rules: Rules) -> Iterator[Entity]:
    """Maturity labels ("[Beta]", "ベータ", "正式にサポート") with their canonical value."""
    for value, pattern in rules.maturity:
        for match in pattern.finditer(text):
            yield Entity(MATURITY, match.group(), match.start(), match.end(), value)


def _resolve_overlaps(candidates: list[Entity]) -> list[Entity]:
    """Keep the longest of overlapping matches (rule priority on ties), in text order.

    Hardware named inside a count ("384台のNVIDIA V100 GPU") is kept as well: both facts matter.
    """
    ranked = sorted(candidates, key=lambda e: (-(e.end - e.start), _PRIORITY[e.label], e.start))
    kept: list[Entity] = []
    taken = bytearray(max((e.end for e in candidates), default=0))
    for entity in ranked:
        if not any(taken[entity.start:entity.end]):
            kept.append(entity)
            taken[entity.start:entity.end] = b"\x01" * (entity.end - entity.start)
    nested = [e for e in candidates if e.label == HARDWARE and e not in kept
              and any(k.label == COUNT and k.start <= e.start and e.end <= k.end for k in kept)]
    return sorted(kept + _longest_only(nested), key=lambda e: (e.start, -e.end))


def _longest_only(entities: list[Entity]) -> list[Entity]:
    return [e for e in entities if not any(o is not e and o.start <= e.start and e.end <= o.end
                                           and (o.end - o.start) > (e.end - e.start) for o in entities)]


def qualifier_near(text: str, start: int, end: int, rules: Rules) -> str:
    """'up_to', 'about' or 'over' when written right before or after a value; else 'exact'."""
    before = text[max(0, start - _QUALIFIER_WINDOW):start]
    after = text[end:end + _QUALIFIER_WINDOW // 2]
    for qualifier, pattern in rules.qualifiers:
        if any(m.end() >= len(before) - 1 for m in pattern.finditer(before)):
            return qualifier
    for qualifier, pattern in rules.qualifiers:
        if qualifier == "over" and pattern.match(after.lstrip()):
            return qualifier
    return "exact"


def _with_qualifier(entity: Entity, text: str, rules: Rules) -> Entity:
    if entity.value_num is None:
        return entity
    qualifier = qualifier_near(text, entity.start, entity.end, rules)
    if qualifier == "exact":
        return entity
    return Entity(entity.label, entity.text, entity.start, entity.end, entity.norm, entity.value_num,
                  entity.value_max, entity.value_tol, entity.unit, qualifier, entity.extra)


def find_entities(text: str, lang: str) -> list[Entity]:
    """All entities in one segment of text written in `lang`, non-overlapping, in order."""
    rules = rules_for(lang).for_text(text)
    candidates = [
        *version_entities(text, rules), *_hardware(text, rules), *_measures(text, rules),
        *_counted(QUANTITY, rules.quantity, text), *_counted(COUNT, rules.counts, text),
        *_magnitude_quantities(text, rules),
        *_dates(text, rules), *maturity_entities(text, rules),
    ]
    return [_with_qualifier(e, text, rules) for e in _resolve_overlaps(candidates)]
