"""`ingest`: a thin command line over the library (run, prune, translate, report, sql, export, eval, models)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

import typer

from . import evaluate, models, query, run, translate
from .consoles import say


def _version() -> str:
    try:
        return version("ingest")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def _print_version(value: bool) -> None:
    if value:
        say(f"ingest {_version()}")
        raise typer.Exit()


app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  context_settings={"help_option_names": ["-h", "--help"]})


@app.callback()
def main(show_version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                           help="Print the version and exit.")) -> None:
    """Ingest ja/zh technical articles into DuckDB, translate them offline and cross-check claims.

    Exit status: 0 done, 1 failed (a file, a query, the command), 2 usage, 3 the warehouse is locked.
    """


app.command("run")(run.run)
app.command("prune")(run.prune)
app.command("translate")(translate.translate)
app.command("report")(query.report)
app.command("sql")(query.sql)
app.command("export")(query.export)
app.command("eval")(evaluate.evaluate)
app.add_typer(models.models_app, name="models", help="Install, list and remove argostranslate packages.")

__all__ = ["app"]
