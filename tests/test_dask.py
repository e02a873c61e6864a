"""Scale-out: the per-document stages on Dask workers (prefect-dask's DaskTaskRunner), one DuckDB writer.

The flows report to the session's `make serve` server (`served`); the results must equal a
direct run's, and the stage batches must have run on the Dask workers, not in the flow's process.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from prefect_fixtures import UV, api_get, api_post
from seed_fixtures import ROOT, document_row_counts

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]

WORKER = re.compile(r"tcp://127\.0\.0\.1:\d+")


def _ingest_run(served, *args: str):
    env = {**served.env, "PREFECT_API_URL": served.api_url}
    return subprocess.run([UV, "run", "ingest", "run", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=500)


def test_ingest_run_dask_on_a_local_cluster(served, seeds_copy, seeded_warehouse, tmp_path):
    db = tmp_path / "w.duckdb"
    result = _ingest_run(
        served, str(seeds_copy), "--warehouse", str(db), "--reports", str(tmp_path / "r"), "--dask", "--batch-size", "2"
    )
    output = " ".join(result.stdout.split())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 files: 4 loaded, 0 unchanged (skipped), 0 failed, 0 duplicate" in output
    workers = set(WORKER.findall(output.split("Dask worker(s):", 1)[1].split("report:")[0]))
    assert workers, output  # the batches ran on the local cluster's workers, bound to 127.0.0.1
    assert document_row_counts(db) == document_row_counts(seeded_warehouse)
    assert (tmp_path / "r" / "consistency.md").exists()
    assert not (tmp_path / "w.staging").exists()  # Parquet staging cleaned up after the load


def test_ingest_run_dask_address_uses_an_existing_cluster(served, seeds_copy, seeded_warehouse, tmp_path):
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        db = tmp_path / "w.duckdb"
        result = _ingest_run(
            served, str(seeds_copy), "--warehouse", str(db), "--reports", str(tmp_path / "r"), "--dask-address", address
        )
        output = " ".join(result.stdout.split())
        assert result.returncode == 0, result.stdout + result.stderr
        ran_on = set(WORKER.findall(output.split("Dask worker(s):", 1)[1].split("report:")[0]))
        assert ran_on == set(client.scheduler_info()["workers"])  # exactly this cluster's worker
    assert "4 loaded" in output
    assert document_row_counts(db) == document_row_counts(seeded_warehouse)


def test_deployment_parameter_dask(served, seeds_copy, seeded_warehouse, tmp_path):
    db = tmp_path / "w.duckdb"
    result = served.run(
        UV,
        "run",
        "prefect",
        "deployment",
        "run",
        "ingest/ingest",
        "--watch",
        "-p",
        f'paths=["{seeds_copy}"]',
        "-p",
        f"warehouse_path={db}",
        "-p",
        f"reports_dir={tmp_path / 'r'}",
        "-p",
        "dask=true",
        "-p",
        "batch_size=2",
        timeout=500,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Flow run finished successfully in 'Completed'" in result.stdout
    flow_run_id = re.search(r"UUID: ([0-9a-f-]{36})", result.stdout).group(1)
    assert api_get(served.api_url, f"/flow_runs/{flow_run_id}")["parameters"]["dask"] is True
    logs = api_post(served.api_url, "/logs/filter", {"logs": {"flow_run_id": {"any_": [flow_run_id]}}})
    ran_on = [log["message"] for log in logs if log["message"].startswith("stage batches ran on")]
    assert ran_on and WORKER.search(ran_on[0])
    assert document_row_counts(db) == document_row_counts(seeded_warehouse)
