"""The rules prefilter may skip a pattern only where the pattern cannot match."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ingest.extract.notation import DOTTED, patterns
from ingest.extract.prefilter import required_sets
from ingest.extract.reader import _prefilter
from ingest.extract.rules import _PATTERN_LISTS, rules_for
from ingest.lang import profiles

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
# Lines that exercise case folding, full-width digits and other edge cases of the gates.
EDGE_LINES = [
    "ＰｙＴｏｒｃｈ ２.５ で 3 倍",
    "BETA 版",
    "ſtable and \u212aernel",
    "İntel Xeon",
    "百分之五十",
    "1,000 tokens/s",
    "v0.14.5",
    "",
    " ",
    "GPU MAX",
]


def _lines() -> list[str]:
    lines = [line.strip() for path in sorted(SEEDS.glob("*.txt")) for line in path.read_text("utf-8").splitlines()]
    return [line for line in lines if line] + EDGE_LINES


def _pattern(rule) -> re.Pattern:
    return rule[-1] if isinstance(rule, tuple) else rule


@pytest.mark.parametrize("lang", sorted(profiles()))
def test_narrowed_rules_keep_every_pattern_that_matches(lang):
    rules = rules_for(lang)
    for line in _lines():
        narrowed = rules.for_text(line)
        for name in _PATTERN_LISTS:
            kept = {id(_pattern(rule)) for rule in getattr(narrowed, name)}
            for rule in getattr(rules, name):
                if _pattern(rule).search(line):
                    assert id(_pattern(rule)) in kept, (lang, name, _pattern(rule).pattern, line)


def test_narrowed_notation_keeps_every_pattern_that_matches():
    found = patterns()
    every = [
        DOTTED,
        found.url,
        *found.dates,
        found.token,
        found.number,
        found.numeral,
        found.word_number,
        *found.fractions,
        found.reference,
        found.multiplier_word,
    ]
    for line in _lines():
        kept = {id(p) for p in _prefilter().narrowed(line)}
        assert all(id(p) in kept for p in every if p.search(line)), line


def test_required_sets_read_literals_digits_and_alternatives():
    sets = required_sets(re.compile(r"(?<![A-Za-z])(?P<number>\d+)\s?(?:GB/s|GB)"))
    assert frozenset("G") in sets
    assert frozenset("百") in required_sets(re.compile("百分之|百万"))
    assert required_sets(re.compile(r"(?!x)a?")) == ()  # nothing is required


def test_required_sets_under_ignorecase_include_every_folded_form():
    assert required_sets(re.compile("k", re.I)) == (frozenset("kK\u212a"),)
    assert required_sets(re.compile("(?i:s)")) == (frozenset("sS\u017f"),)
    assert required_sets(re.compile("é", re.I)) == ()  # a letter beyond ASCII: no gate
    assert required_sets(re.compile("速", re.I)) == (frozenset("速"),)
