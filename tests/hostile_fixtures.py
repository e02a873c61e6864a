"""Shared helpers for the reliability tests: a run on a folder holding one good article plus
the hostile case, warehouse snapshots that ignore run ids and timestamps, lock holders and
a killable ingest subprocess."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pytest

from seed_fixtures import ROOT, SEEDS

SEED_JA = SEEDS / "000_7df305071c9dd669.txt"
SEED_ZH = SEEDS / "001_dff0537ae45131ec.txt"
GOOD = "good.txt"
# Columns that differ between two runs over the same input by design.
VOLATILE_COLUMNS = {"run_id", "loaded_at", "started_at", "finished_at"}


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers", "slow: takes minutes (the 1,000-document soak); runs only when asked for with -m slow or INGEST_RUN_SLOW=1"
    )


def pytest_collection_modifyitems(config, items) -> None:
    """`slow` tests are skipped unless selected by marker (-m slow) or INGEST_RUN_SLOW=1."""
    if os.environ.get("INGEST_RUN_SLOW") == "1" or "slow" in (config.getoption("markexpr", "") or ""):
        return
    skip = pytest.mark.skip(reason="slow (minutes): run with `-m slow` or INGEST_RUN_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


# ---- one run over a hostile case plus a good article ------------------------------------


@dataclass
class CaseRun:
    inputs: Path
    db: Path
    reports: Path
    summary: Any = None

    def add(self, name: str, content: bytes | str) -> Path:
        path = self.inputs / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, "utf-8")
        else:
            path.write_bytes(content)
        return path

    def doc_id(self, name: str) -> str:
        """The doc_id of the file `name` (its path inside the input folder): folder name / path."""
        return f"{self.inputs.name}/{name}"

    def run(self, engine=None, **kwargs):
        from ingest import run_pipeline
        from ingest.translate.engine import UntranslatedEngine

        self.summary = run_pipeline([self.inputs], self.db, self.reports, engine=engine or UntranslatedEngine(), **kwargs)
        return self.summary

    def query(self, sql: str, params: list | None = None) -> list[tuple]:
        from ingest import warehouse

        con = warehouse.connect(self.db, read_only=True)
        try:
            return con.execute(sql, params or []).fetchall()
        finally:
            con.close()

    def document(self, name: str) -> dict[str, Any]:
        """The documents row of the file `name` (its path inside the input folder)."""
        from ingest import warehouse

        con = warehouse.connect(self.db, read_only=True)
        try:
            columns, rows = warehouse.query(con, "SELECT * FROM documents WHERE doc_id = ?", [self.doc_id(name)])
        finally:
            con.close()
        assert len(rows) == 1, f"expected one documents row for {name!r}, found {len(rows)}"
        return dict(zip(columns, rows[0]))

    def segments(self, name: str) -> list[dict[str, Any]]:
        from ingest import warehouse

        con = warehouse.connect(self.db, read_only=True)
        try:
            columns, rows = warehouse.query(con, "SELECT * FROM segments WHERE doc_id = ? ORDER BY seg_idx", [self.doc_id(name)])
        finally:
            con.close()
        return [dict(zip(columns, row)) for row in rows]

    def assert_rest_completed(self) -> None:
        """The good article went through and the run was recorded: one bad file stopped nothing."""
        good = self.document(GOOD)
        assert good["status"] == "ok" and good["lang"] == "ja", good
        assert len(self.segments(GOOD)) > 10
        assert self.query("SELECT count(*) FROM runs") == [(1,)]
        assert self.doc_id(GOOD) in self.summary.loaded


@pytest.fixture
def case(tmp_path) -> CaseRun:
    """A folder with the Japanese seed as good.txt; add the hostile file, then run()."""
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(SEED_JA, inputs / GOOD)
    return CaseRun(inputs, tmp_path / "w.duckdb", tmp_path / "reports")


# ---- warehouse snapshots ----------------------------------------------------------------


def content_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    from ingest import warehouse

    return ["documents", *warehouse.DOCUMENT_TABLES]


def snapshot(db: Path) -> dict[str, tuple[int, str]]:
    """(row count, checksum of the rows without run ids and timestamps) of every content table."""
    from ingest import warehouse

    con = warehouse.connect(db, read_only=True)
    try:
        result = {}
        for table in content_tables(con):
            columns = [
                c
                for (c,) in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position", [table]
                ).fetchall()
                if c not in VOLATILE_COLUMNS
            ]
            rows = con.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
            digest = hashlib.sha256("\n".join(sorted(map(repr, rows))).encode()).hexdigest()
            result[table] = (len(rows), digest)
        return result
    finally:
        con.close()


def assert_no_partial_documents(db: Path) -> None:
    """Every document with rows in a child table has its documents row, status ok."""
    from ingest import warehouse

    con = warehouse.connect(db, read_only=True)
    try:
        for table in warehouse.DOCUMENT_TABLES:
            orphans = con.execute(
                f"SELECT DISTINCT t.doc_id FROM {table} t LEFT JOIN documents d USING (doc_id) "
                "WHERE d.doc_id IS NULL OR d.status <> 'ok'"
            ).fetchall()
            assert orphans == [], f"{table} holds rows of documents that were not loaded whole: {orphans[:5]}"
        duplicates = con.execute("SELECT doc_id, count(*) FROM documents GROUP BY 1 HAVING count(*) > 1").fetchall()
        assert duplicates == []
        duplicate_segments = con.execute("SELECT doc_id, seg_idx FROM segments GROUP BY ALL HAVING count(*) > 1").fetchall()
        assert duplicate_segments == []
    finally:
        con.close()


# ---- corpora ----------------------------------------------------------------------------


def make_corpus(n: int, out_dir: Path, seed: int = 0) -> Path:
    """`n` articles: the benchmark corpus when bench/corpus.py is there, else seed paragraphs recombined."""
    try:
        sys.path.insert(0, str(ROOT))
        from bench.corpus import build_corpus
    except ImportError:
        build_corpus = None
    finally:
        if sys.path and sys.path[0] == str(ROOT):
            sys.path.pop(0)
    if build_corpus is not None:
        build_corpus(n, out_dir, seed)
        manifest = out_dir / "manifest.json"
        if manifest.exists():
            manifest.unlink()
        return out_dir
    rng = random.Random(seed)
    paragraphs = [p for seed_file in sorted(SEEDS.glob("*.txt")) for p in seed_file.read_text("utf-8").split("\n\n") if p.strip()]
    out_dir.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        body = "\n\n".join(rng.sample(paragraphs, k=min(len(paragraphs), rng.randint(4, 12))))
        (out_dir / f"{i:05d}.txt").write_text(f"記事 {i}\n\n{body}\n", "utf-8")
    return out_dir


# ---- processes --------------------------------------------------------------------------


def duckdb_cli_binary() -> Path | None:
    """The real duckdb CLI executable (the .venv/bin/duckdb wrapper would add a process)."""
    try:
        import duckdb_cli
    except ImportError:
        return None
    binary = Path(duckdb_cli.__file__).parent / "duckdb"
    return binary if binary.is_file() and os.access(binary, os.X_OK) else None


class LockHolder:
    """A second process that opens the warehouse for writing and keeps it open until stopped."""

    def __init__(self, db: Path, kind: str = "python") -> None:
        if kind == "duckdb-cli":
            binary = duckdb_cli_binary()
            if binary is None:
                pytest.skip("the duckdb CLI binary is not installed")
            command = [str(binary), str(db)]
        else:
            command = [
                sys.executable,
                "-c",
                "import duckdb, sys; con = duckdb.connect(sys.argv[1]); print('ready', flush=True); sys.stdin.read()",
                str(db),
            ]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        if kind == "duckdb-cli":
            self.process.stdin.write(".print ready\n")  # answered once the CLI has the file open
            self.process.stdin.flush()
        if self.process.stdout.readline().strip() != "ready":
            self.stop()
            raise RuntimeError(f"the lock holder ({kind}) could not open {db}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                self.process.stdin.close()  # EOF: both holders exit on their own
                self.process.wait(timeout=10)
                self.process.stdout.close()
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


@pytest.fixture
def lock_holder():
    """Start lock holders with `lock_holder(db, kind)`; all are stopped after the test."""
    holders: list[LockHolder] = []

    def start(db: Path, kind: str = "python") -> LockHolder:
        holder = LockHolder(db, kind)
        holders.append(holder)
        return holder

    yield start
    for holder in holders:
        holder.stop()


# The child pauses inside the transaction of its `pause_at`-th COMMIT (its earlier
# transactions are committed) and says so on stdout, so the parent can SIGKILL it there.
_KILLABLE_CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from ingest import warehouse
    from ingest.run import runner as pipeline
    from ingest.translate.engine import UntranslatedEngine

    inputs, db, pause_at, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    options = {"batch_size": batch}  # documents per load transaction
    commits = 0
    real_connect = warehouse.connect

    class PausingConnection:
        def __init__(self, con):
            self._con = con

        def __getattr__(self, name):
            return getattr(self._con, name)

        def execute(self, sql, *args, **kwargs):
            global commits
            if isinstance(sql, str) and sql.strip().upper() == "COMMIT":
                commits += 1
                if commits == pause_at:
                    print("PAUSED-IN-TRANSACTION", flush=True)
                    time.sleep(3600)
            return self._con.execute(sql, *args, **kwargs)

    def connect(path, read_only=False, **kwargs):
        con = real_connect(path, read_only=read_only, **kwargs)
        return con if read_only else PausingConnection(con)

    warehouse.connect = connect
    print("STARTED", flush=True)
    pipeline.run_pipeline([Path(inputs)], db, None, engine=UntranslatedEngine(), **options)
    print("FINISHED", flush=True)
""")


def run_and_kill_mid_load(inputs: Path, db: Path, pause_at: int, batch: int, timeout: float = 600) -> str:
    """Run the pipeline in a subprocess and SIGKILL it inside a load transaction; return its last line."""
    child = subprocess.Popen(
        [sys.executable, "-c", _KILLABLE_CHILD, str(inputs), str(db), str(pause_at), str(batch)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
    )
    last = ""
    try:
        deadline = time.monotonic() + timeout
        for line in child.stdout:
            last = line.strip()
            if last in ("PAUSED-IN-TRANSACTION", "FINISHED") or time.monotonic() > deadline:
                break
    finally:
        child.kill()  # SIGKILL: no cleanup, no rollback, no atexit
        child.wait()
        child.stdout.close()
    return last
