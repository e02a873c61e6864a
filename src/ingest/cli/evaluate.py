"""`ingest eval`: accuracy against the hand labels."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from .consoles import console, say, warn


def evaluate(
    labels: Path = typer.Option(Path("tests/labels"), help="Directory of hand labels."),
    seeds: Path = typer.Option(Path("seeds"), help="The seed articles."),
    shared: Path = typer.Option(
        Path("../shared"),
        help="The folder holding the labelled corpora corpus, corpus2, corpus3 and corpus4 (each skipped if absent).",
    ),
    new_domains: Path = typer.Option(
        Path("tests/newdomain"),
        help="Independent write-ups of releases in domains absent from --shared, labelled in LABELS/newdomain (if present).",
    ),
    part: str = typer.Option("all", help="Which parts of the keys to show: tuned, blind or all."),
    show_errors: int = typer.Option(0, help="Print up to N missed and N extra entities."),
    misses: bool = typer.Option(
        False,
        help="Print the tuned part's missed and wrongly flagged items of every key, and its false and missed rendering pairs.",
    ),
    possible: bool = typer.Option(
        False, help="Count possible contradictions (the report shows them as possible) as flagged, beside the sure ones."
    ),
) -> None:
    """Precision and recall against every hand-labelled set; held-out (blind) parts apart."""
    from ..evaluate import evaluate as score
    from ..evaluate import report_rows

    for folder in (shared / name for name in ("corpus", "corpus2", "corpus3", "corpus4")):
        if not folder.is_dir():
            warn(f"{folder} not found; its labels are not scored")
    if not new_domains.is_dir():
        warn(f"{new_domains} not found; its labels are not scored")
    flagged = ("contradiction", "possible") if possible else ("contradiction",)
    result = score(labels, seeds, shared, new_domains=new_domains if new_domains.is_dir() else None, flagged=flagged)
    table = Table("what", "gold", "predicted", "matched", "precision", "recall")
    for row in report_rows(result, ("tuned", "blind") if part == "all" else (part,)):
        table.add_row(*(str(v) for v in row))
    console.print(table)
    for kind, items in (("missed", result.claims.entities.misses), ("extra", result.claims.entities.extras)):
        for doc, item in items[:show_errors]:
            say(f"  {kind}: {doc} {item}")
    if misses:
        from ..evaluate import renderings

        pairs = result.pairs["tuned"]
        for pair in sorted(pairs.predicted - pairs.gold, key=sorted):
            say(f"  false pair: {' ~ '.join(sorted(pair))}")
        for pair in sorted(pairs.gold - pairs.predicted, key=sorted):
            say(f"  missed pair: {' ~ '.join(sorted(pair))}")
        keys = [*result.renderings.items(), ("across articles", result.cross_articles)]
        if result.new_domains:
            keys.append(("new domains, across articles", result.new_domains))
        for name, scores in keys:
            say(f"{name}:")
            for line in renderings.report_lines({"tuned": scores["tuned"]}):
                say(f"  {line}")
            for finding in scores["tuned"].unlabelled:
                say(
                    f"    unlabelled contradiction: {finding.a.doc} {finding.a.value!r} ~ {finding.b.doc} "
                    f"{finding.b.value!r} ({finding.detail})"
                )
