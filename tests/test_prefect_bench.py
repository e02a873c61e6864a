"""`uv run python -m bench.prefect_overhead` on a few documents, against the session's server."""

from __future__ import annotations

import json
import sys

import pytest

from seed_fixtures import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]


def test_prefect_overhead_benchmark_runs_and_writes_its_results(served, tmp_path):
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench import prefect_overhead

    out = tmp_path / "prefect_overhead.json"
    assert (
        prefect_overhead.main(
            ["--n", "6", "--batch-size", "3", "--out", str(out), "--repeat", "1", "--api-url", served.api_url, "--dask"]
        )
        == 0
    )
    results = json.loads(out.read_text("utf-8"))
    assert results["documents"] == 6 and results["warehouses_agree"]
    flow = next(r for r in results["runs"] if r["path"] == "flow")
    assert flow["first"]["loaded"] == 6 and flow["rerun"]["loaded"] == 0 and flow["rerun"]["skipped"] == 6
    assert not flow["rerun"]["work"]
    assert results["seconds"]["flow_first"] > 0 and results["ratios"]["flow_over_direct"] > 0
    on_dask = next(r for r in results["runs"] if r["path"] == "dask")
    assert on_dask["first"]["loaded"] == 6 and on_dask["first"]["workers"]
    assert results["dask"]["dask_speedup_over_flow"] > 0
