"""Measurements that run in their own process (`python -m bench.child TASK PARAMS.json OUT.json`).

A fresh process per measurement gives each one a clean peak RSS (ru_maxrss) and cold
caches, like a user's `ingest run`. Tasks:

- run:       one real `run_pipeline` call, timed per stage (bench.instrument);
- baselines: the core library call of each stage on the same input, alone;
- checks:    the consistency views on the first k documents of a warehouse, for several k.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

T0 = time.perf_counter()


def rss_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def loadavg() -> float:
    return round(os.getloadavg()[0], 2)


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# ---- run ----------------------------------------------------------------------------------


def task_run(params: dict[str, Any]) -> dict[str, Any]:
    import duckdb

    from bench.instrument import StageClock, instrumented
    from ingest import run_pipeline, warehouse
    from ingest.run.runner import Run

    imports_s = time.perf_counter() - T0
    clock = StageClock()
    before_check: dict[str, float] = {}
    original_finish = Run.finish

    def finish(self, *args, **kwargs):  # peak RSS before the checks, and when they start
        before_check.update(rss_mb=rss_peak_mb(), at_s=time.perf_counter() - start)
        return original_finish(self, *args, **kwargs)

    kwargs: dict[str, Any] = {}
    if params.get("batch_size"):
        kwargs["batch_size"] = params["batch_size"]
    if "stage_cache" in params:  # False: every stage really runs, as for the first run of a corpus
        kwargs["stage_cache"] = params["stage_cache"]
    load_before = loadavg()
    Run.finish = finish
    try:
        with instrumented(clock, strict=params.get("strict", True)):
            cpu0 = cpu_s()
            start = time.perf_counter()
            summary = run_pipeline([params["corpus"]], params["warehouse"], params.get("reports"), **kwargs)
            wall = time.perf_counter() - start
            cpu = cpu_s() - cpu0
    finally:
        Run.finish = original_finish
    con = duckdb.connect(params["warehouse"], read_only=True)
    try:
        counts = warehouse.table_counts(con)
        processed = con.execute(
            "SELECT count(*), coalesce(sum(length(text)), 0), coalesce(sum(size_bytes), 0) FROM documents WHERE run_id = ?",
            [summary.run_id],
        ).fetchone()
        fingerprint = con.execute("SELECT pipeline_version FROM runs WHERE run_id = ?", [summary.run_id]).fetchone()
        rows_this_run = sum(
            con.execute(
                f"SELECT count(*) FROM {t} WHERE doc_id IN (SELECT doc_id FROM documents WHERE run_id = ?)", [summary.run_id]
            ).fetchone()[0]
            for t in ("documents", *warehouse.DOCUMENT_TABLES)
        )
    finally:
        con.close()
    return {
        "wall_s": wall,
        "cpu_s": cpu,
        "imports_s": imports_s,
        "ingest_module": warehouse.__file__,
        "stages_s": clock.stages(),
        "stages_cpu_s": clock.stages(cpu=True),
        "parts_s": dict(clock.seconds),
        "parts_cpu_s": dict(clock.cpu_seconds),
        "calls": dict(clock.calls),
        "other_s": wall - sum(clock.seconds.values()),
        "rss_peak_mb": rss_peak_mb(),
        "rss_before_check_mb": before_check.get("rss_mb"),
        "fingerprint": fingerprint[0] if fingerprint else None,
        "summary": summary.line(),
        "n_files": summary.n_files,
        "n_loaded": len(summary.loaded),
        "n_skipped": len(summary.skipped),
        "n_failed": len(summary.failed),
        "failed": dict(list(summary.failed.items())[:5]),
        "processed_docs": processed[0],
        "processed_chars": processed[1],
        "processed_bytes": processed[2],
        "rows_loaded": rows_this_run,
        "table_counts": counts,
        "loadavg_before": load_before,
        "loadavg_after": loadavg(),
    }


# ---- baselines ----------------------------------------------------------------------------

CPU_TIMES: dict[str, float] = {}


def _timed(fn: Callable[[], Any], key: str | None = None) -> float:
    """Wall seconds of fn(); its CPU seconds (all threads of this process) go to CPU_TIMES[key]."""
    cpu, start = time.process_time(), time.perf_counter()
    fn()
    wall = time.perf_counter() - start
    if key:
        CPU_TIMES[key] = CPU_TIMES.get(key, 0.0) + time.process_time() - cpu
    return wall


def task_baselines(params: dict[str, Any]) -> dict[str, Any]:
    """Each stage's core library call alone, on the corpus the `run` task processed."""
    import re

    import duckdb

    from ingest import warehouse
    from ingest.clean import clean
    from ingest.discover import discover
    from ingest.read import _DETECTION_SAMPLE, decode

    corpus = Path(params["corpus"])
    sample_every = int(params.get("sample_every", 4))
    sources = [s for s in discover([corpus]) if not s.duplicate_of]
    raws = [Path(s.path).read_bytes() for s in sources]
    out: dict[str, Any] = {"n_docs": len(sources), "sample_every": sample_every, "load_avg_before": loadavg()}

    # read: charset-normalizer alone (the pipeline also reads the file, checks BOMs and magic numbers).
    from charset_normalizer import from_bytes

    out["read"] = {
        "library": "charset_normalizer.from_bytes(first 256 KiB).best()",
        "seconds": _timed(lambda: [from_bytes(raw[:_DETECTION_SAMPLE]).best() for raw in raws], "read"),
        "docs": len(raws),
        "bytes": sum(map(len, raws)),
    }

    decoded = []
    for source, raw in zip(sources, raws):
        try:
            decoded.append((source, decode(raw).text))
        except Exception:
            pass

    # clean: bs4 parse + get_text for HTML, markdown-it parse for Markdown, a line split for text.
    from bs4 import BeautifulSoup
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": True}).enable("table")

    def library_clean(fmt: str, text: str) -> Any:
        if fmt == "html":
            return BeautifulSoup(text, "html.parser").get_text()
        if fmt == "markdown":
            return md.parse(text)
        return text.split("\n")

    per_format: dict[str, float] = {}
    for fmt in ("html", "markdown", "text"):
        texts = [t for s, t in decoded if s.fmt == fmt]
        per_format[fmt] = _timed(lambda: [library_clean(fmt, t) for t in texts], "clean")
    out["clean"] = {
        "library": "BeautifulSoup(html.parser).get_text() / MarkdownIt.parse() / str.split",
        "seconds": sum(per_format.values()),
        "per_format_s": per_format,
        "docs": len(decoded),
    }

    cleaned = [(s, clean(t, s.fmt)) for s, t in decoded]
    cleaned = [(s, c) for s, c in cleaned if c.blocks]
    texts = [c.text for _, c in cleaned]
    out["chars"] = sum(map(len, texts))

    # detect: langdetect on each document's cleaned text (the pipeline decides most by script).
    from langdetect import DetectorFactory, LangDetectException, detect_langs

    DetectorFactory.seed = 0

    def langdetect(text: str) -> Any:
        try:
            return detect_langs(text)
        except LangDetectException:
            return None

    out["detect"] = {
        "library": "langdetect.detect_langs(document text), one call per document",
        "seconds": _timed(lambda: [langdetect(t) for t in texts], "detect"),
        "docs": len(texts),
    }

    # segment: one regex split of each paragraph at sentence ends.
    sentence = re.compile(r"[^。！？!?]+[。！？!?]*")
    blocks = [b.text for _, c in cleaned for b in c.blocks]
    out["segment"] = {
        "library": "re.findall(sentence pattern) per block",
        "seconds": _timed(lambda: [sentence.findall(b) for b in blocks], "segment"),
        "docs": len(cleaned),
    }

    # extract: spaCy's blank ja/zh tokenizer (SudachiPy / jieba inside) on the same segments, on a sample.
    from ingest.extract.nlp import get_nlp
    from ingest.language import detect_language
    from ingest.segment import segment

    sample = cleaned[::sample_every]
    segs = []
    for _, c in sample:
        lang = detect_language(c.text).lang
        segs += [(lang, s.text) for s in segment(c)]
    for lang in ("ja", "zh", "en"):
        get_nlp(lang).tokenizer("warm up ウォームアップ 预热")
    import jieba

    jieba.initialize()
    extract: dict[str, Any] = {
        "library": "spaCy blank ja/zh tokenizer (nlp.tokenizer: SudachiPy mode A / jieba)",
        "sample_docs": len(sample),
        "sample_chars": sum(len(c.text) for _, c in sample),
        "segments": len(segs),
        "segment_chars": sum(len(t) for _, t in segs),
    }
    extract["seconds"] = _timed(lambda: [get_nlp(lang).tokenizer(t) for lang, t in segs], "extract")
    from sudachipy import Dictionary, SplitMode

    dictionary = Dictionary()
    sudachi = dictionary.tokenizer(mode=SplitMode.A) if hasattr(dictionary, "tokenizer") else dictionary.create(SplitMode.A)
    extract["sudachipy_raw_s"] = _timed(lambda: [sudachi.tokenize(t) for lang, t in segs if lang == "ja"])
    extract["jieba_raw_s"] = _timed(lambda: [jieba.lcut(t) for lang, t in segs if lang == "zh"])
    extract["spacy_ja_s"] = _timed(lambda: [get_nlp(lang).tokenizer(t) for lang, t in segs if lang == "ja"])
    extract["spacy_zh_s"] = _timed(lambda: [get_nlp(lang).tokenizer(t) for lang, t in segs if lang == "zh"])
    from ingest.extract.entities import find_entities

    extract["find_entities_s"] = _timed(lambda: [find_entities(t, lang) for lang, t in segs])
    from ingest.extract.glossary import glossary_mentions

    glossary_mentions("warm up")
    extract["glossary_mentions_s"] = _timed(lambda: [glossary_mentions(t) for _, t in segs])
    out["extract"] = extract

    # A profile of the extract stage on part of the sample, for whoever tunes extract/claims.
    out["extract_profile"] = profile_extract(sample[: int(params.get("profile_docs", 60))], sources)

    # load: the same rows, bulk-inserted from Arrow into a fresh warehouse, one transaction.
    src = duckdb.connect(params["warehouse"], read_only=True)
    tables = ("documents", *warehouse.DOCUMENT_TABLES)
    arrow = {t: src.execute(f"SELECT * FROM {t}").to_arrow_table() for t in tables}
    target = Path(params["scratch"]) / "baseline-load.duckdb"
    target.unlink(missing_ok=True)
    dst = warehouse.connect(target)
    seconds = 0.0
    try:
        dst.execute("BEGIN TRANSACTION")
        for t in tables:
            dst.register("_bench_rows", arrow[t])
            seconds += _timed(lambda: dst.execute(f"INSERT INTO {t} SELECT * FROM _bench_rows"), "load")
            dst.unregister("_bench_rows")
        seconds += _timed(lambda: dst.execute("COMMIT"), "load")
    finally:
        dst.close()
        target.unlink(missing_ok=True)
    out["load"] = {
        "library": "DuckDB INSERT INTO t SELECT * FROM arrow_table, all tables, one transaction",
        "seconds": seconds,
        "rows": sum(a.num_rows for a in arrow.values()),
        "rows_by_table": {t: a.num_rows for t, a in arrow.items()},
    }

    # check: the check SQL alone: both views fetched as Arrow, no report rendering.
    check: dict[str, Any] = {"library": "SELECT * FROM conflicts / corroborations, fetched as Arrow"}
    for view in ("conflicts", "corroborations"):
        result: list[Any] = []
        check[f"{view}_s"] = _timed(lambda: result.append(src.execute(f"SELECT * FROM {view}").to_arrow_table()), "check")
        check[f"{view}_rows"] = result[0].num_rows
    check["seconds"] = check["conflicts_s"] + check["corroborations_s"]
    src.close()
    out["check"] = check
    for key, cpu in CPU_TIMES.items():
        out[key]["cpu_seconds"] = cpu
    out["rss_peak_mb"] = rss_peak_mb()
    out["load_avg_after"] = loadavg()
    return out


def profile_extract(sample: list, sources: list) -> dict[str, Any]:
    """cProfile of `extract_document` on the sample documents: top functions by own time."""
    import cProfile
    import pstats

    from ingest.extract.document import extract_document
    from ingest.prepare import prepare_document
    from ingest.records import Status
    from ingest.translate.engine import UntranslatedEngine
    from ingest.translate.segments import translate_documents

    by_id = {s.doc_id: s for s in sources}
    prepared = []
    for source, _ in sample:
        document = prepare_document(by_id[source.doc_id])
        if document.status == Status.OK:
            prepared.append(document)
    translate_documents(prepared, UntranslatedEngine())
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    for document in prepared:
        extract_document(document, "bench", "bench")
    profiler.disable()
    wall = time.perf_counter() - start
    stats = pstats.Stats(profiler)
    total = sum(row[2] for row in stats.stats.values())  # own time of every function
    rows = []
    for (file, line, name), (_, ncalls, tottime, cumtime, _) in stats.stats.items():
        rows.append(
            {
                "function": f"{_short(file)}:{line}({name})",
                "calls": ncalls,
                "own_s": round(tottime, 3),
                "cum_s": round(cumtime, 3),
            }
        )
    top_own = sorted(rows, key=lambda r: -r["own_s"])[:15]
    ours = [r for r in rows if r["function"].startswith("ingest/")]
    top_cum = sorted(ours, key=lambda r: -r["cum_s"])[:15]
    return {
        "docs": len(prepared),
        "wall_s_with_profiler": wall,
        "profiled_s": total,
        "top_own_time": top_own,
        "top_ingest_cumulative": top_cum,
    }


def _short(file: str) -> str:
    for marker in ("/src/", "/site-packages/"):
        if marker in file:
            return file.split(marker, 1)[1]
    return file


# ---- checks -------------------------------------------------------------------------------


def task_checks(params: dict[str, Any]) -> dict[str, Any]:
    """Time the consistency views on the first k documents (by doc_id) of a warehouse."""
    import duckdb

    from ingest import warehouse

    try:
        from ingest.check import update_checks
    except ImportError:  # a checkout from before the check package: connecting applied the views
        update_checks = None

    source = params["warehouse"]
    cap = float(params.get("cap_s", 60))
    scratch = Path(params["scratch"])
    points = []
    for k in params["doc_counts"]:
        path = scratch / f"checks-{k}.duckdb"
        path.unlink(missing_ok=True)
        con = warehouse.connect(path)
        try:
            con.execute(f"ATTACH '{source}' AS src (READ_ONLY)")
            con.execute(f"CREATE TEMP TABLE _docs AS SELECT doc_id FROM src.documents ORDER BY doc_id LIMIT {int(k)}")
            for table in ("documents", *warehouse.DOCUMENT_TABLES):
                con.execute(f"INSERT INTO {table} SELECT * FROM src.{table} WHERE doc_id IN (SELECT doc_id FROM _docs)")
            con.execute("DETACH src")
            con.execute(f"SET memory_limit = '{params.get('memory_limit', '8GB')}'")
            point: dict[str, Any] = {"docs": int(k)}
            if update_checks is not None:  # the views and the tables they read (renderings, stored clusters, verdicts)
                start = time.perf_counter()
                update_checks(con)
                point["update_checks_s"] = time.perf_counter() - start
            point["claims"] = con.execute("SELECT count(*) FROM claims").fetchone()[0]
            point["value_clusters"] = con.execute(
                "SELECT count(DISTINCT (subject, attribute, release, unit, cluster)) FROM claim_clusters"
            ).fetchone()[0]
            try:
                point["document_pairs"] = con.execute("SELECT count(*) FROM document_pairs").fetchone()[0]
            except duckdb.Error:  # no such view in this version of the checks
                pass
            stopped = False
            views = [
                v
                for v in params.get("views", ("conflicts", "corroborations", "aligned_number_mismatches"))
                if con.execute("SELECT count(*) FROM duckdb_views() WHERE view_name = ?", [v]).fetchone()[0]
            ]
            for view in views:
                timer = threading.Timer(cap, con.interrupt)
                timer.start()
                try:
                    start = time.perf_counter()
                    con.execute(f"CREATE OR REPLACE TEMP TABLE _out AS SELECT * FROM {view}")
                    point[f"{view}_s"] = time.perf_counter() - start
                    point[f"{view}_rows"] = con.execute("SELECT count(*) FROM _out").fetchone()[0]
                except duckdb.InterruptException:
                    point[f"{view}_s"] = None
                    point[f"{view}_stopped"] = f"stopped at {cap:.0f} s"
                    stopped = True
                except duckdb.Error as error:  # out of memory under the limit, typically
                    point[f"{view}_s"] = None
                    point[f"{view}_stopped"] = f"{type(error).__name__} after {time.perf_counter() - start:.0f} s"
                    stopped = True
                finally:
                    timer.cancel()
            point["rss_peak_mb"] = rss_peak_mb()
            points.append(point)
        finally:
            con.close()
            path.unlink(missing_ok=True)
            Path(str(path) + ".wal").unlink(missing_ok=True)
        if stopped:
            break
    return {"points": points, "cap_s": cap}


TASKS = {"run": task_run, "baselines": task_baselines, "checks": task_checks}


def main() -> None:
    task, params_file, out_file = sys.argv[1:4]
    params = json.loads(Path(params_file).read_text("utf-8"))
    result = TASKS[task](params)
    result["process_s"] = time.perf_counter() - T0
    Path(out_file).write_text(json.dumps(result, default=str, indent=1), "utf-8")


if __name__ == "__main__":
    main()
