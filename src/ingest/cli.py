"""`ingest`: a thin command line over the library (run, report, sql, models)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from . import report, warehouse

DEFAULT_WAREHOUSE = Path("warehouse/ingest.duckdb")
DEFAULT_REPORTS = Path("reports")

app = typer.Typer(help="Ingest ja/zh technical articles into DuckDB, translate them offline and cross-check claims.",
                  no_args_is_help=True, add_completion=False)
console = Console()
err = Console(stderr=True)

try:
    from .cli_models import models_app
except ImportError:  # the model-management commands arrive with the translation package support
    models_app = None
if models_app is not None:
    app.add_typer(models_app, name="models", help="Install, list and remove argostranslate packages.")


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


@app.command()
def run(paths: List[Path] = typer.Argument(None, help="Files or folders to ingest (default: seeds/)."),
        warehouse_path: Path = typer.Option(DEFAULT_WAREHOUSE, "--warehouse", help="DuckDB file to fill."),
        reports: Path = typer.Option(DEFAULT_REPORTS, "--reports", help="Directory for the report."),
        no_prefect: bool = typer.Option(False, "--no-prefect", help="Call the stages directly, without the flow."),
        dask: bool = typer.Option(False, "--dask", help="Run the per-document stages on a local Dask cluster (127.0.0.1)."),
        dask_address: Optional[str] = typer.Option(None, "--dask-address", metavar="tcp://HOST:PORT",
                                                   help="Run the per-document stages on this existing Dask cluster."),
        dask_workers: int = typer.Option(2, "--dask-workers", help="Worker processes of the local Dask cluster."),
        batch_size: int = typer.Option(50, "--batch-size", help="Documents per stage task."),
        no_stage_cache: bool = typer.Option(False, "--no-stage-cache",
                                            help="Recompute every stage (the cache next to the warehouse is not read or written).")) -> None:
    """Run the `ingest` flow locally (no Prefect server needed)."""
    inputs = [str(p) for p in paths] if paths else ["seeds"]
    missing = [p for p in inputs if not Path(p).exists()]
    if missing:
        err.print(f"[red]error:[/red] input path(s) not found: {', '.join(missing)}")
        raise typer.Exit(2)
    if no_prefect and (dask or dask_address):
        err.print("[red]error:[/red] --dask and --dask-address run the flow's tasks on Dask; drop --no-prefect")
        raise typer.Exit(2)
    try:
        if no_prefect:
            result = _run_direct(inputs, warehouse_path, reports, batch_size, not no_stage_cache)
        else:
            result = _run_flow(inputs, warehouse_path, reports, dask=dask, dask_address=dask_address,
                               dask_workers=dask_workers, batch_size=batch_size, stage_cache=not no_stage_cache)
    except warehouse.WarehouseError as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(3)
    _print_result(result)


def _run_direct(inputs: list[str], warehouse_path: Path, reports: Path, batch_size: int = 50,
                stage_cache: bool = True) -> dict:
    from rich.progress import Progress

    from .pipeline import run_pipeline

    with Progress(console=err, transient=True) as bar:
        tasks: dict[str, int] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done)

        summary = run_pipeline(inputs, warehouse_path, reports, progress=progress, batch_size=batch_size,
                               stage_cache=stage_cache)
    return {"files": summary.n_files, "loaded": len(summary.loaded), "skipped": len(summary.skipped),
            "failed": len(summary.failed), "duplicates": len(summary.duplicates),
            "missing_pairs": summary.missing_pairs, "reports": summary.report_paths, "errors": summary.failed,
            "work": summary.work, "cached": summary.cached}


def _run_flow(inputs: list[str], warehouse_path: Path, reports: Path, **options) -> dict:
    _quiet_prefect()
    from .flow import ingest

    # Paths are made absolute here: the flow resolves relative ones against the project root.
    with _prefect_settings():
        return ingest(paths=[str(Path(p).resolve()) for p in inputs], warehouse_path=str(warehouse_path.resolve()),
                      reports_dir=str(reports.resolve()), **options)


def _print_result(result: dict) -> None:
    console.print(f"{result['files']} files: {result['loaded']} loaded, {result['skipped']} unchanged (skipped), "
                  f"{result['failed']} failed, {result['duplicates']} duplicate")
    for doc_id, reason in (result.get("errors") or {}).items():
        console.print(f"  [yellow]failed[/yellow] {doc_id}: {reason}")
    for pair in result.get("missing_pairs") or []:
        lang = pair.split("->")[0]
        console.print(f"  no translation package for {pair}: `ingest models install {lang}` "
                      f"or `ingest models install --from PATH.argosmodel`")
    if "work" in result:
        console.print("  stages: " + ", ".join(
            f"{stage} {result['work'].get(stage, 0)} computed / {result['cached'].get(stage, 0)} cached"
            for stage in ("prepare", "translate", "extract")))
    workers = [w for w in result.get("workers") or [] if not w.startswith("pid ")]
    if workers:
        console.print(f"  stages ran on {len(workers)} Dask worker(s): {', '.join(workers)}")
    for path in result.get("reports") or []:
        console.print(f"  report: {path}")


@app.command("report")
def report_command(warehouse_path: Path = typer.Option(DEFAULT_WAREHOUSE, "--warehouse"),
                   reports: Path = typer.Option(DEFAULT_REPORTS, "--reports")) -> None:
    """Rewrite the consistency report from the warehouse as it is."""
    con = _open_read_only(warehouse_path)
    try:
        for path in report.write_reports(con, reports):
            console.print(f"report: {path}")
    finally:
        con.close()


@app.command()
def sql(statement: str = typer.Argument(..., help="A SQL query; the warehouse is opened read-only."),
        warehouse_path: Path = typer.Option(DEFAULT_WAREHOUSE, "--warehouse"),
        max_width: int = typer.Option(60, help="Truncate cells wider than this.")) -> None:
    """Run a read-only SQL query on the warehouse and print the result as a table."""
    import duckdb

    con = _open_read_only(warehouse_path)
    try:
        columns, rows = warehouse.query(con, statement)
    except duckdb.Error as error:
        err.print(f"[red]SQL error:[/red] {error}")
        raise typer.Exit(1)
    finally:
        con.close()
    table = Table(*columns, show_lines=False)
    for row in rows:
        table.add_row(*(_cell(v, max_width) for v in row))
    console.print(table)
    console.print(f"{len(rows)} row(s)")


def _cell(value: object, width: int) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _open_read_only(path: Path):
    try:
        return warehouse.connect(path, read_only=True)
    except FileNotFoundError as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(2)
    except warehouse.WarehouseError as error:
        err.print(f"[red]error:[/red] {error}")
        raise typer.Exit(3)


@app.command("eval")
def eval_command(labels: Path = typer.Option(Path("tests/labels"), help="Directory of hand labels."),
                 seeds: Path = typer.Option(Path("seeds"), help="The seed articles."),
                 corpus: Path = typer.Option(Path("../shared/corpus"), help="The shared corpus (skipped if absent)."),
                 show_errors: int = typer.Option(0, help="Print up to N missed and N extra entities.")) -> None:
    """Entity and conflict precision/recall against the hand labels."""
    from .evaluate import evaluate, summary_rows

    inputs = [seeds] + ([corpus] if corpus.is_dir() else [])
    if not corpus.is_dir():
        err.print(f"[yellow]note:[/yellow] {corpus} not found; scoring the seeds only")
    result = evaluate(labels, inputs)
    table = Table("what", "gold", "predicted", "matched", "precision", "recall")
    for row in summary_rows(result):
        table.add_row(*(str(v) for v in row))
    console.print(table)
    for kind, items in (("missed", result.entities.misses), ("extra", result.entities.extras)):
        for doc, item in items[:show_errors]:
            console.print(f"  {kind}: {doc} {item}")


if __name__ == "__main__":
    app()
