"""Stage results keyed by content: what a run computes, counted (not timed), with and without Prefect.

Counting wrappers replace `ingest.prepare.prepare_document`, `ingest.translate.segments.translate_documents`
and `ingest.extract.document.extract_document`, which `ingest.run.batches` calls; the flow's tasks run in this process
(one local thread), so the same wrappers count the flow's work.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter

import pytest

from ingest import identity, prepare, run_pipeline, warehouse
from ingest.extract import document
from ingest.run import batches, faults
from ingest.translate import segments
from ingest.translate.engine import UntranslatedEngine
from prefect_fixtures import api_post
from seed_fixtures import SEEDS, document_row_counts

BROKEN_FILE = "001_dff0537ae45131ec.txt"  # the Chinese seed ...
BROKEN = f"seeds/{BROKEN_FILE}"  # ... and its doc_id (input folder / file)


@pytest.fixture
def calls(monkeypatch) -> Counter:
    """Documents handed to each stage function since the fixture was made."""
    counted: Counter = Counter()
    prepare_, translate, extract = prepare.prepare_document, segments.translate_documents, document.extract_document

    def counting_prepare(source):
        counted["prepare"] += 1
        return prepare_(source)

    def counting_translate(documents, engine):
        counted["translate"] += len(documents)
        return translate(documents, engine)

    def counting_extract(document, *args, **kwargs):
        counted["extract"] += 1
        return extract(document, *args, **kwargs)

    monkeypatch.setattr(prepare, "prepare_document", counting_prepare)
    monkeypatch.setattr(segments, "translate_documents", counting_translate)
    monkeypatch.setattr(document, "extract_document", counting_extract)
    return counted


def _direct(inputs, db):
    return run_pipeline([inputs], db, db.parent / "reports", engine=UntranslatedEngine())


def _take(counter: Counter) -> dict[str, int]:
    taken = {stage: counter.get(stage, 0) for stage in identity.STAGES}
    counter.clear()
    return taken


def _break_extraction_of(doc_id: str, monkeypatch) -> None:
    """Make extraction raise for one document only."""
    extract = document.extract_document

    def breaks_on_one(document, *args, **kwargs):
        if document.source.doc_id == doc_id:
            raise RuntimeError("simulated extraction bug")
        return extract(document, *args, **kwargs)

    monkeypatch.setattr(document, "extract_document", breaks_on_one)


ALL = {"prepare": 4, "translate": 4, "extract": 4}
NONE = {"prepare": 0, "translate": 0, "extract": 0}


def test_second_run_of_unchanged_input_does_no_stage_work(calls, seeds_copy, tmp_path):
    db = tmp_path / "w.duckdb"
    first = _direct(seeds_copy, db)
    assert _take(calls) == ALL and first.work == ALL and len(first.loaded) == 4
    counts = document_row_counts(db)
    second = _direct(seeds_copy, db)
    assert _take(calls) == NONE and len(second.skipped) == 4 and not second.loaded
    assert not second.work and not second.cached
    assert document_row_counts(db) == counts


def test_a_changed_stage_version_recomputes_that_stage_onward_only(calls, seeds_copy, tmp_path, monkeypatch):
    db = tmp_path / "w.duckdb"
    _direct(seeds_copy, db)
    _take(calls)
    counts = document_row_counts(db)

    monkeypatch.setitem(identity.STAGE_VERSIONS, "extract", "test-2")
    summary = _direct(seeds_copy, db)
    assert _take(calls) == {"prepare": 0, "translate": 0, "extract": 4}
    assert summary.cached == {"prepare": 4, "translate": 4} and len(summary.loaded) == 4

    monkeypatch.setitem(identity.STAGE_VERSIONS, "translate", "test-2")
    _direct(seeds_copy, db)
    assert _take(calls) == {"prepare": 0, "translate": 4, "extract": 4}

    monkeypatch.setitem(identity.STAGE_VERSIONS, "prepare", "test-2")
    _direct(seeds_copy, db)
    assert _take(calls) == ALL
    assert document_row_counts(db) == counts  # replaced, never duplicated


def test_a_new_translation_model_recomputes_translation_and_extraction(calls, seeds_copy, tmp_path):
    db = tmp_path / "w.duckdb"
    _direct(seeds_copy, db)
    _take(calls)
    other = UntranslatedEngine()
    other.fingerprint = "another-model@2"
    run_pipeline([seeds_copy], db, None, engine=other)
    assert _take(calls) == {"prepare": 0, "translate": 4, "extract": 4}


def test_an_edited_document_is_the_only_one_recomputed(calls, seeds_copy, tmp_path):
    db = tmp_path / "w.duckdb"
    _direct(seeds_copy, db)
    _take(calls)
    edited = seeds_copy / BROKEN_FILE
    edited.write_text(edited.read_text("utf-8") + "\n\n新增一段：性能提升 10%。\n", "utf-8")
    summary = _direct(seeds_copy, db)
    assert _take(calls) == {"prepare": 1, "translate": 1, "extract": 1}
    assert summary.loaded == [BROKEN] and len(summary.skipped) == 3


def test_without_the_stage_cache_every_changed_version_recomputes_everything(calls, seeds_copy, tmp_path, monkeypatch):
    db = tmp_path / "w.duckdb"
    run_pipeline([seeds_copy], db, None, engine=UntranslatedEngine(), stage_cache=False)
    monkeypatch.setitem(identity.STAGE_VERSIONS, "extract", "test-3")
    run_pipeline([seeds_copy], db, None, engine=UntranslatedEngine(), stage_cache=False)
    assert _take(calls) == {"prepare": 8, "translate": 8, "extract": 8}
    assert not (tmp_path / "w.stages").exists()


def test_a_document_that_breaks_a_stage_fails_alone_and_is_retried_next_run(calls, seeds_copy, tmp_path, monkeypatch):
    db = tmp_path / "w.duckdb"
    extract = document.extract_document
    _break_extraction_of(BROKEN, monkeypatch)
    summary = _direct(seeds_copy, db)
    assert list(summary.failed) == [BROKEN] and len(summary.loaded) == 3
    assert "simulated extraction bug" in summary.failed[BROKEN]
    con = warehouse.connect(db, read_only=True)
    status, version = con.execute("SELECT status, pipeline_version FROM documents WHERE doc_id = ?", [BROKEN]).fetchone()
    con.close()
    assert status == "failed" and version.endswith(batches.RETRY_MARK)

    monkeypatch.setattr(document, "extract_document", extract)
    calls.clear()
    again = _direct(seeds_copy, db)
    assert again.loaded == [BROKEN] and len(again.skipped) == 3
    assert _take(calls) == {"prepare": 0, "translate": 0, "extract": 1}  # its prepare/translate were cached


def test_transient_faults_are_the_retried_ones():
    assert faults.is_transient(warehouse.WarehouseLockedError("locked by process 12"))
    assert faults.is_transient(TimeoutError()) and faults.is_transient(ConnectionResetError())
    assert not faults.is_transient(FileNotFoundError("gone"))
    assert not faults.is_transient(ValueError("a bug"))
    assert not faults.is_transient(None)


def test_keys_follow_content_not_location(tmp_path):
    from ingest.discover import discover

    engine = UntranslatedEngine()
    context = batches.make_context("run", engine)
    first = {s.doc_id: batches.stage_keys(s, context) for s in discover([SEEDS])}
    moved = tmp_path / "elsewhere" / "seeds"
    shutil.copytree(SEEDS, moved)
    again = {s.doc_id: batches.stage_keys(s, context) for s in discover([moved])}
    assert first == again
    assert batches.make_context("another-run", engine).stage_ids == context.stage_ids


# ---- the same through the Prefect flow ----------------------------------------------------


def _flow(inputs, db, **options):
    from ingest.flow import ingest

    return ingest(paths=[str(inputs)], warehouse_path=str(db), reports_dir=str(db.parent / "reports"), **options)


@pytest.mark.integration
def test_flow_second_run_of_unchanged_input_does_no_stage_work(prefect_api, calls, seeds_copy, tmp_path):
    db = tmp_path / "w.duckdb"
    first = _flow(seeds_copy, db)
    assert _take(calls) == ALL and first["loaded"] == 4 and first["work"] == ALL
    second = _flow(seeds_copy, db)
    assert _take(calls) == NONE and second["skipped"] == 4 and second["loaded"] == 0 and not second["work"]


@pytest.mark.integration
def test_flow_isolates_a_broken_document_in_its_own_failed_task(prefect_api, calls, seeds_copy, tmp_path, monkeypatch):
    import prefect

    _break_extraction_of(BROKEN, monkeypatch)
    db = tmp_path / "w.duckdb"
    tag = f"test-isolation-{tmp_path.name}"
    with prefect.tags(tag):
        state = _flow(seeds_copy, db, batch_size=4, return_state=True)
    assert state.is_completed()
    assert state.message == "4 files: 3 loaded, 0 unchanged (skipped), 1 failed, 0 duplicate"
    result = state.result()
    assert result["failed"] == 1 and BROKEN in result["errors"] and result["loaded"] == 3

    runs = api_post(prefect_api, "/task_runs/filter", {"task_runs": {"tags": {"all_": [tag]}}})
    failed = sorted(r["name"] for r in runs if r["state_type"] == "FAILED")
    completed = [r["name"] for r in runs if r["state_type"] == "COMPLETED" and r["name"].startswith("stages")]
    # the batch of 4 failed; its documents were retried one per task; only the broken one failed
    assert failed == ["stages 00001-of-00001", "stages 00001-of-00001.002"]
    assert len(completed) == 3


@pytest.mark.integration
def test_flow_retries_a_locked_warehouse_with_backoff(prefect_api, seeds_copy, tmp_path, monkeypatch):
    import prefect

    connect, attempts = warehouse.connect, Counter()

    def locked_once_at_load(path, *args, **kwargs):
        attempts["connect"] += 1
        if attempts["connect"] == 2:  # plan is the first connection, load the second
            raise warehouse.WarehouseLockedError(f"the warehouse {path} is locked by process 4242 (simulated)")
        return connect(path, *args, **kwargs)

    monkeypatch.setattr(warehouse, "connect", locked_once_at_load)
    tag = f"test-retry-{tmp_path.name}"
    with prefect.tags(tag):
        result = _flow(seeds_copy, tmp_path / "w.duckdb")
    assert result["loaded"] == 4
    runs = api_post(prefect_api, "/task_runs/filter", {"task_runs": {"tags": {"all_": [tag]}}})
    load = [r for r in runs if r["name"].startswith("load")]
    assert len(load) == 1 and load[0]["state_type"] == "COMPLETED" and load[0]["run_count"] == 2


def test_cli_no_stage_cache_neither_reads_nor_writes_the_cache(seeds_copy, tmp_path):
    from typer.testing import CliRunner

    from ingest.cli import app

    db = tmp_path / "w.duckdb"
    result = CliRunner().invoke(
        app,
        ["run", "--no-prefect", "--no-stage-cache", str(seeds_copy), "--warehouse", str(db), "--reports", str(tmp_path / "r")],
    )
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())
    assert "4 loaded" in output and "prepare 4 computed / 0 cached" in output
    assert not (tmp_path / "w.stages").exists()


class _Payload:
    """What an attacker would put in a cache file: unpickling it creates a folder."""

    def __init__(self, marker) -> None:
        self.marker = marker

    def __reduce__(self):
        import os

        return os.mkdir, (str(self.marker),)


def _replace_every_entry(cache, content: bytes) -> int:
    entries = [p for p in cache.rglob("*") if p.is_file()]
    for entry in entries:
        entry.write_bytes(content)
    return len(entries)


def test_a_replaced_stage_cache_entry_never_runs_code(seeds_copy, tmp_path):
    import pickle
    import zlib

    db, marker = tmp_path / "w.duckdb", tmp_path / "ran"
    _direct(seeds_copy, db)
    db.unlink()  # the documents are new again; the cache beside it is read
    assert _replace_every_entry(tmp_path / "w.stages", zlib.compress(pickle.dumps(_Payload(marker)))) > 0
    summary = _direct(seeds_copy, db)
    assert not marker.exists()
    assert len(summary.loaded) == 4 and summary.cached == {} and summary.work == ALL


def test_a_wrong_shaped_stage_cache_entry_is_a_miss_not_an_error(seeds_copy, tmp_path):
    import json
    import zlib

    db = tmp_path / "w.duckdb"
    _direct(seeds_copy, db)
    counts = document_row_counts(db)
    db.unlink()
    wrong = {"$record": "PreparedDocument", "source": 1}
    assert _replace_every_entry(tmp_path / "w.stages", zlib.compress(json.dumps(wrong).encode())) > 0
    summary = _direct(seeds_copy, db)
    assert len(summary.loaded) == 4 and summary.work == ALL
    assert document_row_counts(db) == counts


@pytest.mark.timeout(120, method="thread")  # a blocked read is what failed here: bound it from another thread
@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "inflates"])
def test_a_stage_cache_entry_that_is_no_file_or_too_big_is_a_miss(seeds_copy, tmp_path, kind):
    """A FIFO in place of an entry blocked the run for ever; a link to /dev/zero ended in MemoryError;
    1 GB of zeros compressed to 1 MB would inflate into memory."""
    import zlib

    db = tmp_path / "w.duckdb"
    _direct(seeds_copy, db)
    counts = document_row_counts(db)
    db.unlink()
    entries = sorted((tmp_path / "w.stages").rglob("*.json.z"))
    assert entries
    bomb = zlib.compress(b"0" * (1 << 30), 9) if kind == "inflates" else b""
    for entry in entries:
        entry.unlink()
        if kind == "fifo":
            os.mkfifo(entry)
        elif kind == "dev_zero":
            entry.symlink_to("/dev/zero")
        else:
            entry.write_bytes(bomb)
    summary = _direct(seeds_copy, db)
    assert len(summary.loaded) == 4 and summary.cached == {} and summary.work == ALL
    assert document_row_counts(db) == counts


def test_an_entry_made_under_other_limits_is_no_answer(calls, seeds_copy, tmp_path, monkeypatch):
    """A new warehouse beside an old stage cache, with lower limits: the documents are prepared
    again and refused over the limit, not loaded from entries that met the old limits."""
    db = tmp_path / "w.duckdb"
    _direct(seeds_copy, db)
    assert _take(calls) == ALL
    db.unlink()
    monkeypatch.setenv("INGEST_MAX_TEXT_CHARS", "100")
    lowered = _direct(seeds_copy, db)
    assert _take(calls)["prepare"] == 4 and len(lowered.failed) == 4 and not lowered.loaded
    assert all("character limit" in reason for reason in lowered.failed.values()), lowered.failed
