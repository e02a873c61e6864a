"""One figure read whole: CJK magnitudes and numerals, Latin magnitudes, written precision."""

from __future__ import annotations

import pytest

from ingest.extract.notation import numerals
from ingest.extract.reader import read_number, values_agree


@pytest.mark.parametrize(
    "text, value",
    [
        ("3万", 30_000),
        ("29.8k", 29_800),
        ("1,000", 1_000),
        ("1.5亿", 150_000_000),
        ("70億", 7_000_000_000),
        ("175B", 175e9),
        ("64k", 64_000),
        ("100 万", 1_000_000),
        ("７５", 75),
        ("二十", 20),
        ("三千五百", 3_500),
        ("一万二千", 12_000),
    ],
)
def test_values(text, value):
    assert read_number(text).value == pytest.approx(value)


def test_written_precision_decides_agreement():
    assert values_agree(read_number("3万"), read_number("29.8k"))
    assert not values_agree(read_number("2万"), read_number("20万"))
    assert values_agree(read_number("97.5"), read_number("97.5"))
    assert not values_agree(read_number("2"), read_number("1.53"))


def test_not_numbers():
    assert read_number("H100") is None
    assert read_number("abc") is None
    assert numerals().value("模型") is None
