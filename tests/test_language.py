"""Language detection: script rules over seeded langdetect, per document and segment."""

from __future__ import annotations

from ingest.language import detect_language


def test_script_rules():
    assert detect_language("これは日本語の文章です。").lang == "ja"
    assert detect_language("这是中文的句子。").lang == "zh"
    assert detect_language("한국어 문장입니다.").lang == "ko"


def test_kanji_only_fragments_follow_the_document():
    assert detect_language("安定版機能").lang == "zh"
    assert detect_language("安定版機能", context="ja").lang == "ja"


def test_chinese_variants():
    assert detect_language("人工智慧開源庫發布,應用於電腦視覺").variant == "zh-Hant"
    assert detect_language("人工智能开源库发布,应用于计算机视觉").variant == "zh-Hans"


def test_english_is_deterministic_and_short_latin_fragments_are_english():
    text = "This release adds a new backend for scaled dot product attention on recent GPUs."
    assert {detect_language(text).lang for _ in range(5)} == {"en"}
    assert detect_language("H100").lang == "en"


def test_confidence_is_a_probability():
    guess = detect_language("これは日本語の文章です。")
    assert 0.5 <= guess.confidence <= 1.0
