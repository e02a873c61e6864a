"""`python -m bench` end to end on a dozen documents, and this code side by side with a commit
(the figures are not judged here: speed is measured by `make bench`, not asserted in tests)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from seed_fixtures import ROOT

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

pytestmark = pytest.mark.timeout(900)


def test_the_benchmark_writes_its_results_and_goals(tmp_path):
    out = tmp_path / "latest.json"
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "--sizes",
            "12",
            "--stage-size",
            "12",
            "--refs",
            "",
            "--no-translate",
            "--no-prefect",
            "--no-readme",
            "--workdir",
            str(tmp_path / "work"),
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    results = json.loads(out.read_text("utf-8"))
    run = results["runs"]["12"]
    assert run["n_loaded"] == 12 and run["stages_s"]["extract"] > 0 and run["rss_peak_mb"] > 0
    unchanged, changed = results["incremental"]["unchanged"], results["incremental"]["changed_1pct"]
    assert (unchanged["n_skipped"], unchanged["n_loaded"]) == (12, 0)  # a re-run, not new documents
    assert (changed["n_skipped"], changed["n_loaded"]) == (11, 1)
    assert {goal["goal"] for goal in results["goals"]} >= {"12 documents peak RSS", "unchanged re-run"}
    assert "### Stages (12 documents" in out.with_suffix(".md").read_text("utf-8")


def test_side_by_side_runs_this_code_and_a_commit_in_turn(tmp_path):
    import bench.__main__ as bench_main
    from bench.report import speedups

    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode != 0:
        pytest.skip("not a git checkout: side by side needs the commit's code from git")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    bench_main.CODE = bench_main.snapshot_code(tmp_path)
    results = bench_main.against(["HEAD"], 1, 8, 0, tmp_path, scratch, write=False)
    assert [run["n_loaded"] for run in results["runs"]["HEAD"]] == [8]
    assert [run["n_loaded"] for run in results["runs"]["this"]] == [8]
    assert speedups(results)["HEAD"]["wall"] > 0
    assert "against HEAD" in bench_main.render_against(results)


def test_stage_processes_bench_times_both_sides_and_compares_what_they_loaded(capsys):
    from bench import stage_processes

    assert stage_processes.main(["--size", "12", "--pairs", "1"]) == 0
    printed = capsys.readouterr().out
    assert "12 documents" in printed and printed.count("documents loaded [12]") == 2 and "speed-up" in printed


def test_alignment_bench_aligns_the_same_pairs_with_this_code_and_a_commit(capsys):
    from bench import alignment

    if subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True).returncode != 0:
        pytest.skip("not a git checkout: side by side needs the commit's code from git")
    assert alignment.main(["--generated", "30", "--against", "HEAD", "--rounds", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "candidate pairs" in lines[0] and int(lines[0].split()[0]) > 0
    assert len(lines) == 3 and "this code" in lines[1] and lines[2].lstrip().startswith("HEAD:")
