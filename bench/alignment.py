"""CPU seconds per aligned pair of renderings: `ingest.check.align.compare_renderings` on every
candidate pair (`document_pairs`) of a warehouse of the labelled articles (the seeds and
../shared/corpus*), side by side with the same code at other commits.

    uv run python -m bench.alignment                       # this code
    uv run python -m bench.alignment --against 0d95f3b     # and that commit's code, in turn A B A B
    uv run python -m bench.alignment --generated 250       # the pairs of the bench's generated corpus instead

The warehouse is built once (no translation package) and every side aligns the same pairs from it
in a fresh process (`--child`), `--rounds` times in turn; a side's figure is its median over rounds
of the CPU seconds (time.process_time) of all pairs, divided by the pairs. Each side also prints a
digest of what it aligned (units, confidences, matched mentions), so a speed-up that changes an
alignment shows as a different digest.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.__main__ import snapshot_ref

ROOT = Path(__file__).resolve().parents[1]


def build_warehouse(db: Path, shared: Path, generated: int = 0) -> None:
    """The labelled articles, or `generated` documents of the bench's corpus (`bench/corpus.py`)."""
    from ingest.evaluate import _inputs
    from ingest.run.runner import run_pipeline
    from ingest.translate.engine import UntranslatedEngine

    if generated:
        from bench.corpus import build_corpus

        build_corpus(generated, db.parent / "corpus")
        inputs = [db.parent / "corpus"]
    else:
        inputs = _inputs(ROOT / "seeds", shared)
    run_pipeline(inputs, db, None, engine=UntranslatedEngine())


def measure(db: Path) -> dict[str, object]:
    """Align every candidate pair of the warehouse once; CPU seconds and a digest of the results."""
    from ingest import warehouse
    from ingest.check import align
    from ingest.check.renderings import _segments

    con = warehouse.connect(db, read_only=True)
    try:
        pairs = sorted(tuple(row) for row in con.execute("SELECT doc_a, doc_b FROM document_pairs").fetchall())
        segments = _segments(con, {doc for pair in pairs for doc in pair})
    finally:
        con.close()
    # code before compare_all (0d95f3b and earlier) compared pair by pair, on no BLAS
    compare_all = getattr(align, "compare_all", None) or (
        lambda items: {key: align.compare_renderings(a, b) for key, (a, b) in items.items()}
    )
    start = time.process_time()
    results = compare_all({pair: (segments.get(pair[0], []), segments.get(pair[1], [])) for pair in pairs})
    cpu_s = time.process_time() - start
    digest = hashlib.sha256()
    for pair, result in results.items():
        digest.update(repr((pair, result.units, [(p.where_a, p.where_b, p.pair.relation) for p in result.pairs])).encode())
    sizes = [len(segments.get(a, [])) * len(segments.get(b, [])) for a, b in pairs]
    return {
        "pairs": len(pairs),
        "cpu_s": cpu_s,
        "per_pair_s": cpu_s / max(1, len(pairs)),
        "median_segments_product": statistics.median(sizes) if sizes else 0,
        "digest": digest.hexdigest()[:16],
    }


def _child(code: Path, db: Path) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": f"{code}{os.pathsep}{ROOT}", "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        [sys.executable, "-m", "bench.alignment", "--child", str(db)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.alignment", description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--against", default="", metavar="GIT_REF[,GIT_REF]", help="commits to time side by side")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--generated", type=int, default=0, metavar="N", help="N documents of the bench's corpus, not the labelled ones"
    )
    parser.add_argument("--warehouse", type=Path, help="an existing warehouse of the labelled articles (else one is built)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child)))
        return 0
    if not (args.shared / "corpus").is_dir():
        print(f"no labelled articles at {args.shared} (../shared beside the checkout); nothing to measure", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-align-") as scratch:
        db = args.warehouse or Path(scratch) / "w.duckdb"
        if not args.warehouse:
            build_warehouse(db, args.shared, args.generated)
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "src"], cwd=ROOT, capture_output=True, text=True).stdout)
        sides = {f"this code ({head}{' + uncommitted changes' if dirty else ''})": ROOT / "src"}
        for ref in filter(None, args.against.split(",")):
            sides[ref] = snapshot_ref(Path(scratch), ref) / "src"
        runs: dict[str, list[dict[str, object]]] = {side: [] for side in sides}
        for _ in range(args.rounds):
            for side, code in sides.items():
                runs[side].append(_child(code, db))
        print(f"{runs[next(iter(sides))][0]['pairs']} candidate pairs; CPU s per pair, median of {args.rounds} rounds in turn")
        first = None
        for side, results in runs.items():
            per_pair = statistics.median(float(r["per_pair_s"]) for r in results)  # type: ignore[arg-type]
            first = first or per_pair
            speed_up = per_pair / first
            print(f"  {side}: {per_pair:.4f} s per pair (speed-up of this code {speed_up:.2f}x), digest {results[0]['digest']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
