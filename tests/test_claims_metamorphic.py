"""Metamorphic tests of the claims check across articles, on the seeds' two real contradictions
(FlexAttention and Intel GPU support, PyTorch 2.5, 000 against 001): renaming a product
consistently changes nothing, nor does renaming every product and feature name (PyTorch
included) with invented ones; two articles without a release never contradict (they are not
renderings of one article); moving a fact under another release's heading removes its conflict."""

from __future__ import annotations

import re
import sys

import pytest

from ingest import run_pipeline, warehouse
from ingest.translate.engine import UntranslatedEngine
from seed_fixtures import ROOT, SEEDS

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PAIR = ("000_7df305071c9dd669.txt", "001_dff0537ae45131ec.txt")


def _texts() -> dict[str, str]:
    return {name: (SEEDS / name).read_text("utf-8") for name in PAIR}


def _contradictions(tmp_path, texts: dict[str, str], name: str) -> set[tuple]:
    folder = tmp_path / name
    folder.mkdir()
    for file, text in texts.items():
        (folder / file).write_text(text, "utf-8")
    db = folder / "w.duckdb"
    run_pipeline([folder], db, None, engine=UntranslatedEngine(), stage_cache=False)
    con = warehouse.connect(db, read_only=True)
    try:
        return set(
            con.execute(
                "SELECT subject, attribute, value_a, value_b FROM conflicts "
                "WHERE severity = 'contradiction' AND kind LIKE '%_conflict'"
            ).fetchall()
        )
    finally:
        con.close()


@pytest.fixture(scope="module")
def before(tmp_path_factory):
    return _contradictions(tmp_path_factory.mktemp("before"), _texts(), "original")


def test_the_seeds_contradict_each_other_twice(before):
    assert {(s, a) for s, a, *_ in before} == {("flexattention", "maturity"), ("intel-gpu-support", "maturity")}


def test_renaming_a_product_consistently_changes_nothing(tmp_path, before):
    renamed = {f: re.sub(r"FlexAttention", "Zorbflex", t) for f, t in _texts().items()}
    after = _contradictions(tmp_path, renamed, "renamed")
    assert {(("flexattention" if s == "zorbflex" else s), a, x, y) for s, a, x, y in after} == before


def test_renaming_every_name_keeps_every_finding(tmp_path):
    """No finding of the pair depends on a glossary entry or a listed product: with every Latin name
    replaced by an invented one (`bench.rename_names`), the same contradictions and corroborations."""
    from bench.rename_names import Renamer, findings

    renamer = Renamer()
    runs = []
    for side, rename in (("named", False), ("renamed", True)):
        folder = tmp_path / side / "in"
        folder.mkdir(parents=True)
        for file, text in _texts().items():
            (folder / file).write_text(renamer.rename(text) if rename else text, "utf-8")
        contradictions, corroborations, _ = findings(folder)
        runs.append(
            (
                {tuple(renamer.back(str(v)) for v in key) for key in contradictions},
                {tuple(renamer.back(str(v)) for v in key) for key in corroborations},
            )
        )
    assert len(renamer.names) >= 20  # PyTorch, FlexAttention, TorchInductor, cuDNN, SDPA...
    assert runs[1] == runs[0] and len(runs[0][0]) == 2 and len(runs[0][1]) >= 5


def test_two_articles_without_a_release_never_contradict(tmp_path):
    unreleased = {f: re.sub(r"(?i)pytorch\s*2\.5(?:\.\d+)?", "PyTorch", t) for f, t in _texts().items()}
    assert _contradictions(tmp_path, unreleased, "unreleased") == set()


def test_a_fact_moved_under_another_releases_heading_loses_its_conflict(tmp_path, before):
    texts = _texts()
    lines = texts[PAIR[1]].split("\n")
    start = lines.index("[Prototype] FlexAttention")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("[Prototype]"))
    block = lines[start:end]
    texts[PAIR[1]] = "\n".join(lines[:start] + lines[end:] + ["", "PyTorch 2.6 新功能", ""] + block)
    after = _contradictions(tmp_path, texts, "moved")
    assert {s for s, *_ in after} == {s for s, *_ in before} - {"flexattention"}
