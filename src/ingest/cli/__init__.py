"""`ingest`: a thin command line over the library (run, prune, translate, report, sql, export, eval, models)."""

from __future__ import annotations

import os
from importlib.metadata import PackageNotFoundError, version

import typer

from . import evaluate, models, query, run, translate
from .consoles import Exit, fail, say


def _version() -> str:
    try:
        return version("ingest")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def _print_version(value: bool) -> None:
    if value:
        say(f"ingest {_version()}")
        raise typer.Exit()


app = typer.Typer(
    no_args_is_help=True, add_completion=False, rich_markup_mode=None, context_settings={"help_option_names": ["-h", "--help"]}
)


@app.callback()
def main(
    ctx: typer.Context,
    show_version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Ingest ja/zh technical articles into DuckDB, translate them offline and cross-check claims.

    Exit status: 0 done, 1 failed (a file, a query, the command), 2 usage or a bad environment
    variable, 3 the warehouse is locked.
    """
    check_environment(ctx.invoked_subcommand)


# The commands that read the language profiles or use argostranslate's folders.
_USE_LANGUAGES = {"run", "translate", "eval"}
_USE_PACKAGES = {"run", "translate", "eval", "models"}


def check_environment(command: str | None) -> None:
    """Validate, before any work, every environment variable the command reads: one line and exit 2
    for a value that cannot be used."""
    from .. import lang, limits
    from ..errors import SettingsError

    try:
        limits.current()
        if command in _USE_LANGUAGES or lang.LANGUAGE_DIRS_ENV in os.environ:
            lang.profiles()
        if command in _USE_PACKAGES:
            from ..translate.packages import argos_settings

            argos_settings()
    except SettingsError as error:
        fail(str(error), Exit.USAGE)


app.command("run")(run.run)
app.command("prune")(run.prune)
app.command("translate")(translate.translate)
app.command("report")(query.report)
app.command("sql")(query.sql)
app.command("export")(query.export)
app.command("eval")(evaluate.evaluate)
app.add_typer(models.models_app, name="models", help="Install, list and remove argostranslate packages.")

__all__ = ["app"]
