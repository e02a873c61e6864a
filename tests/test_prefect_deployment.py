"""The `ingest/ingest` deployment, the README's way: `make serve`, `prefect deployment run ... --watch`, `make stop`.

`served` (prefect_fixtures) runs `make serve` on a temporary PREFECT_HOME: a real server on a
free loopback port, the `local` process work pool, the deployment from prefect.yaml and a worker.
At the end of the session it runs `make stop` and checks the recorded PIDs are gone.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from dataclasses import fields

import pytest

from ingest import warehouse
from ingest.flow import artifact_key
from ingest.settings import RunOptions, describe
from prefect_fixtures import MAKE, UV, api_get, api_post, process_alive, serve_env
from seed_fixtures import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

RUN = [UV, "run", "prefect", "deployment", "run", "ingest/ingest", "--watch"]


def _flow_run_id(output: str) -> str:
    return re.search(r"UUID: ([0-9a-f-]{36})", output).group(1)


def test_make_serve_prints_the_ui_and_the_run_command(served):
    ui = served.api_url.removesuffix("/api")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", ui)
    assert f"Prefect UI:   {ui}" in served.output
    assert "Run the flow: uv run prefect deployment run ingest/ingest --watch" in served.output
    assert set(served.pids) == {"server", "worker"} and all(process_alive(p) for p in served.pids.values())
    assert api_get(served.api_url, "/health") is True
    pool = api_get(served.api_url, "/work_pools/local")
    assert pool["type"] == "process"
    workers = api_post(served.api_url, "/work_pools/local/workers/filter", {})
    assert any(w["status"] == "ONLINE" for w in workers)


def test_the_deployment_does_not_depend_on_the_deploying_directory(served):
    deployment = api_get(served.api_url, "/deployments/name/ingest/ingest")
    assert deployment["entrypoint"] == "flows/deployment.py:ingest"
    assert deployment["work_pool_name"] == "local"
    assert deployment["pull_steps"] == [{"ingest.deploy.set_project_directory": {}}]
    assert str(ROOT) not in json.dumps({k: v for k, v in deployment.items() if k != "parameter_openapi_schema"})
    properties = deployment["parameter_openapi_schema"]["properties"]
    assert properties["warehouse_path"]["default"] == "warehouse/ingest.duckdb"  # relative: project root
    assert {"dask", "dask_address", "batch_size", "max_concurrency"} <= set(
        deployment["parameter_openapi_schema"]["properties"])
    # every parameter is described, with the CLI's help text (RunOptions)
    assert {name: p.get("description") for name, p in properties.items()} == {
        f.name: describe(f.name) for f in fields(RunOptions)}
    schedules = api_get(served.api_url, f"/deployments/{deployment['id']}/schedules")
    assert [(s["schedule"]["cron"], s["active"]) for s in schedules] == [("0 6 * * *", False)]  # daily, switched off
    inspected = served.run(UV, "run", "prefect", "deployment", "inspect", "ingest/ingest")
    assert describe("warehouse_path") in inspected.stdout


def test_ingest_run_reports_to_the_served_server_and_shows_in_flow_run_ls(served, seeds_copy, tmp_path):
    result = served.run(UV, "run", "ingest", "run", str(seeds_copy), "--warehouse", str(tmp_path / "w.duckdb"),
                        "--reports", str(tmp_path / "r"), timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Prefect: reporting to the server at {served.api_url}" in result.stderr
    # JSON, not the table: the table cuts "COMPLETED" to "COMP…" on a narrow terminal
    listed = served.run(UV, "run", "prefect", "flow-run", "ls", "--flow-name", "ingest", "--output", "json")
    assert listed.returncode == 0, listed.stderr
    assert '"type": "COMPLETED"' in listed.stdout
    runs = api_post(served.api_url, "/flow_runs/filter", {})
    assert any(run["parameters"].get("warehouse_path") == str(tmp_path / "w.duckdb") for run in runs)


def test_deployment_run_watch_completes_and_fills_the_warehouse(served, seeds_copy, tmp_path):
    db, reports = tmp_path / "w.duckdb", tmp_path / "reports"
    started = time.monotonic()
    result = served.run(*RUN, "-p", f'paths=["{seeds_copy}"]', "-p", f"warehouse_path={db}",
                        "-p", f"reports_dir={reports}", timeout=400)
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Flow run finished successfully in 'Completed'" in result.stdout
    flow_run = api_get(served.api_url, f"/flow_runs/{_flow_run_id(result.stdout)}")
    assert flow_run["state"]["type"] == "COMPLETED"
    assert flow_run["state"]["message"] == "4 files: 4 loaded, 0 unchanged (skipped), 0 failed, 0 duplicate"

    artifacts = api_post(served.api_url, "/artifacts/filter",
                         {"artifacts": {"flow_run_id": {"any_": [flow_run["id"]]}}})
    by_key = {a["key"]: a for a in artifacts}
    report_key, conflicts_key = artifact_key("consistency-report", str(db)), artifact_key("conflicts", str(db))
    assert {report_key, conflicts_key} <= set(by_key) and report_key.startswith("consistency-report-w-")
    assert "FlexAttention" in by_key[report_key]["data"]
    assert by_key[report_key]["type"] == "markdown" and by_key[conflicts_key]["type"] == "table"

    con = warehouse.connect(db, read_only=True)
    try:
        statuses = con.execute("SELECT status, count(*) FROM documents GROUP BY 1").fetchall()
        contradictions = con.execute("SELECT subject FROM conflicts WHERE severity = 'contradiction' "
                                     "ORDER BY subject").fetchall()
    finally:
        con.close()
    assert statuses == [("ok", 4)]
    assert ("flexattention",) in contradictions
    assert (reports / "consistency.md").exists() and (reports / "consistency.html").exists()
    print(f"deployment run --watch took {elapsed:.1f}s")


def test_without_a_server_the_run_command_fails_at_once_and_the_readme_says_make_serve(tmp_path):
    env = serve_env(tmp_path / "prefect-home")
    stopped = subprocess.run([MAKE, "stop"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    assert "server: not running" in stopped.stdout
    result = subprocess.run(RUN, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "No Prefect API URL provided" in result.stdout + result.stderr
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("<!-- prefect:start -->", 1)[1].split("<!-- prefect:end -->", 1)[0]
    assert "No Prefect API URL provided" in section and "make serve" in section
