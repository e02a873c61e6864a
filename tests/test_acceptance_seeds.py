"""The end-to-end acceptance criteria on the four seed articles."""

from __future__ import annotations

import shutil

from ingest import run_pipeline, warehouse
from seed_fixtures import SEEDS


def number(doc_id: str) -> str:
    """'seeds/000_7df305071c9dd669.txt' -> '000': doc ids are the input folder's name and the file's path."""
    return doc_id.removeprefix("seeds/")[:3]


def test_languages(seeded_con):
    langs = dict(seeded_con.execute("SELECT substr(doc_id, length('seeds/') + 1, 3), lang FROM documents").fetchall())
    assert langs == {"000": "ja", "001": "zh", "002": "ja", "003": "ja"}


def _conflicts(con):
    return con.execute(
        "SELECT subject, attribute, release, doc_a, doc_b, value_a, value_b, kind, severity FROM conflicts"
    ).fetchall()


def test_flexattention_maturity_conflict(seeded_con):
    rows = [r for r in _conflicts(seeded_con) if r[0] == "flexattention"]
    assert len(rows) == 1
    _subject, attribute, release, doc_a, doc_b, value_a, value_b, kind, severity = rows[0]
    assert (attribute, release, kind, severity) == ("maturity", "pytorch 2.5", "maturity_conflict", "contradiction")
    assert (number(doc_a), value_a, number(doc_b), value_b) == ("000", "beta", "001", "prototype")


def test_intel_gpu_support_maturity_conflict(seeded_con):
    rows = [r for r in _conflicts(seeded_con) if r[0] == "intel-gpu-support" and r[8] == "contradiction"]
    assert len(rows) == 1
    _, attribute, release, doc_a, doc_b, value_a, value_b, _, _ = rows[0]
    assert (attribute, release, number(doc_a), number(doc_b)) == ("maturity", "pytorch 2.5", "000", "001")
    assert value_a == "stable"
    assert value_b in ("prototype", "preview")


def test_cudnn_speedup_corroborated_by_000_and_001(seeded_con):
    rows = seeded_con.execute(
        "SELECT documents, value FROM corroborations WHERE subject = 'cudnn-sdpa-backend' AND attribute = 'speedup'"
    ).fetchall()
    assert rows and rows[0][1] == "75%"
    assert [number(d) for d in rows[0][0]] == ["000", "001"]


def test_qualifier_difference_is_a_note_not_a_contradiction(seeded_con):
    rows = seeded_con.execute("SELECT severity, explanation FROM conflicts WHERE subject = 'cudnn-sdpa-backend'").fetchall()
    assert rows and all(severity == "note" for severity, _ in rows)
    assert "flashattentionv2" in rows[0][1]


def test_no_conflict_across_releases_or_unrelated_documents(seeded_con):
    contradictions = seeded_con.execute(
        "SELECT c.doc_a, c.doc_b, a.release, b.release FROM conflicts c "
        "JOIN claims a ON a.claim_id = c.claim_a JOIN claims b ON b.claim_id = c.claim_b "
        "WHERE c.severity = 'contradiction'"
    ).fetchall()
    assert contradictions, "the seeds do contradict each other"
    for doc_a, doc_b, release_a, release_b in contradictions:
        assert release_a == release_b == "pytorch 2.5"
        assert {number(doc_a), number(doc_b)} == {"000", "001"}
    releases = dict(seeded_con.execute("SELECT substr(doc_id, length('seeds/') + 1, 3), release FROM documents").fetchall())
    assert releases == {"000": "pytorch 2.5", "001": "pytorch 2.5", "002": "pytorch-xla 2.6", "003": "pytorch 1.13"}


def test_shared_number_on_different_subjects_is_not_a_conflict(seeded_con):
    # 001 reports a 20% latency gain (max-autotune), 002 a 20% goodput gain (C++11 ABI): nothing groups them.
    assert seeded_con.execute("SELECT count(*) FROM corroborations WHERE value = '20%'").fetchone()[0] == 0
    assert seeded_con.execute("SELECT count(*) FROM conflicts WHERE '20%' IN (value_a, value_b)").fetchone()[0] == 0
    twenty = seeded_con.execute("SELECT DISTINCT subject FROM claims WHERE value = '20%'").fetchall()
    assert len(twenty) >= 2


def test_second_run_skips_everything_and_changes_no_counts(tmp_path):
    inputs = tmp_path / "seeds"
    shutil.copytree(SEEDS, inputs)
    db = tmp_path / "w.duckdb"
    first = run_pipeline([inputs], db, tmp_path / "r")
    con = warehouse.connect(db, read_only=True)
    counts = warehouse.table_counts(con)
    con.close()
    second = run_pipeline([inputs], db, tmp_path / "r")
    con = warehouse.connect(db, read_only=True)
    after = warehouse.table_counts(con)
    con.close()
    assert len(first.loaded) == 4 and len(second.skipped) == 4 and not second.loaded
    counts.pop("runs"), after.pop("runs")
    assert counts == after


def test_reports_written_and_name_the_contradictions(seeded_warehouse):
    reports = seeded_warehouse.parent / "reports"
    markdown = (reports / "consistency.md").read_text("utf-8")
    assert "FlexAttention" in markdown and "Intel GPU support" in markdown
    assert (reports / "consistency.html").read_text("utf-8").startswith("<!DOCTYPE html>")


def test_the_two_contradictions_are_undecided_one_source_against_one(seeded_con):
    rows = seeded_con.execute(
        "SELECT subject, arbiter, confidence FROM conflicts WHERE severity = 'contradiction' "
        "AND kind = 'maturity_conflict' ORDER BY subject"
    ).fetchall()
    assert [r[0] for r in rows] == ["flexattention", "intel-gpu-support"]
    assert all(arbiter.startswith("undecided") and confidence >= 0.7 for _, arbiter, confidence in rows)


def test_a_feature_and_its_product_meet_the_97_5_percent_is_corroborated(seeded_con):
    # 000 says TorchInductor, 001 the TorchInductor CPU backend: part and product meet.
    rows = seeded_con.execute("SELECT subject, documents FROM corroborations WHERE value = '97.5%'").fetchall()
    assert rows and rows[0][0] in ("torchinductor", "torchinductor-cpu-backend")
    assert [number(d) for d in rows[0][1]] == ["000", "001"]
