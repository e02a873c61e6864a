"""`ingest run`: ingest files into the warehouse, reporting to Prefect when its server is up.

Without `--prefect`/`--no-prefect` the run goes through the `ingest` flow if the Prefect
server of the active profile answers (`make serve`: the run shows in its UI), and otherwise
calls the same stages directly, so nobody waits for a temporary server to start. `--prefect`
insists on the flow (starting a temporary server if none is up); `--dask` needs it too.
"""

from __future__ import annotations

import contextlib
import os
import socket
import urllib.parse
from pathlib import Path
from typing import Iterator, List, NoReturn, Optional

import typer

from ..errors import INSTALL_FROM_FILE, IngestError, WarehouseLockedError, command, install_command
from ..settings import DEFAULTS, TRANSLATE_MODES, RunOptions, describe
from ..translate.packages import broken_packages
from .consoles import Exit, err, fail, say, warn
from .models import warn_broken

WAREHOUSE_ENV, REPORTS_ENV = "INGEST_WAREHOUSE", "INGEST_REPORTS"


def warehouse_option(help_text: str = describe("warehouse_path")) -> Path:
    return typer.Option(DEFAULTS.warehouse_path, "--warehouse", envvar=WAREHOUSE_ENV, help=help_text)


def reports_option() -> Path:
    return typer.Option(DEFAULTS.reports_dir, "--reports", envvar=REPORTS_ENV, help=describe("reports_dir"))


def run(paths: List[Path] = typer.Argument(None, help=describe("paths"), show_default=False),
        warehouse_path: Path = warehouse_option(),
        reports: Path = reports_option(),
        prefect: Optional[bool] = typer.Option(
            None, "--prefect/--no-prefect", show_default=False,
            help="Run the `ingest` flow (starting a temporary Prefect server if none answers) or call the "
                 "stages directly. Default: the flow when the profile's Prefect server answers, else directly."),
        dask: bool = typer.Option(DEFAULTS.dask, "--dask", help=describe("dask")),
        dask_address: Optional[str] = typer.Option(DEFAULTS.dask_address, "--dask-address", metavar="tcp://HOST:PORT",
                                                   help=describe("dask_address")),
        dask_workers: int = typer.Option(DEFAULTS.dask_workers, "--dask-workers", help=describe("dask_workers")),
        batch_size: int = typer.Option(DEFAULTS.batch_size, "--batch-size", help=describe("batch_size")),
        no_stage_cache: bool = typer.Option(False, "--no-stage-cache",
                                            help="Recompute every stage (the cache next to the warehouse is not read or written)."),
        follow_links: bool = typer.Option(DEFAULTS.follow_links, "--follow-links", help=describe("follow_links")),
        translate: str = typer.Option(DEFAULTS.translate, "--translate", metavar="|".join(TRANSLATE_MODES),
                                      help=describe("translate")),
        allow_failures: bool = typer.Option(False, "--allow-failures",
                                            help="Exit 0 even when some files failed (they are still listed).")) -> None:
    """Ingest files or folders into the warehouse and write the consistency report.

    Exit status: 0 done, 1 some files failed (see --allow-failures) or the run failed, 2 usage,
    3 the warehouse is locked by another process.
    """
    if translate not in TRANSLATE_MODES:
        fail(f"unknown --translate {translate!r}; choose one of {', '.join(TRANSLATE_MODES)}", Exit.USAGE)
    # Paths are made absolute here: the flow resolves relative ones against the project root.
    options = RunOptions(paths=tuple(str(Path(p).resolve()) for p in (paths or DEFAULTS.paths)),
                         warehouse_path=str(warehouse_path.resolve()), reports_dir=str(reports.resolve()),
                         batch_size=batch_size, dask=dask, dask_address=dask_address, dask_workers=dask_workers,
                         stage_cache=not no_stage_cache, follow_links=follow_links, translate=translate)
    missing = [p for p in options.paths if not Path(p).exists()]
    if missing:
        fail(f"input path(s) not found: {', '.join(missing)}", Exit.USAGE)
    if prefect is False and options.uses_dask:
        fail("--dask and --dask-address run the flow's tasks on Dask; drop --no-prefect", Exit.USAGE)
    if dask_address:
        _check_scheduler(dask_address)
    server = _running_server() if prefect is not False else None
    try:
        with progress_bar() as progress:
            result = _run_flow(options, server, progress) if prefect or options.uses_dask or server \
                else _run_direct(options, progress)
    except WarehouseLockedError as error:
        fail(str(error), Exit.LOCKED)
    except IngestError as error:
        fail(str(error))
    except Exception as error:  # noqa: BLE001 - a damaged file or a full disk gets its one line
        fail_on_warehouse_fault(options.warehouse_path, error)
    _print_result(result)
    warn_broken(broken_packages())
    if result["failed"] and not allow_failures:
        raise typer.Exit(int(Exit.FAILED))


# A scheduler that is up accepts a connection at once; Dask's own client waits ~45 s, then raises.
SCHEDULER_CONNECT_TIMEOUT_S = 5.0


def _check_scheduler(address: str) -> None:
    """Fail in seconds, with one line, when nothing listens at the Dask scheduler address."""
    parts = urllib.parse.urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if parts.scheme not in ("tcp", "tls") or not host or not port:
        fail(f"--dask-address {address!r} is not a scheduler address; write it as tcp://HOST:PORT", Exit.USAGE)
    try:
        socket.create_connection((host, port), timeout=SCHEDULER_CONNECT_TIMEOUT_S).close()
    except OSError as error:
        fail(f"no Dask scheduler answers at {address} ({error.strerror or error}); start one (`uv run dask "
             "scheduler`) and give its address, or use --dask for a local cluster")


def fail_on_warehouse_fault(path: str | Path, error: Exception) -> NoReturn:
    """End the command with one line for a DuckDB error that means a damaged warehouse or failed storage
    (a disk that filled up during the run); anything else is a bug and is raised as it is."""
    from .. import warehouse

    fault = warehouse.known_fault(path, error)
    if fault is None:
        raise error
    fail(str(fault))


def _running_server() -> str | None:
    """The API address of the active profile's Prefect server if it answers (`make serve`)."""
    _quiet_prefect()
    from ..prefect_server import answers, configured_api_url

    api_url = configured_api_url()
    if api_url and answers(api_url):
        return api_url
    if api_url:
        warn(f"no Prefect server answers at {api_url} (a `make serve` that ended without `make stop`?); running "
             "without it. `make serve` starts the project's server again, `make stop` forgets this address.")
    return None


def _quiet_prefect() -> None:
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("DO_NOT_TRACK", "1")


@contextlib.contextmanager
def progress_bar() -> Iterator:
    """A transient progress bar on stderr; `progress(step, done, total)` updates it."""
    from rich.progress import Progress

    with Progress(console=err, transient=True) as bar:
        tasks: dict[str, int] = {}

        def progress(step: str, done: int, total: int) -> None:
            if step not in tasks:
                tasks[step] = bar.add_task(step, total=total)
            bar.update(tasks[step], completed=done, total=total)

        yield progress


def _run_direct(options: RunOptions, progress) -> dict:
    from ..run.runner import run as run_in_process

    return run_in_process(options, progress=progress).result()


def _run_flow(options: RunOptions, server: str | None, progress) -> dict:
    from ..flow import ingest, progress_to
    from ..prefect_server import temporary_server

    with contextlib.ExitStack() as stack:
        if server:
            say(f"Prefect: reporting to the server at {server}", err)
        else:
            say("Prefect: starting a temporary server for this run (it stops with the run)", err)
            say(f"Prefect: temporary server at {stack.enter_context(temporary_server())}", err)
        stack.enter_context(progress_to(progress))
        return ingest(**{**options.as_dict(), "paths": list(options.paths)})


def _print_result(result: dict) -> None:
    missing = result.get("missing") or []
    say(f"{result['files']} files: {result['loaded']} loaded, {result['skipped']} unchanged (skipped), "
        f"{result['failed']} failed, {result['duplicates']} duplicate"
        + (f", {len(missing)} missing (file gone)" if missing else ""))
    for doc_id, reason in (result.get("errors") or {}).items():
        say(f"  failed {doc_id}: {reason}")
    for doc_id in missing:
        say(f"  missing {doc_id}: file gone; its rows leave the checks (`{command('prune')}` removes them)")
    for message in result.get("warnings") or []:
        warn(message)
    for pair in result.get("missing_pairs") or []:
        lang = pair.split("->")[0]
        say(f"  no translation package for {pair}: `{install_command(lang)}` or `{INSTALL_FROM_FILE}`")
    if "work" in result:
        say("  stages: " + ", ".join(
            f"{stage} {result['work'].get(stage, 0)} computed / {result['cached'].get(stage, 0)} cached"
            for stage in ("prepare", "translate", "extract")))
    workers = [w for w in result.get("workers") or [] if not w.startswith("pid ")]
    if workers:
        say(f"  stages ran on {len(workers)} Dask worker(s): {', '.join(workers)}")
    if result.get("filled"):
        say(f"  translated after the checks: {result['filled']} segment(s)")
    if result.get("waiting"):
        say(f"  {result['waiting']} segment(s) wait for a translation: `{command('translate')}` fills them")
    for path in result.get("reports") or []:
        say(f"  report: {path}")


def prune(warehouse_path: Path = warehouse_option()) -> None:
    """Remove the rows of documents whose source file is gone (status `missing`)."""
    from ..run.runner import prune as prune_warehouse

    try:
        removed = prune_warehouse(warehouse_path)
    except FileNotFoundError as error:
        fail(str(error), Exit.USAGE)
    except WarehouseLockedError as error:
        fail(str(error), Exit.LOCKED)
    except IngestError as error:
        fail(str(error))
    except Exception as error:  # noqa: BLE001 - a damaged file or a full disk gets its one line
        fail_on_warehouse_fault(warehouse_path, error)
    for doc_id in removed:
        say(f"removed {doc_id}")
    say(f"{len(removed)} missing document(s) removed; `{command('report')}` rewrites the report")
