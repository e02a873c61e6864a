"""Faults during a run: the warehouse held by another process, the run killed in the middle
of loading, and the command line's errors. Nothing is half-written, nothing duplicated."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hostile_fixtures import (
    SEED_ZH,
    assert_no_partial_documents,
    make_corpus,
    run_and_kill_mid_load,
    snapshot,
)
from ingest import warehouse
from ingest.cli import app
from seed_fixtures import ROOT


@pytest.fixture
def fast_backoff(monkeypatch) -> list[float]:
    """Shrink the lock backoff 50-fold and record each wait the retry loop asks for."""
    waits: list[float] = []
    real_sleep = time.sleep
    monkeypatch.setattr(warehouse, "_LOCK_BACKOFF_S", 0.01)

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        real_sleep(seconds)

    monkeypatch.setattr(warehouse.time, "sleep", sleep)
    return waits


# ---- the warehouse held by another process ----------------------------------------------


@pytest.mark.parametrize("holder_kind", ["python", "duckdb-cli"])
def test_locked_warehouse_retries_with_backoff_then_names_the_holder(case, lock_holder, fast_backoff, holder_kind, caplog):
    case.run()
    before = snapshot(case.db)
    case.add("new.txt", SEED_ZH.read_bytes())
    holder = lock_holder(case.db, holder_kind)

    with pytest.raises(warehouse.WarehouseLockedError) as raised:
        case.run()

    message = str(raised.value)
    assert f"locked by process {holder.pid}" in message and "close it or wait" in message
    waiting = [r.getMessage() for r in caplog.records if "waiting up to" in r.getMessage()]
    assert len(waiting) == 1 and f"locked by process {holder.pid}" in waiting[0]  # said once, before the wait
    backoff = [w for w in fast_backoff if w < 1]
    assert backoff == [0.01 * 2**i for i in range(warehouse._LOCK_RETRIES)]  # exponential, then give up
    holder.stop()
    assert snapshot(case.db) == before  # nothing half-written
    assert case.query("SELECT count(*) FROM runs") == [(1,)]
    case.run()  # and once the holder is gone the same run goes through
    assert case.document("new.txt")["status"] == "ok"


def test_lock_taken_between_discovery_and_loading_leaves_nothing_half_written(case, lock_holder, fast_backoff, monkeypatch):
    from ingest.run import runner as pipeline

    case.run()
    before = snapshot(case.db)
    case.add("new.txt", SEED_ZH.read_bytes())
    real_pending = pipeline.Run.pending
    holders = []

    def pending_then_lock(self):
        todo = real_pending(self)  # reads the warehouse, then lets go of it
        holders.append(lock_holder(case.db))
        return todo

    monkeypatch.setattr(pipeline.Run, "pending", pending_then_lock)
    with pytest.raises(warehouse.WarehouseLockedError, match=r"locked by process \d+"):
        case.run()
    holders[0].stop()
    assert snapshot(case.db) == before


def test_lock_retries_wait_about_half_a_minute_by_default():
    waits = [warehouse._LOCK_BACKOFF_S * 2**i for i in range(warehouse._LOCK_RETRIES)]
    assert 15 <= sum(waits) <= 120 and waits == sorted(waits)


# ---- the command line -------------------------------------------------------------------


def test_ingest_run_names_the_lock_holder_and_exits_3(case, lock_holder, fast_backoff, tmp_path):
    case.run()
    holder = lock_holder(case.db)
    result = CliRunner().invoke(
        app, ["run", "--no-prefect", str(case.inputs), "--warehouse", str(case.db), "--reports", str(tmp_path / "r")]
    )
    assert result.exit_code == 3, result.output
    assert "error:" in result.output and f"locked by process {holder.pid}" in " ".join(result.output.split())


def test_ingest_run_with_a_missing_input_says_so(tmp_path):
    result = CliRunner().invoke(
        app, ["run", "--no-prefect", str(tmp_path / "nowhere"), "--warehouse", str(tmp_path / "w.duckdb")]
    )
    assert result.exit_code == 2 and "input path(s) not found" in result.output
    assert not (tmp_path / "w.duckdb").exists()


def test_a_warehouse_that_is_not_duckdb_is_a_clear_error(case):
    case.db.write_text("not a database")
    with pytest.raises(warehouse.WarehouseError, match=r"not a valid DuckDB database file.*move it away"):
        case.run()
    assert case.db.read_text() == "not a database"


def test_a_warehouse_folder_that_cannot_be_created_is_a_clear_error(case, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    case.db = blocker / "w.duckdb"
    with pytest.raises(warehouse.WarehouseError, match="cannot create the warehouse folder"):
        case.run()


# ---- faults that used to be tracebacks (issue 13, item 9): one line and an exit status ------


def _cli_run(case, *extra: str):
    return CliRunner().invoke(
        app, ["run", "--no-prefect", str(case.inputs), "--warehouse", str(case.db), "--reports", str(case.reports), *extra]
    )


def _one_line_error(result) -> str:
    errors = [line for line in result.output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and "Traceback" not in result.output, result.output
    return errors[0]


def test_faults_opening_an_unchanged_warehouse_writes_nothing(case):
    case.run()
    before = case.db.read_bytes()
    warehouse.connect(case.db).close()
    assert case.db.read_bytes() == before and not case.db.with_name(case.db.name + ".wal").exists()


@pytest.fixture
def full_disk(tmp_path):
    """A 4 MiB tmpfs to fill up; unmounted afterwards."""
    mount = tmp_path / "small-disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs to fill (needs root and mount permission): {made.stderr.strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(folder: Path) -> None:
    with open(folder / "filler", "wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
        except OSError:
            pass


def test_faults_disk_full_is_one_line_and_an_unchanged_warehouse_still_opens(case, full_disk):
    case.db = full_disk / "w.duckdb"
    case.run()
    _fill(full_disk)
    warehouse.connect(case.db).close()  # the views are not rewritten on every open any more
    case.add("new.txt", SEED_ZH.read_bytes())
    result = _cli_run(case)
    assert result.exit_code == 1
    assert "No space left" in _one_line_error(result) or "space" in _one_line_error(result).lower()


@pytest.mark.parametrize("kind", ["a file", "read-only"])
def test_faults_an_unusable_reports_path_fails_before_loading(case, kind):
    if kind == "a file":
        case.reports.write_text("x")
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into read-only folders; the `a file` case covers the check")
        case.reports.mkdir()
        case.reports.chmod(0o500)
    result = _cli_run(case)
    assert result.exit_code == 1 and "reports folder" in _one_line_error(result)
    assert not case.db.exists() or case.query("SELECT count(*) FROM documents") == [(0,)]


def test_faults_a_stage_cache_path_that_is_a_file_warns_and_the_run_goes_on(case):
    case.db.with_name(case.db.stem + ".stages").write_text("in the way")
    result = _cli_run(case)
    assert result.exit_code == 0, result.output
    assert "1 loaded" in result.output and "stage cache" in result.output and "warning:" in result.output


@pytest.mark.parametrize("damage", ["truncated", "overwritten"])
def test_faults_a_damaged_warehouse_is_detected_with_a_way_to_recover(case, damage):
    case.add("zh.txt", SEED_ZH.read_bytes())
    case.run()
    size = case.db.stat().st_size
    with open(case.db, "r+b") as handle:
        if damage == "truncated":
            handle.truncate(size // 2)
        else:
            handle.seek(size // 2)
            handle.write(os.urandom(size // 4))
    result = _cli_run(case)
    assert result.exit_code == 1
    message = _one_line_error(result)
    assert ("truncated" in message or "damaged" in message) and "mv " in message and "run again" in message
    case.db.rename(case.db.with_name("moved.duckdb"))
    assert _cli_run(case).exit_code == 0  # the recovery the message gives works


# ---- killed in the middle of loading ----------------------------------------------------

_CLEAN_RUN = (
    "import sys; from pathlib import Path; from ingest import run_pipeline; "
    "from ingest.translate.engine import UntranslatedEngine; "
    "run_pipeline([Path(sys.argv[1])], sys.argv[2], None, engine=UntranslatedEngine())"
)


def start_run(inputs: Path, db: Path) -> subprocess.Popen:
    """A whole run in a fresh process, like the killed one (same code digests, same engine)."""
    return subprocess.Popen(
        [sys.executable, "-c", _CLEAN_RUN, str(inputs), str(db)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(run: subprocess.Popen, timeout: float = 3000) -> None:
    _, errors = run.communicate(timeout=timeout)
    assert run.returncode == 0, errors[-3000:]


def runs(db: Path) -> list[tuple]:
    con = warehouse.connect(db, read_only=True)
    try:
        return con.execute("SELECT n_files, n_loaded, n_skipped, n_failed, n_duplicate FROM runs").fetchall()
    finally:
        con.close()


@pytest.mark.timeout(600)
def test_sigkill_mid_load_leaves_no_partial_document_and_the_rerun_completes(tmp_path):
    inputs = make_corpus(24, tmp_path / "corpus")
    killed, clean = tmp_path / "killed.duckdb", tmp_path / "clean.duckdb"

    last = run_and_kill_mid_load(inputs, killed, pause_at=3, batch=4)
    assert last == "PAUSED-IN-TRANSACTION"  # killed inside the third load transaction

    assert_no_partial_documents(killed)
    assert snapshot(killed)["documents"][0] == 8  # the two committed batches, nothing of the third
    assert runs(killed) == []  # the killed run never got to record itself

    finish(start_run(inputs, killed))
    ((n_files, n_loaded, n_skipped, n_failed, n_duplicate),) = runs(killed)
    assert (n_files, n_skipped, n_loaded + n_failed + n_duplicate) == (24, 8, 16)
    finish(start_run(inputs, clean))
    assert_no_partial_documents(killed)
    assert snapshot(killed) == snapshot(clean)


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_soak_1000_documents_killed_then_rerun_equal_one_clean_run(tmp_path):
    """The benchmark corpus ingested, SIGKILLed while loading, ingested again: exactly one clean run's rows."""
    inputs = make_corpus(1000, tmp_path / "corpus")
    killed, clean = tmp_path / "killed.duckdb", tmp_path / "clean.duckdb"
    reference = start_run(inputs, clean)  # alongside, on the other core
    try:
        last = run_and_kill_mid_load(inputs, killed, pause_at=4, batch=100, timeout=3000)
        assert last == "PAUSED-IN-TRANSACTION"
        assert_no_partial_documents(killed)
        assert snapshot(killed)["documents"][0] == 300
        finish(start_run(inputs, killed))
        assert [r[2] for r in runs(killed)] == [300]  # the re-run skipped what was committed
    finally:
        finish(reference)
    assert_no_partial_documents(killed)
    after, expected = snapshot(killed), snapshot(clean)
    assert after == expected
    assert expected["documents"][0] == 1000 and expected["segments"][0] > 50_000


# ---- issue 26: a disk that fills during the run, older warehouses, the environment, a dead scheduler ----------


def test_faults_a_disk_that_fills_during_the_run_is_one_line_and_keeps_what_was_loaded(case, full_disk, monkeypatch):
    """The disk fills after the documents were loaded, while the checks write their tables."""
    from ingest.run import runner

    case.db = full_disk / "w.duckdb"
    real_update = runner.update_checks

    def fill_then_check(con):
        _fill(full_disk)
        return real_update(con)

    monkeypatch.setattr(runner, "update_checks", fill_then_check)
    result = _cli_run(case)
    assert result.exit_code == 1
    assert "No space left" in _one_line_error(result) and "Free disk space" in result.output
    (full_disk / "filler").unlink()
    assert case.query("SELECT status FROM documents") == [("ok",)]


def test_faults_a_full_disk_when_the_warehouse_is_created_is_one_line(case, full_disk):
    """Room for the new file's headers, not for its tables: the first COMMIT fails, and the ROLLBACK
    after it raised "no transaction is active" as a traceback."""
    _fill(full_disk)
    filler = full_disk / "filler"
    os.truncate(filler, filler.stat().st_size - 16 * 1024)
    case.db = full_disk / "w.duckdb"
    result = _cli_run(case)
    assert result.exit_code == 1 and "space" in _one_line_error(result).lower()


def _older(db: Path, change: str) -> None:
    """Make `db` look written by an older version: its views gone, a column changed, the schema digest stale."""
    import duckdb

    con = duckdb.connect(str(db))
    for (view,) in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall():
        con.execute(f'DROP VIEW IF EXISTS "{view}" CASCADE')
    con.execute(change)
    con.execute("DELETE FROM schema_state")
    con.close()


def test_faults_a_warehouse_from_an_older_version_gets_the_columns_it_lacks(case):
    case.run()
    _older(case.db, "ALTER TABLE documents DROP COLUMN release_note")
    result = _cli_run(case)
    assert result.exit_code == 0, result.output
    assert case.query("SELECT release_note IS NULL FROM documents") == [(True,)]


@pytest.mark.parametrize(
    "change, says",
    [
        (
            "ALTER TABLE documents DROP COLUMN release_note; ALTER TABLE documents ADD COLUMN release_note INTEGER",
            "release_note is INTEGER",
        ),
        # a column this version does not write and that may not be NULL would refuse every document
        ("ALTER TABLE documents RENAME COLUMN status TO state", "documents.state may not be NULL"),
        (
            "ALTER TABLE documents ADD COLUMN legacy VARCHAR NOT NULL DEFAULT 'x'; "
            "ALTER TABLE documents ALTER legacy DROP DEFAULT",
            "documents.legacy may not be NULL",
        ),
    ],
)
def test_faults_a_warehouse_that_cannot_be_brought_up_to_date_says_so_in_one_line(case, change, says):
    case.run()
    _older(case.db, change)
    result = _cli_run(case)
    assert result.exit_code == 1
    line = _one_line_error(result)
    assert "from another version" in line and says in line and f"mv {case.db}" in line


def test_faults_a_user_table_with_a_dotted_name_does_not_stop_a_run(case):
    import duckdb

    case.run()
    con = duckdb.connect(str(case.db))
    con.execute('CREATE TABLE "notes.2024" AS SELECT 1 AS a')
    con.close()
    result = _cli_run(case)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    "variable, value, says",
    [
        ("INGEST_MAX_FILE_BYTES", "abc", "is not a whole number"),
        ("INGEST_MAX_SEGMENTS", "1e9", "is not a whole number"),
        ("INGEST_MAX_TEXT_CHARS", "-5", "must be above 0"),
        ("INGEST_MAX_STAGE_SECONDS", "nan", "must be above 0"),
        ("INGEST_MAX_STAGE_SECONDS", "1e308", "at most 86400"),
        ("INGEST_LANGUAGE_DIRS", "{tmp}/nowhere", "not a folder"),
        ("INGEST_LANGUAGE_DIRS", "{tmp}/no_code", "has no `code`"),
        ("INGEST_LANGUAGE_DIRS", "{tmp}/bad_yaml", "cannot be read"),
        ("ARGOS_PACKAGES_DIR", "/dev/null", "argostranslate cannot make its folder"),
        ("XDG_DATA_HOME", "{tmp}/a_file", "argostranslate cannot make its folder"),
    ],
)
def test_faults_a_bad_environment_variable_is_one_line_before_any_work(case, tmp_path, variable, value, says):
    """In a fresh process: argostranslate reads its variables once, when first imported."""
    (tmp_path / "no_code" / "xx").mkdir(parents=True)
    (tmp_path / "no_code" / "xx" / "language.yaml").write_text("name: Nothing\n")
    (tmp_path / "bad_yaml" / "xx").mkdir(parents=True)
    (tmp_path / "bad_yaml" / "xx" / "language.yaml").write_text("code: [unclosed\n")
    (tmp_path / "a_file").write_text("x")
    env = {**os.environ, variable: value.format(tmp=tmp_path)}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ingest",
            "run",
            "--no-prefect",
            str(case.inputs),
            "--warehouse",
            str(case.db),
            "--reports",
            str(case.reports),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ") and says in result.stderr
    assert variable in result.stderr or variable.startswith(("ARGOS", "XDG"))
    assert not case.db.exists()


@pytest.mark.timeout(60)
def test_faults_a_dask_address_where_nothing_listens_fails_in_seconds(case):
    import socket

    with socket.socket() as probe:  # a free port on 127.0.0.1, closed again: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    result = CliRunner().invoke(
        app,
        [
            "run",
            str(case.inputs),
            "--warehouse",
            str(case.db),
            "--reports",
            str(case.reports),
            "--dask-address",
            f"tcp://127.0.0.1:{port}",
        ],
    )
    assert result.exit_code == 1 and "no Dask scheduler answers" in _one_line_error(result)
    assert time.monotonic() - started < 10 and not case.db.exists()


def _dask_address_run(case, address: str):
    return CliRunner().invoke(
        app, ["run", str(case.inputs), "--warehouse", str(case.db), "--reports", str(case.reports), "--dask-address", address]
    )


@pytest.mark.timeout(90)
@pytest.mark.parametrize("peer", ["silent", "http"])
def test_faults_a_dask_address_where_something_else_listens_fails_in_seconds(case, peer):
    """A port that accepts connections but is no scheduler (a silent listener, a web server): one
    line within seconds, where Dask's client waited for ever."""
    import socket
    import threading
    from http.server import HTTPServer, SimpleHTTPRequestHandler

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    if peer == "http":
        listener.close()
        server = HTTPServer(("127.0.0.1", 0), SimpleHTTPRequestHandler)
        port = server.server_address[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
    else:
        port = listener.getsockname()[1]
        threading.Thread(target=lambda: accepted.append(listener.accept()[0]), daemon=True).start()
    try:
        started = time.monotonic()
        result = _dask_address_run(case, f"tcp://127.0.0.1:{port}")
        assert result.exit_code == 1 and "is not a Dask scheduler" in _one_line_error(result)
        assert time.monotonic() - started < 30 and not case.db.exists()
    finally:
        if peer == "http":
            server.shutdown()
        else:
            listener.close()
        for connection in accepted:
            connection.close()


def test_faults_a_malformed_dask_address_is_a_usage_error(case):
    result = _dask_address_run(case, "tcp://[::1")
    assert result.exit_code == 2 and "is not a scheduler address" in _one_line_error(result)


def test_faults_the_flow_asks_the_dask_address_too_before_it_waits_on_it():
    """The deployment's `dask_address` does not pass through `ingest run`: the flow's task runner
    asks the address itself (a closed port: refused in seconds)."""
    import socket

    from ingest.errors import SchedulerError
    from ingest.flow import task_runner

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(SchedulerError, match="no Dask scheduler answers"):
        task_runner(dask_address=f"tcp://127.0.0.1:{port}")
    assert time.monotonic() - started < 10
