"""check_fidelity: silent on faithful translations, loud when facts go missing."""

from __future__ import annotations

import pytest

from ingest.extract.fidelity import check_fidelity
from ingest.translate import argos

pytest_plugins = ["translate_fixtures"]

FAITHFUL = [
    ("zh", "比 FlashAttentionV2 高达 75% 的速度提升", "up to 75% faster than FlashAttentionV2"),
    ("ja", "100万トークン", "1 million tokens"),
    ("ja", "100万トークン", "1,000,000 tokens"),
    ("ja", "100万トークン", "1M tokens"),
    ("ja", "2倍", "2x"),
    ("ja", "2倍", "twice"),
    ("ja", "2倍", "2 times"),
    ("ja", "2倍に高速化", "doubled the speed"),
    (
        "ja",
        "PyTorch 2.5がリリースされ、H100 GPU向けに75%も向上させる。",
        "PyTorch 2.5 has been released, with a 75% improvement for H100 GPUs.",
    ),
    ("ja", "RTX A2000 4GBで動作します", "It runs on an RTX A2000 with 4 GB."),
    ("zh", "需要 CUDA 11.7 和 cuDNN 8.5.0", "requires CUDA 11.7 and cuDNN 8.5.0"),
    ("zh", "需要 cuDNN 8.5.0", "requires cuDNN 8.5"),  # a patch zero dropped: one version (notation.version_number)
    ("ja", "v5p-256、A100-80G、C++17、FP16", "v5p-256, A100 80G, C++17 and fp16"),
    ("ja", "H100を8基", "eight H100s"),
    ("ja", "通信オーバヘッドを1/4に削減", "reduces communication overhead by 4x"),
    ("ja", "通信オーバヘッドを1/4に削減", "cuts communication overhead to a quarter"),
    ("ja", "2024年7月24日に公開", "published on July 24, 2024"),
    ("ja", "約2.5倍高速", "about 2.5 times faster"),
    ("ja", "4,000以上のA100 GPU", "more than 4000 A100 GPUs"),
    ("ja", "3つのモデル", "three models"),
    ("ja", "1つのGPUで", "on a single GPU"),
    ("zh", "1.5亿参数", "150 million parameters"),
    ("zh", "3万名用户", "30,000 users"),
    ("zh", "第2代", "the second generation"),
    ("ja", "詳細は https://example.com/v2.5/a100 を参照", "see https://example.com for details"),
    ("zh", "Windows 11 上的 PyTorch", "PyTorch on Windows 11"),
]


@pytest.mark.parametrize("lang, source, translation", FAITHFUL)
def test_faithful_translations_pass(lang, source, translation):
    assert check_fidelity(source, translation, lang) == []


UNFAITHFUL = [
    (
        "ja",
        "PyTorch 2.5がリリースされ、H100 GPU向けに75%も向上させる。",
        "PyTorch has been released and improves things for GPUs.",
        [("name", "H100"), ("version", "2.5"), ("percent", "75%")],
    ),
    ("zh", "需要 CUDA 11.7 和 cuDNN 8.5.1", "requires CUDA 11 and cuDNN 8.5", [("version", "11.7"), ("version", "8.5.1")]),
    ("zh", "3万名用户", "300,000 users", [("number", "3万")]),
    ("ja", "100万トークン", "100 tokens", [("number", "100万")]),
    ("ja", "75%向上", "improved by 75", [("percent", "75%")]),
    ("ja", "A100-80Gを使用", "uses the A100", [("name", "A100-80G")]),
    ("ja", "RTX A2000で動作", "runs on an A2000", [("name", "RTX A2000")]),
    ("zh", "PyTorch 2.10 发布", "PyTorch 2.1 released", [("version", "2.10")]),
    ("ja", "7月に公開", "published in June", [("date", "7月")]),
    ("ja", "1/4に削減", "reduced by a third", [("number", "1/4")]),
]


@pytest.mark.parametrize("lang, source, translation, expected", UNFAITHFUL)
def test_missing_facts_are_reported(lang, source, translation, expected):
    issues = check_fidelity(source, translation, lang)

    assert [(issue.kind, issue.expected) for issue in issues] == expected
    assert all(issue.expected in issue.detail for issue in issues)


def test_digits_inside_names_are_not_numbers():
    assert check_fidelity("H100で", "on the H100", "ja") == []
    assert [i.kind for i in check_fidelity("100台のH100", "H100 machines", "ja")] == ["number"]


def test_random_weight_translations_lose_the_numbers(ja_installed, fast_settings):
    sources = [
        "PyTorch 2.5がリリースされ、H100 GPU向けにSDPAの速度を75%向上させた。",
        "DeepSpeed ZeRO++は通信量を1/4に削減し、384台のV100で2.2倍高速になった。",
    ]
    engine = argos.ArgosEngine(settings=fast_settings)

    translations = [r.text_en for r in engine.translate("ja", sources)]

    for source, translation in zip(sources, translations, strict=True):
        assert check_fidelity(source, translation, "ja"), translation
