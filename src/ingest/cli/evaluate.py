"""`ingest eval`: accuracy against the hand labels."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from .consoles import console, err


def evaluate(labels: Path = typer.Option(Path("tests/labels"), help="Directory of hand labels."),
             seeds: Path = typer.Option(Path("seeds"), help="The seed articles."),
             corpus: Path = typer.Option(Path("../shared/corpus"), help="The shared corpus (skipped if absent)."),
             show_errors: int = typer.Option(0, help="Print up to N missed and N extra entities.")) -> None:
    """Entity and conflict precision/recall against the hand labels."""
    from ..evaluate import evaluate as score, summary_rows

    inputs = [seeds] + ([corpus] if corpus.is_dir() else [])
    if not corpus.is_dir():
        err.print(f"[yellow]note:[/yellow] {corpus} not found; scoring the seeds only")
    result = score(labels, inputs)
    table = Table("what", "gold", "predicted", "matched", "precision", "recall")
    for row in summary_rows(result):
        table.add_row(*(str(v) for v in row))
    console.print(table)
    for kind, items in (("missed", result.entities.misses), ("extra", result.entities.extras)):
        for doc, item in items[:show_errors]:
            console.print(f"  {kind}: {doc} {item}")
