"""The `ingest` Prefect flow: tasks over batches of `ingest.run`, one DuckDB writer, reports as artifacts.

What a run looks like in the Prefect UI:

    ingest                     the flow: resolves the parameters, owns the run id and the engine
    ├── plan                   mark gone documents missing, discover the inputs, skip the unchanged ones
    ├── stages <batch>         prepare -> translate -> extract for `batch_size` documents, each stage
    │                          from the stage cache when its inputs are unchanged; rows to Parquet
    │                          (with Dask: inside an `ingest-stages` subflow running on Dask)
    ├── load                   the only process that writes DuckDB: one transaction per batch
    └── check-and-report       the checks, the translation of what waits (`translate`: the report's
                               sentences first), the `runs` row, reports/, the report + conflicts artifacts

An unchanged re-run is `plan` and `check-and-report` only.

Tasks take and return plain data (sources, a `StageContext`, `StagedBatch` manifests), so the
stage batches run the same on a Dask worker as in this process. The logic is in `ingest.run`;
this module only schedules it. It lives in the package (not in flows/) so Dask workers can
import the tasks by name; `flows/deployment.py` is the deployment's entrypoint.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import inspect
import json
import logging
import re
import shutil
from collections import deque
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, TypedDict

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE
from prefect.futures import as_completed
from prefect.states import Completed, State
from prefect.task_runners import ThreadPoolTaskRunner
from prefect.tasks import exponential_backoff

from . import outputs
from .deploy import project_root
from .records import SourceFile, Status
from .run.batches import StageContext, batches, crash_reason, failed_batch, process_batch_where_budgets_hold
from .run.faults import is_transient
from .run.runner import Progress, Run
from .run.staging import StagedBatch, default_staging_dir
from .scheduler import check_scheduler
from .settings import DEFAULTS, RunOptions, args_section, keyword_parameters


def _transient(task: Any, task_run: Any, state: State) -> bool:
    """retry_condition_fn: retry only faults that may go away (a locked warehouse, I/O, a lost worker)."""
    try:
        error = state.result(raise_on_failure=False)
    except Exception:
        return False
    return is_transient(error if isinstance(error, BaseException) else None)


class _RetryOptions(TypedDict):
    """The retry options every task shares (a TypedDict, so that `task(**_RETRIES)` is checked)."""

    retry_condition_fn: Callable[[Any, Any, State], bool]
    retry_jitter_factor: float


_RETRIES: _RetryOptions = {"retry_condition_fn": _transient, "retry_jitter_factor": 0.5}


@task(name="plan", cache_policy=NO_CACHE, persist_result=False, retries=3, retry_delay_seconds=exponential_backoff(2), **_RETRIES)
def plan_task(run: Run) -> list[SourceFile]:
    """Mark gone documents missing, discover the inputs and leave out those the warehouse holds
    with the same bytes and fingerprint (`Run.pending`)."""
    return run.pending()


# No tags on these tasks: a tagged task run asks the server for concurrency slots first, which on the
# SQLite server stalled ~2 s every few tasks (503, retried) in the 1,000-document benchmark.
@task(
    name="stages",
    task_run_name="stages {label}",
    cache_policy=NO_CACHE,
    persist_result=False,
    retries=2,
    retry_delay_seconds=exponential_backoff(1),
    **_RETRIES,
)
def stages_task(label: str, sources: list[SourceFile], context: StageContext) -> StagedBatch:
    """prepare, translate and extract one batch; its rows go to Parquet staging files."""
    batch = process_batch_where_budgets_hold(sources, context, isolate=False, label=label)
    failed = [o.doc_id for o in batch.outcomes.values() if o.status == Status.FAILED]
    if failed:
        get_run_logger().warning("%d of %d documents failed: %s", len(failed), len(sources), ", ".join(failed))
    return batch


# A progress callback of the process that calls the flow (the CLI's progress bar); tasks run in this
# process's threads, and Dask batches are counted here as their futures complete.
_progress: Progress | None = None


@contextlib.contextmanager
def progress_to(callback: Progress) -> Iterator[None]:
    """Report the stages' and the load's progress of flow runs started in this block to `callback`."""
    global _progress
    previous, _progress = _progress, callback
    try:
        yield
    finally:
        _progress = previous


def _report(step: str, done: int, total: int) -> None:
    if _progress is not None:
        _progress(step, done, total)


def _run_batches(
    todo: list[SourceFile], context: StageContext, batch_size: int, max_concurrency: int, *, submit: bool
) -> list[StagedBatch]:
    """Run the batches' tasks: submitted to the task runner (Dask), at most `max_concurrency`
    unfinished at a time, or one after the other in this thread (`submit=False`: the flow's own
    thread, the process's main one, where the stage budget can stop one long call).

    A batch whose task fails for good is split: each of its documents gets a task of its own,
    so a document that breaks a stage fails its own task and the others are ingested.
    """
    logger = get_run_logger()
    queue = deque(batches(todo, batch_size))
    inflight: dict[Any, tuple[str, list[SourceFile]]] = {}
    staged: list[StagedBatch] = []
    while queue or inflight:
        if submit:
            while queue and len(inflight) < max(1, max_concurrency):
                label, sources = queue.popleft()
                inflight[stages_task.submit(label, sources, context)] = (label, sources)
            future = next(as_completed(list(inflight)))
            label, sources = inflight.pop(future)
            future.wait()
            state = future.state
        else:
            label, sources = queue.popleft()
            state = stages_task(label, sources, context, return_state=True)
        result = state.result(raise_on_failure=False)
        if state.is_completed():
            assert isinstance(result, StagedBatch)  # what stages_task returns
            staged.append(result)
            _report("stages", sum(len(batch.outcomes) for batch in staged), len(todo))
        elif len(sources) > 1:
            logger.warning("batch %s failed (%r); retrying its %d documents one per task", label, result, len(sources))
            queue.extend((f"{label}.{i:03d}", [source]) for i, source in enumerate(sources, 1))
        else:
            reason = crash_reason(result) if isinstance(result, BaseException) else str(state.message)
            logger.error("document %s failed: %s", sources[0].doc_id, reason)
            staged.append(failed_batch(label, sources, reason, context))
            _report("stages", sum(len(batch.outcomes) for batch in staged), len(todo))
    return staged


def write_plan(todo: list[SourceFile], path: Path) -> str:
    """The documents to process, as a file: a subflow's parameters are stored by the server, a plan is not."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([dataclasses.asdict(s) for s in todo], ensure_ascii=False), "utf-8")
    return str(path)


@flow(name="ingest-stages", persist_result=False, validate_parameters=False)
def ingest_stages(
    plan_file: str, context: StageContext, batch_size: int = DEFAULTS.batch_size, max_concurrency: int = DEFAULTS.max_concurrency
) -> list[StagedBatch]:
    """The per-document stages of a plan, in batches on this subflow's task runner (Dask)."""
    todo = [SourceFile(**s) for s in json.loads(Path(plan_file).read_text("utf-8"))]
    return _run_batches(todo, context, batch_size, max_concurrency, submit=True)


@task(name="load", cache_policy=NO_CACHE, persist_result=False, retries=3, retry_delay_seconds=exponential_backoff(2), **_RETRIES)
def load_task(run: Run, staged: list[StagedBatch]) -> None:
    """The single DuckDB writer: load every staged batch, one transaction each (a retry skips loaded ones)."""
    run.load_staged(staged, _report)


# Artifacts live in the server's database and are shown whole in the UI: beyond these sizes the
# artifact holds the beginning and says where the complete report is.
ARTIFACT_MAX_CHARS = 1_000_000
ARTIFACT_MAX_ROWS = 2_000


@task(
    name="check-and-report",
    cache_policy=NO_CACHE,
    persist_result=False,
    retries=3,
    retry_delay_seconds=exponential_backoff(2),
    **_RETRIES,
)
def report_task(run: Run) -> list[str]:
    """Check, translate what `translate` asks for and is still waiting, record the run, write
    reports/ (`Run.finish`) and attach the report and the conflicts table to the flow run."""
    summary = run.finish(_report, report=True)
    assert run.report is not None and run.markdown is not None
    markdown, warehouse_path = run.markdown, run.options.warehouse_path
    where = summary.report_paths[0] if summary.report_paths else "the `ingest report` output"
    if len(markdown) > ARTIFACT_MAX_CHARS:
        cut = markdown.rfind("\n## ", 0, ARTIFACT_MAX_CHARS)
        markdown = (
            markdown[: cut if cut > 0 else ARTIFACT_MAX_CHARS]
            + f"\n\n*The report is {len(markdown):,} characters; the rest is in {where}.*\n"
        )
    table = outputs.conflict_table(run.report)
    if len(table) > ARTIFACT_MAX_ROWS:
        table = table[:ARTIFACT_MAX_ROWS] + [{"kind": f"... {len(table) - ARTIFACT_MAX_ROWS:,} more rows in {where}"}]
    create_markdown_artifact(
        key=artifact_key("consistency-report", warehouse_path),
        markdown=markdown,
        description=f"Cross-source consistency report of {warehouse_path}",
    )
    create_table_artifact(
        key=artifact_key("conflicts", warehouse_path),
        table=table,
        description=f"Contradictions and notes between the sources in {warehouse_path}",
    )
    return summary.report_paths


def artifact_key(kind: str, warehouse_path: str) -> str:
    """`kind` plus the warehouse's name and a hash of its path: each warehouse keeps its own latest report."""
    path = Path(warehouse_path).expanduser().resolve()
    name = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")[:40] or "warehouse"
    return f"{kind}-{name}-{hashlib.sha256(str(path).encode('utf-8')).hexdigest()[:8]}"


def task_runner(dask: bool = False, dask_address: str | None = None, dask_workers: int = DEFAULTS.dask_workers):
    """One local thread (stages are CPU-bound Python and the tokenizers are not thread-safe), or Dask."""
    if dask_address:
        from prefect_dask import DaskTaskRunner

        check_scheduler(dask_address)  # in seconds, where Dask's client would wait (for ever on a non-scheduler)
        return DaskTaskRunner(address=dask_address)
    if dask:
        from prefect_dask import DaskTaskRunner

        logging.getLogger("distributed").setLevel(logging.WARNING)  # its INFO lines drown the run's log
        return DaskTaskRunner(
            cluster_kwargs={
                "n_workers": max(1, dask_workers),
                "threads_per_worker": 1,
                "processes": True,
                "host": "127.0.0.1",
                "dashboard_address": None,
            }
        )
    return ThreadPoolTaskRunner(max_workers=1)


def _workers_may_start_processes() -> contextlib.AbstractContextManager[Any]:
    """The Dask workers this run starts are not daemonic, so they may start the stage worker that
    runs a batch in its main thread, where the stage budget can stop one long call
    (`process_batch_where_budgets_hold`); a daemonic worker, as Dask makes by default, may not."""
    import dask

    return dask.config.set({"distributed.worker.daemon": False})


@contextlib.contextmanager
def _api_reachable_from_workers(dask: bool) -> Iterator[None]:
    """Dask workers are other processes: give them the API address, even of a temporary server."""
    from prefect.settings import PREFECT_API_URL, temporary_settings

    if not dask or PREFECT_API_URL.value():
        yield
        return
    from prefect.server.api.server import SubprocessASGIServer

    server = SubprocessASGIServer()  # the temporary server this process already talks to
    server.start()
    with temporary_settings(updates={PREFECT_API_URL: server.api_url}):
        yield


def run_name() -> str:
    """What a run ingests and when it started, `ingest seeds 2026-11-25 10:04 UTC`, for the UI and
    `prefect flow-run ls` instead of Prefect's random names (a deployment run is renamed as it starts)."""
    from prefect.runtime import flow_run

    paths = flow_run.parameters.get("paths") or DEFAULTS.paths
    names = [Path(str(p)).name or str(p) for p in paths]
    inputs = ", ".join(names[:3]) + (f" +{len(names) - 3} more" if len(names) > 3 else "")
    return f"ingest {inputs} {datetime.now().astimezone():%Y-%m-%d %H:%M %Z}"


def ingest(**parameters: Any) -> State:
    return _ingest(RunOptions(**parameters).resolved(project_root()))


# The flow's parameters are RunOptions' fields (types, defaults, help texts), so the CLI, the flow and
# the deployment cannot drift apart; Prefect reads them from the signature and the docstring's Args.
ingest.__signature__ = inspect.Signature(keyword_parameters(), return_annotation=State)  # type: ignore[attr-defined]
ingest.__doc__ = """Ingest source articles into DuckDB and write the consistency report.

Relative paths are taken from the project root. The final state's message says how many
documents were loaded, skipped and failed.

""" + args_section(RunOptions)
# ignore: Prefect asks for TaskRunner[PrefectFuture[Any]], invariant in the future type, which no concrete
# runner (ThreadPoolTaskRunner is a TaskRunner[PrefectConcurrentFuture[R]]) can be.
ingest = flow(name="ingest", flow_run_name=run_name, persist_result=False, task_runner=ThreadPoolTaskRunner(max_workers=1))(  # type: ignore[arg-type]
    ingest
)


def _ingest(options: RunOptions) -> State:
    logger = get_run_logger()
    run = Run(options)
    todo = plan_task(run)
    staging = default_staging_dir(options.warehouse_path) / run.summary.run_id
    context = run.context(staging)
    staged: list[StagedBatch] = []
    try:
        if todo and options.uses_dask:  # a subflow, because a flow's task runner is fixed when it starts
            with _api_reachable_from_workers(True), _workers_may_start_processes():
                runner = task_runner(options.dask, options.dask_address, options.dask_workers)
                staged = ingest_stages.with_options(task_runner=runner)(
                    write_plan(todo, staging / "plan.json"), context, options.batch_size, options.max_concurrency
                )
        elif todo:  # in the flow's thread
            staged = _run_batches(todo, context, options.batch_size, options.max_concurrency, submit=False)
        if staged:
            load_task(run, staged)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        with contextlib.suppress(OSError):
            staging.parent.rmdir()  # only if no other run is staging there
    report_task(run)
    summary = run.summary
    logger.info(summary.stages_line())
    workers = sorted({batch.worker for batch in staged if batch.worker})
    if workers:
        logger.info("stage batches ran on: %s", ", ".join(workers))
    # Last, so that it ends the run's log and what `prefect deployment run --watch` prints (which
    # shows the final state's name, not its message); Prefect's "Finished in state" line follows it
    # and quotes it as the state's message.
    logger.info(summary.line())
    return Completed(message=summary.line(), data=summary.result(warehouse=options.warehouse_path, workers=workers))
