"""The entity rules of a language, compiled from its profile (`lang/<code>/rules.yaml`) and the
rules every language shares (`lang/common.yaml`)."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache

from ..lang import FALLBACK, common_rules, profile
from .numbers import NUMBER_RE
from .prefilter import Prefilter

_EDGE_BEFORE = r"(?<![A-Za-z0-9.])"
_EDGE_AFTER = r"(?![A-Za-z0-9])"


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
    supports: list[re.Pattern]         # words saying a release supports a dependency's version
    support_ended: list[re.Pattern]    # ...and words saying that support ends ("no longer")
    relations: list[tuple[str, re.Pattern]]  # attribute -> a phrase naming its value in words (group `value`)
    units_after: list[tuple[str, re.Pattern]]  # the unit or counted noun right after a number
    prefilter: Prefilter | None = dataclasses.field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.prefilter is None:  # built once per language; narrowed copies share it
            lists = {name: getattr(self, name) for name in _PATTERN_LISTS}
            object.__setattr__(self, "prefilter", Prefilter(lists, lambda narrowed: dataclasses.replace(self, **narrowed)))

    def for_text(self, text: str) -> Rules:
        """These rules without the patterns that cannot match `text` (see `prefilter`): the same
        matches in `text` and in any part of it, for a fraction of the scans."""
        assert self.prefilter is not None
        return self.prefilter.narrowed(text)


_PATTERN_LISTS = tuple(f.name for f in dataclasses.fields(Rules) if f.type.startswith("list["))


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


def _keyed(mapping: dict | None, wrap: str = "{}", flags: int = 0) -> list[tuple[str, re.Pattern]]:
    return [(key, re.compile(wrap.replace("{}", _alternation(patterns)), flags))
            for key, patterns in (mapping or {}).items()]


def _keyed_all(rule_sets: list[dict], family: str, flags: int = 0) -> list[tuple[str, re.Pattern]]:
    return [pair for rules in rule_sets for pair in _keyed(rules.get(family), flags=flags)]


@lru_cache(maxsize=16)
def rules_for(lang: str) -> Rules:
    """The compiled rules for a language: the shared ones, its own (English's if it has none),
    then those of the languages its profile extends (English, for text that quotes it)."""
    common, own = common_rules(), profile(lang)
    specific = own.rules or profile(FALLBACK).rules
    extended = [profile(code).rules for code in own.extends]
    number = NUMBER_RE.pattern
    # A counter glued to its number is the language's own ("3件のコミット"); an extended
    # language's counted noun needs a space ("3 commits").
    counts = _keyed(specific.get("counts"), wrap=rf"(?P<number>{number})\s?(?:{{}})") + [
        pair for rules in extended for pair in _keyed(rules.get("counts"), wrap=rf"(?P<number>{number})\s(?:{{}})")]
    return Rules(
        lang=lang,
        versions=_version_patterns(common),
        version_list=re.compile(rf"(?P<join>{common['version_list_joiners']})(?P<ver>\d+(?:\.\d+){{1,3}}){_EDGE_AFTER}"),
        hardware=[(hw["id"], re.compile(rf"{_EDGE_BEFORE}(?:{hw['pattern']})(?=TM\b|{_EDGE_AFTER})"))
                  for hw in common["hardware"]],
        percent=[re.compile(_EDGE_BEFORE + p) for p in common["percent"]]
        + [re.compile(p) for rules in (specific, *extended) for p in rules.get("percent", [])],
        multiplier=[re.compile(_EDGE_BEFORE + p) for p in common["multiplier"]],
        # "LLAMA3-70Bトークン": a number glued to a hyphenated name belongs to the name.
        quantity=_keyed(common["units"], wrap=rf"(?<![A-Za-z0-9]-)(?P<number>{number})\s?(?:{{}})(?![A-Za-z])"),
        magnitude_quantity=re.compile(common["magnitude_quantity"]),
        counts=counts,
        dates=[re.compile(p) for p in common["date"]],
        maturity=_keyed_all([specific, *extended], "maturity", re.I),
        maturity_sections=_keyed_all([specific, *extended], "maturity_sections", re.I),
        other_sections=re.compile(_alternation([s for rules in (specific, *extended)
                                                for s in rules.get("other_sections", [])] or ["(?!)"]), re.I),
        attributes=_keyed_all([specific, *extended], "attributes", re.I),
        qualifiers=_keyed(common["qualifiers"], flags=re.I),
        baselines=[re.compile(p) for p in common["baselines"]],
        supports=[re.compile(p, re.I) for rules in (specific, *extended) for p in rules.get("supports", [])],
        support_ended=[re.compile(p, re.I) for rules in (specific, *extended) for p in rules.get("support_ended", [])],
        # One pattern per phrase: the group `value` may appear once per pattern only.
        relations=[(attribute, re.compile(p.replace("{terms}", common["relation_terms"]), re.I))
                   for rules in (specific, *extended) for attribute, phrases in rules.get("relations", {}).items()
                   for p in phrases],
        units_after=_keyed({**common["units"], **common.get("counted_nouns", {})},
                           wrap=r"\s?(?:{})(?![A-Za-z])", flags=re.I),
    )


@lru_cache(maxsize=1)
def release_products() -> frozenset[str]:
    """Products whose versions are releases an article can be about (not dependencies)."""
    return frozenset(p["id"] for p in common_rules()["products"] if p.get("release"))


@lru_cache(maxsize=1)
def _release_product_names() -> Prefilter[tuple[str, re.Pattern], list[tuple[str, re.Pattern]]]:
    names = [(p["id"], re.compile(rf"{_EDGE_BEFORE}(?:{_alternation(p['names'])}){_EDGE_AFTER}"))
             for p in common_rules()["products"] if p.get("release")]
    return Prefilter({"names": names}, lambda narrowed: narrowed["names"])


def release_products_named(text: str) -> set[str]:
    """The release products a text names, with or without a version ("DeepSpeed on Windows")."""
    return {product for product, pattern in _release_product_names().narrowed(text) if pattern.search(text)}
