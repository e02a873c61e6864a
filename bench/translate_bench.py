"""Translation throughput: ArgosEngine vs raw CTranslate2 batching vs one segment at a time.

    uv run python -m bench.translate_bench [--segments 96] [--rounds 5] [--output-tokens 24]

The model is a random-weight Transformer of the published packages' size (builder.ARGOS_BASE:
6+6 layers, d_model 512, FFN 2048, int8) on the real ja->en tokenizer and vocabulary from
../shared/argos-skeleton, so every segment — Japanese or Chinese — goes through that one
ja->en package. Random weights never choose to stop, so the output length is fixed
(min = max decoding length): every segment produces exactly `--output-tokens` tokens and
runs are comparable. Three ways over the same segments, interleaved and repeated:

* engine  — ArgosEngine.translate("ja", texts), the pipeline's path (tokenise, sort,
            batch, detokenise; no cache);
* raw     — one translate_batch over the same pre-tokenised input with the same options:
            the ceiling;
* single  — translate_batch on one segment at a time, as argostranslate translates
            paragraph by paragraph.

Segments: the lines of seeds/*.txt and ../shared/corpus/*.md split after 。！？ (a simple
stand-in for ingest.segment), deduplicated, then every k-th one up to `--segments`.
Results go to bench/results/translate.json and are printed as a Markdown table.
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
from ingest.translate import packages
from ingest.translate.argos import ArgosEngine, ArgosSettings, load_pair_model

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
RESULTS = REPO / "bench" / "results" / "translate.json"
# The 113 MB package is rebuilt only when missing; it never belongs in the repository.
BUILD_CACHE = Path(tempfile.gettempdir()) / "ingest-translate-bench"
SENTENCE_END_RE = re.compile(r"(?<=[。！？])")


def load_segments() -> list[str]:
    seeds = REPO / "seeds" if any((REPO / "seeds").glob("*.txt")) else SHARED / "seeds"
    files = sorted(seeds.glob("*.txt")) + sorted((SHARED / "corpus").glob("*.md"))
    pieces = (
        piece.strip()
        for path in files
        for line in path.read_text(encoding="utf-8").splitlines()
        for piece in SENTENCE_END_RE.split(line)
    )
    # Distinct segments only: the engine translates repeats once, raw batching would not.
    return list(dict.fromkeys(piece for piece in pieces if piece))


def spread_sample(items: list[str], count: int) -> list[str]:
    """Every k-th item, so short and long documents are both represented."""
    step = max(1, len(items) // count)
    return items[::step][:count]


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


def measure(texts: list[str], settings: ArgosSettings, rounds: int) -> dict:
    installed = packages.install_from_file(real_size_package())
    engine = ArgosEngine(settings=settings, packages=[installed])
    model = load_pair_model(installed.path, installed.version, installed.target_prefix, settings)
    tokens = model.tokenize(texts)
    options = settings.decoding_options()
    _check_fixed_length(model.translator.translate_batch(tokens[:4], **options), settings)

    methods: dict[str, Callable[[], object]] = {
        "engine": lambda: engine.translate("ja", texts),
        "raw": lambda: model.translator.translate_batch(tokens, **options),
        "single": lambda: [model.translator.translate_batch([t], **options) for t in tokens],
    }
    seconds: dict[str, list[float]] = {name: [] for name in methods}
    cpu_seconds: dict[str, list[float]] = {name: [] for name in methods}
    names = list(methods)
    for round_index in range(rounds):
        # Rotate the order so drift in machine load does not favour one method.
        for name in names[round_index % 3 :] + names[: round_index % 3]:
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
    speedups = {other: _paired_speedup(seconds, other) for other in ("raw", "single")}
    return {
        "generated_tokens_per_run": generated,
        "tokens_per_second": {name: generated / statistics.median(t) for name, t in seconds.items()},
        "tokens_per_cpu_second": {name: generated / statistics.median(t) for name, t in cpu_seconds.items()},
        # Ratios within each round, then their median: both runs saw the same machine load.
        "engine_speedup_over": speedups,
        "goals": {
            "engine_within_10pct_of_raw": speedups["raw"] >= 0.9,
            "engine_at_least_4x_single": speedups["single"] >= 4,
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


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=96, help="segments per run")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved repetitions")
    parser.add_argument("--output-tokens", type=int, default=24, help="fixed output length")
    parser.add_argument("--out", type=Path, default=RESULTS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    texts = spread_sample(load_segments(), args.segments)
    settings = ArgosSettings(max_decoding_length=args.output_tokens, min_decoding_length=args.output_tokens)
    with private_package_dir():
        measured = measure(texts, settings, args.rounds)
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
        "source_tokens": measured["source_tokens"],
        "rounds": args.rounds,
        "seconds": measured["seconds"],
        "cpu_seconds": measured["cpu_seconds"],
        **summary,
        "machine": {"cpus": os.cpu_count(), "processor": platform.processor() or platform.machine(),
                    "ctranslate2": ctranslate2.__version__},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(markdown(summary, measured))
    print(f"\n{len(texts)} segments, {measured['source_tokens']} source tokens, "
          f"{args.output_tokens} output tokens each, beam {settings.beam_size}, "
          f"{args.rounds} rounds; results in {args.out}")
    return report


if __name__ == "__main__":
    main()
