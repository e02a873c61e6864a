"""Where `ingest run` reports: the project's Prefect server when it answers, else no Prefect at all
(nobody waits for a temporary server); `--prefect` starts a temporary server that never outlives
the run, and fails fast, suggesting --no-prefect, when Prefect's home is not writable or no port is free."""

from __future__ import annotations

import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from ingest import prefect_server
from ingest.cli import app
from prefect_fixtures import process_alive
from seed_fixtures import ROOT, SEEDS

runner = CliRunner()


def _seeds(tmp_path: Path) -> Path:
    shutil.copytree(SEEDS, tmp_path / "seeds")
    return tmp_path / "seeds"


def _dead_address() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/api"


def test_without_a_server_the_run_calls_the_stages_directly_and_says_why(tmp_path):
    address = _dead_address()
    result = runner.invoke(
        app,
        ["run", str(_seeds(tmp_path)), "--warehouse", str(tmp_path / "w.duckdb"), "--reports", str(tmp_path / "r")],
        env={"PREFECT_API_URL": address},
    )
    assert result.exit_code == 0, result.output
    assert f"no Prefect server answers at {address}" in result.output and "4 loaded" in result.output
    assert "temporary server" not in result.output


def test_the_configured_server_is_found_without_importing_prefect(tmp_path, monkeypatch):
    (tmp_path / "prefect.toml").write_text('profiles_path = "home/profiles.toml"\n')
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "profiles.toml").write_text('active = "p"\n[profiles.p]\nPREFECT_API_URL = "http://127.0.0.1:1/api"\n')
    for name in ("PREFECT_API_URL", "PREFECT_PROFILES_PATH", "PREFECT_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    assert prefect_server.configured_api_url(tmp_path) == "http://127.0.0.1:1/api"
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:2/api")
    assert prefect_server.configured_api_url(tmp_path) == "http://127.0.0.1:2/api"


class _Messages(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.mark.timeout(600)
def test_run_with_prefect_uses_a_temporary_server_and_stops_it(tmp_path):
    # The flow run's log is read from Prefect's flow-run logger itself: its console handler writes to
    # the stderr it was set up with (not the CliRunner's once an earlier test ran a flow), and
    # Prefect's first logging setup replaces the loggers' handlers (pytest's caplog among them), so
    # it is done here, before the handler is added (prefect.main runs it once per process).
    import prefect.main  # noqa: F401

    flow_log = _Messages()
    logging.getLogger("prefect.flow_runs").addHandler(flow_log)
    try:
        result = runner.invoke(
            app,
            [
                "run",
                str(_seeds(tmp_path)),
                "--warehouse",
                str(tmp_path / "w.duckdb"),
                "--reports",
                str(tmp_path / "r"),
                "--prefect",
            ],
        )
    finally:
        logging.getLogger("prefect.flow_runs").removeHandler(flow_log)
    assert result.exit_code == 0, result.output
    assert "4 files: 4 loaded" in result.output and (tmp_path / "r" / "consistency.html").exists()
    address = re.search(r"temporary server at (\S+)", result.output).group(1)
    # the flow's log (the run named after its inputs) has no "View at" link to a server that serves
    # no UI and is gone
    logged = flow_log.messages
    assert any(
        re.fullmatch(r"Beginning flow run 'ingest seeds \d{4}-\d\d-\d\d \d\d:\d\d \S+' for flow 'ingest'", m) for m in logged
    ), logged
    assert not [m for m in logged if "View at" in m]
    assert not prefect_server.answers(address, timeout=1)


@pytest.mark.timeout(300, method="thread")  # not SIGALRM: the stage budget's alarm needs it
def test_under_prefect_the_stage_budget_stops_one_long_call(tmp_path, monkeypatch):
    """The flow calls its stage tasks in its own thread, the main one, where the budget's alarm
    stops even one long regular expression (in a task thread the call would run its ~60 s first)."""
    from ingest import language

    monkeypatch.setattr(language, "_LONG_RUN", re.compile(r"(?!)"))  # the guard off: one ~60 s call
    monkeypatch.setenv("INGEST_MAX_STAGE_SECONDS", "1")
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(SEEDS / "000_7df305071c9dd669.txt", inputs / "good.txt")
    (inputs / "run_on.txt").write_text("1x" * 40_000, "utf-8")
    started = time.monotonic()
    result = runner.invoke(
        app, ["run", str(inputs), "--warehouse", str(tmp_path / "w.duckdb"), "--reports", "none", "--prefect", "--allow-failures"]
    )
    elapsed = time.monotonic() - started
    assert result.exit_code == 0, result.output
    assert "2 files: 1 loaded" in result.output and "1 failed" in result.output, result.output
    assert elapsed < 45, f"took {elapsed:.0f} s"
    con = duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True)
    (error,) = con.execute("SELECT error FROM documents WHERE doc_id = 'in/run_on.txt'").fetchone()
    con.close()
    assert "preparing" in error and "stopped after 1 s" in error, error


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.mark.timeout(600)
def test_the_temporary_prefect_server_does_not_outlive_a_sigkilled_run(tmp_path):
    env = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect-home")}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ingest",
            "run",
            str(_seeds(tmp_path)),
            "--prefect",
            "--warehouse",
            str(tmp_path / "w.duckdb"),
            "--reports",
            str(tmp_path / "r"),
        ],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    servers: list[int] = []
    try:
        for line in process.stderr:
            if "temporary server at" in line:
                address = line.split("temporary server at", 1)[1].strip()
                break
        else:
            pytest.fail(f"the run never announced its temporary server (exit {process.wait()})")
        servers = _children(process.pid)
        assert servers and prefect_server.answers(address)
        process.send_signal(signal.SIGKILL)
        process.wait()
        deadline = time.monotonic() + 30
        while any(process_alive(pid) for pid in servers) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not any(process_alive(pid) for pid in servers)
        assert not prefect_server.answers(address, timeout=1)
    finally:
        if process.poll() is None:
            process.kill()
        for pid in servers:  # only if the test failed: never leave our own server behind
            if process_alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_an_unwritable_prefect_home_fails_fast_and_suggests_no_prefect(tmp_path):
    home = tmp_path / "not-a-folder"
    home.write_text("x")
    started = time.monotonic()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ingest",
            "run",
            str(_seeds(tmp_path)),
            "--prefect",
            "--warehouse",
            str(tmp_path / "w.duckdb"),
            "--reports",
            str(tmp_path / "r"),
        ],
        cwd=ROOT,
        env={**os.environ, "PREFECT_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "is not writable" in result.stderr and "--no-prefect" in result.stderr
    assert time.monotonic() - started < 60
    assert len(result.stderr.splitlines()) < 10


def test_no_free_port_fails_fast_and_suggests_no_prefect(monkeypatch):
    def refuse(self, address):
        raise OSError(98, "Address already in use")

    monkeypatch.setattr(socket.socket, "bind", refuse)
    with pytest.raises(prefect_server.PrefectServerError, match=r"no free port.*--no-prefect"):
        prefect_server._free_port()
