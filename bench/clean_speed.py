"""The clean stage's speed on a built bench corpus, per format: `ingest.clean.clean` over every file.

    uv run python -c "from pathlib import Path; from bench.corpus import build_corpus; \
        build_corpus(1000, Path('/tmp/cleanbench'))"
    uv run python bench/clean_speed.py /tmp/cleanbench/00                            # this checkout
    PYTHONPATH=OTHER_CHECKOUT/src uv run python bench/clean_speed.py /tmp/cleanbench/00  # another commit

Files are decoded first (not timed); each format's time is the best of `repeats` passes, so
other work on the machine inflates it less. The output names the code it timed.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import ingest
from ingest.clean import SUPPORTED_SUFFIXES, clean
from ingest.read import decode


def main(corpus: Path, repeats: int = 3) -> dict:
    documents = [
        (SUPPORTED_SUFFIXES[path.suffix.lower()], decode(path.read_bytes()).text)
        for path in sorted(corpus.iterdir())
        if path.suffix.lower() in SUPPORTED_SUFFIXES
    ]
    clean(documents[0][1], documents[0][0])  # imports and caches, not timed
    best: dict[str, float] = {}
    for _ in range(repeats):
        spent: dict[str, float] = {}
        for fmt, text in documents:
            started = time.perf_counter()
            clean(text, fmt)
            spent[fmt] = spent.get(fmt, 0.0) + time.perf_counter() - started
        best = {fmt: min(best.get(fmt, seconds), seconds) for fmt, seconds in spent.items()}
    return {
        "code": str(Path(ingest.__file__).parents[1]),
        "documents": len(documents),
        "per_format": {fmt: sum(1 for f, _ in documents if f == fmt) for fmt in best},
        "seconds": {fmt: round(seconds, 3) for fmt, seconds in best.items()},
        "total_seconds": round(sum(best.values()), 3),
    }


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 3)))
