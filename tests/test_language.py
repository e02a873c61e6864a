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


def test_code_urls_and_numbers_are_in_no_language():
    for text in (
        "https://github.com/pytorch/pytorch/releases/tag/v2.5.0",
        "2024-10-17",
        "| 1 | 2 |",
        "pip install torch==2.5.0 --index-url https://download.pytorch.org/whl/cu121",
        'model = AutoModel.from_pretrained("meta-llama/Llama-3")',
    ):
        assert detect_language(text, context="ja").lang == "zxx", text
    for text in ("Use torch.compile to speed up training of your model.", "H100 80GB"):
        assert detect_language(text, context="ja").lang == "en", text


def test_segments_in_no_language_need_no_translation_and_no_package(tmp_path):
    from ingest import run_pipeline, warehouse
    from ingest.translate.engine import UntranslatedEngine

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.md").write_text(
        "# PyTorch 2.5 リリース\n\nPyTorch 2.5 では FlexAttention が追加されました。\n\n"
        "https://github.com/pytorch/pytorch/releases/tag/v2.5.0\n\n"
        "    pip install torch==2.5.0 --index-url https://download.pytorch.org/whl/cu121\n\n2024-10-17\n",
        "utf-8",
    )
    summary = run_pipeline([tmp_path / "in"], tmp_path / "w.duckdb", None, engine=UntranslatedEngine())
    assert summary.missing_pairs == ["ja->en"]
    con = warehouse.connect(tmp_path / "w.duckdb", read_only=True)
    rows = con.execute("SELECT lang, translation_status, text = text_en FROM segments WHERE lang NOT IN ('ja')").fetchall()
    con.close()
    assert rows and all(row == ("zxx", "not_needed", True) for row in rows), rows
