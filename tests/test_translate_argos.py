"""ArgosEngine on tiny random-weight packages: loading, batching, order, missing pairs."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from bench import argos_builder as builder
from ingest.translate import argos, make_engine, packages
from ingest.translate.engine import NOT_NEEDED, TRANSLATED, UNTRANSLATED, UntranslatedEngine

pytest_plugins = ["translate_fixtures"]

SEGMENTS = [
    "PyTorch 2.5がリリースされた。",
    "こんにちは、世界。",
    "DeepSpeed ZeRO++は通信量を1/4に削減し、384台のV100で2.2倍高速になった。",
    "75%",
    "100万トークンの文脈を扱えるモデルが登場しました。",
    "H100",
    "SDPAの速度を75%向上させた。",
]


class EchoTranslator:
    """Stands in for ctranslate2.Translator: answers each input with its own tokens."""

    def __init__(self) -> None:
        self.calls: list[list[list[str]]] = []

    def translate_batch(self, source, target_prefix=None, **options):
        self.calls.append(source)
        return [SimpleNamespace(hypotheses=[tokens]) for tokens in source]


@pytest.fixture
def echo(monkeypatch) -> EchoTranslator:
    translator = EchoTranslator()
    monkeypatch.setattr(argos, "open_translator", lambda model_dir, settings: translator)
    return translator


def test_translates_with_an_installed_package(ja_installed, fast_settings):
    results = argos.ArgosEngine(settings=fast_settings).translate("ja", SEGMENTS)

    assert len(results) == len(SEGMENTS)
    assert {r.status for r in results} == {TRANSLATED}
    assert {r.engine for r in results} == {"argos:translate-ja_en@1.0"}
    assert all(isinstance(r.text_en, str) for r in results)


def test_batched_results_equal_one_at_a_time_results(ja_installed, fast_settings):
    engine = argos.ArgosEngine(settings=fast_settings)

    batched = [r.text_en for r in engine.translate("ja", SEGMENTS)]
    single = [engine.translate("ja", [text])[0].text_en for text in SEGMENTS]

    assert batched == single


def test_batches_are_length_sorted_and_results_come_back_in_input_order(ja_installed, echo):
    engine = argos.ArgosEngine(settings=argos.ArgosSettings(call_size=3))

    results = engine.translate("ja", SEGMENTS)

    assert [r.text_en for r in results] == SEGMENTS  # the echo proves the mapping back
    sent = [tokens for call in echo.calls for tokens in call]
    assert [len(t) for t in sent] == sorted(len(t) for t in sent)
    assert [len(call) for call in echo.calls] == [3, 3, 1]


def test_each_distinct_segment_is_translated_once_per_call(ja_installed, echo):
    engine = argos.ArgosEngine()

    results = engine.translate("ja", SEGMENTS + SEGMENTS[::-1] + ["   "])

    assert sum(len(call) for call in echo.calls) == len(SEGMENTS)
    assert [r.text_en for r in results[: len(SEGMENTS)]] == SEGMENTS
    assert results[-1].status == NOT_NEEDED


def test_the_model_is_loaded_once_per_process(ja_installed, fast_settings, monkeypatch):
    opened = []
    real_open = argos.open_translator
    monkeypatch.setattr(argos, "open_translator", lambda *a: opened.append(a) or real_open(*a))

    for _ in range(3):
        argos.ArgosEngine(settings=fast_settings).translate("ja", SEGMENTS[:2])

    assert len(opened) == 1


def test_missing_pair_is_untranslated_with_the_install_command(ja_installed):
    engine = argos.ArgosEngine()

    [result] = engine.translate("ko", ["안녕하세요"])

    assert (result.text_en, result.status, result.engine) == (None, UNTRANSLATED, None)
    assert "`uv run ingest models install ko`" in result.reason
    assert "`uv run ingest models install --from PATH.argosmodel`" in result.reason
    assert engine.missing_pairs(["ja", "ko", "en", "zh-TW"]) == ["ko->en", "zh->en"]


def test_english_needs_no_translation(ja_installed):
    [result] = argos.ArgosEngine().translate("en", ["Hello"])

    assert (result.text_en, result.status) == ("Hello", NOT_NEEDED)


def test_regional_codes_use_the_language_package(argos_dir, tiny_archives, echo):
    packages.install_from_file(tiny_archives.zh_10)

    [result] = argos.ArgosEngine().translate("zh-TW", ["你好"])

    assert result.status == TRANSLATED and result.engine == "argos:translate-zh_en@1.0"


def test_fingerprint_changes_with_the_installed_version(argos_dir, tiny_archives):
    packages.install_from_file(tiny_archives.ja_10)
    before = argos.ArgosEngine().fingerprint

    packages.install_from_file(tiny_archives.ja_11)

    assert "translate-ja_en@1.0" in before
    assert argos.ArgosEngine().fingerprint == before.replace("@1.0", "@1.1")


def test_make_engine_picks_argos_only_when_a_package_is_installed(argos_dir, tiny_archives):
    assert isinstance(make_engine(), UntranslatedEngine)

    packages.install_from_file(tiny_archives.ja_10)

    assert isinstance(make_engine(), argos.ArgosEngine)


def test_target_prefix_from_metadata_is_sent_and_stripped(ja_installed, monkeypatch):
    metadata_path = ja_installed.path / "metadata.json"
    metadata = json.loads(metadata_path.read_text())
    metadata_path.write_text(json.dumps({**metadata, "target_prefix": "__en__"}))
    prefixes = []

    class PrefixEcho(EchoTranslator):
        def translate_batch(self, source, target_prefix=None, **options):
            prefixes.append(target_prefix)
            return [SimpleNamespace(hypotheses=[["__en__", *tokens]]) for tokens in source]

    monkeypatch.setattr(argos, "open_translator", lambda model_dir, settings: PrefixEcho())

    [result] = argos.ArgosEngine().translate("ja", ["こんにちは"])

    assert result.text_en == "こんにちは"
    assert prefixes == [[["__en__"]]]


def test_real_tokenizer_package_translates(skeleton_dir, argos_dir, tmp_path, fast_settings):
    tokenizer = builder.skeleton_tokenizer(skeleton_dir / "ja_en")
    archive = builder.build_package(tmp_path, "ja", "en", tokenizer)
    installed = packages.install_from_file(archive)

    engine = argos.ArgosEngine(settings=fast_settings)
    results = engine.translate("ja", SEGMENTS)
    model = argos.load_pair_model(installed.path, installed.version, installed.target_prefix, fast_settings)

    assert installed.version == "1.1"  # the published package's metadata is kept
    assert {r.status for r in results} == {TRANSLATED}
    assert model.tokenize(["PyTorch 2.5がリリース"]) == [["▁P", "y", "To", "rch", "▁2.5", "が", "リリース"]]


def test_threads_fill_the_cores_without_oversubscribing_them():
    assert argos.translation_threads(1) == (1, 1)
    assert argos.translation_threads(2) == (2, 1)
    assert argos.translation_threads(8) == (4, 2)
    inter, intra = argos.translation_threads()
    assert inter * intra <= argos.usable_cpus()


def test_batches_are_token_budgeted(ja_installed, monkeypatch):
    options = []

    class Recorder(EchoTranslator):
        def translate_batch(self, source, target_prefix=None, **kwargs):
            options.append(kwargs)
            return super().translate_batch(source, target_prefix, **kwargs)

    monkeypatch.setattr(argos, "open_translator", lambda model_dir, settings: Recorder())
    argos.ArgosEngine().translate("ja", SEGMENTS)

    assert [(o["batch_type"], o["max_batch_size"]) for o in options] == [("tokens", 1024)]


def test_each_process_loads_the_model_once_across_runs(ja_installed, fast_settings, monkeypatch):
    from ingest.run import batches

    opened = []
    real_open = argos.open_translator
    monkeypatch.setattr(argos, "open_translator", lambda *a: opened.append(a) or real_open(*a))
    monkeypatch.setattr(argos, "ArgosSettings", lambda: fast_settings)  # what a worker builds, kept short

    for run_id in ("run-1", "run-2", "run-3"):  # a Dask worker serves batches of many runs
        batches.worker_engine(batches.StageContext(run_id, "fingerprint", ())).translate("ja", SEGMENTS[:2])

    assert len(opened) == 1
