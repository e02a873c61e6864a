"""The DuckDB translation cache, alone and behind ArgosEngine."""

from __future__ import annotations

import duckdb
import pytest

from ingest.translate import argos, cache, packages
from ingest.translate.cache import PackageKey
from ingest.translate.engine import CACHED, TRANSLATED, CachedEngine

pytest_plugins = ["translate_fixtures"]

JA_10 = PackageKey("translate-ja_en", "1.0")
JA_11 = PackageKey("translate-ja_en", "1.1")
ZH_10 = PackageKey("translate-zh_en", "1.0")
SEGMENTS = ["PyTorch 2.5がリリースされた。", "こんにちは、世界。", "100万トークン", "75%"]


@pytest.fixture
def con():
    connection = duckdb.connect()
    cache.ensure_schema(connection)
    yield connection
    connection.close()


def rows(con) -> list[tuple]:
    return con.execute("SELECT package_id, package_version, source_text, text_en FROM translation_cache ORDER BY ALL").fetchall()


def test_store_then_lookup_by_exact_source(con):
    assert cache.store(con, JA_10, [("こんにちは", "hello"), ("世界", "world")]) == 2

    assert cache.lookup(con, JA_10, ["こんにちは", "世界", "こんにちは ", "新しい"]) == {
        "こんにちは": "hello",
        "世界": "world",
    }
    assert cache.lookup(con, JA_11, ["こんにちは"]) == {}
    assert cache.lookup(con, JA_10, []) == {}


def test_storing_a_new_version_invalidates_only_that_packages_old_entries(con):
    cache.store(con, JA_10, [("こんにちは", "hello (1.0)")])
    cache.store(con, ZH_10, [("你好", "hello (zh)")])

    cache.store(con, JA_11, [("世界", "world (1.1)")])

    assert rows(con) == [
        ("translate-ja_en", "1.1", "世界", "world (1.1)"),
        ("translate-zh_en", "1.0", "你好", "hello (zh)"),
    ]


def test_storing_twice_keeps_the_first_answer(con):
    cache.store(con, JA_10, [("こんにちは", "hello")])
    cache.store(con, JA_10, [("こんにちは", "hi"), ("こんにちは", "hey")])

    assert cache.lookup(con, JA_10, ["こんにちは"]) == {"こんにちは": "hello"}


def test_bulk_store_and_lookup(con):
    pairs = [(f"文{i}", f"sentence {i}") for i in range(20_000)]

    assert cache.store(con, JA_10, pairs) == 20_000
    assert cache.lookup(con, JA_10, [source for source, _ in pairs]) == dict(pairs)


def test_second_run_translates_nothing(ja_installed, con, counted, fast_settings):
    first = CachedEngine(argos.ArgosEngine(settings=fast_settings), cache.WarehouseCache(con)).translate("ja", SEGMENTS)
    translated_first = sum(counted)
    second = CachedEngine(argos.ArgosEngine(settings=fast_settings), cache.WarehouseCache(con)).translate("ja", SEGMENTS)

    assert translated_first == len(SEGMENTS) and sum(counted) == translated_first
    assert {r.status for r in first} == {TRANSLATED}
    assert {r.status for r in second} == {CACHED}
    assert [r.text_en for r in second] == [r.text_en for r in first]
    assert {r.engine for r in second} == {"argos:translate-ja_en@1.0"}


def test_repeats_within_a_run_are_translated_once(ja_installed, con, counted, fast_settings):
    engine = CachedEngine(argos.ArgosEngine(settings=fast_settings), cache.WarehouseCache(con))

    results = engine.translate("ja", SEGMENTS * 3)

    assert sum(counted) == len(SEGMENTS)
    assert [r.text_en for r in results] == [r.text_en for r in results[: len(SEGMENTS)]] * 3
    assert len(rows(con)) == len(SEGMENTS)


def test_only_new_segments_are_translated(ja_installed, con, counted, fast_settings):
    CachedEngine(argos.ArgosEngine(settings=fast_settings), cache.WarehouseCache(con)).translate("ja", SEGMENTS[:2])

    results = CachedEngine(argos.ArgosEngine(settings=fast_settings), cache.WarehouseCache(con)).translate("ja", SEGMENTS)

    assert counted == [2, 2]
    assert [r.status for r in results] == [CACHED, CACHED, TRANSLATED, TRANSLATED]


def test_upgraded_package_retranslates_and_replaces_its_entries(argos_dir, tiny_archives, con, counted, fast_settings):
    packages.install_from_file(tiny_archives.ja_10)
    cache.store(con, ZH_10, [("你好", "hello (zh)")])
    CachedEngine(argos.ArgosEngine(settings=fast_settings), cache.WarehouseCache(con)).translate("ja", SEGMENTS)

    packages.install_from_file(tiny_archives.ja_11)
    results = CachedEngine(argos.ArgosEngine(settings=fast_settings), cache.WarehouseCache(con)).translate("ja", SEGMENTS)

    assert {r.status for r in results} == {TRANSLATED}
    assert {r.engine for r in results} == {"argos:translate-ja_en@1.1"}
    assert sorted({(pid, version) for pid, version, _, _ in rows(con)}) == [
        ("translate-ja_en", "1.1"),
        ("translate-zh_en", "1.0"),
    ]


def test_translations_loaded_with_segments_are_filed_into_the_cache_and_snapshotted(tmp_path):
    from ingest import warehouse
    from ingest.translate.cache import PackageKey, snapshot, store_from_segments

    con = warehouse.connect(tmp_path / "w.duckdb")
    con.execute(
        "INSERT INTO segments (doc_id, seg_idx, text, text_en, translation_status, translation_engine) VALUES "
        "('d', 0, '速度が向上した。', 'Speed improved.', 'translated', 'argos:translate-ja_en@1.1'), "
        "('d', 1, '未翻訳。', NULL, 'untranslated', NULL)"
    )
    assert store_from_segments(con, ["d"]) == 1
    key = PackageKey("translate-ja_en", "1.1")
    cache = snapshot(con, [key])
    assert cache.lookup(key, ["速度が向上した。", "未翻訳。"]) == {"速度が向上した。": "Speed improved."}
    assert snapshot(con, [PackageKey("translate-ja_en", "1.2")]).lookup(key, ["速度が向上した。"]) == {}
