"""Metadata: title, publication date, original URL, translator."""

from __future__ import annotations

import datetime as dt

from ingest.clean import clean
from ingest.metadata import extract_metadata, parse_date
from seed_fixtures import SEEDS


def test_labelled_lines_of_the_chinese_seed():
    meta = extract_metadata(clean((SEEDS / "001_dff0537ae45131ec.txt").read_text("utf-8"), "text"))
    assert meta.title == "新版本: PyTorch 2.5 发布博客"
    assert meta.published_at == dt.date(2024, 10, 17)
    assert meta.source_url == "https://pytorch.org/blog/pytorch2-5"
    assert meta.translator == "@片刻"


def test_dates_with_spaces_and_front_matter():
    assert parse_date("米国時間 2025 年 2 月 1 日に") == dt.date(2025, 2, 1)
    meta = extract_metadata(clean("---\ntitle: T\ndate: 2024-07-24\nauthor: A\n---\nbody", "markdown"))
    assert (meta.title, meta.published_at, meta.author) == ("T", dt.date(2024, 7, 24), "A")


def test_impossible_dates_are_ignored():
    assert parse_date("2024年13月40日") is None
