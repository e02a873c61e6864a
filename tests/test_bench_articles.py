"""The realistic benchmark corpus (bench/articles.py): its labels, and the pipeline against them on 80 documents."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.articles import build_articles, labelled_changes, labelled_pairs  # noqa: E402
from bench.renderings_scale import pairs_found  # noqa: E402
from ingest import run_pipeline  # noqa: E402
from ingest.discover import discover  # noqa: E402


def test_articles_come_in_renderings_with_labels_and_a_smaller_corpus_is_a_prefix(tmp_path):
    files = build_articles(80, tmp_path / "a")
    assert len(files) == 80 and len(discover([tmp_path / "a"])) == 80  # distinct documents, no duplicates
    roles = Counter(f.role for f in files)
    assert {"original", "rendering", "writeup"} <= set(roles) and roles["original"] >= 30
    assert set(Counter(f.lang for f in files)) == {"en", "ja", "zh"}
    by_article: dict[str, list] = {}
    for f in files:
        by_article.setdefault(f.article, []).append(f)
    for group in by_article.values():  # one original per article; its renderings in other languages, about its release
        assert [f.role for f in group].count("original") + [f.role for f in group].count("writeup") == 1
        assert len({f.release for f in group}) == 1
        assert len({f.lang for f in group if f.role != "draft"}) == len([f for f in group if f.role != "draft"])
    # a write-up is about a release another article covers, and renders none
    writeup = next(f for f in files if f.role == "writeup")
    assert any(f.release == writeup.release and f.article != writeup.article for f in files)
    assert not any(writeup.path in pair for pair in labelled_pairs(files))
    # revisions: a changed figure or a sentence left out, labelled by where the article states it
    assert any(f.changed for f in files) and any(f.omitted for f in files)
    assert sum(labelled_changes(files).values()) >= 5
    again = build_articles(40, tmp_path / "b")
    assert [(tmp_path / "b" / f.path).read_bytes() for f in again] == [(tmp_path / "a" / f.path).read_bytes() for f in files[:40]]


def test_the_pipeline_pairs_the_renderings_and_finds_each_changed_figure(tmp_path):
    corpus = tmp_path / "articles"
    build_articles(80, corpus)
    run_pipeline([corpus], tmp_path / "w.duckdb", None)
    found = pairs_found(tmp_path / "w.duckdb", corpus)
    assert found["false"] == 0 and found["changes_false"] == 0, found
    assert found["true"] >= 0.95 * found["labelled"], found
    assert found["changes_found"] >= 0.9 * found["changes_labelled"] and found["changes_labelled"] >= 5, found


def test_the_renderings_scale_benchmark_reports_pairs_changes_and_the_every_pair_oracle(tmp_path):
    from bench import renderings_scale

    out = tmp_path / "renderings-scale.json"
    assert renderings_scale.main(["--sizes", "40", "--oracle", "30", "--out", str(out)]) == 0
    results = json.loads(out.read_text("utf-8"))
    (run,) = results["sizes"]["40"]["runs"]["this"]
    assert run["false"] == 0 and run["true"] >= 0.95 * run["labelled"] and run["wall_s"] > 0
    oracle = results["sizes"]["30"]["every_pair"]
    assert oracle["same_as_index"] and oracle["compared"] >= oracle["found"] > 0
    assert results["lost"] == {"from": "30", "at": "40", "pairs": 0}
    assert "| 40 | this |" in out.with_suffix(".md").read_text("utf-8")
