"""`ingest run`: the `ingest` flow locally (or the stages directly with --no-prefect)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

import typer

from ..errors import INSTALL_FROM_FILE, WarehouseError, install_command
from ..settings import DEFAULTS, RunOptions, describe
from ..translate.packages import broken_packages
from .consoles import console, err
from .models import warn_broken


def _quiet_prefect() -> None:
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("DO_NOT_TRACK", "1")
    # Prefect's temporary server migrates its database on first start; 20 s is not enough
    # on a fresh, busy 2-core machine.
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")


def _api_healthy(api_url: str) -> bool:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"{api_url.rstrip('/')}/health", timeout=3) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _prefect_settings():
    """Settings for a local flow run: the project's server if `make serve` runs, else a temporary one."""
    from prefect.settings import PREFECT_API_URL, PREFECT_SERVER_EPHEMERAL_ENABLED, temporary_settings

    api_url = PREFECT_API_URL.value()
    if api_url and _api_healthy(api_url):
        err.print(f"Prefect: reporting to the server at {api_url}")
        return temporary_settings()
    if api_url:
        err.print(f"[yellow]warning:[/yellow] no Prefect server answers at {api_url} (a `make serve` that "
                  "ended without `make stop`?); running with a temporary server. `make serve` starts the "
                  "project's server again, `make stop` forgets this address.")
    # The project profile disables temporary servers after `make stop` (so that `prefect deployment
    # run` says there is no server instead of waiting forever); a local run wants one.
    return temporary_settings(updates={PREFECT_SERVER_EPHEMERAL_ENABLED: True}, restore_defaults={PREFECT_API_URL})


def run(paths: List[Path] = typer.Argument(None, help=describe("paths"), show_default=False),
        warehouse_path: Path = typer.Option(DEFAULTS.warehouse_path, "--warehouse", help=describe("warehouse_path")),
        reports: Path = typer.Option(DEFAULTS.reports_dir, "--reports", help=describe("reports_dir")),
        no_prefect: bool = typer.Option(False, "--no-prefect", help="Call the stages directly, without the flow."),
        dask: bool = typer.Option(DEFAULTS.dask, "--dask", help=describe("dask")),
        dask_address: Optional[str] = typer.Option(DEFAULTS.dask_address, "--dask-address", metavar="tcp://HOST:PORT",
                                                   help=describe("dask_address")),
        dask_workers: int = typer.Option(DEFAULTS.dask_workers, "--dask-workers", help=describe("dask_workers")),
        batch_size: int = typer.Option(DEFAULTS.batch_size, "--batch-size", help=describe("batch_size")),
        no_stage_cache: bool = typer.Option(False, "--no-stage-cache",
                                            help="Recompute every stage (the cache next to the warehouse is not read or written)."),
        follow_links: bool = typer.Option(DEFAULTS.follow_links, "--follow-links", help=describe("follow_links"))) -> None:
    """Run the `ingest` flow locally (no Prefect server needed)."""
    # Paths are made absolute here: the flow resolves relative ones against the project root.
    options = RunOptions(paths=tuple(str(Path(p).resolve()) for p in (paths or DEFAULTS.paths)),
                         warehouse_path=str(warehouse_path.resolve()), reports_dir=str(reports.resolve()),
                         batch_size=batch_size, dask=dask, dask_address=dask_address, dask_workers=dask_workers,
                         stage_cache=not no_stage_cache, follow_links=follow_links)
    missing = [p for p in options.paths if not Path(p).exists()]
    if missing:
        err.print(f"[red]error:[/red] input path(s) not found: {', '.join(missing)}")
        raise typer.Exit(2)
    if no_prefect and options.uses_dask:
        err.print("[red]error:[/red] --dask and --dask-address run the flow's tasks on Dask; drop --no-prefect")
        raise typer.Exit(2)
    try:
        result = _run_direct(options) if no_prefect else _run_flow(options)
    except WarehouseError as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(3)
    _print_result(result)
    warn_broken(broken_packages())


def _run_direct(options: RunOptions) -> dict:
    from rich.progress import Progress

    from ..run.runner import run as run_in_process

    with Progress(console=err, transient=True) as bar:
        tasks: dict[str, int] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done)

        summary = run_in_process(options, progress=progress)
    return {"files": summary.n_files, "loaded": len(summary.loaded), "skipped": len(summary.skipped),
            "failed": len(summary.failed), "duplicates": len(summary.duplicates), "missing": summary.missing,
            "missing_pairs": summary.missing_pairs, "reports": summary.report_paths, "errors": summary.failed,
            "work": summary.work, "cached": summary.cached}


def _run_flow(options: RunOptions) -> dict:
    _quiet_prefect()
    from ..flow import ingest

    with _prefect_settings():
        return ingest(**{**options.as_dict(), "paths": list(options.paths)})


def _print_result(result: dict) -> None:
    missing = result.get("missing") or []
    console.print(f"{result['files']} files: {result['loaded']} loaded, {result['skipped']} unchanged (skipped), "
                  f"{result['failed']} failed, {result['duplicates']} duplicate"
                  + (f", {len(missing)} missing (file gone)" if missing else ""))
    for doc_id, reason in (result.get("errors") or {}).items():
        console.print(f"  [yellow]failed[/yellow] {doc_id}: {reason}")
    for doc_id in missing:
        console.print(f"  [yellow]missing[/yellow] {doc_id}: file gone; its rows leave the checks (`ingest prune` "
                      "removes them)")
    for pair in result.get("missing_pairs") or []:
        lang = pair.split("->")[0]
        console.print(f"  no translation package for {pair}: `{install_command(lang)}` or `{INSTALL_FROM_FILE}`")
    if "work" in result:
        console.print("  stages: " + ", ".join(
            f"{stage} {result['work'].get(stage, 0)} computed / {result['cached'].get(stage, 0)} cached"
            for stage in ("prepare", "translate", "extract")))
    workers = [w for w in result.get("workers") or [] if not w.startswith("pid ")]
    if workers:
        console.print(f"  stages ran on {len(workers)} Dask worker(s): {', '.join(workers)}")
    for path in result.get("reports") or []:
        console.print(f"  report: {path}")


def prune(warehouse_path: Path = typer.Option(DEFAULTS.warehouse_path, "--warehouse",
                                              help=describe("warehouse_path"))) -> None:
    """Remove the rows of documents whose source file is gone (status `missing`)."""
    from ..run.runner import prune as prune_warehouse

    try:
        removed = prune_warehouse(warehouse_path)
    except FileNotFoundError as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2)
    except WarehouseError as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(3)
    for doc_id in removed:
        console.print(f"removed {doc_id}")
    console.print(f"{len(removed)} missing document(s) removed; `ingest report` rewrites the report")
