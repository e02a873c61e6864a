"""Translation through the whole pipeline with a real (tiny, random-weight) argostranslate package."""

from __future__ import annotations

import shutil

from ingest import run_pipeline, warehouse
from ingest.translate import make_engine
from report_text import markdown_text
from seed_fixtures import SEEDS

pytest_plugins = ["translate_fixtures"]

JA_SEED = "000_7df305071c9dd669.txt"


def test_translation_fidelity_and_the_warehouse_cache(tmp_path, ja_installed, fast_settings, counted):
    calls = counted
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(SEEDS / JA_SEED, inputs)
    shutil.copy(SEEDS / "001_dff0537ae45131ec.txt", inputs)
    db = tmp_path / "w.duckdb"

    summary = run_pipeline([inputs], db, tmp_path / "r", engine=make_engine(settings=fast_settings))
    assert summary.missing_pairs == ["zh->en"]
    con = warehouse.connect(db, read_only=True)
    statuses = dict(con.execute("SELECT lang || ':' || translation_status, count(*) FROM segments GROUP BY 1").fetchall())
    assert statuses.get("ja:translated", 0) > 10 and statuses.get("zh:untranslated", 0) > 10
    # random weights drop the numbers: the fidelity check must say so
    assert con.execute("SELECT count(*) FROM translation_issues WHERE doc_id = ?", [f"in/{JA_SEED}"]).fetchone()[0] > 0
    distinct_translated = con.execute(
        "SELECT count(DISTINCT text) FROM segments WHERE translation_status = 'translated'"
    ).fetchone()[0]
    assert con.execute("SELECT count(*) FROM translation_cache").fetchone()[0] == distinct_translated
    report = markdown_text((tmp_path / "r" / "consistency.md").read_text("utf-8"))
    assert "zh->en" in report and "Fidelity issues" in report
    con.close()

    # an edited article: only its new sentence is translated, the rest comes from the cache
    first_run_segments = sum(calls)
    edited = inputs / JA_SEED
    edited.write_text(edited.read_text("utf-8") + "\n新しい文が追加された。\n", "utf-8")
    run_pipeline([inputs], db, None, engine=make_engine(settings=fast_settings))
    assert sum(calls) - first_run_segments == 1
    con = warehouse.connect(db, read_only=True)
    assert (
        con.execute(
            "SELECT count(*) FROM segments WHERE doc_id = ? AND translation_status = 'cached'", [f"in/{JA_SEED}"]
        ).fetchone()[0]
        > 10
    )
