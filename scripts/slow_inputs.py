"""Time the prepare and extract stages on inputs that are slow for their size (issue 26).

Each case is a plain-text file of one repeated pattern (`CASES`), written at each size and run
through `ingest.prepare.prepare_document` and `ingest.extract.document.extract_document` in a
fresh process (a hang stops at --limit seconds), with the stage time budget lifted so that the
stages' own cost is measured. With --profile, the case is run under cProfile and the functions
with the most own time are printed with their callers: the regular expression calls are named
by the line that makes them.

    uv run python scripts/slow_inputs.py                      # every case at 10, 40 and 80 KB
    uv run python scripts/slow_inputs.py --sizes 80000 --cases 1x --profile
    uv run python scripts/slow_inputs.py --issue              # the sizes issue 26 reported
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

LINE = 80  # characters of a line in the "lines" cases


def _lines(unit: str, size: int) -> str:
    line = (unit * (LINE // len(unit) + 1))[:LINE].rstrip(unit[-1]) if len(unit) > 1 else unit * LINE
    return "\n".join([line] * (size // (len(line) + 1) + 1))[:size]


def _run(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


# name -> (text of about `size` bytes), one line unless the name says lines.
CASES = {
    "version_lines": lambda n: "\n".join(["PyTorch " + ".".join(["1"] * 40)] * (n // 88 + 1))[:n],
    "version_run": lambda n: ("PyTorch " + ".".join(["1"] * n))[:n],
    "1x": lambda n: _run("1x", n),
    "1-_lines": lambda n: _lines("1-", n),
    "1-": lambda n: _run("1-", n),
    "1~_lines": lambda n: _lines("1~", n),
    "A100-": lambda n: _run("A100-", n),
    "commas_000": lambda n: _run("1,", n - 3) + "000",
    "fullwidth_digits": lambda n: "１" * (n // 3 - 1) + "％",
    "ideographic_stops": lambda n: "。" * (n // 3),
    "percent": lambda n: "%" * n,
}
# The inputs as the issue gave them: (case, characters).
ISSUE = [("fullwidth_digits", 300_003), ("ideographic_stops", 300_000), ("percent", 120_000)]

CHILD = r"""
import cProfile, io, json, pstats, sys, time
from pathlib import Path
from ingest.discover import file_sha256
from ingest.extract.document import extract_document
from ingest.prepare import prepare_document
from ingest.records import SourceFile

def source(path):
    return SourceFile("t/" + path.name, str(path), "text", file_sha256(path), path.stat().st_size, root=str(path.parent))

path, warm, profile = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "1"
extract_document(prepare_document(source(warm)), "r", "f")  # models and patterns loaded before timing
profiler = cProfile.Profile() if profile else None
started = time.perf_counter()
if profiler: profiler.enable()
prepared = prepare_document(source(path))
middle = time.perf_counter()
extract_document(prepared, "r", "f")
ended = time.perf_counter()
result = {"prepare_s": round(middle - started, 3), "extract_s": round(ended - middle, 3), "status": str(prepared.status),
          "segments": len(prepared.segments), "error": (prepared.error or "")[:120]}
if profiler:
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).sort_stats("tottime")
    stats.print_stats(6)
    stats.print_callers(4)
    result["profile"] = out.getvalue()
print(json.dumps(result))
"""


def measure(case: str, size: int, limit: float, profile: bool, folder: Path) -> dict:
    path = folder / f"{case}_{size}.txt"
    path.write_text(CASES[case](size), "utf-8")
    warm = folder / "warm.txt"
    warm.write_text("PyTorch 2.5 は H100 で 75% 高速になった。\n", "utf-8")
    env = {**os.environ, "INGEST_MAX_STAGE_SECONDS": "1e9"}  # the stages' own cost, not the budget
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(path), str(warm), "1" if profile else "0"],
            capture_output=True,
            text=True,
            timeout=limit,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"timeout_s": limit}
    if done.returncode != 0:
        return {"crash": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,40000,80000", help="comma-separated sizes in bytes")
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated case names: " + ", ".join(CASES))
    parser.add_argument("--issue", action="store_true", help="run the issue's own sizes instead")
    parser.add_argument("--limit", type=float, default=300, help="seconds before a case is stopped")
    parser.add_argument("--profile", action="store_true", help="print the functions with the most own time")
    options = parser.parse_args()
    runs = (
        ISSUE if options.issue else [(case, int(size)) for case in options.cases.split(",") for size in options.sizes.split(",")]
    )
    with tempfile.TemporaryDirectory() as folder:
        for case, size in runs:
            result = measure(case, size, options.limit, options.profile, Path(folder))
            profile = result.pop("profile", None)
            print(f"{case:18s} {size:>8,d} B  {json.dumps(result, ensure_ascii=False)}", flush=True)
            if profile:
                print(profile)


if __name__ == "__main__":
    main()
