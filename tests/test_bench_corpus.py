"""The benchmark's corpus generator: a 20-document corpus with the promised mix (fast; no benchmark runs here)."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.corpus import build_corpus, corpus_mix, mutate_corpus, read_manifest  # noqa: E402
from ingest.discover import discover  # noqa: E402


def test_corpus_of_20_has_the_mix_and_is_deterministic(tmp_path):
    paths = build_corpus(20, tmp_path / "a", seed=0)
    assert len(paths) == 20 and all(p.is_file() for p in paths)
    files = read_manifest(tmp_path / "a")
    mix = corpus_mix(files)
    assert set(mix["lang"]) == {"ja", "zh"} and min(mix["lang"].values()) >= 6
    assert set(mix["format"]) == {"html", "markdown", "text"} and min(mix["format"].values()) >= 3
    assert {p.suffix for p in paths} == {".html", ".md", ".txt"}
    assert 1500 <= statistics.median(f.chars for f in files) <= 8000
    # every document is distinct content: the pipeline sees 20 documents, no duplicates
    sources = discover([tmp_path / "a"])
    assert len(sources) == 20 and not any(s.duplicate_of for s in sources)
    # same seed, same bytes; and a smaller corpus is a prefix of a larger one
    again = build_corpus(10, tmp_path / "b", seed=0)
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in paths[:10]]
    other = build_corpus(10, tmp_path / "c", seed=1)
    assert [p.read_bytes() for p in other] != [p.read_bytes() for p in again]


def test_mutate_changes_one_percent_in_place(tmp_path):
    paths = build_corpus(20, tmp_path, seed=0)
    before = {p: p.read_bytes() for p in paths}
    changed = mutate_corpus(tmp_path, 0.05, seed=1)
    assert len(changed) == 1
    assert [p for p in paths if p.read_bytes() != before[p]] == changed
