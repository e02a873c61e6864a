"""`ingest run`: ingest files into the warehouse, reporting to Prefect when its server is up.

Without `--prefect`/`--no-prefect` the run goes through the `ingest` flow if the Prefect
server of the active profile answers (`make serve`: the run shows in its UI), and otherwise
calls the same stages directly, so nobody waits for a temporary server to start. `--prefect`
insists on the flow (starting a temporary server if none is up); `--dask` needs it too.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn, Optional, cast

import typer

from ..errors import (
    INSTALL_FROM_FILE,
    IngestError,
    SchedulerAddressError,
    SchedulerError,
    WarehouseLockedError,
    command,
    install_command,
)
from ..scheduler import check_scheduler
from ..settings import DEFAULTS, NO_REPORTS, RunOptions, describe, keyword_parameters
from ..translate.packages import broken_packages
from .consoles import Exit, err, fail, say, warn
from .models import warn_broken


def _field(name: str) -> dataclasses.Field:
    return next(f for f in dataclasses.fields(RunOptions) if f.name == name)


def _run_option(name: str, help_text: str | None = None) -> Any:
    """The typer option of one run parameter: its flags (`--the-name` unless RunOptions spells them),
    environment variable, help text and default, all from RunOptions."""
    meta = _field(name).metadata
    flags = meta["flags"] or ("--" + name.replace("_", "-"),)
    default = _field(name).default
    return typer.Option(
        list(default) if isinstance(default, tuple) else default,
        *flags,
        envvar=meta["env"],
        metavar=meta["metavar"],
        help=help_text or meta["help"],
    )


def warehouse_option(help_text: str | None = None) -> Any:
    return _run_option("warehouse_path", help_text)


def reports_option(help_text: str | None = None) -> Any:
    return _run_option("reports_dir", help_text)


def _reports_dir(value: Path) -> str:
    """The reports folder `--reports` names, made absolute; "none" as given (`RunOptions`: no report
    files; the command line's paths lose a "./", so a folder named so is given by its absolute path)."""
    return str(value) if str(value) == NO_REPORTS else str(value.resolve())


# What `ingest run` takes besides the run parameters.
_OWN_OPTIONS = [
    inspect.Parameter(
        "prefect",
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Optional[bool],  # noqa: UP045 (typer reads it)
        default=typer.Option(
            None,
            "--prefect/--no-prefect",
            show_default=False,
            help="Run the `ingest` flow (starting a temporary Prefect server if none answers) or call the "
            "stages directly. Default: the flow when the profile's Prefect server answers, else directly.",
        ),
    ),
    inspect.Parameter(
        "allow_failures",
        inspect.Parameter.KEYWORD_ONLY,
        annotation=bool,
        default=typer.Option(False, "--allow-failures", help="Exit 0 even when some files failed (they are still listed)."),
    ),
]
# Paths on the command line are files or folders, given as arguments; the rest are options.
_CLI_TYPES: dict[str, Any] = {"paths": list[Path], "warehouse_path": Path, "reports_dir": Path, "exclude": list[str]}


def _parameters() -> list[inspect.Parameter]:
    """The parameters of `ingest run`: every run parameter (`RunOptions`), then its own."""
    parameters = []
    for parameter in keyword_parameters():
        if parameter.name == "paths":
            default = typer.Argument(None, help=describe("paths"), show_default=False)
        else:
            default = _run_option(parameter.name)
        parameters.append(parameter.replace(default=default, annotation=_CLI_TYPES.get(parameter.name, parameter.annotation)))
    return parameters + _OWN_OPTIONS


def run(**values: Any) -> None:
    """Ingest files or folders into the warehouse and write the consistency report.

    Exit status: 0 done, 1 some files failed (see --allow-failures) or the run failed, 2 usage,
    3 the warehouse is locked by another process.
    """
    prefect, allow_failures = values.pop("prefect"), values.pop("allow_failures")
    # Paths are made absolute here: the flow resolves relative ones against the project root.
    options = RunOptions(
        **{
            **values,
            "paths": tuple(str(Path(p).resolve()) for p in (values["paths"] or DEFAULTS.paths)),
            "warehouse_path": str(Path(values["warehouse_path"]).resolve()),
            "reports_dir": _reports_dir(Path(values["reports_dir"])),
        }
    )
    missing = [p for p in options.paths if not Path(p).exists()]
    if missing:
        fail(f"input path(s) not found: {', '.join(missing)}", Exit.USAGE)
    if prefect is False and options.uses_dask:
        fail("--dask and --dask-address run the flow's tasks on Dask; drop --no-prefect", Exit.USAGE)
    if options.dask_address:
        try:
            check_scheduler(options.dask_address)
        except SchedulerAddressError as error:
            fail(str(error), Exit.USAGE)
        except SchedulerError as error:
            fail(str(error))
    server = _running_server() if prefect is not False else None
    try:
        with progress_bar() as progress:
            result = (
                _run_flow(options, server, progress) if prefect or options.uses_dask or server else _run_direct(options, progress)
            )
    except WarehouseLockedError as error:
        fail(str(error), Exit.LOCKED)
    except IngestError as error:
        fail(str(error))
    except Exception as error:
        fail_on_warehouse_fault(options.warehouse_path, error)
    _print_result(result)
    warn_broken(broken_packages())
    if result["failed"] and not allow_failures:
        raise typer.Exit(int(Exit.FAILED))


run.__signature__ = inspect.Signature(_parameters(), return_annotation=None)  # type: ignore[attr-defined]


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
        warn(
            f"no Prefect server answers at {api_url} (a `make serve` that ended without `make stop`?); running "
            "without it. `make serve` starts the project's server again, `make stop` forgets this address."
        )
    return None


def _quiet_prefect() -> None:
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("DO_NOT_TRACK", "1")


@contextlib.contextmanager
def progress_bar() -> Iterator:
    """A transient progress bar on stderr; `progress(step, done, total)` updates it."""
    from rich.progress import Progress, TaskID

    with Progress(console=err, transient=True) as bar:
        tasks: dict[str, TaskID] = {}

        def progress(step: str, done: int, total: int) -> None:
            if step not in tasks:
                tasks[step] = bar.add_task(step, total=total)
            bar.update(tasks[step], completed=done, total=total)

        yield progress


def _run_direct(options: RunOptions, progress) -> dict:
    from ..run.runner import run as run_in_process

    # one stage worker per core (the entry point is safe to import again in a spawned worker)
    return run_in_process(options, progress=progress, processes=0).result()


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
        # The flow returns a State; calling it gives that state's data (the run's result dict), which
        # Prefect's annotations cannot express.
        return cast(dict, ingest(**{**options.as_dict(), "paths": list(options.paths), "exclude": list(options.exclude)}))


def _print_result(result: dict) -> None:
    missing = result.get("missing") or []
    say(result["line"])
    for doc_id, reason in (result.get("errors") or {}).items():
        say(f"  failed {doc_id}: {reason}")
    for doc_id in missing:
        say(f"  missing {doc_id}: file gone; its rows leave the checks (`{command('prune')}` removes them)")
    for doc_id, reason in (result.get("excluded") or {}).items():
        say(f"  excluded {doc_id}: {reason}")
    for message in result.get("warnings") or []:
        warn(message)
    for pair in result.get("missing_pairs") or []:
        lang = pair.split("->")[0]
        say(f"  no translation package for {pair}: `{install_command(lang)}` or `{INSTALL_FROM_FILE}`")
    say(f"  {result['stages_line']}")
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
    except Exception as error:
        fail_on_warehouse_fault(warehouse_path, error)
    for doc_id in removed:
        say(f"removed {doc_id}")
    say(f"{len(removed)} missing document(s) removed; `{command('report')}` rewrites the report")
