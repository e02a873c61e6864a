"""Rule-based entity extraction for ja, zh and en; the rules live in `ingest/lang/*.yaml`.

Each entity keeps exact character offsets into the segment text it was found
in, a normalised form (`norm`) that compares equal across languages, and for
measurements a numeric value with the precision it was written at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Iterator

import yaml

from .metadata import parse_date
from .numbers import NUMBER_RE, Number, canonical, parse_cjk_numeral, parse_number

VERSION, HARDWARE, PERCENT, MULTIPLIER = "VERSION", "HARDWARE", "PERCENT", "MULTIPLIER"
QUANTITY, COUNT, DATE, MATURITY = "QUANTITY", "COUNT", "DATE", "MATURITY"
LABELS = (VERSION, HARDWARE, PERCENT, MULTIPLIER, QUANTITY, COUNT, DATE, MATURITY)
# When two rules claim overlapping text the longer match wins; on equal length, this order.
_PRIORITY = {label: rank for rank, label in enumerate(
    (DATE, VERSION, HARDWARE, COUNT, QUANTITY, PERCENT, MULTIPLIER, MATURITY))}
_EDGE_BEFORE = r"(?<![A-Za-z0-9.])"
_EDGE_AFTER = r"(?![A-Za-z0-9])"
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


# ---- rules --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rules:
    lang: str
    versions: list[tuple[str, re.Pattern]]
    version_list: re.Pattern
    hardware: list[tuple[str, re.Pattern]]
    percent: list[re.Pattern]
    multiplier: list[re.Pattern]
    quantity: list[tuple[str, re.Pattern]]
    magnitude_quantity: re.Pattern
    counts: list[tuple[str, re.Pattern]]
    dates: list[re.Pattern]
    maturity: list[tuple[str, re.Pattern]]
    maturity_sections: list[tuple[str, re.Pattern]]
    other_sections: re.Pattern
    attributes: list[tuple[str, re.Pattern]]
    qualifiers: list[tuple[str, re.Pattern]]
    baselines: list[re.Pattern]


def _load_yaml(name: str) -> dict:
    return yaml.safe_load(resources.files("ingest.lang").joinpath(name).read_text("utf-8")) or {}


def _alternation(patterns: list[str]) -> str:
    return "|".join(f"(?:{p})" for p in sorted(patterns, key=len, reverse=True))


def _version_patterns(common: dict) -> list[tuple[str, re.Pattern]]:
    infix = common["version_infix"]
    compiled = []
    for product in common["products"]:
        number = r"\d+(?:\.\d+){1,3}\+?" + (r"|\d+(?![.\d])" if product.get("major_only") else "")
        glue = "(?P<paren>(?!))?" if product.get("glued") else infix
        # "Python (3.12)" keeps its closing bracket; "Python 3.8-3.11" is a range, not a version.
        pattern = (rf"{_EDGE_BEFORE}(?P<name>{_alternation(product['names'])}){glue}(?P<ver>{number})"
                   rf"(?(paren)\)){_EDGE_AFTER}(?![-–~]\d)")
        compiled.append((product["id"], re.compile(pattern)))
    return compiled


def _keyed(mapping: dict, wrap: str = "{}", flags: int = 0) -> list[tuple[str, re.Pattern]]:
    return [(key, re.compile(wrap.replace("{}", _alternation(patterns)), flags))
            for key, patterns in (mapping or {}).items()]


@lru_cache(maxsize=8)
def rules_for(lang: str) -> Rules:
    """The compiled rules for a language: the shared ones plus ja/zh/en specifics (en for others)."""
    common = _load_yaml("common.yaml")
    specific = _load_yaml(f"{lang}.yaml") if lang in ("ja", "zh", "en") else _load_yaml("en.yaml")
    english = _load_yaml("en.yaml")
    number = NUMBER_RE.pattern
    return Rules(
        lang=lang,
        versions=_version_patterns(common),
        version_list=re.compile(rf"(?P<join>{common['version_list_joiners']})(?P<ver>\d+(?:\.\d+){{1,3}}){_EDGE_AFTER}"),
        hardware=[(hw["id"], re.compile(rf"{_EDGE_BEFORE}(?:{hw['pattern']})(?=TM\b|{_EDGE_AFTER})"))
                  for hw in common["hardware"]],
        percent=[re.compile(_EDGE_BEFORE + p) for p in common["percent"]]
        + [re.compile(r"百分之(?P<cjk>[零一二两三四五六七八九十百]+(?:点[零一二三四五六七八九]+)?)")],
        multiplier=[re.compile(_EDGE_BEFORE + p) for p in common["multiplier"]],
        # "LLAMA3-70Bトークン": a number glued to a hyphenated name belongs to the name.
        quantity=_keyed(common["units"], wrap=rf"(?<![A-Za-z0-9]-)(?P<number>{number})\s?(?:{{}})(?![A-Za-z])"),
        magnitude_quantity=re.compile(common["magnitude_quantity"]),
        counts=_keyed(specific.get("counts"), wrap=rf"(?P<number>{number})\s?(?:{{}})")
        + ([] if lang == "en" else _keyed(english["counts"], wrap=rf"(?P<number>{number})\s(?:{{}})")),
        dates=[re.compile(p) for p in common["date"]],
        maturity=_keyed(specific.get("maturity"), flags=re.I)
        + ([] if lang == "en" else _keyed(english["maturity"], flags=re.I)),
        maturity_sections=_keyed(specific.get("maturity_sections"), flags=re.I)
        + ([] if lang == "en" else _keyed(english["maturity_sections"], flags=re.I)),
        other_sections=re.compile(_alternation(specific.get("other_sections", []) + english["other_sections"]), re.I),
        attributes=_keyed(specific.get("attributes"), flags=re.I)
        + ([] if lang == "en" else _keyed(english["attributes"], flags=re.I)),
        qualifiers=_keyed(common["qualifiers"], flags=re.I),
        baselines=[re.compile(p) for p in common["baselines"]],
    )


# ---- matchers -----------------------------------------------------------------------------

def _versions(text: str, rules: Rules) -> Iterator[Entity]:
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


def _maturity(text: str, rules: Rules) -> Iterator[Entity]:
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
    rules = rules_for(lang)
    candidates = [
        *_versions(text, rules), *_hardware(text, rules), *_measures(text, rules),
        *_counted(QUANTITY, rules.quantity, text), *_counted(COUNT, rules.counts, text),
        *_magnitude_quantities(text, rules),
        *_dates(text, rules), *_maturity(text, rules),
    ]
    return [_with_qualifier(e, text, rules) for e in _resolve_overlaps(candidates)]
