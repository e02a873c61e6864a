"""Renderings at scale: `uv run python -m bench.renderings_scale [--sizes 1000,10000] [--against REF]`.

On bench/articles.py's corpus (distinct articles in one to three renderings, independent write-ups,
unrelated articles; labelled) at each size: a first run of the whole pipeline with reports, as a
user runs it (`run_pipeline`, each in its own process, on a snapshot of this code and, with
--against, of the code at REF, in rotation), then what the warehouse found against the labels:
candidate pairs (`document_pairs`), rendering pairs found (`alignments.same_article`), how many of
those are labelled (true) and not (false), and the labelled pairs found (recall). With --oracle N,
the first N documents are also checked with every pair of documents aligned (the release rule
kept: documents about different releases are never renderings), so that a rendering the candidate
index loses shows; and the pairs found at the smallest size and not at the largest are counted
(the documents of a smaller corpus are the first of a larger one). Results: bench/results/renderings-scale.json and .md.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import duckdb

from bench.__main__ import RESULTS, child, fresh, git_state, log, snapshot_code, snapshot_ref
from bench.articles import build_articles, labelled_changes, labelled_pairs, read_labels
from bench.report import renderings_scale_section

_ALL_PAIRS = """
CREATE OR REPLACE TEMP VIEW document_pairs AS
SELECT a.doc_id AS doc_a, b.doc_id AS doc_b, true AS by_names, false AS by_meaning, false AS by_text,
       NULL::DOUBLE AS name_overlap, NULL::DOUBLE AS similarity
FROM documents a JOIN documents b ON a.doc_id < b.doc_id
WHERE a.status = 'ok' AND b.status = 'ok' AND (a.release IS NULL OR b.release IS NULL OR a.release = b.release)
"""


def pairs_found(warehouse: Path, corpus: Path) -> dict[str, Any]:
    """Candidate and rendering pairs of the warehouse against the corpus's labels, and the figures the
    found pairs state differently (`mismatches`) against the changes labelled between them."""
    files = read_labels(corpus)
    labelled = labelled_pairs(files)
    con = duckdb.connect(str(warehouse), read_only=True)
    try:
        root = corpus.resolve()
        path = {doc: str(Path(p).relative_to(root)) for doc, p in con.execute("SELECT doc_id, path FROM documents").fetchall()}

        def paths(sql: str) -> set[tuple[str, str]]:
            return {tuple(sorted((path[a], path[b]))) for a, b in con.execute(sql).fetchall()}  # type: ignore[misc]

        candidates = paths("SELECT doc_a, doc_b FROM document_pairs")
        found = paths("SELECT doc_a, doc_b FROM alignments WHERE same_article")
        changes = con.execute("SELECT doc_a, doc_b FROM mismatches").fetchall()  # one row per change a group shows
    finally:
        con.close()
    article = {f.path: f.article for f in files}
    expected = labelled_changes(files, {doc for pair in found & labelled for doc in pair})
    shown: dict[str | None, int] = {}
    for a, b in changes:
        same = article[path[a]] == article[path[b]]
        shown[article[path[a]] if same else None] = shown.get(article[path[a]] if same else None, 0) + 1
    return {
        "labelled": len(labelled),
        "candidates": len(candidates),
        "labelled_candidates": len(candidates & labelled),
        "found": len(found),
        "true": len(found & labelled),
        "false": len(found - labelled),
        "recall": round(len(found & labelled) / max(1, len(labelled)), 3),
        "changes_labelled": sum(expected.values()),
        "changes_found": sum(min(n, shown.get(key, 0)) for key, n in expected.items()),
        "changes_false": sum(max(0, n - expected.get(key, 0)) for key, n in shown.items() if key) + shown.get(None, 0),
        "found_pairs": sorted(found),
    }


def every_pair(warehouse: Path, corpus: Path, scratch: Path) -> dict[str, Any]:
    """The renderings found when every pair the release rule allows is aligned (on a copy)."""
    from ingest.check.renderings import update_renderings

    copy = scratch / "every-pair.duckdb"
    shutil.copyfile(warehouse, copy)
    con = duckdb.connect(str(copy))
    try:
        con.execute(_ALL_PAIRS)
        compared = con.execute("SELECT count(*) FROM document_pairs").fetchone()[0]
        start = time.perf_counter()
        update_renderings(con)
        seconds = time.perf_counter() - start
        con.execute("DROP VIEW document_pairs")
        con.execute("CHECKPOINT")
    finally:
        con.close()
    return {"compared": compared, "align_s": round(seconds, 1), **pairs_found(copy, corpus)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--against", help="a git ref to run side by side with this code")
    parser.add_argument("--pairs", type=int, default=1, help="runs of each side per size")
    parser.add_argument("--oracle", type=int, default=300, help="documents checked with every pair aligned (0: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=RESULTS / "renderings-scale.json")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-renderings-"))
    scratch = work / "scratch"
    scratch.mkdir()
    sides = {"this": snapshot_code(work)}
    if args.against:
        sides[args.against] = snapshot_ref(work, args.against)
    results: dict[str, Any] = {"git": git_state(), "against": args.against, "seed": args.seed, "sizes": {}}
    try:
        for n in [int(s) for s in args.sizes.split(",")] + ([args.oracle] if args.oracle else []):
            corpus = work / f"articles-{n}"
            build_articles(n, corpus, seed=args.seed)
            entry: dict[str, Any] = results["sizes"].setdefault(str(n), {"runs": {}})
            for _ in range(args.pairs):
                for side, code in sides.items():
                    log(f"{n} documents, {side}")
                    warehouse = fresh(work / f"w-{n}-{side}.duckdb")
                    run = child(
                        "run",
                        # (older code may lack functions the stage clock wraps: it times them where it can)
                        {
                            "corpus": str(corpus),
                            "warehouse": str(warehouse),
                            "reports": str(work / "reports"),
                            "strict": side == "this",
                        },
                        scratch,
                        code=code,
                    )
                    found = pairs_found(warehouse, corpus)
                    entry["runs"].setdefault(side, []).append(
                        {k: run[k] for k in ("wall_s", "cpu_s", "rss_peak_mb")}
                        | {"check_s": run["stages_s"].get("check")}
                        | found
                    )
            if n == args.oracle:
                log(f"{n} documents, every pair aligned")
                entry["every_pair"] = every_pair(work / f"w-{n}-this.duckdb", corpus, scratch)
                entry["every_pair"]["same_as_index"] = (
                    entry["every_pair"]["found_pairs"] == entry["runs"]["this"][-1]["found_pairs"]
                )
        # documents are the same at every size (bench/articles.py), so a pair found among the first n is found among more
        found = {n: entry["runs"]["this"][-1]["found_pairs"] for n, entry in results["sizes"].items()}
        smallest, largest = min(found, key=int), max(found, key=int)
        results["lost"] = {
            "from": smallest,
            "at": largest,
            "pairs": len(set(map(tuple, found[smallest])) - set(map(tuple, found[largest]))),
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for entry in results["sizes"].values():  # the pair lists were for comparing: counts suffice in the results
        for run in [r for runs in entry["runs"].values() for r in runs] + [entry.get("every_pair", {})]:
            run.pop("found_pairs", None)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1), "utf-8")
    markdown = "\n".join(renderings_scale_section(results)) + "\n"
    args.out.with_suffix(".md").write_text(markdown, "utf-8")
    print(markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
