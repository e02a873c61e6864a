"""Translation throughput: ArgosEngine vs raw CTranslate2 batching vs one segment or one
paragraph at a time; and the time to a complete report with a model installed.

    uv run python -m bench.translate_bench [--segments 96] [--rounds 5] [--output-tokens 24]
                                           [--report-documents N]

The model is a random-weight Transformer of the published packages' size (builder.ARGOS_BASE:
6+6 layers, d_model 512, FFN 2048, int8) on the real ja->en tokenizer and vocabulary from
../shared/argos-skeleton, so every segment — Japanese or Chinese — goes through that one
ja->en package. Random weights never choose to stop, so the output length is fixed
(min = max decoding length): every segment produces exactly `--output-tokens` tokens and
runs are comparable. Four ways over the same segments, interleaved (the order rotates
every round) and repeated:

* engine    — ArgosEngine.translate("ja", texts), the pipeline's path (tokenise, sort,
              token-budgeted batches, detokenise; no cache);
* raw       — one translate_batch over the same pre-tokenised input with the same options:
              the ceiling;
* single    — translate_batch on one segment at a time;
* paragraph — argostranslate's way: one translate_batch per paragraph, its sentences as
              the batch (`apply_packaged_translation` after sentence splitting).

Segments: the lines (paragraphs) of seeds/*.txt and ../shared/corpus/*.md split after 。！？
(a simple stand-in for ingest.segment), each sentence kept once, then every k-th paragraph
until `--segments` sentences. Results go to bench/results/translate.json and are printed as
a Markdown table.

`--report-documents N` also times a complete run with its report on N generated documents
(bench.corpus, stage cache off): no package installed, against the same random-weight
package at the same fixed output length with `--translate evidence`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path

import ctranslate2
from argostranslate import settings as argos_settings

from bench import argos_builder as builder
from bench import corpus
from ingest import run_pipeline
from ingest.run.runner import RunSummary
from ingest.translate import TranslationEngine, packages
from ingest.translate.argos import ArgosEngine, ArgosSettings, load_pair_model
from ingest.translate.engine import UntranslatedEngine

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
RESULTS = REPO / "bench" / "results" / "translate.json"
# The 113 MB package is rebuilt only when missing; it never belongs in the repository.
BUILD_CACHE = Path(tempfile.gettempdir()) / "ingest-translate-bench"
SENTENCE_END_RE = re.compile(r"(?<=[。！？])")
SEEDS_FOR_WARMUP = REPO / "seeds"


def load_paragraphs() -> list[list[str]]:
    """The lines of the articles cut into sentences; each sentence kept once, in the first
    paragraph that has it (the engine translates repeats once, raw batching would not)."""
    seeds = REPO / "seeds" if any((REPO / "seeds").glob("*.txt")) else SHARED / "seeds"
    files = sorted(seeds.glob("*.txt")) + sorted((SHARED / "corpus").glob("*.md"))
    seen: set[str] = set()
    paragraphs = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            sentences = list(dict.fromkeys(p.strip() for p in SENTENCE_END_RE.split(line) if p.strip()))
            sentences = [s for s in sentences if s not in seen]
            seen.update(sentences)
            if sentences:
                paragraphs.append(sentences)
    return paragraphs


def spread_sample(paragraphs: list[list[str]], count: int) -> list[list[str]]:
    """Every k-th paragraph until `count` sentences (the last one cut), so short and long
    documents are both represented and paragraphs stay whole."""
    mean_length = sum(map(len, paragraphs)) / max(1, len(paragraphs))
    step = max(1, int(len(paragraphs) * mean_length / count))
    chosen: list[list[str]] = []
    for paragraph in paragraphs[::step] + paragraphs:
        if paragraph in chosen:
            continue
        wanted = count - sum(map(len, chosen))
        if wanted <= 0:
            break
        chosen.append(paragraph[:wanted])
    return chosen


def real_size_package() -> Path:
    archive = BUILD_CACHE / "translate-ja_en-1_1.argosmodel"
    if not archive.exists():
        BUILD_CACHE.mkdir(parents=True, exist_ok=True)
        tokenizer = builder.skeleton_tokenizer(SHARED / "argos-skeleton" / "ja_en")
        builder.build_package(BUILD_CACHE, "ja", "en", tokenizer, size=builder.ARGOS_BASE)
    return archive


@contextlib.contextmanager
def private_package_dir() -> Iterator[Path]:
    """Install into a throw-away directory: the random model must never replace a real one."""
    saved = argos_settings.package_data_dir, argos_settings.package_dirs
    with tempfile.TemporaryDirectory(prefix="ingest-bench-packages-") as directory:
        argos_settings.package_data_dir, argos_settings.package_dirs = Path(directory), [Path(directory)]
        try:
            yield Path(directory)
        finally:
            argos_settings.package_data_dir, argos_settings.package_dirs = saved


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run (CPU time is steadier on a shared machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return time.perf_counter() - wall, time.process_time() - cpu


def paragraph_spans(paragraphs: list[list[str]]) -> list[tuple[int, int]]:
    """(start, end) of each paragraph in the flattened sentences."""
    spans, start = [], 0
    for paragraph in paragraphs:
        spans.append((start, start + len(paragraph)))
        start += len(paragraph)
    return spans


def measure(paragraphs: list[list[str]], settings: ArgosSettings, rounds: int) -> dict:
    texts = [sentence for paragraph in paragraphs for sentence in paragraph]
    installed = packages.install_from_file(real_size_package())
    engine = ArgosEngine(settings=settings, packages=[installed])
    model = load_pair_model(installed.path, installed.version, installed.target_prefix, settings)
    tokens = model.tokenize(texts)
    options = settings.decoding_options()
    _check_fixed_length(model.translator.translate_batch(tokens[:4], **options), settings)
    translate_batch = model.translator.translate_batch

    methods: dict[str, Callable[[], object]] = {
        "engine": lambda: engine.translate("ja", texts),
        "raw": lambda: translate_batch(tokens, **options),
        "single": lambda: [translate_batch([t], **options) for t in tokens],
        "paragraph": lambda: [translate_batch(tokens[a:b], **options) for a, b in paragraph_spans(paragraphs)],
    }
    seconds: dict[str, list[float]] = {name: [] for name in methods}
    cpu_seconds: dict[str, list[float]] = {name: [] for name in methods}
    names = list(methods)
    for round_index in range(rounds):
        # Rotate the order so drift in machine load does not favour one method.
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            wall, cpu = timed(methods[name])
            seconds[name].append(wall)
            cpu_seconds[name].append(cpu)
    return {
        "model_bin_bytes": (installed.path / "model" / "model.bin").stat().st_size,
        "source_tokens": sum(len(t) for t in tokens),
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
    }


def _check_fixed_length(results: list, settings: ArgosSettings) -> None:
    lengths = {len(result.hypotheses[0]) for result in results}
    assert lengths == {settings.max_decoding_length}, f"output lengths vary: {lengths}"


def summarise(measured: dict, segments: int, settings: ArgosSettings) -> dict:
    generated = segments * settings.max_decoding_length
    seconds, cpu_seconds = measured["seconds"], measured["cpu_seconds"]
    speedups = {other: _paired_speedup(seconds, other) for other in ("raw", "single", "paragraph")}
    return {
        "generated_tokens_per_run": generated,
        "tokens_per_second": {name: generated / statistics.median(t) for name, t in seconds.items()},
        "tokens_per_cpu_second": {name: generated / statistics.median(t) for name, t in cpu_seconds.items()},
        # Ratios within each round, then their median: both runs saw the same machine load.
        "engine_speedup_over": speedups,
        "goals": {
            "engine_at_least_90pct_of_raw": speedups["raw"] >= 0.9,
            "engine_at_least_4x_paragraph": speedups["paragraph"] >= 4,
        },
    }


def _paired_speedup(seconds: dict[str, list[float]], other: str) -> float:
    return statistics.median(o / e for o, e in zip(seconds[other], seconds["engine"], strict=True))


def markdown(summary: dict, measured: dict) -> str:
    lines = [
        "| method | median wall s | tokens/s (wall) | tokens/CPU-s | engine speed-up (paired) |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, rate in summary["tokens_per_second"].items():
        median = statistics.median(measured["seconds"][name])
        per_cpu = summary["tokens_per_cpu_second"][name]
        speedup = summary["engine_speedup_over"].get(name)
        shown = "—" if speedup is None else f"{speedup:.2f}×"
        lines.append(f"| {name} | {median:.2f} | {rate:,.0f} | {per_cpu:,.0f} | {shown} |")
    return "\n".join(lines)


def time_to_report(documents: int, settings: ArgosSettings) -> dict:
    """Seconds to a complete report on `documents` generated documents: without a package, then
    with the random-weight package and `--translate evidence` (each on a fresh warehouse)."""
    with tempfile.TemporaryDirectory(prefix="ingest-bench-report-") as scratch:
        work = Path(scratch)
        corpus.build_corpus(documents, work / "docs")
        run_pipeline(
            [SEEDS_FOR_WARMUP], work / "warmup.duckdb", None, engine=UntranslatedEngine(), stage_cache=False
        )  # loads the NLP models, which both runs then share

        def run(name: str, engine: TranslationEngine, mode: str) -> tuple[float, RunSummary]:
            start = time.perf_counter()
            summary = run_pipeline(
                [work / "docs"],
                work / f"{name}.duckdb",
                work / f"{name}-reports",
                engine=engine,
                stage_cache=False,
                translate=mode,
            )
            return time.perf_counter() - start, summary

        without, _ = run("without-model", UntranslatedEngine(), "all")
        with private_package_dir():
            installed = packages.install_from_file(real_size_package())
            with_model, summary = run("evidence", ArgosEngine(settings=settings, packages=[installed]), "evidence")
    return {
        "documents": documents,
        "seconds_without_model": without,
        "seconds_with_model_evidence": with_model,
        "ratio": with_model / without,
        "segments_translated_for_the_report": summary.filled,
        "segments_waiting": summary.waiting,
        "goal_at_most_2x": with_model / without <= 2,
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=96, help="segments per run")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved repetitions")
    parser.add_argument("--output-tokens", type=int, default=24, help="fixed output length")
    parser.add_argument(
        "--report-documents", type=int, default=0, help="also time a complete report on this many documents (0: not)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    paragraphs = spread_sample(load_paragraphs(), args.segments)
    texts = [sentence for paragraph in paragraphs for sentence in paragraph]
    settings = ArgosSettings(max_decoding_length=args.output_tokens, min_decoding_length=args.output_tokens)
    with private_package_dir():
        measured = measure(paragraphs, settings, args.rounds)
    summary = summarise(measured, len(texts), settings)
    report = {
        "model": {
            **asdict(builder.ARGOS_BASE),
            "vocabulary": "ja_en 1.1 (50,004 tokens)",
            "weights": "random, int8",
            "model_bin_bytes": measured["model_bin_bytes"],
        },
        "settings": asdict(settings),
        "segments": len(texts),
        "paragraphs": len(paragraphs),
        "source_tokens": measured["source_tokens"],
        "rounds": args.rounds,
        "seconds": measured["seconds"],
        "cpu_seconds": measured["cpu_seconds"],
        **summary,
        "machine": {
            "cpus": os.cpu_count(),
            "processor": platform.processor() or platform.machine(),
            "ctranslate2": ctranslate2.__version__,
        },
    }
    if args.report_documents:
        report["time_to_report"] = time_to_report(args.report_documents, settings)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(markdown(summary, measured))
    if args.report_documents:
        timing = report["time_to_report"]
        print(
            f"\ncomplete report on {timing['documents']} documents: {timing['seconds_without_model']:.1f} s "
            f"without a model, {timing['seconds_with_model_evidence']:.1f} s with it (--translate evidence, "
            f"{timing['segments_translated_for_the_report']} segments translated): {timing['ratio']:.2f}x"
        )
    print(
        f"\n{len(texts)} segments in {len(paragraphs)} paragraphs, {measured['source_tokens']} source tokens, "
        f"{args.output_tokens} output tokens each, beam {settings.beam_size}, "
        f"{args.rounds} rounds; results in {args.out}"
    )
    return report


if __name__ == "__main__":
    main()
