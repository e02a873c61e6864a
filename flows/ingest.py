"""The `ingest` Prefect flow: a thin layer of tasks over `ingest.pipeline.Run`.

Stages run as tasks over batches of documents (not one task per document) so
Prefect's per-task overhead stays small on thousands of files; a document that
fails gets a `failed` row with its reason and does not fail the run.
"""

from __future__ import annotations

from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from prefect.cache_policies import NO_CACHE

from ingest import report, warehouse
from ingest.discover import SourceFile, discover
from ingest.pipeline import ExtractedDocument, PreparedDocument, Run, prepare_document

ROOT = Path(__file__).resolve().parents[1]


@task(name="discover", cache_policy=NO_CACHE)
def discover_task(run: Run) -> list[SourceFile]:
    return run.pending(discover(run.paths))


@task(name="prepare", cache_policy=NO_CACHE)
def prepare_task(sources: list[SourceFile]) -> list[PreparedDocument]:
    return [prepare_document(source) for source in sources]


@task(name="translate", cache_policy=NO_CACHE)
def translate_task(run: Run, documents: list[PreparedDocument]) -> list[PreparedDocument]:
    run.translate(documents)
    return documents


@task(name="extract", cache_policy=NO_CACHE)
def extract_task(run: Run, documents: list[PreparedDocument]) -> list[ExtractedDocument]:
    return [run.extract(document) for document in documents]


@task(name="load", cache_policy=NO_CACHE, retries=3, retry_delay_seconds=[2, 5, 10])
def load_task(run: Run, extracted: list[ExtractedDocument]) -> None:
    run.load(extracted)


@task(name="check-and-report", cache_policy=NO_CACHE)
def report_task(run: Run) -> list[str]:
    summary = run.finish()
    con = warehouse.connect(run.warehouse_path, read_only=True)
    try:
        data = report.collect(con, summary)
    finally:
        con.close()
    create_markdown_artifact(key="consistency-report", markdown=report.render_markdown(data),
                             description="Cross-source consistency report")
    create_table_artifact(key="conflicts", table=report.conflict_table(data),
                          description="Contradictions and notes between sources")
    return summary.report_paths


@flow(name="ingest")
def ingest(paths: list[str] | None = None, warehouse_path: str = "warehouse/ingest.duckdb",
           reports_dir: str = "reports") -> dict:
    """Ingest source articles (default: the repo's seeds/) into DuckDB and write the consistency report."""
    run = Run(paths or [str(ROOT / "seeds")], warehouse_path, reports_dir)
    todo = discover_task(run)
    prepared = translate_task(run, prepare_task(todo))
    load_task(run, extract_task(run, prepared))
    report_task(run)
    get_run_logger().info(run.summary.line())
    summary = run.summary
    return {"run_id": summary.run_id, "files": summary.n_files, "loaded": len(summary.loaded),
            "skipped": len(summary.skipped), "failed": len(summary.failed),
            "duplicates": len(summary.duplicates), "missing_pairs": summary.missing_pairs,
            "reports": summary.report_paths}
