"""Benchmark results to goals, a Markdown report and the README section."""

from __future__ import annotations

import math
import re
import statistics
from pathlib import Path
from typing import Any

START, END = "<!-- bench:start -->", "<!-- bench:end -->"
STAGE_ORDER = ("discover", "read", "clean", "detect", "segment", "translate", "extract", "load", "cache", "check")
STAGE_NOTES = {
    "discover": "sha256 of every file, skip check",
    "read": "valid UTF-8 is decoded directly; charset-normalizer runs only for the legacy-encoded files",
    "detect": "language.py decides by script (kana, Han, Hangul); langdetect only speaks for Latin-script text",
    "clean": "clean + metadata",
    "segment": "segment + the rest of prepare_document (records, per-segment loop)",
    "translate": "default engine, no package installed: the untranslated path",
    "cache": "stage cache (zlib-compressed JSON) and batching",
    "check": "Run.finish: record the run, consistency views, reports",
}
# (update_checks: the tables the views read, computed once per load; the views: each query)
CHECK_VIEWS = ("update_checks", "conflicts", "corroborations", "aligned_number_mismatches")
TARGETS = {
    "e2e_s": 120.0,
    "rss_mb": 2048.0,
    "ratio": 2.0,
    "growth": 1.05,
    "unchanged": 0.05,
    "changed": 0.10,
    "load_rows_s": 100_000.0,
    "check_exponent": 1.5,
}


def fit_exponent(points: list[tuple[float, float]]) -> float | None:
    """Slope of the least-squares line through (log x, log y)."""
    points = [(x, y) for x, y in points if x and y and x > 0 and y > 0]
    if len(points) < 2:
        return None
    xs, ys = [math.log(x) for x, _ in points], [math.log(y) for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else None


def _stage_run(results: dict[str, Any]) -> dict[str, Any]:
    return results["runs"][str(results["stage_size"])]


def ingest_s(run: dict[str, Any]) -> float:
    """End-to-end time without the checks and reports (Run.finish)."""
    return run["wall_s"] - run["stages_s"].get("check", 0.0)


def stage_rows(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Per stage: wall and CPU seconds, share, rates, and the library call alone (wall and CPU) with ratios.

    Ratios are given on wall time and on CPU time; the CPU ratio is the one judged, as it
    barely moves when other work shares the machine.
    """
    run, base = _stage_run(results), results.get("baselines", {})
    docs, chars, wall = run["processed_docs"], run["processed_chars"], run["wall_s"]
    scale = {"extract": base["chars"] / base["extract"]["sample_chars"]} if base.get("extract", {}).get("sample_chars") else {}
    rows = []
    stages = dict(run["stages_s"])
    stages["other"] = run["other_s"]
    for name in (*STAGE_ORDER, "other"):
        seconds = stages.get(name, 0.0)
        cpu = run["stages_cpu_s"].get(name)
        if name not in STAGE_ORDER and seconds < 0.005:
            continue
        entry = base.get(name, {}) if name in ("read", "clean", "detect", "segment", "extract", "load", "check") else {}
        factor = scale.get(name, 1.0)
        b = entry.get("seconds") * factor if entry.get("seconds") else None
        b_cpu = entry.get("cpu_seconds") * factor if entry.get("cpu_seconds") else None
        rows.append(
            {
                "stage": name,
                "seconds": seconds,
                "cpu_s": cpu,
                "share": seconds / wall if wall else None,
                "docs_per_s": docs / seconds if seconds > 0 else None,
                "chars_per_s": chars / seconds if seconds > 0 else None,
                "baseline_s": b,
                "baseline_cpu_s": b_cpu,
                "ratio": seconds / b if b else None,
                "ratio_cpu": cpu / b_cpu if cpu and b_cpu else None,
                "library": entry.get("library"),
            }
        )
    return rows


def speedups(results: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Per ref: the median over rounds of ref time / this time, on wall and on CPU time (a ratio of runs
    made one after the other, so both saw the same machine)."""
    this = results["runs"]["this"]
    return {
        ref: {
            "wall": statistics.median(r["wall_s"] / t["wall_s"] for t, r in zip(this, results["runs"][ref])),
            "cpu": statistics.median(r["cpu_s"] / t["cpu_s"] for t, r in zip(this, results["runs"][ref])),
        }
        for ref in results["refs"]
    }


def growth_rows(results: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for n, run in sorted(results["runs"].items(), key=lambda kv: int(kv[0])):
        if "skipped" in run:
            rows.append({"docs": int(n), "skipped": run["skipped"]})
            continue
        rows.append(
            {
                "docs": int(n),
                "wall_s": run["wall_s"],
                "ingest_s": ingest_s(run),
                "cpu_s": run.get("cpu_s"),
                "ingest_cpu_s": run.get("cpu_s", 0) - run["stages_cpu_s"].get("check", 0.0),
                "check_s": run["stages_s"].get("check", 0.0),
                "rss_peak_mb": run["rss_peak_mb"],
                "rss_before_check_mb": run.get("rss_before_check_mb"),
                "lean": run.get("lean", False),
                "process_s": run.get("process_s"),
                "loadavg": run.get("loadavg_after"),
            }
        )
    return rows


def check_exponents(results: dict[str, Any]) -> dict[str, float | None]:
    points = results.get("checks", {}).get("points", [])
    return {
        view: fit_exponent([(p["claims"], p.get(f"{view}_s")) for p in points if p.get(f"{view}_s")])
        for view in CHECK_VIEWS
        if any(f"{view}_s" in p for p in points)
    }


def stage_why(stage: str, results: dict[str, Any], row: dict[str, Any]) -> str:
    """Why a stage costs more than its library call, from what the stage does and the measurements."""
    run = _stage_run(results)
    parts = run.get("parts_s", {})
    if stage == "segment":
        return (
            f"{row['share']:.1%} of the run. The limit is one regex pass per block; segment() makes two "
            "(hard sentence ends, Latin full stops behind six look-behinds), trims, caps overlong spans and "
            "builds a record with offsets per segment, which is the rest of the cost."
        )
    if stage == "extract":
        return (
            "the stage builds no spaCy Doc (nothing read its tokens or `doc.ents`): the library call is the "
            "yardstick the issue set. Its parts: entity rules "
            f"({parts.get('extract:rules', 0):.0f} s; the rules prefilter skips the patterns whose required "
            f"characters a segment lacks), figures read ({parts.get('extract:readings', 0):.0f} s), claims "
            f"({parts.get('extract:claims', 0):.0f} s: glossary lookup, subjects, attributes, releases) and "
            f"the per-segment loop and rows ({parts.get('extract:document', 0):.0f} s)."
        )
    if stage == "load":
        return (
            "the limit inserts Arrow tables built beforehand, once; the stage converts the rows from Python "
            "dicts to Arrow and, per 50-document batch, runs a DELETE and a DESCRIBE per table and an insert "
            "(on a fresh warehouse the DELETEs find nothing). It still loads "
            f"{run['rows_loaded'] / row['seconds']:,.0f} rows/s."
        )
    if stage == "clean":
        return "BeautifulSoup tree edits (block marks) and NFKC normalisation per block on top of the parse."
    if stage == "check":
        return (
            "the library call only reads the two views; Run.finish also aligns the renderings "
            "(document_pairs), runs truth discovery over the claims, records the run and builds and "
            "writes both reports."
        )
    return ""


def evaluate(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Each goal: target, measured value, reached or not, and why (from the measurements)."""
    goals = []
    runs = {int(n): r for n, r in results["runs"].items() if "skipped" not in r}
    stage = _stage_run(results)
    rows = {r["stage"]: r for r in stage_rows(results)}
    top = sorted((r for r in rows.values() if r["stage"] != "other"), key=lambda r: -r["seconds"])[:3]
    top_text = ", ".join(f"{r['stage']} {r['seconds']:.0f} s ({r['share']:.0%})" for r in top)
    if 1000 in runs:
        r = runs[1000]
        contended = r["cpu_s"] <= TARGETS["e2e_s"] < r["wall_s"]
        goals.append(
            {
                "goal": "1,000 documents end to end",
                "target": "<= 120 s",
                "measured": f"{r['wall_s']:.0f} s wall, {r['cpu_s']:.0f} s CPU ({ingest_s(r):.0f} s wall without checks/reports)",
                "reached": r["wall_s"] <= TARGETS["e2e_s"],
                "why": ""
                if r["wall_s"] <= TARGETS["e2e_s"]
                else f"largest stages: {top_text}"
                + (
                    f"; CPU time is within the goal, the rest is waiting for a CPU on the shared machine "
                    f"(load average {r.get('loadavg_before')}–{r.get('loadavg_after')} on 2 CPUs)"
                    if contended
                    else ""
                ),
            }
        )
    if runs:
        largest_run = runs[max(runs)]
        before = largest_run.get("rss_before_check_mb")
        goals.append(
            {
                "goal": f"{max(runs):,} documents peak RSS",
                "target": "<= 2 GB",
                "measured": f"{largest_run['rss_peak_mb'] / 1024:.2f} GB"
                + (f" ({before / 1024:.2f} GB before the checks)" if before else ""),
                "reached": largest_run["rss_peak_mb"] <= TARGETS["rss_mb"],
                "why": (
                    f"the consistency checks (DuckDB views in Run.finish) raise the peak from {before / 1024:.2f} GB"
                    if before and largest_run["rss_peak_mb"] > TARGETS["rss_mb"] and before <= TARGETS["rss_mb"]
                    else ""
                ),
            }
        )
    over = [r for r in rows.values() if (r["ratio_cpu"] or r["ratio"] or 0) > TARGETS["ratio"]]
    goals.append(
        {
            "goal": "every stage within 2x of its core library call",
            "target": "ratio <= 2 (CPU time)",
            "measured": ", ".join(
                f"{r['stage']} {(r['ratio_cpu'] or r['ratio']):.1f}x" for r in rows.values() if r["ratio_cpu"] or r["ratio"]
            ),
            "reached": not over,
            "why": " ".join(f"**{r['stage']}**: {stage_why(r['stage'], results, r)}" for r in over),
        }
    )
    ingest_points = [(n, ingest_s(r)) for n, r in runs.items()]
    exponent = fit_exponent(ingest_points)
    largest = max(runs) if runs else 0
    cpu_exponent = fit_exponent([(n, r["cpu_s"] - r["stages_cpu_s"].get("check", 0.0)) for n, r in runs.items()])
    goals.append(
        {
            "goal": f"growth exponent up to {largest:,} documents (without checks)",
            "target": f"<= {TARGETS['growth']}",
            "measured": f"{exponent:.2f} wall, {cpu_exponent:.2f} CPU"
            if exponent is not None and cpu_exponent is not None
            else "n/a",
            "reached": exponent is not None and exponent <= TARGETS["growth"] and largest >= 10_000,
            "why": ""
            if largest >= 10_000
            else "10,000 documents not measured: " + str(results["runs"].get("10000", {}).get("skipped", "not run")),
        }
    )
    inc = results.get("incremental", {})
    for key, label, target in (
        ("unchanged", "unchanged re-run", "unchanged"),
        ("changed_1pct", "re-run with 1 % changed", "changed"),
    ):
        if key not in inc:
            continue
        again = inc[key]
        void = (
            again.get("fingerprint") != stage.get("fingerprint")
            or again["n_skipped"] + again["n_loaded"] != stage["n_loaded"]
            or (key == "unchanged" and again["n_loaded"])
        )
        fraction = again["wall_s"] / stage["wall_s"]
        fraction_ingest = ingest_s(again) / ingest_s(stage)
        reached = fraction <= TARGETS[target]
        goals.append(
            {
                "goal": label,
                "target": f"<= {TARGETS[target]:.0%} of the first run",
                "measured": f"{fraction:.1%} ({again['wall_s']:.1f} s); without checks/reports {fraction_ingest:.1%}",
                "reached": reached,
                "why": ""
                if reached
                else "void: the re-run did not find the first run's documents unchanged (fingerprint or paths differ)"
                if void
                else (
                    f"the checks and reports are recomputed over the whole warehouse on every run "
                    f"({again['stages_s'].get('check', 0):.0f} s of {again['wall_s']:.0f} s)"
                    if fraction_ingest <= TARGETS[target]
                    else ""
                ),
            }
        )
    load = rows.get("load")
    if load and load["seconds"]:
        rate = stage["rows_loaded"] / load["seconds"]
        goals.append(
            {
                "goal": "DuckDB load (bulk)",
                "target": ">= 100,000 rows/s",
                "measured": f"{rate:,.0f} rows/s ({stage['rows_loaded']:,} rows)",
                "reached": rate >= TARGETS["load_rows_s"],
                "why": "",
            }
        )
    exps = check_exponents(results)
    worst = max((e for e in exps.values() if e is not None), default=None)
    goals.append(
        {
            "goal": "consistency checks not quadratic in claims",
            "target": "log-log exponent < 1.5",
            "measured": ", ".join(f"{v} {e:.2f}" for v, e in exps.items() if e is not None) or "n/a",
            "reached": worst is not None and worst < TARGETS["check_exponent"],
            "why": ""
            if worst is None or worst < TARGETS["check_exponent"]
            else "a self-join grows with the square of the documents that share a subject or anchors",
        }
    )
    return goals + side_by_side_goals(results) + translation_goals(results)


def side_by_side_goals(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Each ref with a goal: this code's speed-up over it, median of the rounds (wall time judged)."""
    against = results.get("against")
    if not against:
        return []
    goals = []
    for ref, ratio in speedups(against).items():
        why, least = against.get("goals", {}).get(ref, ("", None))
        if least is None:
            continue
        goals.append(
            {
                "goal": f"{against['size']:,} documents against {ref} ({why}), side by side",
                "target": f"speed-up >= {least:.2f}x",
                "measured": f"{ratio['wall']:.2f}x wall, {ratio['cpu']:.2f}x CPU ({len(against['runs']['this'])} rounds)",
                "reached": ratio["wall"] >= least,
                "why": "",
            }
        )
    return goals


def translation_goals(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The translation issue's goals: engine against raw batching and argostranslate's paragraph
    at a time, and the time to a report with a model installed."""
    translate = results.get("translate")
    if not translate:
        return []
    speedup = translate["engine_speedup_over"]
    goals = [
        {
            "goal": "translation engine against raw CTranslate2 batching",
            "target": ">= 0.90x",
            "measured": f"{speedup['raw']:.2f}x",
            "reached": speedup["raw"] >= 0.9,
            "why": "",
        },
        {
            "goal": "translation engine against one paragraph at a time (argostranslate's way)",
            "target": ">= 4x",
            "measured": f"{speedup['paragraph']:.2f}x",
            "reached": speedup["paragraph"] >= 4,
            "why": ""
            if speedup["paragraph"] >= 4
            else f"the sampled paragraphs hold {translate['segments'] / translate['paragraphs']:.1f} sentences on "
            "average, so one call per paragraph is already a batch; what batching across paragraphs adds is "
            "the measured figure",
        },
    ]
    report = translate.get("time_to_report")
    if report:
        goals.append(
            {
                "goal": f"time to a complete report on {report['documents']:,} documents with a model "
                "(--translate evidence) over without",
                "target": "<= 2x",
                "measured": f"{report['ratio']:.2f}x ({report['seconds_with_model_evidence']:.0f} s against "
                f"{report['seconds_without_model']:.0f} s; "
                f"{report['segments_translated_for_the_report']:,} segments translated, "
                f"{report['segments_waiting']:,} waiting)",
                "reached": report["ratio"] <= 2,
                "why": ""
                if report["ratio"] <= 2
                else "the report's evidence sentences alone take this long on the random-weight model "
                "(fixed output length, beam 4)",
            }
        )
    return goals


# ---- Markdown -----------------------------------------------------------------------------


def _f(value: Any, fmt: str = "{:.2f}", empty: str = "–") -> str:
    if value is None:
        return empty
    return fmt.format(value)


def _rate(value: float | None) -> str:
    if value is None:
        return "–"
    if value >= 1e6:
        return f"{value / 1e6:.1f} M"
    if value >= 1e3:
        return f"{value / 1e3:.1f} k"
    return f"{value:.1f}"


def render_markdown(results: dict[str, Any]) -> str:
    m = results["machine"]
    stage = _stage_run(results)
    n = results["stage_size"]
    corpus = results["corpus"][str(n)]
    out = [
        f"Machine: {m['nproc']} CPUs ({m['cpu']}), {m['ram_gb']} GB RAM, Python {m['python']}, "
        f"DuckDB {m['duckdb']}, {m['platform']}. Shared machine: 1-minute load average "
        f"{stage.get('loadavg_before')}–{stage.get('loadavg_after')} during the {n:,}-document run.",
        "",
        f"Command: `{results['command'].strip()}` (run {results['started_at']}, "
        f"{results['total_bench_s'] / 60:.1f} min, on a snapshot of the code at commit "
        f"{results.get('git', {}).get('commit', '?')} with {results.get('git', {}).get('uncommitted_files', '?')} "
        f"uncommitted files). Translation: {results['engine']}.",
        "",
        f"Corpus ({n:,} documents, seed {results['seed']}): recombined sections of "
        f"{len(corpus['sources'])} real articles; "
        + ", ".join(f"{k} {v}" for k, v in corpus["mix"]["lang"].items())
        + "; "
        + ", ".join(f"{k} {v}" for k, v in corpus["mix"]["format"].items())
        + "; "
        + ", ".join(f"{k} {v}" for k, v in corpus["mix"]["encoding"].items())
        + f"; median {corpus['cleaned_chars_median']:,} cleaned characters per document, "
        f"{corpus['bytes_total'] / 2**20:.1f} MiB in all.",
        "",
        f"### Stages ({n:,} documents, `run_pipeline` end to end with reports, "
        f"{stage['processed_docs']:,} documents processed, {stage['processed_chars']:,} cleaned characters)",
        "",
        "| stage | s | CPU s | share | docs/s | chars/s | library alone, s (CPU s) | ratio wall / CPU | library call |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in stage_rows(results):
        note = STAGE_NOTES.get(r["stage"], "")
        library = r["library"] or note
        base_cell = f"{_f(r['baseline_s'])} ({_f(r['baseline_cpu_s'])})" if r["baseline_s"] else "–"
        ratio_cell = f"{_f(r['ratio'], '{:.1f}x')} / {_f(r['ratio_cpu'], '{:.1f}x')}" if r["ratio"] else "–"
        out.append(
            f"| {r['stage']} | {r['seconds']:.2f} | {_f(r['cpu_s'])} | {_f(r['share'], '{:.1%}')} "
            f"| {_rate(r['docs_per_s'])} | {_rate(r['chars_per_s'])} | {base_cell} | {ratio_cell} "
            f"| {library if not r['library'] or not note else library + '; ' + note} |"
        )
    rate = _rate(stage["processed_docs"] / stage["wall_s"])
    out.append(
        f"| **total** | **{stage['wall_s']:.2f}** | {stage['cpu_s']:.2f} | 100% | {rate} "
        f"| {_rate(stage['processed_chars'] / stage['wall_s'])} | | | process start and imports "
        f"{stage['imports_s']:.1f} s not included |"
    )
    ext = results.get("baselines", {}).get("extract", {})
    if ext:
        out += [
            "",
            f"Extract detail (sample of {ext['sample_docs']} documents, {ext['segments']:,} segments): "
            f"spaCy tokenizer ja {ext['spacy_ja_s']:.2f} s vs SudachiPy alone {ext['sudachipy_raw_s']:.2f} s; "
            f"zh {ext['spacy_zh_s']:.2f} s vs jieba alone {ext['jieba_raw_s']:.2f} s; "
            f"entity rules (find_entities) {ext['find_entities_s']:.2f} s"
            + (f"; glossary_mentions {ext['glossary_mentions_s']:.2f} s" if "glossary_mentions_s" in ext else "")
            + ". Parts of the extract stage in the run: "
            + ", ".join(f"{k.split(':')[1]} {v:.1f} s" for k, v in stage["parts_s"].items() if k.startswith("extract:"))
            + ".",
        ]

    out += [
        "",
        "### Growth",
        "",
        "| documents | end to end, s | without checks, s | CPU without checks, s | checks+reports, s | peak RSS, MB "
        "| RSS before checks, MB | load average |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for g in growth_rows(results):
        if "skipped" in g:
            out.append(f"| {g['docs']:,} | skipped: {g['skipped']} | | | | | | |")
            continue
        lean = " (lean: no reports)" if g["lean"] else ""
        out.append(
            f"| {g['docs']:,}{lean} | {g['wall_s']:.1f} | {g['ingest_s']:.1f} | {_f(g['ingest_cpu_s'], '{:.1f}')} "
            f"| {g['check_s']:.1f} | {g['rss_peak_mb']:.0f} | {_f(g['rss_before_check_mb'], '{:.0f}')} "
            f"| {_f(g['loadavg'])} |"
        )
    runs = {int(k): v for k, v in results["runs"].items() if "skipped" not in v}
    e_ingest = fit_exponent([(k, ingest_s(v)) for k, v in runs.items()])
    e_total = fit_exponent([(k, v["wall_s"]) for k, v in runs.items() if not v.get("lean")])
    e_cpu = fit_exponent([(g["docs"], g["ingest_cpu_s"]) for g in growth_rows(results) if "skipped" not in g])
    out += [
        "",
        f"Log-log exponent of time against documents: {_f(e_ingest)} without checks "
        f"(all sizes; {_f(e_cpu)} on CPU time), {_f(e_total)} end to end (sizes run with reports). "
        "Times are of the `run_pipeline` "
        "call in a fresh process (spaCy/SudachiPy/jieba model loading included, imports not).",
    ]

    inc = results.get("incremental")
    if inc:
        out += [
            "",
            f"### Incremental re-runs ({n:,} documents)",
            "",
            "| run | s | fraction of first run | without checks, s | fraction |",
            "|---|---:|---:|---:|---:|",
            f"| first run | {stage['wall_s']:.1f} | 100% | {ingest_s(stage):.1f} | 100% |",
        ]
        for key, label in (("unchanged", "unchanged"), ("changed_1pct", f"{inc['changed_files']} files changed (1 %)")):
            r = inc[key]
            out.append(
                f"| {label} ({r['n_skipped']:,} skipped) | {r['wall_s']:.1f} | {r['wall_s'] / stage['wall_s']:.1%} "
                f"| {ingest_s(r):.1f} | {ingest_s(r) / ingest_s(stage):.1%} |"
            )
        if any(inc[k].get("fingerprint") != stage.get("fingerprint") for k in ("unchanged", "changed_1pct")):
            out += [
                "",
                "**The pipeline fingerprint changed between the first run and a re-run** (its code was "
                "edited while the benchmark ran), so documents were reprocessed: these re-run figures are void.",
            ]

    checks = results.get("checks", {}).get("points", [])
    if checks:
        aligned = any("aligned_number_mismatches_s" in p for p in checks)
        updated = any("update_checks_s" in p for p in checks)  # (timed since the clusters are stored tables)
        out += [
            "",
            "### Consistency checks as claims grow",
            "",
            (
                "`update_checks` (the tables the views read: renderings, the stored claim clusters and document "
                "positions, verdicts), then each"
                if updated
                else "Each"
            )
            + " view materialised (`CREATE TEMP TABLE AS SELECT * FROM view`) over the first k documents "
            "(by doc_id) of the warehouse; a query is stopped at the cap and larger k are then skipped."
            + (f" Note: {results['checks']['note']}." if results["checks"].get("note") else ""),
            "",
            "| documents | claims | value clusters | document pairs |"
            + (" update_checks, s |" if updated else "")
            + " conflicts, s | rows | corroborations, s | rows |"
            + (" aligned_number_mismatches (part of conflicts), s | rows |" if aligned else ""),
            "|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if updated else "") + ("---:|---:|" if aligned else ""),
        ]
        for p in checks:

            def cell(view: str) -> str:
                if p.get(f"{view}_s") is not None:
                    return f"{p[f'{view}_s']:.2f} | {p.get(f'{view}_rows', 0):,}"
                return f"{p.get(f'{view}_stopped', 'not measured')} | –"

            pairs = _f(p.get("document_pairs"), "{:,}")
            out.append(
                f"| {p['docs']:,} | {p['claims']:,} | {p.get('value_clusters', 0):,} | {pairs} |"
                + (f" {_f(p.get('update_checks_s'))} |" if updated else "")
                + f" {cell('conflicts')} | {cell('corroborations')} |"
                + (f" {cell('aligned_number_mismatches')} |" if aligned else "")
            )
        exps = check_exponents(results)
        out += ["", "Log-log exponent of check time against claims: " + ", ".join(f"{v} {_f(e)}" for v, e in exps.items()) + "."]

    out += side_by_side_section(results) + translation_section(results) + prefect_section(results)
    if results.get("renderings_scale"):
        out += [""] + renderings_scale_section(results["renderings_scale"])
    out += ["", "### Goals", "", "| goal | target | measured | reached | why not |", "|---|---|---|---|---|"]
    for g in results["goals"]:
        out.append(f"| {g['goal']} | {g['target']} | {g['measured']} | {'yes' if g['reached'] else '**no**'} | {g['why']} |")

    profile = results.get("baselines", {}).get("extract_profile")
    if profile:
        out += [
            "",
            f"### Extract profile (cProfile, {profile['docs']} documents, "
            f"{profile['wall_s_with_profiler']:.1f} s under the profiler)",
            "",
            "| function | calls | own s | cumulative s |",
            "|---|---:|---:|---:|",
        ]
        for row in profile["top_own_time"][:12]:
            out.append(f"| `{row['function']}` | {row['calls']:,} | {row['own_s']:.2f} | {row['cum_s']:.2f} |")
    return "\n".join(out) + "\n"


def side_by_side_section(results: dict[str, Any]) -> list[str]:
    against = results.get("against")
    if not against:
        return []
    refs = against["refs"]
    out = [
        "",
        f"### Side by side with earlier code ({against['size']:,} documents)",
        "",
        "Uncached runs (stage cache off, reports written, no translation package), each in a fresh process, "
        "this code and each ref in rotation; a ref's code is its `src/ingest` at that commit. "
        "Speed-up = the ref's time / this code's, per round, median.",
        "",
        "| round | this, s (CPU s) | " + " | ".join(f"{ref}, s (CPU s)" for ref in refs) + " |",
        "|---:|---:|" + "---:|" * len(refs),
    ]
    for i, this in enumerate(against["runs"]["this"]):
        out.append(
            f"| {i + 1} | {this['wall_s']:.1f} ({this['cpu_s']:.1f}) | "
            + " | ".join(f"{r['wall_s']:.1f} ({r['cpu_s']:.1f})" for r in (against["runs"][ref][i] for ref in refs))
            + " |"
        )
    out.append("")
    for ref, ratio in speedups(against).items():
        why = against.get("goals", {}).get(ref, ("",))[0]
        out.append(f"- against {ref}{f' ({why})' if why else ''}: **{ratio['wall']:.2f}x** wall, {ratio['cpu']:.2f}x CPU")
    return out


def translation_section(results: dict[str, Any]) -> list[str]:
    translate = results.get("translate")
    if not translate:
        return []
    settings, model = translate["settings"], translate["model"]
    out = [
        "",
        "### Translation (random-weight package of the published size)",
        "",
        f"{translate['segments']} sentences in {translate['paragraphs']} paragraphs of the seeds and "
        f"../shared/corpus, {translate['source_tokens']:,} source tokens, every output fixed at "
        f"{settings['max_decoding_length']} tokens (random weights never stop), beam {settings['beam_size']}, "
        f"{model['encoder_layers']}+{model['decoder_layers']} layers, d_model {model['d_model']}, "
        f"{model['model_bin_bytes'] / 1e6:.0f} MB int8; {translate['rounds']} rounds, the methods interleaved. "
        "Speed-up = the method's time / our engine's, per round, median.",
        "",
        "| method | median s | tokens/s | tokens per CPU s | our engine's speed-up over it |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, rate in translate["tokens_per_second"].items():
        speedup = translate["engine_speedup_over"].get(name)
        out.append(
            f"| {name} | {statistics.median(translate['seconds'][name]):.2f} | {rate:,.0f} "
            f"| {translate['tokens_per_cpu_second'][name]:,.0f} | {_f(speedup, '{:.2f}x', '—')} |"
        )
    report = translate.get("time_to_report")
    if report:
        out += [
            "",
            f"Time to a complete report on {report['documents']:,} generated documents: "
            f"{report['seconds_without_model']:.1f} s without a package, {report['seconds_with_model_evidence']:.1f} s "
            f"with the package and `--translate evidence` ({report['segments_translated_for_the_report']:,} "
            f"segments translated for the report, {report['segments_waiting']:,} left waiting): "
            f"**{report['ratio']:.2f}x**. The engine translates each distinct text once per call and the "
            "generated corpus repeats sentences (it recombines a dozen articles), so real articles, whose "
            "evidence sentences are all distinct, will show a higher ratio.",
        ]
    return out


def renderings_scale_section(results: dict[str, Any]) -> list[str]:
    """bench/renderings_scale.py's figures: runs per size and side, the every-pair oracle, pairs lost with size."""
    lines = [
        "### Renderings at scale",
        "",
        f"Renderings at scale (`uv run python -m bench.renderings_scale`), commit {results['git'].get('commit')}"
        + (f" against {results['against']}" if results["against"] else ""),
        "",
        "| documents | code | wall s | CPU s | check s | peak RSS MB | labelled | candidates | found | true | false "
        "| recall | changes found | false changes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for n, entry in results["sizes"].items():
        for side, runs in entry["runs"].items():
            for r in runs:
                lines.append(
                    f"| {n} | {side} | {r['wall_s']:.1f} | {r['cpu_s']:.1f} | {r['check_s'] or 0:.1f} | {r['rss_peak_mb']:.0f} "
                    f"| {r['labelled']} | {r['candidates']} | {r['found']} | {r['true']} | {r['false']} | {r['recall']} "
                    f"| {r['changes_found']}/{r['changes_labelled']} | {r['changes_false']} |"
                )
        if "every_pair" in entry:
            e = entry["every_pair"]
            lines.append(
                f"\nEvery pair aligned on the first {n} documents ({e['compared']} pairs the release rule allows, "
                f"{e['align_s']} s): {e['found']} found, {e['true']} true, {e['false']} false; "
                f"identical to the candidate index's: {e['same_as_index']}."
            )
    if results.get("lost") and results["lost"]["from"] != results["lost"]["at"]:
        lost = results["lost"]
        lines.append(f"\nRendering pairs found at {lost['from']} documents and not at {lost['at']}: {lost['pairs']}.")
    return lines


def prefect_section(results: dict[str, Any]) -> list[str]:
    prefect = results.get("prefect")
    if not prefect:
        return []
    seconds, ratios, dask = prefect["seconds"], prefect["ratios"], prefect.get("dask") or {}
    out = [
        "",
        f"### Prefect and Dask ({prefect['documents']:,} documents)",
        "",
        f"A Prefect server started for the benchmark; {prefect['repeat']} rounds, the paths in ABBA order, each "
        "on a fresh warehouse and stage cache, then again on the unchanged input (means).",
        "",
        "| path | first run, s | unchanged re-run, s |",
        "|---|---:|---:|",
        f"| stages called directly (`run_pipeline`) | {seconds['direct_first']:.1f} | {seconds['direct_rerun']:.2f} |",
        f"| `ingest` flow, one process | {seconds['flow_first']:.1f} | {seconds['flow_rerun']:.2f} |",
    ]
    if dask:
        out.append(
            f"| `ingest` flow, stages on {dask['dask_workers']} local Dask workers (cluster start included) "
            f"| {dask['dask_first']:.1f} | – |"
        )
    out += [
        "",
        f"Flow / direct: **{ratios['flow_over_direct']:.2f}x** (goal <= {prefect['goals']['flow_over_direct']}); "
        f"unchanged re-run {ratios['rerun_over_first_flow']:.1%} of the first flow run; warehouses agree: "
        f"{prefect['warehouses_agree']}.",
    ]
    if dask:
        out[-1] += (
            f" Dask speed-up over the flow on one process: **{dask['dask_speedup_over_flow']:.2f}x** "
            f"({dask['dask_speedup_over_direct']:.2f}x over the stages called directly)."
        )
    return out


def update_readme(readme: Path, results: dict[str, Any], markdown: str) -> None:
    """Replace (or append) the README section between the bench markers; re-reads the file first."""
    section = "\n".join(
        [
            START,
            "## Benchmarks",
            "",
            "`make bench` (= `uv run python -m bench`; `--quick` for a 2-minute smoke run, `--sizes`, "
            "`--budget-minutes`, `--refs`, `--no-translate`, `--no-prefect`, `--help`) builds a deterministic corpus "
            "of 100, 1,000 and 10,000 articles (`bench/corpus.py`) from the seeds and `../shared/corpus`, runs "
            "`run_pipeline` on it in fresh processes, timed per stage by wrapping the functions the pipeline calls "
            "(`bench/instrument.py`), times this code against earlier commits side by side (`--refs`), the "
            "translation engine against raw CTranslate2 and argostranslate's way (`bench/translate_bench.py`) and "
            "the Prefect flow on one process and on Dask (`bench/prefect_overhead.py`), and writes every figure to "
            "`bench/results/latest.json`, `latest.md` and this section. The 10,000-document pass is lean (no "
            "reports: total time and peak RSS) and is skipped when the time projected from the 1,000-document "
            "run does not fit in `--budget-minutes`. The command line below says which sizes "
            "the figures come from. The corpus recombines a dozen real articles, so nearly every document "
            "shares subjects and names with hundreds of others: a worst case for the consistency checks.",
            "",
            markdown.rstrip(),
            END,
        ]
    )
    text = readme.read_text("utf-8")
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: section, text)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    readme.write_text(text, "utf-8")
