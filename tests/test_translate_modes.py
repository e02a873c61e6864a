"""`--translate all | evidence | none` and `ingest translate`, on the seeds with real (tiny,
random-weight) ja->en and zh->en packages."""

from __future__ import annotations

import shutil

import pytest
from typer.testing import CliRunner

from ingest import run_pipeline, warehouse
from ingest.cli import app
from ingest.outputs import collect
from ingest.run.fill import translate_warehouse
from ingest.settings import RunOptions
from ingest.translate import make_engine, packages
from report_text import markdown_text
from seed_fixtures import SEEDS

pytest_plugins = ["translate_fixtures"]


@pytest.fixture
def both_installed(argos_dir, tiny_archives) -> None:
    packages.install_from_file(tiny_archives.ja_10)
    packages.install_from_file(tiny_archives.zh_10)


@pytest.fixture
def seeds(tmp_path):
    inputs = tmp_path / "seeds"
    shutil.copytree(SEEDS, inputs)
    return inputs


def ingest(seeds, tmp_path, settings, mode, name="w"):
    db = tmp_path / f"{name}.duckdb"
    summary = run_pipeline([seeds], db, tmp_path / f"{name}-reports", engine=make_engine(settings=settings), translate=mode)
    return db, summary


def statuses(db) -> dict[str, int]:
    con = warehouse.connect(db, read_only=True)
    try:
        return dict(con.execute("SELECT translation_status, count(*) FROM segments GROUP BY 1").fetchall())
    finally:
        con.close()


def rows(db, query: str) -> list[tuple]:
    con = warehouse.connect(db, read_only=True)
    try:
        return con.execute(query).fetchall()
    finally:
        con.close()


ENGLISH = (
    "SELECT doc_id, seg_idx, text_en, translation_engine FROM segments ORDER BY ALL",
    "SELECT claim_id, evidence_en FROM claims ORDER BY ALL",
    "SELECT doc_id, seg_idx, kind, expected FROM translation_issues ORDER BY ALL",
    "SELECT source_text, text_en FROM translation_cache ORDER BY ALL",
)


def test_evidence_first_translates_the_reports_sentences_and_less_than_half(
    tmp_path, seeds, both_installed, fast_settings, counted
):
    db, summary = ingest(seeds, tmp_path, fast_settings, "evidence")

    con = warehouse.connect(db, read_only=True)
    data = collect(con)
    con.close()
    assert data.contradictions and data.corroborations
    shown = [e for f in data.contradictions for side in f.sides for e in side.evidence]
    shown += [e for c in data.corroborations for e in c.evidence] + [e for n in data.notes for e in n.evidence]
    status = {
        (doc_id, text): status for doc_id, text, status in rows(db, "SELECT doc_id, text, translation_status FROM segments")
    }
    # every sentence shown is in English: translated, or English already (headings like "[Beta] X")
    assert {status[(e.doc_id, e.text)] for e in shown} <= {"translated", "not_needed"}
    assert all(e.text_en for e in shown if status[(e.doc_id, e.text)] == "translated")
    assert sum(status[(e.doc_id, e.text)] == "translated" for e in shown) >= len(shown) / 2
    counts = statuses(db)
    translated = counts.get("translated", 0) + counts.get("cached", 0)
    assert 0 < translated < sum(counts.values()) / 2
    assert counts["waiting"] == summary.waiting > translated
    assert sum(counted) == len(rows(db, "SELECT DISTINCT text FROM segments WHERE translation_status = 'translated'"))
    # the claims show the English of their segment; nothing else has any
    assert (
        rows(
            db,
            "SELECT count(*) FROM claims c JOIN segments s USING (doc_id, seg_idx) "
            "WHERE c.evidence_en IS DISTINCT FROM s.text_en",
        )[0][0]
        == 0
    )
    report = markdown_text((tmp_path / "w-reports" / "consistency.md").read_text("utf-8"))
    assert f"{counts['waiting']} segments wait for a translation" in report and "uv run ingest translate" in report


def test_ingest_translate_fills_what_waits_like_a_full_run_and_then_does_nothing(
    tmp_path, seeds, both_installed, fast_settings, counted
):
    evidence_db, _ = ingest(seeds, tmp_path, fast_settings, "evidence", "evidence")
    result, paths = translate_warehouse(evidence_db, tmp_path / "evidence-reports", make_engine(settings=fast_settings))

    assert result.filled > 0 and result.still_waiting == 0 and paths
    assert "waiting" not in statuses(evidence_db)
    calls = len(counted)
    again, paths = translate_warehouse(evidence_db, tmp_path / "evidence-reports", make_engine(settings=fast_settings))
    assert (again.filled, again.still_waiting, paths, len(counted)) == (0, 0, [], calls)

    all_db, summary = ingest(seeds, tmp_path, fast_settings, "all", "all")
    assert "waiting" not in statuses(all_db) and summary.filled == 0
    for query in ENGLISH:  # segments, claims, fidelity issues and cache end as a full run leaves them
        assert rows(evidence_db, query) == rows(all_db, query), query


def test_none_translates_nothing_and_all_leaves_nothing_waiting(tmp_path, seeds, both_installed, fast_settings, counted):
    db, summary = ingest(seeds, tmp_path, fast_settings, "none")

    counts = statuses(db)
    assert counted == [] and "translated" not in counts and "cached" not in counts
    assert counts["waiting"] == summary.waiting > 0 and summary.filled == 0
    assert rows(db, "SELECT count(*) FROM claims WHERE evidence_en IS NOT NULL AND evidence_en <> evidence")[0][0] == 0

    # a later run in another mode skips the unchanged documents and fills what waits
    again = run_pipeline([seeds], db, None, engine=make_engine(settings=fast_settings), translate="all")
    assert again.skipped and not again.loaded
    assert "waiting" not in statuses(db) and again.filled == counts["waiting"]


def test_without_a_package_nothing_waits(tmp_path, seeds, argos_dir, fast_settings):
    db, summary = ingest(seeds, tmp_path, fast_settings, "evidence")

    assert "waiting" not in statuses(db) and statuses(db)["untranslated"] > 0 and summary.waiting == 0


def test_the_command_line(tmp_path, seeds, both_installed):
    db, reports = tmp_path / "w.duckdb", tmp_path / "reports"
    runner = CliRunner()
    assert (
        runner.invoke(app, ["run", str(seeds), "--warehouse", str(db), "--translate", "sometimes", "--no-prefect"]).exit_code == 2
    )
    result = runner.invoke(
        app, ["run", str(seeds), "--warehouse", str(db), "--reports", str(reports), "--translate", "none", "--no-prefect"]
    )
    assert result.exit_code == 0, result.output
    assert "wait for a translation: `uv run ingest translate` fills them" in result.output
    result = runner.invoke(app, ["translate", "--warehouse", str(db), "--reports", str(reports)])
    assert result.exit_code == 0, result.output
    assert "still waiting" in result.output and "report:" in result.output
    result = runner.invoke(app, ["translate", "--warehouse", str(db), "--reports", str(reports)])
    assert result.exit_code == 0 and "nothing waits for a translation" in result.output
    assert runner.invoke(app, ["translate", "--warehouse", str(tmp_path / "none.duckdb")]).exit_code == 2


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="all, evidence, none"):
        RunOptions(translate="some")


class FailsOnSecondCall:
    """A real engine that breaks down after its first call (a crash in the middle of a fill)."""

    def __init__(self, engine) -> None:
        self.engine, self.calls = engine, 0
        self.name, self.fingerprint = engine.name, engine.fingerprint

    def package_key(self, lang):
        return self.engine.package_key(lang)

    def package_keys(self):
        return self.engine.package_keys()

    def translate(self, lang, texts):
        self.calls += 1
        if self.calls > 1:
            raise RuntimeError("the engine broke down")
        return self.engine.translate(lang, texts)


def test_a_fill_that_breaks_off_leaves_whole_documents(tmp_path, seeds, both_installed, fast_settings):
    from ingest.translate.waiting import fill_waiting

    db, _ = ingest(seeds, tmp_path, fast_settings, "none")
    con = warehouse.connect(db)
    try:
        with pytest.raises(RuntimeError, match="broke down"):
            # one document per batch, and its languages' calls: the first batch commits, the second fails
            fill_waiting(con, FailsOnSecondCall(make_engine(settings=fast_settings)), batch_segments=1)
        per_document = con.execute(
            "SELECT doc_id, list(DISTINCT translation_status ORDER BY translation_status) FROM segments "
            "WHERE translation_status IN ('translated', 'cached', 'waiting') GROUP BY 1 ORDER BY 1"
        ).fetchall()
        cache_rows = con.execute("SELECT count(*) FROM translation_cache").fetchone()[0]
    finally:
        con.close()
    assert [statuses for _, statuses in per_document].count(["translated"]) == 1
    assert all(statuses in (["translated"], ["waiting"]) for _, statuses in per_document), per_document
    assert cache_rows > 0


@pytest.mark.integration
def test_the_flow_translates_evidence_first_and_a_later_all_run_fills_the_rest(prefect_api, tmp_path, seeds, both_installed):
    from ingest.flow import ingest as ingest_flow

    db = tmp_path / "flow.duckdb"
    options = {"paths": [str(seeds)], "warehouse_path": str(db), "reports_dir": str(tmp_path / "flow-reports")}
    first = ingest_flow(**options, translate="evidence")
    counts = statuses(db)
    translated = counts.get("translated", 0) + counts.get("cached", 0)
    assert first["loaded"] == 4 and 0 < first["filled"] == translated < first["waiting"] == counts["waiting"]

    # what a deployment run with -p translate=all does on an unchanged warehouse
    second = ingest_flow(**options, translate="all")
    assert second["skipped"] == 4 and second["filled"] == first["waiting"] and "waiting" not in statuses(db)


def test_ingest_translate_without_packages_says_what_has_no_translation_and_how_to_get_one(seeded_warehouse, tmp_path):
    """Right after `make run` without a package nothing waits, but 260 segments have no English:
    the command says so, per language, with the commands that fix it."""
    db = tmp_path / "w.duckdb"
    shutil.copy(seeded_warehouse, db)
    result = CliRunner().invoke(app, ["translate", "--warehouse", str(db)])
    assert result.exit_code == 0, result.output
    assert "nothing waits for a translation" in result.output
    line = next(line for line in result.output.splitlines() if "have no translation" in line)
    assert "(ja " in line and ", zh " in line and "ingest models install ja zh" in line and "ingest run" in line
