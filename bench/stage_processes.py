"""The per-document stages in worker processes against one process, side by side.

`uv run python -m bench.stage_processes --size 1000 --pairs 2` builds the generated corpus
(`bench/corpus.py`) and times `Run.stage_and_load` (read to extract, and the loads) in fresh
processes, alternating INGEST_STAGE_PROCESSES=1 (the stages in the run's process) and one worker
per core, each into a new warehouse with the stage cache off. It prints the medians, the ratio
and the commit measured, and checks that both sides loaded the same number of documents.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .corpus import build_corpus

ROOT = Path(__file__).resolve().parents[1]

# Run in a fresh interpreter per measurement: the stages' own start-up (spaCy, the lexicons) counts.
_CHILD = """
import json, sys, time
import duckdb
from ingest.run.runner import Run
from ingest.settings import RunOptions

if __name__ == "__main__":
    run = Run(RunOptions(paths=(sys.argv[1],), warehouse_path=sys.argv[2], reports_dir=None, stage_cache=False),
              processes=0)
    todo = run.pending()
    wall, cpu = time.perf_counter(), time.process_time()
    run.stage_and_load(todo)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    con = duckdb.connect(sys.argv[2], read_only=True)
    loaded = con.execute("SELECT count(*) FROM documents WHERE status = 'ok'").fetchone()[0]
    con.close()
    print(json.dumps({"wall": wall, "main_cpu": cpu, "loaded": loaded}))
"""


def _commit() -> str:
    state = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "src"], capture_output=True, text=True)
    return state.stdout.strip() + (" (with uncommitted changes in src/)" if dirty.stdout.strip() else "")


def measure(corpus: Path, scratch: Path, processes: str) -> dict:
    warehouse = scratch / f"w-{processes}-{time.monotonic_ns()}.duckdb"
    script = scratch / "child.py"
    script.write_text(_CHILD, "utf-8")
    result = subprocess.run(
        [sys.executable, str(script), str(corpus), str(warehouse)],
        capture_output=True,
        text=True,
        env={**os.environ, "INGEST_STAGE_PROCESSES": processes},
        check=True,
    )
    warehouse.unlink(missing_ok=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stage_processes", description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1000, help="documents in the generated corpus")
    parser.add_argument("--pairs", type=int, default=2, help="rounds of one process then workers")
    args = parser.parse_args(argv)
    cores = len(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        corpus = scratch / "corpus"
        build_corpus(args.size, corpus)
        (corpus / "manifest.json").unlink(missing_ok=True)
        one, many = [], []
        for _ in range(args.pairs):
            one.append(measure(corpus, scratch, "1"))
            many.append(measure(corpus, scratch, "0"))
    wall_one, wall_many = statistics.median(r["wall"] for r in one), statistics.median(r["wall"] for r in many)
    print(f"commit {_commit()}, {args.size} documents, {cores} cores, {args.pairs} pair(s)")
    for name, runs, median in (("stages in one process", one, wall_one), ("one worker per core", many, wall_many)):
        walls = ", ".join(f"{r['wall']:.1f}" for r in runs)
        print(f"{name}: {walls} s (median {median:.1f}); documents loaded {sorted({r['loaded'] for r in runs})}")
    print(f"speed-up {wall_one / wall_many:.2f}x wall")
    if {r["loaded"] for r in one} != {r["loaded"] for r in many}:
        print("the two sides loaded different numbers of documents")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
