"""Independent sources and truth discovery: renderings count once, the supported value wins,
the outlier source has the lowest trust, and one source against one is undecided."""

from __future__ import annotations

from ingest import run_pipeline, warehouse
from ingest.translate.engine import UntranslatedEngine

# Three independent articles say Zorbflow is beta in PyTorch 9.9 ...
INDEPENDENT = {
    "a.md": "# PyTorch 9.9 发布\n\n[Beta] Zorbflow 是一个新的调度器。\n",
    "b.md": "# PyTorch 9.9 のリリース\n\nZorbflow はベータ版として提供されます。\n",
    "c.md": "# PyTorch 9.9 release notes\n\n## [Beta] Zorbflow\n\nZorbflow schedules kernels across devices.\n",
}
# ... and one article, in two renderings (a draft and its proofread version), says prototype.
RENDERING = """# PyTorch 9.9 新功能{edit}

[Prototype] Zorbflow 是 Quxelbench、Blimpcore 和 Frobnix 之间的调度器。

Waldorfkit 与 Grindlebox 一起，在 Snarfmill 上测得 3.5 倍的速度提升。

详见 https://example.org/zorbflow/design 和 https://example.org/zorbflow/bench 。

Plonkware 和 Trundlefs 在 Vexmoor 上的吞吐提高了 42%。
"""


def _ingest(tmp_path, documents: dict[str, str]):
    inputs = tmp_path / "in"
    inputs.mkdir()
    for name, text in documents.items():
        (inputs / name).write_text(text, "utf-8")
    run_pipeline([inputs], tmp_path / "w.duckdb", None, engine=UntranslatedEngine())
    return warehouse.connect(tmp_path / "w.duckdb", read_only=True)


def test_three_sources_outvote_two_renderings_of_one_article(tmp_path):
    con = _ingest(tmp_path, {**INDEPENDENT, "d.md": RENDERING.format(edit=""), "e.md": RENDERING.format(edit="（校对版）")})
    try:
        groups = con.execute("SELECT doc_id, group_id FROM renderings ORDER BY doc_id").fetchall()
        assert groups == [("in/d.md", "in/d.md"), ("in/e.md", "in/d.md")]
        supported, verdict = con.execute(
            "SELECT supported, verdict FROM claim_verdicts WHERE subject = 'zorbflow' AND attribute = 'maturity'"
        ).fetchone()
        assert supported == "beta"
        assert "3 sources (3 documents) say beta" in verdict and "1 source (2 documents) says prototype" in verdict
        trust = dict(con.execute("SELECT source_id, trust FROM sources").fetchall())
        assert min(trust, key=trust.get) == "in/d.md"
        [(n_documents,)] = con.execute("SELECT n_documents FROM sources WHERE source_id = 'in/d.md'").fetchall()
        assert n_documents == 2
        arbiter = con.execute(
            "SELECT arbiter FROM conflicts WHERE subject = 'zorbflow' AND severity = 'contradiction'"
        ).fetchall()
        assert arbiter and all(a.startswith("supported: beta") for (a,) in arbiter)
    finally:
        con.close()


def test_one_source_against_one_is_undecided(tmp_path):
    con = _ingest(tmp_path, {"a.md": INDEPENDENT["a.md"], "d.md": RENDERING.format(edit="")})
    try:
        supported, verdict = con.execute("SELECT supported, verdict FROM claim_verdicts WHERE subject = 'zorbflow'").fetchone()
        assert supported is None and verdict.startswith("undecided")
    finally:
        con.close()


def test_renderings_are_one_source_when_counting_corroboration(tmp_path):
    con = _ingest(tmp_path, {"d.md": RENDERING.format(edit=""), "e.md": RENDERING.format(edit="（校对版）")})
    try:
        rows = con.execute("SELECT n_documents, n_sources FROM corroborations WHERE subject = 'zorbflow'").fetchall()
        assert rows == [(2, 1)]
    finally:
        con.close()
