"""The benchmark: `uv run python -m bench` (or `make bench`).

Builds the scale corpus (bench/corpus.py), then, each measurement in its own process
(bench/child.py):

1. end-to-end runs of `run_pipeline` at each size up to --stage-size, with reports,
   timed per stage (bench/instrument.py); the --stage-size run is the stage breakdown;
2. each stage's core library call alone on the same input (baselines);
3. incremental re-runs of the --stage-size corpus: unchanged, then 1 % of documents changed;
4. the consistency views on the first k documents of the warehouse, for several k;
5. larger sizes (10,000) in a lean pass: `run_pipeline` without reports, total time and
   peak RSS only — skipped when the time projected from the --stage-size run does not
   fit in --budget-minutes (say so in the results; --budget-minutes 0 means no limit);
6. side by side (--refs): uncached runs of the --stage-size corpus with this code and the code
   at each ref, in rotation (A B C A B C), as speed-ups;
7. translation (bench/translate_bench.py): our engine against raw CTranslate2 batching, one
   sentence and one paragraph at a time, on the random-weight package; and the time to a
   complete report with that package installed (`--translate evidence`) over the time without;
8. Prefect and Dask (bench/prefect_overhead.py): the flow against the stages called directly,
   and the flow with its stages on 2 local Dask workers against the flow on one process;
9. renderings at scale (bench/renderings_scale.py): distinct articles in 1-3 renderings at the
   --stage-size, this code against the speed issue's start, pairs and changes found against labels.

Results: bench/results/latest.json, bench/results/latest.md (also printed) and the
section of docs/benchmarks.md between `<!-- bench:start -->` and `<!-- bench:end -->`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

from bench.corpus import build_corpus, corpus_mix, mutate_corpus, read_manifest
from bench.report import evaluate, render_markdown, speedups, stage_rows, update_readme

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
BENCHMARKS_DOC = ROOT / "docs" / "benchmarks.md"  # its section between the bench markers is rewritten


def log(message: str) -> None:
    print(f"[bench {dt.datetime.now():%H:%M:%S}] {message}", file=sys.stderr, flush=True)


# The code this one is timed against in the full benchmark: why that commit, and the least speed-up
# (its time / this code's) that meets the goal set then.
BASELINE_REFS = {
    "872b70f": ("the code before the speed issue (#14)", 1.75),
    "0f14a09": ("the code before the renderings and claims issues (#12, #15): within 10 %", 1 / 1.1),
}
# The code renderings at scale are measured against: the start of the speed issue (#25).
RENDERINGS_BASELINE = "4190577"
CODE: Path | None = None  # the snapshot of src/ingest and warehouse/*.sql the children import
SNAPSHOT_GIT: dict[str, Any] = {}  # the git state when the snapshot was taken


def snapshot_code(work: Path) -> Path:
    """Copy the pipeline's code (its SQL, rules and glossary are package data inside it) so that
    edits made while the benchmark runs do not leak into it. Children put `<snapshot>/src`
    first on PYTHONPATH."""
    code = work / "code"
    if code.exists():
        shutil.rmtree(code)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.duckdb", "*.duckdb.wal", "*.stages", "*.staging")
    shutil.copytree(ROOT / "src" / "ingest", code / "src" / "ingest", ignore=ignore)
    return code


def git_state() -> dict[str, Any]:
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    dirty = [line[3:] for line in git("status", "--porcelain").splitlines()]
    return {"commit": git("rev-parse", "--short", "HEAD"), "uncommitted_files": len(dirty)}


def snapshot_ref(work: Path, ref: str) -> Path:
    """The pipeline's code at git `ref` (src/ingest), for runs side by side with the working tree's."""
    code = work / f"code-{ref}"
    if code.exists():
        shutil.rmtree(code)
    code.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", ref, "src/ingest"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(code, filter="data")
    return code


def child_env(code: Path | None) -> dict[str, str]:
    """The environment of a child process: `code`'s src first on the path, no telemetry, no progress bars."""
    path = [str(code / "src") if code else None, str(ROOT), os.environ.get("PYTHONPATH")]
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, path)),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "DO_NOT_TRACK": "1",
        "TQDM_DISABLE": "1",
    }


def child(
    task: str, params: dict[str, Any], scratch: Path, timeout_s: float | None = None, code: Path | None = None
) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter on `code` (default: the snapshot); its JSON result
    (with the child's wall time)."""
    name = f"{task}-{int(time.time() * 1000)}"
    params_file, out_file = scratch / f"{name}.params.json", scratch / f"{name}.out.json"
    params_file.write_text(json.dumps(params), "utf-8")
    start = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-m", "bench.child", task, str(params_file), str(out_file)],
        cwd=ROOT,
        env=child_env(code or CODE),
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    elapsed = time.perf_counter() - start
    if completed.returncode != 0:
        raise RuntimeError(f"bench child {task} failed ({completed.returncode}):\n{completed.stderr[-4000:]}")
    result = json.loads(out_file.read_text("utf-8"))
    result["child_wall_s"] = elapsed
    return result


def module_child(module: str, arguments: list[str], scratch: Path) -> dict[str, Any]:
    """Run a benchmark module of bench/ in a fresh interpreter on the snapshot, its results into
    scratch; returns them."""
    out = scratch / f"{module.rsplit('.', 1)[-1]}.json"
    completed = subprocess.run(
        [sys.executable, "-m", module, *arguments, "--out", str(out)],
        cwd=ROOT,
        env=child_env(CODE),
        capture_output=True,
        text=True,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"{module} failed ({completed.returncode}):\n{completed.stderr[-4000:]}")
    return json.loads(out.read_text("utf-8"))


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                ram_gb = round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    import duckdb

    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "ram_gb": ram_gb,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "duckdb": duckdb.__version__,
    }


def fresh(path: Path) -> Path:
    """Remove a warehouse and everything the pipeline keeps next to it (WAL, stage cache, staging)."""
    for extra in (path, Path(f"{path}.wal"), path.with_name(path.stem + ".stages"), path.with_name(path.stem + ".staging")):
        if extra.is_dir():
            shutil.rmtree(extra)
        elif extra.exists():
            extra.unlink()
    return path


def copy_warehouse(src: Path, dst: Path) -> Path:
    fresh(dst)
    shutil.copy2(src, dst)
    for suffix_dir in (".stages",):
        side = src.with_name(src.stem + suffix_dir)
        if side.is_dir():
            shutil.copytree(side, dst.with_name(dst.stem + suffix_dir))
    return dst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000", help="corpus sizes, comma-separated")
    parser.add_argument(
        "--stage-size", type=int, default=1000, help="size of the stage breakdown, baselines and incremental runs"
    )
    parser.add_argument("--quick", action="store_true", help="sizes 100 only, stage size 100 (about 2 minutes)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--workdir",
        type=Path,
        default=Path(os.environ.get("TMPDIR", "/tmp")) / "ingest-bench",
        help="corpora and scratch warehouses (default: $TMPDIR/ingest-bench)",
    )
    parser.add_argument(
        "--budget-minutes",
        type=float,
        default=40.0,
        help="skip sizes above --stage-size whose projected time would exceed this total (0: no limit)",
    )
    parser.add_argument("--check-cap", type=float, default=60.0, help="seconds after which a check query is stopped")
    parser.add_argument("--no-readme", action="store_true", help="do not update the section of docs/benchmarks.md")
    parser.add_argument("--out", type=Path, default=RESULTS / "latest.json")
    parser.add_argument(
        "--against",
        metavar="GIT_REF[,GIT_REF]",
        help="measure nothing else: time --pairs uncached runs of the --stage-size corpus, this "
        "code and the code at each GIT_REF in turn, and the library baselines; results in "
        "bench/results/against-GIT_REF[-GIT_REF].{json,md}",
    )
    parser.add_argument(
        "--refs",
        default=",".join(BASELINE_REFS),
        help="commits to time this code against, side by side, in the full benchmark (comma-separated; empty: none)",
    )
    parser.add_argument("--pairs", type=int, default=2, help="runs of each side with --against and --refs")
    parser.add_argument("--no-translate", action="store_true", help="leave out the translation benchmark")
    parser.add_argument("--no-prefect", action="store_true", help="leave out the Prefect and Dask benchmark")
    parser.add_argument("--no-renderings", action="store_true", help="leave out renderings at scale (bench/renderings_scale.py)")
    parser.add_argument(
        "--render",
        type=Path,
        metavar="RESULTS_JSON",
        help="measure nothing: re-render the Markdown, goals and docs/benchmarks.md section from a results file",
    )
    args = parser.parse_args(argv)
    if args.render:
        return render_only(args.render, args.out, readme=not args.no_readme)
    if args.quick:
        args.sizes, args.stage_size, args.refs, args.no_translate, args.no_prefect = "100", 100, "", True, True
        args.no_renderings = True
    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    stage_size = (
        args.stage_size
        if args.stage_size in sizes
        else max(s for s in sizes if s <= args.stage_size)
        if any(s <= args.stage_size for s in sizes)
        else sizes[0]
    )
    began = time.perf_counter()
    work = args.workdir
    scratch = work / "scratch"
    if scratch.exists():
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True)
    global CODE, SNAPSHOT_GIT
    CODE, SNAPSHOT_GIT = snapshot_code(work), git_state()
    if args.against:
        against([ref for ref in args.against.split(",") if ref], args.pairs, args.stage_size, args.seed, work, scratch)
        return 0
    results: dict[str, Any] = {
        "started_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": "uv run python -m bench " + " ".join(argv if argv is not None else sys.argv[1:]),
        "machine": machine(),
        "git": SNAPSHOT_GIT,
        "sizes": sizes,
        "stage_size": stage_size,
        "seed": args.seed,
        "engine": "default engine (no translation package installed: UntranslatedEngine, the untranslated path)",
    }

    # 1. corpora
    corpora: dict[int, Path] = {}
    for n in sizes:
        log(f"building corpus of {n}")
        corpora[n] = work / f"corpus-{n}"
        start = time.perf_counter()
        build_corpus(n, corpora[n], seed=args.seed)
        files = read_manifest(corpora[n])
        results.setdefault("corpus", {})[str(n)] = {
            "build_s": round(time.perf_counter() - start, 2),
            "mix": corpus_mix(files),
            "cleaned_chars_median": sorted(f.chars for f in files)[len(files) // 2],
            "cleaned_chars_total": sum(f.chars for f in files),
            "bytes_total": sum((corpora[n] / f.path).stat().st_size for f in files),
            "sources": json.loads((corpora[n] / "manifest.json").read_text("utf-8"))["sources"],
        }

    # 2. end-to-end runs with reports, up to the stage size
    runs: dict[str, Any] = {}
    for n in [s for s in sizes if s <= stage_size]:
        log(f"run_pipeline on {n} documents (with reports)")
        runs[str(n)] = child(
            "run",
            {"corpus": str(corpora[n]), "warehouse": str(fresh(work / f"w-{n}.duckdb")), "reports": str(work / f"reports-{n}")},
            scratch,
        )
        log(f"  {runs[str(n)]['summary']} in {runs[str(n)]['wall_s']:.1f} s")
    results["runs"] = runs
    stage_wh = work / f"w-{stage_size}.duckdb"

    # 3. baselines on the stage-size corpus
    log(f"library baselines on {stage_size} documents")
    results["baselines"] = child(
        "baselines",
        {
            "corpus": str(corpora[stage_size]),
            "warehouse": str(stage_wh),
            "scratch": str(scratch),
            "sample_every": 4 if stage_size >= 400 else 1,
        },
        scratch,
    )

    # 4. incremental re-runs on a copy of the warehouse and the corpus in place: a document's identity is
    # its path, so a copy of the corpus elsewhere would be new documents (duplicates), not a re-run
    log("incremental re-runs: unchanged, then 1% changed")
    inc_wh = copy_warehouse(stage_wh, work / f"w-{stage_size}-incremental.duckdb")
    incremental: dict[str, Any] = {}
    incremental["unchanged"] = child(
        "run",
        {"corpus": str(corpora[stage_size]), "warehouse": str(inc_wh), "reports": str(work / "reports-incremental")},
        scratch,
    )
    changed = mutate_corpus(corpora[stage_size], 0.01, seed=args.seed + 1)
    incremental["changed_files"] = len(changed)
    incremental["changed_1pct"] = child(
        "run",
        {"corpus": str(corpora[stage_size]), "warehouse": str(inc_wh), "reports": str(work / "reports-incremental")},
        scratch,
    )
    build_corpus(stage_size, corpora[stage_size], seed=args.seed)  # the changes undone for what follows
    results["incremental"] = incremental

    # 5. the checks as claims grow, on prefixes of the stage-size warehouse
    counts = sorted({max(1, stage_size // d) for d in (8, 4, 2, 1)})
    log(f"consistency checks on the first {counts} documents")
    results["checks"] = child(
        "checks", {"warehouse": str(stage_wh), "doc_counts": counts, "cap_s": args.check_cap, "scratch": str(scratch)}, scratch
    )

    # 6. larger sizes: lean pass (no reports), within the budget
    first = runs[str(stage_size)]
    per_doc = (first["wall_s"] - first["stages_s"].get("check", 0.0)) / max(1, first["n_files"])
    for n in [s for s in sizes if s > stage_size]:
        spent = (time.perf_counter() - began) / 60
        projected = per_doc * n * 1.1 / 60 + 0.5
        if args.budget_minutes and spent + projected > args.budget_minutes:
            runs[str(n)] = {
                "skipped": (
                    f"projected {projected:.0f} min at {per_doc:.3f} s/document (from the "
                    f"{stage_size}-document run) after {spent:.0f} min spent exceeds the "
                    f"{args.budget_minutes:.0f}-minute budget; run with --budget-minutes 0"
                )
            }
            log(f"skipping {n}: {runs[str(n)]['skipped']}")
            continue
        log(f"lean run_pipeline on {n} documents (no reports; projected {projected:.0f} min)")
        runs[str(n)] = child(
            "run", {"corpus": str(corpora[n]), "warehouse": str(fresh(work / f"w-{n}.duckdb")), "reports": None}, scratch
        )
        runs[str(n)]["lean"] = True
        log(f"  {runs[str(n)]['summary']} in {runs[str(n)]['wall_s']:.1f} s")
        bigger = [c for c in (2 * stage_size, 4 * stage_size, n) if c <= n]
        log(f"consistency checks on the first {bigger} documents of {n} (capped at {args.check_cap:.0f} s)")
        more = child(
            "checks",
            {"warehouse": str(work / f"w-{n}.duckdb"), "doc_counts": bigger, "cap_s": args.check_cap, "scratch": str(scratch)},
            scratch,
        )
        results["checks"]["points"] += more["points"]

    # 7-9. side by side with earlier code, translation, Prefect and Dask
    refs = [ref for ref in args.refs.split(",") if ref]
    if refs:
        log(f"side by side with {', '.join(refs)}: {args.pairs} rounds of {stage_size} documents")
        results["against"] = against(refs, args.pairs, stage_size, args.seed, work, scratch, write=False)
        results["against"]["goals"] = {ref: BASELINE_REFS.get(ref, ("", None)) for ref in refs}
    if not args.no_translate:
        log(f"translation benchmark, and the time to a report on {stage_size} documents with a model")
        results["translate"] = module_child(
            "bench.translate_bench", ["--rounds", "3", "--report-documents", str(stage_size)], scratch
        )
    if not args.no_prefect:
        log(f"Prefect and Dask on {stage_size} documents")
        results["prefect"] = module_child("bench.prefect_overhead", ["--n", str(stage_size), "--dask"], scratch)
    if not args.no_renderings:
        log(f"renderings at scale: {stage_size} distinct articles, and every pair of 300")
        arguments = ["--sizes", str(stage_size), "--oracle", "300", "--against", RENDERINGS_BASELINE]
        results["renderings_scale"] = module_child("bench.renderings_scale", arguments, scratch)

    results["total_bench_s"] = time.perf_counter() - began
    results["goals"] = evaluate(results)
    markdown = render_markdown(results)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1, default=str), "utf-8")
    args.out.with_suffix(".md").write_text(markdown, "utf-8")
    print(markdown)
    if not args.no_readme:
        update_readme(BENCHMARKS_DOC, results, markdown)
    log(f"done in {results['total_bench_s'] / 60:.1f} min; results in {args.out}")
    return 0


def against(refs: list[str], pairs: int, size: int, seed: int, work: Path, scratch: Path, write: bool = True) -> dict[str, Any]:
    """This code and the code at each of `refs`, side by side: `pairs` uncached end-to-end runs of each
    (with reports, stage cache off so every stage runs), in rotation so that drift in the machine's
    speed hits all alike, each timed per stage; then the library baselines on this code's warehouse.
    Written to bench/results/against-REF[-REF].{json,md} when `write`."""
    git = SNAPSHOT_GIT or git_state()  # of the snapshot, not of commits made while the runs go on
    corpus = work / f"corpus-{size}"
    log(f"building corpus of {size}")
    build_corpus(size, corpus, seed=seed)
    sides = {"this": CODE, **{ref: snapshot_ref(work, ref) for ref in refs}}
    runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    for pair in range(pairs):
        for side, code in sides.items():
            log(f"round {pair + 1}/{pairs}: {side}")
            runs[side].append(
                child(
                    "run",
                    {
                        "corpus": str(corpus),
                        "warehouse": str(fresh(work / f"w-{side}.duckdb")),
                        "reports": str(work / f"reports-{side}"),
                        "stage_cache": False,
                        "strict": side == "this",
                    },
                    scratch,
                    code=code,
                )
            )
            log(f"  {runs[side][-1]['wall_s']:.1f} s")
    log("library baselines on this code's warehouse")
    baselines = child(
        "baselines",
        {
            "corpus": str(corpus),
            "warehouse": str(work / "w-this.duckdb"),
            "scratch": str(scratch),
            "sample_every": 4 if size >= 400 else 1,
        },
        scratch,
    )
    results = {
        "command": "uv run python -m bench " + " ".join(sys.argv[1:]),
        "machine": machine(),
        "git": git,
        "refs": refs,
        "size": size,
        "seed": seed,
        "runs": runs,
        "baselines": baselines,
    }
    if write:
        markdown = render_against(results)
        out = RESULTS / f"against-{'-'.join(refs)}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=1, default=str), "utf-8")
        out.with_suffix(".md").write_text(markdown, "utf-8")
        print(markdown)
    return results


def render_against(results: dict[str, Any]) -> str:
    """The side-by-side runs as Markdown: per round each side's time, the median speed-ups, per stage the
    medians, and this code's stages against their library calls."""
    refs, this_runs = results["refs"], results["runs"]["this"]
    out = [
        f"## {results['size']:,} documents, this code ({results['git']['commit']}) against {', '.join(refs)}",
        "",
        f"`{results['command']}`; {results['machine']['nproc']} cores; each run in a fresh process, "
        "no translation package, stage cache off, reports written. Speed-up = the ref's time / this code's.",
        "",
        "| round | this, s (CPU s) | " + " | ".join(f"{ref}, s (CPU s)" for ref in refs) + " |",
        "|---:|---:|" + "---:|" * len(refs),
    ]
    for i, t in enumerate(this_runs):
        out.append(
            f"| {i + 1} | {t['wall_s']:.1f} ({t['cpu_s']:.1f}) | "
            + " | ".join(f"{r['wall_s']:.1f} ({r['cpu_s']:.1f})" for r in (results["runs"][ref][i] for ref in refs))
            + " |"
        )
    out += [""] + [
        f"Median speed-up over {ref}: {ratio['wall']:.2f}x wall, {ratio['cpu']:.2f}x CPU."
        for ref, ratio in speedups(results).items()
    ]
    out += [
        "",
        "| stage | this, median s | " + " | ".join(f"{ref}, median s" for ref in refs) + " |",
        "|---|---:|" + "---:|" * len(refs),
    ]
    for stage in this_runs[0]["stages_s"]:
        medians = [statistics.median(r["stages_s"].get(stage, 0.0) for r in results["runs"][side]) for side in ("this", *refs)]
        out.append(f"| {stage} | " + " | ".join(f"{m:.2f}" for m in medians) + " |")
    stage_results = {
        "runs": {str(results["size"]): this_runs[-1]},
        "stage_size": results["size"],
        "baselines": results["baselines"],
    }
    out += [
        "",
        "This code's last run against each stage's library call alone (CPU ratio judged):",
        "",
        "| stage | s (CPU s) | library alone, s (CPU s) | ratio wall / CPU | library call |",
        "|---|---:|---:|---:|---|",
    ]
    out += [
        f"| {r['stage']} | {r['seconds']:.2f} ({r['cpu_s'] or 0:.2f}) | {r['baseline_s']:.2f} "
        f"({r['baseline_cpu_s'] or 0:.2f}) | {r['ratio']:.2f}x / {r['ratio_cpu'] or 0:.2f}x | {r['library']} |"
        for r in stage_rows(stage_results)
        if r["baseline_s"]
    ]
    return "\n".join(out) + "\n"


def render_only(source: Path, out: Path, readme: bool) -> int:
    results = json.loads(source.read_text("utf-8"))
    results["goals"] = evaluate(results)
    markdown = render_markdown(results)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1, default=str), "utf-8")
    out.with_suffix(".md").write_text(markdown, "utf-8")
    print(markdown)
    if readme:
        update_readme(BENCHMARKS_DOC, results, markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
