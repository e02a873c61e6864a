"""Does a translation keep the source's checkable facts: names, versions, numbers, dates?

Machine translation is fluent where it is wrong: a dropped "75%" or an "H100" turned into "H10"
reads fine. This check reads the source sentence and its English with the one reader (`reader`)
and looks, for every figure of the source, for one the English states alike:

* names: identifiers with a digit (H100, A100-80G, v5p-256, FP16, FlashAttentionV2), sized models
  and hardware with its product line (RTX A2000), found in the English with separators optional
  ("A100-80G" = "A100 80G") and case ignored;
* versions: a version the English writes alike ("PyTorch 2.5", "cuDNN 8.5.0");
* dates: the same date, in any notation ("2024年7月24日" = "July 24, 2024", "7月" = "July");
* percentages, by value, written as percentages in the English too;
* numbers, multipliers and fractions, by value at written precision whatever the notation
  (100万 = 1 million = 1,000,000; 2倍 = twice = 2x; 1/4 = a quarter = 4x less = 25%).

Not checked: the number 1 written alone (English makes it "a"/"an"), URLs and HTML tags, and
references ("第2代": "the second generation").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .entities import HARDWARE, Entity, entities_of
from .notation import to_halfwidth, vocabulary
from .reader import (
    DATE,
    FRACTION,
    IDENTIFIER,
    MODEL,
    MULTIPLIER,
    NUMBER,
    PERCENT,
    QUANTITIES,
    VERSION,
    Reading,
    read,
    values_agree,
)

_IGNORED = re.compile(r"https?://\S+|<[^>\n]*>")
TARGET_LANGUAGE = "en"


@dataclass(frozen=True)
class FidelityIssue:
    """One fact of the source that the translation does not carry."""

    kind: str  # "name" | "version" | "date" | "percent" | "number"
    expected: str  # as written in the source
    detail: str


def check_fidelity(source: str, translation: str, lang: str) -> list[FidelityIssue]:
    """The source's names, versions, dates, percentages and numbers missing from `translation`."""
    if source == translation:
        return []  # not translated (English, or nothing to translate): nothing can have been lost
    source, translation = _prepare(source), _prepare(translation)
    theirs, ours = read(source, lang), read(translation, TARGET_LANGUAGE)
    issues = [_missing("name", name) for name in _names(theirs) if not _has_name(translation, name)]
    rendered_hardware = {e.norm for e in _hardware(translation, ours, TARGET_LANGUAGE)}
    issues += [
        _missing("name", entity.text)
        for entity in _hardware(source, theirs, lang)
        if entity.norm not in rendered_hardware
        and not _has_name(translation, entity.text)
        and not any(issue.expected in entity.text for issue in issues)
    ]
    issues += [_missing("version", r.version or r.text) for r in theirs if r.kind == VERSION and not _has_version(ours, r)]
    issues += [_missing("date", r.text) for r in theirs if r.kind == DATE and r.norm not in {o.norm for o in ours}]
    quantities = [r for r in ours if r.kind in QUANTITIES]
    for reading in theirs:
        if reading.kind in QUANTITIES and not _is_plain_one(reading) and not _rendered(reading, quantities, translation):
            issues.append(_missing("percent" if reading.kind == PERCENT else "number", reading.text))
    return list(dict.fromkeys(issues))


def _prepare(text: str) -> str:
    return _IGNORED.sub(" ", to_halfwidth(text))


def _missing(kind: str, expected: str) -> FidelityIssue:
    return FidelityIssue(kind, expected, f"{kind} {expected!r} of the source is missing from the translation")


def _names(readings: Sequence[Reading]) -> list[str]:
    """Identifiers and sized models of the source, as written."""
    return [r.text for r in readings if r.kind in (IDENTIFIER, MODEL) and any(c.isdigit() for c in r.text)]


def _hardware(text: str, readings: Sequence[Reading], lang: str) -> list[Entity]:
    return [e for e in entities_of(text, readings, lang) if e.label == HARDWARE]


def _has_name(text: str, name: str) -> bool:
    # Separators are optional between every character: "A100-80G" = "A100 80G" = "a10080g".
    chars = [re.escape(c) for c in re.sub(r"[\s\-_]", "", name)]
    pattern = r"(?<![A-Za-z0-9])" + r"[\s\-_]?".join(chars) + r"s?(?![A-Za-z0-9])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def _has_version(readings: Iterable[Reading], version: Reading) -> bool:
    """The English states the version: as a product's version, a bare version, or the same digits."""
    wanted = version.version or version.norm
    return any((r.version or r.norm) == wanted or (r.kind in QUANTITIES and r.text == wanted) for r in readings)


def _is_plain_one(reading: Reading) -> bool:
    return reading.value == 1 and reading.text.strip() == "1"


def _factor(reading: Reading) -> float:
    """A multiplier or fraction as a factor of at least 1: 1/4 and 4x are both 4."""
    value = reading.value or 0.0
    return 1 / value if 0 < value < 1 else value


def _rendered(reading: Reading, quantities: Sequence[Reading], translation: str) -> bool:
    """Whether the English states the figure: the same value (a percentage as a percentage), a
    factor as a factor, or a fraction 1/N in words ("a quarter")."""
    if reading.kind == PERCENT:
        return any(q.kind == PERCENT and values_agree(reading, q) for q in quantities)
    if reading.kind in (MULTIPLIER, FRACTION):
        factor = _factor(reading)
        if any(
            q.kind in (MULTIPLIER, FRACTION) and abs(_factor(q) - factor) <= max(q.tol, reading.tol, 0.01 * factor)
            for q in quantities
        ):
            return True
        if reading.kind == FRACTION:
            return _fraction_rendered(reading, quantities, translation)
    return any(values_agree(reading, q) for q in quantities)


def _fraction_rendered(reading: Reading, quantities: Sequence[Reading], translation: str) -> bool:
    """ "1/4" as "25%", as "a quarter", or as "4 times less"."""
    value = reading.value or 0.0
    if any(q.kind == PERCENT and abs((q.value or 0.0) - 100 * value) <= max(q.tol, 0.5) for q in quantities):
        return True
    denominator = round(1 / value) if value else 0
    if abs(1 / denominator - value) > 1e-9 if denominator else True:
        return False
    words = [w for w, n in vocabulary().fraction_words.items() if n == denominator]
    return any(re.search(rf"\b{re.escape(w)}\b", translation, re.IGNORECASE) for w in words) or any(
        q.kind == NUMBER and q.value == denominator for q in quantities
    )
