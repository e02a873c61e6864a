"""The per-document stages in worker processes (`ingest run`, or INGEST_STAGE_PROCESSES): the same
rows as in one process, and no worker left behind when the run is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb

from hostile_fixtures import make_corpus
from ingest import run_pipeline

# Columns that say when or where a row was made, not what it holds.
_CIRCUMSTANTIAL = ("run_id", "_at", "started", "finished", "seconds", "worker")


def _differences(a: Path, b: Path) -> dict[str, tuple[int, int]]:
    """Per table, the rows only `a` holds and the rows only `b` holds (circumstantial columns aside)."""
    con = duckdb.connect()
    con.execute(f"ATTACH '{a}' AS a (READ_ONLY)")
    con.execute(f"ATTACH '{b}' AS b (READ_ONLY)")
    found = {}
    for (table,) in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = 'a' AND table_name <> 'runs'"
    ).fetchall():
        columns = [
            c
            for (c,) in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE database_name = 'a' AND table_name = ?", [table]
            ).fetchall()
            if not any(mark in c for mark in _CIRCUMSTANTIAL)
        ]
        listed = ", ".join(f'"{c}"' for c in columns)
        only = [
            con.execute(
                f"SELECT count(*) FROM (SELECT {listed} FROM {x}.{table} EXCEPT ALL SELECT {listed} FROM {y}.{table})"
            ).fetchone()[0]
            for x, y in (("a", "b"), ("b", "a"))
        ]
        found[table] = (only[0], only[1])
    con.close()
    return found


def test_worker_processes_load_the_same_rows_as_one_process(tmp_path, monkeypatch):
    from ingest.run import runner

    monkeypatch.setattr(runner, "MIN_DOCUMENTS_FOR_WORKERS", 2)
    corpus = make_corpus(40, tmp_path / "corpus")
    monkeypatch.setenv("INGEST_STAGE_PROCESSES", "1")
    one = run_pipeline([corpus], tmp_path / "one.duckdb", None, batch_size=8, stage_cache=False)
    monkeypatch.setenv("INGEST_STAGE_PROCESSES", "2")
    two = run_pipeline([corpus], tmp_path / "two.duckdb", None, batch_size=8, stage_cache=False)
    assert one.line() == two.line()
    differences = _differences(tmp_path / "one.duckdb", tmp_path / "two.duckdb")
    assert differences["documents"] == (0, 0), differences
    assert not {table: d for table, d in differences.items() if d != (0, 0)}
    con = duckdb.connect(str(tmp_path / "two.duckdb"), read_only=True)
    assert con.execute("SELECT count(*) FROM documents WHERE status = 'ok'").fetchone()[0] == 40
    con.close()


_RUN = """
import sys
from ingest import run_pipeline

if __name__ == "__main__":
    run_pipeline([sys.argv[1]], sys.argv[2], None, batch_size=5, stage_cache=False)
"""


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_workers_exit_when_the_run_is_killed(tmp_path):
    corpus = make_corpus(200, tmp_path / "corpus")
    script = tmp_path / "run.py"
    script.write_text(_RUN, "utf-8")
    env = {**os.environ, "INGEST_STAGE_PROCESSES": "2"}
    run = subprocess.Popen(
        [sys.executable, str(script), str(corpus), str(tmp_path / "w.duckdb")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(workers) < 2 and run.poll() is None:
            workers = _children(run.pid)
            time.sleep(0.2)
        assert len(workers) >= 2, "the run started no worker processes"
        run.send_signal(signal.SIGKILL)
        run.wait(10)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.2)
        assert not [w for w in workers if _alive(w)], "stage workers outlived the killed run"
    finally:
        if run.poll() is None:
            run.kill()
        for worker in workers:  # a failed test leaves no process behind either
            if _alive(worker):
                os.kill(worker, signal.SIGKILL)
