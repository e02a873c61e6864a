"""Sentence segmentation for ja/zh/en with offsets into the cleaned text."""

from __future__ import annotations

from ingest.clean import clean
from ingest.segment import MAX_SEGMENT_CHARS, segment


def texts(text: str, fmt: str = "text") -> list[str]:
    return [s.text for s in segment(clean(text, fmt))]


def test_cjk_sentences_split_after_full_stops_and_keep_closing_quotes():
    assert texts("これは「例」です。次の文!最後?") == ["これは「例」です。", "次の文!", "最後?"]
    assert texts("此版本为 SDPA 提供了新后端。它默认启用。") == ["此版本为 SDPA 提供了新后端。", "它默认启用。"]


def test_english_does_not_split_inside_identifiers_or_numbers():
    assert texts("Use torch.compile with PyTorch 2.5 today. It is fast.") == [
        "Use torch.compile with PyTorch 2.5 today.",
        "It is fast.",
    ]


def test_a_sentence_ends_after_a_capitalised_word_but_not_after_an_initial():
    """ "83.1 on MATH. Zorblex…" and "Qwen2.5-72B. It…" are two sentences each (one segment had given
    one model's score to the other); "J. Smith" and "U.S. Army" stay whole."""
    assert texts("It scores 83.1 on MATH. Zorblex scores 61.0.") == ["It scores 83.1 on MATH.", "Zorblex scores 61.0."]
    assert texts("The flagship is Qwen2.5-72B. It is open.") == ["The flagship is Qwen2.5-72B.", "It is open."]
    assert texts("Written by J. Smith for the U.S. Army. It works.") == ["Written by J. Smith for the U.S. Army.", "It works."]


def test_list_items_and_table_rows_are_segments():
    md = "- 第一项。第二句。\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    assert texts(md, "markdown") == ["第一项。第二句。", "a | b", "1 | 2"]


def test_sections_follow_headings_and_offsets_are_exact():
    cleaned = clean("# 見出し\n\n本文。二文目。", "markdown")
    segments = segment(cleaned)
    assert [s.section for s in segments] == ["見出し", "見出し", "見出し"]
    for s in segments:
        assert cleaned.text[s.char_start : s.char_end] == s.text


def test_overlong_sentences_are_cut():
    assert all(len(t) <= MAX_SEGMENT_CHARS for t in texts("あ、" * 1000))
