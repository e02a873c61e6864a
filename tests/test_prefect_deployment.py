"""The `ingest/ingest` deployment, the README's way: `make serve`, `prefect deployment run ... --watch`, `make stop`.

`served` (prefect_fixtures) runs `make serve` on a temporary PREFECT_HOME: a real server on a
free loopback port (kept in $PREFECT_HOME/server.port), the `local` process work pool, the
deployment from prefect.yaml and a worker. At the end of the session it runs `make stop` and
checks the recorded PIDs are gone. The UI itself is opened in a browser by test_prefect_ui_browser.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
from dataclasses import fields

import pytest

from ingest import warehouse
from ingest.flow import artifact_key
from ingest.settings import TRANSLATE_MODES, RunOptions, describe
from prefect_fixtures import MAKE, UV, api_get, api_post, process_alive, serve_env
from scripts import prefect_local
from seed_fixtures import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

RUN = [UV, "run", "prefect", "deployment", "run", "ingest/ingest", "--watch"]


def _flow_run_id(output: str) -> str:
    return re.search(r"UUID: ([0-9a-f-]{36})", output).group(1)


def test_make_serve_prints_the_ui_and_the_run_command(served):
    ui = served.api_url.removesuffix("/api")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+", ui)
    port = ui.rsplit(":", 1)[1]
    assert f"Prefect UI:   {ui}   (port {port}, kept in {served.home / 'server.port'}" in served.output
    assert (served.home / "server.port").read_text().strip() == port  # the next `make serve` starts there
    # the UI asks the server where its API is: the server's own address, not Prefect's default :4200
    assert api_get(ui, "/ui-settings")["api_url"] == served.api_url
    assert "Warning" not in served.output
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
    assert {"dask", "dask_address", "batch_size", "max_concurrency"} <= set(deployment["parameter_openapi_schema"]["properties"])
    # every parameter is described, with the CLI's help text (RunOptions)
    assert {name: p.get("description") for name, p in properties.items()} == {
        f.name: describe(f.name) for f in fields(RunOptions)
    }
    schedules = api_get(served.api_url, f"/deployments/{deployment['id']}/schedules")
    assert [(s["schedule"]["cron"], s["active"]) for s in schedules] == [("0 6 * * *", False)]  # daily, switched off
    inspected = served.run(UV, "run", "prefect", "deployment", "inspect", "ingest/ingest")
    assert describe("warehouse_path") in inspected.stdout


def test_ingest_run_reports_to_the_served_server_and_shows_in_flow_run_ls(served, seeds_copy, tmp_path):
    result = served.run(
        UV,
        "run",
        "ingest",
        "run",
        str(seeds_copy),
        "--warehouse",
        str(tmp_path / "w.duckdb"),
        "--reports",
        str(tmp_path / "r"),
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Prefect: reporting to the server at {served.api_url}" in result.stderr
    # JSON, not the table: the table cuts "COMPLETED" to "COMP…" on a narrow terminal
    listed = served.run(UV, "run", "prefect", "flow-run", "ls", "--flow-name", "ingest", "--output", "json")
    assert listed.returncode == 0, listed.stderr
    assert '"type": "COMPLETED"' in listed.stdout
    runs = api_post(served.api_url, "/flow_runs/filter", {})
    assert any(run["parameters"].get("warehouse_path") == str(tmp_path / "w.duckdb") for run in runs)


SUMMARY = "4 files: 4 loaded, 0 unchanged (skipped), 0 failed, 0 duplicate"


def test_deployment_run_watch_completes_and_fills_the_warehouse(served, seeds_copy, tmp_path):
    db, reports = tmp_path / "w.duckdb", tmp_path / "reports"
    started = time.monotonic()
    result = served.run(
        *RUN, "-p", f'paths=["{seeds_copy}"]', "-p", f"warehouse_path={db}", "-p", f"reports_dir={reports}", timeout=400
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Flow run finished successfully in 'Completed'" in result.stdout
    flow_run = api_get(served.api_url, f"/flow_runs/{_flow_run_id(result.stdout)}")
    assert flow_run["state"]["type"] == "COMPLETED"
    assert flow_run["state"]["message"] == SUMMARY
    # named after its inputs and start, not Prefect's random adjective-animal
    assert re.fullmatch(r"ingest seeds \d{4}-\d\d-\d\d \d\d:\d\d \S+", flow_run["name"]), flow_run["name"]

    # --watch prints the run's log (streamed by the served server) and its summary line ends it;
    # only Prefect's own "Finished in state" line may follow, quoting it (--watch waits 3 s for
    # log lines after the final state). Rich wraps lines at the pipe's 80 columns, so the output
    # is compared with its whitespace collapsed; ▪ starts a log line, ● an event.
    watched = " ".join(result.stdout.split()).split(" Flow run finished successfully")[0]
    logged = [item.strip() for item in re.split(r"(?=[▪●] )", watched) if item.startswith("▪")]
    summaries = [i for i, line in enumerate(logged) if line.endswith(SUMMARY)]
    assert summaries, logged[-3:]
    assert all(line.endswith(f"Finished in state Completed('{SUMMARY}')") for line in logged[summaries[-1] + 1 :])
    # the same in the log the server keeps (the UI's Logs tab)
    logs = api_post(
        served.api_url, "/logs/filter", {"logs": {"flow_run_id": {"any_": [flow_run["id"]]}}, "sort": "TIMESTAMP_ASC"}
    )
    assert [log["message"] for log in logs][-2:] == [SUMMARY, f"Finished in state Completed('{SUMMARY}')"]

    artifacts = api_post(served.api_url, "/artifacts/filter", {"artifacts": {"flow_run_id": {"any_": [flow_run["id"]]}}})
    by_key = {a["key"]: a for a in artifacts}
    report_key, conflicts_key = artifact_key("consistency-report", str(db)), artifact_key("conflicts", str(db))
    assert {report_key, conflicts_key} <= set(by_key) and report_key.startswith("consistency-report-w-")
    assert "FlexAttention" in by_key[report_key]["data"]
    assert by_key[report_key]["type"] == "markdown" and by_key[conflicts_key]["type"] == "table"
    # every row of the conflicts table names both documents and quotes both sentences
    table = json.loads(by_key[conflicts_key]["data"])
    flex = next(row for row in table if row["subject"] == "FlexAttention")
    assert {flex["value_a"], flex["value_b"]} == {"beta", "prototype"}
    assert all("FlexAttention" in flex[f"evidence_{side}"] for side in "ab")
    assert {row["severity"] for row in table} == {"likely contradiction", "note"}

    con = warehouse.connect(db, read_only=True)
    try:
        statuses = con.execute("SELECT status, count(*) FROM documents GROUP BY 1").fetchall()
        contradictions = con.execute("SELECT subject FROM conflicts WHERE severity = 'contradiction' ORDER BY subject").fetchall()
        con_rows = con.execute("SELECT doc_id FROM documents").fetchall()
    finally:
        con.close()
    assert statuses == [("ok", 4)]
    documents = {doc_id for (doc_id,) in con_rows}
    for row in table:
        assert row["doc_a"] != row["doc_b"] and {row["doc_a"], row["doc_b"]} <= documents, row
        assert row["evidence_a"] and row["evidence_b"], row
    assert ("flexattention",) in contradictions
    assert (reports / "consistency.md").exists() and (reports / "consistency.html").exists()
    print(f"deployment run --watch took {elapsed:.1f}s")


def test_a_translate_value_outside_its_three_modes_is_refused_when_the_run_is_created(served):
    deployment = api_get(served.api_url, "/deployments/name/ingest/ingest")
    assert deployment["parameter_openapi_schema"]["properties"]["translate"]["enum"] == list(TRANSLATE_MODES)
    runs_before = api_post(served.api_url, "/flow_runs/count", {})
    started = time.monotonic()
    result = served.run(*RUN, "-p", "translate=bogus", timeout=120)
    elapsed = time.monotonic() - started
    said = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == 1, said
    assert "Validation failed for field 'translate'" in said
    assert "'bogus' is not one of ['all', 'evidence', 'none']" in said
    assert "Traceback" not in said
    assert api_post(served.api_url, "/flow_runs/count", {}) == runs_before  # no run was created to fail later
    assert elapsed < 60
    print(f"refused in {elapsed:.1f}s")


def test_the_port_is_chosen_once_and_reused_while_it_is_free(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path))
    monkeypatch.delenv("PREFECT_SERVER_API_PORT", raising=False)
    first = prefect_local.server_port()
    assert (tmp_path / "server.port").read_text() == f"{first}\n"
    assert prefect_local.server_port() == first
    # the port of a server stopped a moment ago is in TIME_WAIT: a plain bind fails, the server's
    # (SO_REUSEADDR, as uvicorn) does not, so it still counts as free
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", first))
        listener.listen()
        client = socket.create_connection(("127.0.0.1", first))
        accepted, _ = listener.accept()
        accepted.close()  # the server side closes first: its side of the port waits in TIME_WAIT
        client.close()
    time.sleep(0.2)
    with socket.socket() as plain, pytest.raises(OSError):
        plain.bind(("127.0.0.1", first))
    assert prefect_local.server_port() == first
    # taken by another program: a new port, recorded, and said
    with socket.socket() as other:
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # allowed despite the TIME_WAIT above
        other.bind(("127.0.0.1", first))
        other.listen()
        second = prefect_local.server_port()
    assert second != first and (tmp_path / "server.port").read_text() == f"{second}\n"
    assert f"Port {first} (recorded in {tmp_path / 'server.port'}) is in use" in capsys.readouterr().out


def test_a_prefect_server_api_port_that_is_taken_or_not_a_number_is_refused_with_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path))
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        taken = other.getsockname()[1]
        monkeypatch.setenv("PREFECT_SERVER_API_PORT", str(taken))
        with pytest.raises(SystemExit, match=f"port {taken} on 127.0.0.1 is in use.*unset PREFECT_SERVER_API_PORT"):
            prefect_local.server_port()
    monkeypatch.setenv("PREFECT_SERVER_API_PORT", "http")
    with pytest.raises(SystemExit, match="'http' is not a port number"):
        prefect_local.server_port()


def test_make_serve_after_make_stop_keeps_the_port_and_the_ui_address(tmp_path):
    env = serve_env(tmp_path / "prefect-home")
    pid_files = [tmp_path / "prefect-home" / f"{name}.pid" for name in ("server", "worker")]
    addresses, pids = [], []
    try:
        for _ in range(2):
            started = subprocess.run([MAKE, "serve"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
            pids += [int(f.read_text()) for f in pid_files if f.exists()]
            assert started.returncode == 0, started.stdout + started.stderr
            api_url = re.search(r"PREFECT_API_URL=(\S+);", started.stdout).group(1)
            assert api_get(api_url.removesuffix("/api"), "/ui-settings")["api_url"] == api_url
            addresses.append(api_url)
            stopped = subprocess.run([MAKE, "stop"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
            assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    finally:
        deadline = time.monotonic() + 30
        while any(process_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.2)
        survivors = [pid for pid in pids if process_alive(pid)]
        for pid in survivors:  # only if `make stop` failed: never leave our servers behind
            os.kill(pid, signal.SIGKILL)
    assert not survivors
    assert addresses[0] == addresses[1], addresses


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
