"""`ingest`: a thin command line over the library (run, prune, report, sql, eval, models)."""

from __future__ import annotations

import typer

from . import evaluate, models, query, run

app = typer.Typer(help="Ingest ja/zh technical articles into DuckDB, translate them offline and cross-check claims.",
                  no_args_is_help=True, add_completion=False)
app.command("run")(run.run)
app.command("prune")(run.prune)
app.command("report")(query.report)
app.command("sql")(query.sql)
app.command("eval")(evaluate.evaluate)
app.add_typer(models.models_app, name="models", help="Install, list and remove argostranslate packages.")

__all__ = ["app"]
