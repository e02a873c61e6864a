"""One figure read whole: CJK magnitudes and numerals, Latin magnitudes, written precision."""

from __future__ import annotations

import pytest

from ingest.extract.notation import numerals
from ingest.extract.reader import read, read_number, values_agree


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
        # the places below a magnitude, in digits (a review's false changes: "2万" against "28,000")
        ("2万8000", 28_000),
        ("18万6000", 186_000),
        ("1兆8200億", 1.82e12),
        ("3万5千", 35_000),
    ],
)
def test_values(text, value):
    assert read_number(text).value == pytest.approx(value)


def test_written_precision_decides_agreement():
    assert values_agree(read_number("3万"), read_number("29.8k"))
    assert not values_agree(read_number("2万"), read_number("20万"))
    assert values_agree(read_number("97.5"), read_number("97.5"))
    assert not values_agree(read_number("2"), read_number("1.53"))


def test_a_score_or_a_phone_number_is_no_range_up_to_nothing():
    """ "won 2-0" and "0570-00-2486" divided by the range's zero high end: the whole document failed."""
    assert read_number("2-0") is None
    for text in ("won 2-0 at home", "予約は電話0570-00-2486で受け付ける。"):
        assert all(r.value_max is None or r.value_max >= (r.value or 0) for r in read(text, None))


def test_an_article_after_a_frequency_is_per_not_one():
    assert [(r.kind, r.value) for r in read("operates three times a week", "en")] == [("multiplier", 3.0)]
    assert [(r.value, r.unit) for r in read("five hours a day", "en")] == [(5.0, "hours")]
    assert [(r.value, r.unit) for r in read("nearly a year later", "en")] == [(1.0, "years")]


def test_not_numbers():
    assert read_number("H100") is None
    assert read_number("abc") is None
    assert numerals().value("模型") is None
