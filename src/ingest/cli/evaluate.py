"""`ingest eval`: accuracy against the hand labels."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from .consoles import console, say, warn


def evaluate(labels: Path = typer.Option(Path("tests/labels"), help="Directory of hand labels."),
             seeds: Path = typer.Option(Path("seeds"), help="The seed articles."),
             corpus: Path = typer.Option(Path("../shared/corpus"), help="The shared corpus (skipped if absent)."),
             corpus2: Path = typer.Option(Path("../shared/corpus2"), help="The renderings corpus (skipped if absent)."),
             part: str = typer.Option("all", help="Which parts of the keys to show: tuned, blind or all."),
             show_errors: int = typer.Option(0, help="Print up to N missed and N extra entities.")) -> None:
    """Precision and recall against every hand-labelled set; held-out (blind) parts apart."""
    from ..evaluate import evaluate as score, report_rows

    for folder in (corpus, corpus2):
        if not folder.is_dir():
            warn(f"{folder} not found; its labels are not scored")
    result = score(labels, seeds, corpus, corpus2)
    table = Table("what", "gold", "predicted", "matched", "precision", "recall")
    for row in report_rows(result, ("tuned", "blind") if part == "all" else (part,)):
        table.add_row(*(str(v) for v in row))
    console.print(table)
    for kind, items in (("missed", result.claims.entities.misses), ("extra", result.claims.entities.extras)):
        for doc, item in items[:show_errors]:
            say(f"  {kind}: {doc} {item}")
