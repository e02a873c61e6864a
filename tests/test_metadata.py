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


def meta(text: str, fmt: str = "markdown"):
    return extract_metadata(clean(text, fmt))


def test_toml_front_matter_with_hugo_keys():
    found = meta(
        '+++\ntitle = "T"\npublishDate = 2024-10-17T09:00:00Z\nauthors = ["A", "B"]\n'
        'translator = "@片刻"\noriginal_url = "https://example.com/post"\n+++\n本文です。'
    )
    assert (found.title, found.published_at, found.author, found.translator, found.source_url) == (
        "T",
        dt.date(2024, 10, 17),
        "A, B",
        "@片刻",
        "https://example.com/post",
    )


def test_front_matter_that_does_not_parse_stays_text():
    assert meta("+++\ntitle = \n+++\n本文です。").title is None


def test_japanese_byline_of_a_translated_post():
    found = meta(
        "# 見出し\n\n2024 年 12 月 3 日の発表を受けて…\n\n"
        "※この投稿は米国時間 2025 年 2 月 1 日に、公式ブログに投稿されたものの抄訳です。\n"
    )
    assert found.published_at == dt.date(2025, 2, 1)


def test_chinese_labelled_and_first_published_lines():
    assert meta("发布: 2024年10月17日\n\n正文。\n", "text").published_at == dt.date(2024, 10, 17)
    assert meta("标题\n\n参见 2023年1月2日 的公告。\n于 2024-06-03 21:05:12 首次发布\n", "text").published_at == dt.date(
        2024, 6, 3
    )


def test_english_bylines_with_month_names():
    found = meta("# Title\n\nBy Jane Okafor · March 4, 2025 · 7 min read\n\nSee the 2024-01-02 notes.\n")
    assert (found.author, found.published_at) == ("Jane Okafor", dt.date(2025, 3, 4))
    assert meta("Published on 4 Oct 2024\n\nText.\n", "text").published_at == dt.date(2024, 10, 4)
    assert parse_date("Sept 31, 2024, then October 1, 2024") == dt.date(2024, 10, 1)


def test_a_page_declares_its_title_date_and_author_over_its_first_heading():
    page = (
        "<html><head><title>人気記事 | サイト</title><meta property='og:title' content='本当の題名'>"
        "<meta property='article:published_time' content='2025-03-12T10:30:00+09:00'>"
        "<meta name='author' content='佐藤 花子'></head><body><aside><h2>人気記事</h2></aside><article>"
        "<h1>本当の題名</h1><p>" + "本文の段落です。" * 30 + "</p></article></body></html>"
    )
    found = meta(page, "html")
    assert (found.title, found.published_at, found.author) == ("本当の題名", dt.date(2025, 3, 12), "佐藤 花子")
