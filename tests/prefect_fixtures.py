"""Prefect for the tests: hermetic settings, and the project's server started with `make serve`.

Importing this module (conftest's `pytest_plugins`) points Prefect at a profiles file that does
not exist and drops PREFECT_API_URL, so no test talks to a developer's `make serve` server or
reads their profile. `served` runs the README's `make serve` once per session on a temporary
PREFECT_HOME (server on 127.0.0.1, free port; work pool, deployment, worker) and, at the end,
`make stop`, then checks that exactly the PIDs it recorded are gone.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from seed_fixtures import ROOT, SEEDS

_ISOLATED = Path(tempfile.mkdtemp(prefix="ingest-tests-prefect-profile-"))
os.environ["PREFECT_PROFILES_PATH"] = str(_ISOLATED / "profiles.toml")  # absent: Prefect's default profile
os.environ.pop("PREFECT_API_URL", None)
os.environ.pop("PREFECT_PROFILE", None)
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")

MAKE = shutil.which("make")
UV = shutil.which("uv") or str(Path.home() / ".local" / "bin" / "uv")


def process_alive(pid: int) -> bool:
    """Alive and not a zombie (a container's PID 1 may never reap what it inherits)."""
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:
        state = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("State:"))
    except (OSError, StopIteration):
        return True
    return "Z" not in state.split()[1]


@dataclass
class Served:
    """A running `make serve`: its API, its Prefect home and the environment that reaches it."""

    api_url: str
    home: Path
    env: dict[str, str]
    pids: dict[str, int]
    output: str

    def run(self, *args: str, timeout: float = 300, cwd: Path = ROOT) -> subprocess.CompletedProcess:
        return subprocess.run(list(args), cwd=cwd, env=self.env, capture_output=True, text=True, timeout=timeout)


def serve_env(home: Path) -> dict[str, str]:
    env = {**os.environ, "PREFECT_HOME": str(home), "PREFECT_PROFILES_PATH": str(home / "profiles.toml")}
    env.pop("PREFECT_API_URL", None)
    return env


def stop_by_pid(pids: dict[str, int]) -> None:
    """Last resort when `make stop` did not: SIGKILL exactly these PIDs."""
    for pid in pids.values():
        if process_alive(pid):
            os.kill(pid, signal.SIGKILL)


def _drain_prefect_logs() -> None:
    """Send the logs of flows run in this process while their server still runs."""
    import sys

    if "prefect.logging.handlers" in sys.modules:
        sys.modules["prefect.logging.handlers"].APILogWorker.drain_all(timeout=15)


@pytest.fixture(scope="session")
def served(tmp_path_factory) -> Served:
    if MAKE is None:
        pytest.fail("`make` is needed: the Prefect integration tests run `make serve` / `make stop`")
    home = tmp_path_factory.mktemp("prefect-home")
    env = serve_env(home)
    started = subprocess.run([MAKE, "serve"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    pids = {name: int((home / f"{name}.pid").read_text()) for name in ("server", "worker") if (home / f"{name}.pid").exists()}
    if started.returncode != 0:
        subprocess.run([MAKE, "stop"], cwd=ROOT, env=env, capture_output=True, timeout=120)
        stop_by_pid(pids)
        pytest.fail(f"make serve failed ({started.returncode}):\n{started.stdout}\n{started.stderr}")
    profile = tomllib.loads((home / "profiles.toml").read_text())
    api_url = profile["profiles"]["ingest-local"]["PREFECT_API_URL"]
    yield Served(api_url, home, env, pids, started.stdout)
    _drain_prefect_logs()
    stopped = subprocess.run([MAKE, "stop"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    deadline = time.monotonic() + 30
    while any(process_alive(pid) for pid in pids.values()) and time.monotonic() < deadline:
        time.sleep(0.2)
    survivors = {name: pid for name, pid in pids.items() if process_alive(pid)}
    stop_by_pid(survivors)
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    assert not survivors, f"`make stop` left {survivors} running:\n{stopped.stdout}"
    assert not any((home / f"{name}.pid").exists() for name in pids)


@pytest.fixture
def seeds_copy(tmp_path) -> Path:
    inputs = tmp_path / "seeds"
    shutil.copytree(SEEDS, inputs)
    return inputs


@pytest.fixture
def prefect_api(served):
    """This process's Prefect client pointed at the `served` server, for flows run in-process."""
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings(updates={PREFECT_API_URL: served.api_url}):
        yield served.api_url


def api_post(api_url: str, path: str, body: dict) -> list | dict:
    import json
    import urllib.request

    request = urllib.request.Request(
        f"{api_url}{path}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def api_get(api_url: str, path: str) -> list | dict:
    import json
    import urllib.request

    with urllib.request.urlopen(f"{api_url}{path}", timeout=30) as response:
        return json.loads(response.read())
