"""Prefect overhead: the same 1,000-document run through the `ingest` flow and with the stages called directly.

    uv run python -m bench.prefect_overhead [--n 1000] [--batch-size 50] [--out bench/results/prefect_overhead.json]

The documents are recombined from the seeds and, when present, ../shared/corpus (`bench.corpus`)
into a temporary folder. A Prefect server is started for the benchmark (127.0.0.1, free port,
temporary PREFECT_HOME) the way `make serve` does, so the flow is timed as it runs against a
server and the server's start-up is reported apart, as a one-off cost. Both paths are warmed up
first on the seeds (models and dictionaries loaded, Prefect client connected), then:

- direct: `run_pipeline` (stages in batches in this process, stage cache, batched load);
- flow: the `ingest` flow (plan, stage tasks on the local task runner, Parquet staging, load task,
  report task with artifacts), each writing its own warehouse and stage cache;
- with `--dask`, dask: the flow with its stages on a local Dask cluster of `--dask-workers` processes
  (cluster start included), reported as its speed-up over the flow on one process;
- each followed by the same run again on the unchanged input;
- `--repeat` rounds (default 2) in ABBA order, each on a fresh warehouse and stage cache; the
  figures are the means per path.

Reported: flow / direct (goal <= 1.15) and re-run / first run (goal <= 0.05), plus the
table counts of both warehouses, which must agree.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "prefect_overhead.json"
GOALS = {"flow_over_direct": 1.15, "rerun_over_first": 0.05}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _healthy(api_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{api_url}/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def start_server(home: Path, timeout: float = 300.0) -> tuple[subprocess.Popen, str, float]:
    """A Prefect server on 127.0.0.1:<free port> with its own home; (process, API URL, start-up seconds)."""
    port = _free_port()
    api_url = f"http://127.0.0.1:{port}/api"
    env = {**os.environ, "PREFECT_HOME": str(home), "PREFECT_PROFILES_PATH": str(home / "profiles.toml")}
    env.pop("PREFECT_API_URL", None)
    home.mkdir(parents=True, exist_ok=True)
    log = (home / "server.log").open("wb")
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("prefect")), "server", "start", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    while not _healthy(api_url):
        if process.poll() is not None or time.perf_counter() - started > timeout:
            stop_server(process)
            raise SystemExit(f"the Prefect server did not start; see {home / 'server.log'}")
        time.sleep(0.5)
    return process, api_url, time.perf_counter() - started


def stop_server(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()


def _flush_prefect_logs() -> None:
    """Send the buffered run logs while the server still runs."""
    from prefect.logging.handlers import APILogWorker

    APILogWorker.drain_all(timeout=10)


def _counts(path: Path) -> dict[str, int]:
    from ingest import warehouse

    con = warehouse.connect(path, read_only=True)
    try:
        counts = warehouse.table_counts(con)
    finally:
        con.close()
    counts.pop("runs", None)
    return counts


def _timed(call):
    started = time.perf_counter()
    result = call()
    return result, time.perf_counter() - started


def run(
    n: int, batch_size: int, work: Path, api_url: str | None = None, repeat: int = 2, dask: bool = False, dask_workers: int = 2
) -> dict:
    from bench.corpus import build_corpus, load_sources

    corpus = work / "corpus"
    build_corpus(n, corpus)
    seeds = work / "seeds"
    shutil.copytree(ROOT / "seeds", seeds)

    import_started = time.perf_counter()
    from prefect.settings import PREFECT_API_URL, temporary_settings

    from ingest import run_pipeline
    from ingest.flow import ingest

    import_s = time.perf_counter() - import_started

    def direct(db: Path):
        summary = run_pipeline([corpus], db, db.with_suffix(".reports"), batch_size=batch_size)
        return {"loaded": len(summary.loaded), "skipped": len(summary.skipped), "work": summary.work}

    def flow(db: Path):
        result = ingest(
            paths=[str(corpus)], warehouse_path=str(db), reports_dir=str(db.with_suffix(".reports")), batch_size=batch_size
        )
        return {key: result[key] for key in ("loaded", "skipped", "work")}

    def on_dask(db: Path):  # the flow with its stages on a local Dask cluster started for the run
        result = ingest(
            paths=[str(corpus)],
            warehouse_path=str(db),
            reports_dir=str(db.with_suffix(".reports")),
            batch_size=batch_size,
            dask=True,
            dask_workers=dask_workers,
        )
        return {key: result[key] for key in ("loaded", "skipped", "work", "workers")}

    paths = {"direct": direct, "flow": flow, **({"dask": on_dask} if dask else {})}
    # ABBA order (direct, flow, flow, direct, ...) so a drift in the machine's load hits all alike.
    order = [tuple(paths) if i % 2 == 0 else tuple(reversed(paths)) for i in range(max(1, repeat))]
    runs: list[dict] = []
    server, server_start_s = None, None
    if not api_url:
        server, api_url, server_start_s = start_server(work / "prefect-home")
    try:
        with temporary_settings(updates={PREFECT_API_URL: api_url}):
            run_pipeline([seeds], work / "warm-direct.duckdb", None, batch_size=batch_size)
            ingest(paths=[str(seeds)], warehouse_path=str(work / "warm-flow.duckdb"), reports_dir=None, batch_size=batch_size)
            for number, pair in enumerate(order):
                for path in pair:
                    db = work / f"{path}-{number}.duckdb"  # a fresh warehouse and stage cache each time
                    first, first_s = _timed(lambda: paths[path](db))
                    again, rerun_s = _timed(lambda: paths[path](db))
                    runs.append(
                        {
                            "path": path,
                            "first_s": round(first_s, 2),
                            "rerun_s": round(rerun_s, 2),
                            "first": first,
                            "rerun": again,
                            "counts": _counts(db),
                        }
                    )
            _flush_prefect_logs()
    finally:
        if server is not None:
            stop_server(server)

    def mean(path: str, key: str) -> float:
        values = [r[key] for r in runs if r["path"] == path]
        return sum(values) / len(values)

    direct_s, flow_s = mean("direct", "first_s"), mean("flow", "first_s")
    direct_rerun_s, flow_rerun_s = mean("direct", "rerun_s"), mean("flow", "rerun_s")
    counts = [r["counts"] for r in runs]
    on_dask = (
        {
            "dask_first": round(mean("dask", "first_s"), 2),
            "dask_workers": dask_workers,
            "dask_speedup_over_flow": round(flow_s / mean("dask", "first_s"), 4),
            "dask_speedup_over_direct": round(direct_s / mean("dask", "first_s"), 4),
        }
        if dask
        else {}
    )
    return {
        "documents": n,
        "batch_size": batch_size,
        "repeat": len(order),
        "corpus_sources": [s.name for s in load_sources()],
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "load_average_after": os.getloadavg(),
        },
        "seconds": {
            "direct_first": round(direct_s, 2),
            "flow_first": round(flow_s, 2),
            "direct_rerun": round(direct_rerun_s, 2),
            "flow_rerun": round(flow_rerun_s, 2),
        },
        "dask": on_dask,
        "ratios": {
            "flow_over_direct": round(flow_s / direct_s, 4),
            "flow_overhead_pct": round(100 * (flow_s / direct_s - 1), 2),
            "rerun_over_first_flow": round(flow_rerun_s / flow_s, 4),
            "rerun_over_first_direct": round(direct_rerun_s / direct_s, 4),
        },
        "goals": GOALS,
        "met": {
            "flow_over_direct": flow_s / direct_s <= GOALS["flow_over_direct"],
            "rerun_over_first": flow_rerun_s / flow_s <= GOALS["rerun_over_first"],
        },
        "one_off_seconds": {
            "prefect_server_start": round(server_start_s, 2) if server_start_s else None,
            "import_prefect_and_flow": round(import_s, 2),
        },
        "runs": [{k: v for k, v in r.items() if k != "counts"} for r in runs],
        "warehouses_agree": all(c == counts[0] for c in counts),
        "table_counts": counts[0],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="documents (default 1000)")
    parser.add_argument("--batch-size", type=int, default=50)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--api-url", help="use this running Prefect server (e.g. make serve's) instead of starting one")
    parser.add_argument("--repeat", type=int, default=2, help="first runs per path, in ABBA order (default 2)")
    parser.add_argument(
        "--dask", action="store_true", help="also run the flow with its stages on a local Dask cluster (--dask-workers processes)"
    )
    parser.add_argument("--dask-workers", type=int, default=2)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="ingest-bench-prefect-"))
    try:
        results = run(args.n, args.batch_size, work, args.api_url, args.repeat, args.dask, args.dask_workers)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    temporary = args.out.with_name(args.out.name + ".tmp")
    temporary.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", "utf-8")
    os.replace(temporary, args.out)
    seconds, ratios = results["seconds"], results["ratios"]
    print(
        f"{args.n} documents: direct {seconds['direct_first']}s, flow {seconds['flow_first']}s "
        f"-> flow/direct {ratios['flow_over_direct']} (goal <= {GOALS['flow_over_direct']}); "
        f"unchanged re-run {seconds['flow_rerun']}s = {ratios['rerun_over_first_flow']:.1%} of the first flow run "
        f"(goal <= {GOALS['rerun_over_first']:.0%}); warehouses agree: {results['warehouses_agree']}"
    )
    if results["dask"]:
        print(
            f"on Dask ({args.dask_workers} local workers): {results['dask']['dask_first']}s, "
            f"{results['dask']['dask_speedup_over_flow']}x the flow on one process"
        )
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
