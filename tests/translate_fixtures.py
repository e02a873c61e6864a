"""Translation fixtures: tiny random-weight Argos packages, built once per session and
installed into a per-test package directory, so no test touches the user's packages.

Used as a plugin: `pytest_plugins = ["translate_fixtures"]` in the test modules.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from argostranslate import settings as argos_settings

from bench import argos_builder as builder
from ingest.translate import argos, packages

# Enough ja/zh/en text for SentencePiece to cover the characters the tests use.
TRAINING_TEXT = [
    "PyTorch 2.5がリリースされ、H100 GPU向けにSDPAの速度を75%向上させた。",
    "DeepSpeed ZeRO++は通信量を1/4に削減し、384台のV100で2.2倍高速になった。",
    "100万トークンの文脈を扱えるモデルが登場しました。こんにちは、世界。",
    "PyTorch 2.4 发布了，支持 Python 3.12，比 FlashAttentionV2 高达 75% 的速度提升。",
    "训练 1.5亿 参数的模型需要 8 块 A100-80G 显卡和 CUDA 11.7。你好",
    "The RTX A2000 has 4 GB of memory; v5p-256 pods run C++17 and FP16 kernels.",
    "0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ %.,-+/()",
]


@pytest.fixture(scope="session")
def tiny_archives(tmp_path_factory) -> SimpleNamespace:
    """Tiny `.argosmodel` files: ja->en 1.0 and 1.1, zh->en 1.0."""
    out = tmp_path_factory.mktemp("argosmodels")
    tokenizer = builder.trained_tokenizer(TRAINING_TEXT * 5, vocab_size=300)
    return SimpleNamespace(
        ja_10=builder.build_package(out, "ja", "en", tokenizer, version="1.0"),
        ja_11=builder.build_package(out, "ja", "en", tokenizer, version="1.1", seed=1),
        zh_10=builder.build_package(out, "zh", "en", tokenizer, version="1.0"),
    )


@pytest.fixture(scope="session")
def skeleton_dir() -> Path:
    """The published packages' tokenizers and vocabularies (../shared/argos-skeleton)."""
    if not (builder.DEFAULT_SKELETON / "ja_en" / "sentencepiece.model").is_file():
        pytest.skip(f"{builder.DEFAULT_SKELETON} is not available")
    return builder.DEFAULT_SKELETON


@pytest.fixture
def argos_dir(tmp_path, monkeypatch) -> Path:
    """An empty package directory that argostranslate (and so our code) installs into.

    argostranslate reads ARGOS_PACKAGES_DIR once, at import, so the computed settings are
    patched rather than the environment.
    """
    directory = tmp_path / "argos-packages"
    directory.mkdir()
    monkeypatch.setattr(argos_settings, "package_data_dir", directory)
    monkeypatch.setattr(argos_settings, "package_dirs", [directory])
    argos.load_pair_model.cache_clear()
    return directory


@pytest.fixture
def ja_installed(argos_dir, tiny_archives) -> packages.InstalledPackage:
    return packages.install_from_file(tiny_archives.ja_10)


@pytest.fixture
def fast_settings() -> argos.ArgosSettings:
    """Random weights rarely emit </s>; a short output keeps decoding cheap."""
    return argos.ArgosSettings(max_decoding_length=8)


@pytest.fixture
def counted(monkeypatch) -> list[int]:
    """Segments handed to the real CTranslate2 translator, one entry per call."""
    sizes: list[int] = []
    real_open = argos.open_translator

    class Counting:
        def __init__(self, translator) -> None:
            self.translator = translator

        def translate_batch(self, source, *args, **kwargs):
            sizes.append(len(source))
            return self.translator.translate_batch(source, *args, **kwargs)

    monkeypatch.setattr(argos, "open_translator", lambda *a: Counting(real_open(*a)))
    return sizes
