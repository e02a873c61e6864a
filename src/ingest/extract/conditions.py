"""The conditions a measured value holds under, from its sentence: hardware and GPU count, model
size, numeric precision and sparsity, training or inference, end to end or a kernel, the platform
a figure is measured on ("on Linux, … needs 20% less RAM" / "在 Windows 平台上,…内存占用降低了 12%"). Two claims compare only
under the same conditions (`conditions` in lang/common.yaml holds the symbols, `conditions` in
lang/<code>/rules.yaml each language's words; all apply to text in any language)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ..lang import common_rules, every_language, profiles
from .clauses import clause_bounds, comma_part
from .entities import COUNT, HARDWARE, MATURITY, MULTIPLIER, PERCENT, QUANTITY, Entity
from .lexicon import word_concepts
from .notation import canonical
from .reader import MODEL_SIZE_MIN  # "25B", "350M": a bare magnitude this large in a claim's sentence is a model size
from .rules import platforms_in

_FIGURES = (PERCENT, MULTIPLIER, QUANTITY, COUNT)  # values measured on a platform (not a version or a status)
_HOW_IT_COMPUTES = ("precision", "sparsity")  # conditions of a rate of computing, not of what a chip is built with


@lru_cache(maxsize=1)
def _words() -> list[tuple[str, str, re.Pattern]]:
    """(component, value, pattern) for every condition word."""
    merged: dict[tuple[str, str], list[str]] = {}
    for component, values in [*(common_rules().get("conditions") or {}).items(), *every_language("conditions")]:
        for value, words in values.items():
            merged.setdefault((component, value), []).extend(words)
    compiled = []
    for (component, value), words in merged.items():
        if words:
            alternation = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
            compiled.append((component, value, re.compile(rf"(?<![A-Za-z])(?:{alternation})(?![A-Za-z])", re.I)))
    return compiled


@lru_cache(maxsize=1)
def _precision_free_units() -> frozenset[str]:
    rules = common_rules()
    return frozenset([*rules["precision_free_units"], *rules["measures"]])


def conditions(text: str, entities: Sequence[Entity], own: Entity | None = None) -> str | None:
    """'gpus=64;hw=nvidia-a100;phase=training' for a sentence, leaving out the claim's own value."""
    found: set[str] = set()
    # (what a model is, whatever runs it: only the other sizes and editions its sentence names set it apart)
    what_it_is = own is not None and own.unit in common_rules()["unconditioned_units"]
    for entity in entities:
        if entity is own or (own is not None and entity.start == own.start and entity.end == own.end):
            continue
        if what_it_is and entity.label != QUANTITY:
            continue
        if entity.label == HARDWARE:
            found.add(f"hw={entity.norm}")
        elif entity.label == COUNT and entity.unit == "gpus" and entity.value_num:
            found.add(f"gpus={canonical(entity.value_num)}")
        elif entity.label == QUANTITY and entity.unit in (None, "parameters") and (entity.value_num or 0) >= MODEL_SIZE_MIN:
            found.add(f"size={canonical(entity.value_num or 0)}")
    # (a phase word in a part of the sentence after the value's is of another figure: "支持最长 128K 的
    # 上下文长度,最多可生成 8K tokens" says generation of the 8K, not of the context length)
    phase_end = comma_part(text, own.start, own.end)[1] if own is not None else len(text)
    built = own is not None and own.unit in _precision_free_units()
    for component, value, pattern in _words():
        if (component in _HOW_IT_COMPUTES and built) or what_it_is:
            continue
        if pattern.search(text, 0, phase_end if component == "phase" else len(text)):
            found.add(f"{component}={value}")
    # (an edition named in another clause is another figure's: "The base model costs €2,999; a City 3
    # Plus … costs €3,499")
    low, high = clause_bounds(text, own.start) if own is not None else (0, len(text))
    found.update(f"variant={name}" for name in _variants(text, entities, low, high))
    if own is not None and own.label in _FIGURES and not what_it_is:
        found.update(f"platform={platform.norm}" for platform in platforms_in(text))
    return ";".join(sorted(found)) or None


@lru_cache(maxsize=1)
def _variant_patterns() -> list[tuple[str, re.Pattern]]:
    """(language, pattern) for what each language calls one edition of a product (`variants`)."""
    return [(code, re.compile(pattern)) for code, p in profiles().items() for pattern in p.rules.get("variants") or []]


@lru_cache(maxsize=1)
def _not_names() -> frozenset[str]:
    return frozenset(str(w).casefold() for w in every_language("not_names"))


def _variants(text: str, entities: Sequence[Entity], low: int, high: int) -> set[str]:
    """The editions of a product a sentence names ("the Long Range model", "ロングレンジ仕様", "标准版"),
    each by the concepts of its words (so "Performance version" and "性能版" are one edition), else as
    written: a figure of one edition is not another's. Not a maturity ("正式版", "beta version")."""
    found = set()
    for lang, pattern in _variant_patterns():
        for match in pattern.finditer(text, low, high):
            if any(e.label == MATURITY and e.start < match.end() and match.start() < e.end for e in entities):
                continue
            words = [w for w in re.split(r"[\s-]+", match["name"]) if w and w.casefold() not in _not_names()]
            if not words:
                continue
            concepts = [(word_concepts(w, lang) or (w.casefold(),))[0] for w in words]
            found.add("-".join(concepts))
    return found
