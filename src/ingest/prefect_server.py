"""Which Prefect server a local flow run reports to: the project's (`make serve`) or a temporary one.

A temporary server is started only on request (`ingest run --prefect`, or `--dask`, whose workers
need an API) and is ours, not Prefect's ephemeral one: it listens on a free 127.0.0.1 port and a
watchdog thread inside it stops it when the `ingest` process that started it is gone, even after
a SIGKILL (Prefect's own ephemeral server outlives a killed parent). Before starting it, the
faults that used to cost minutes of retries are checked in a second: an unwritable Prefect home,
no free port.

Runs `python -m ingest.prefect_server PARENT_PID PORT` as the server process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from .errors import IngestError, command

STARTUP_TIMEOUT_S = 180.0  # a fresh server migrates its database first; slow on a busy 2-core machine
_ORPHAN_POLL_S = 0.5


class PrefectServerError(IngestError):
    """No Prefect server can be used for a flow run; the message says why and suggests --no-prefect."""


def answers(api_url: str, timeout: float = 3.0) -> bool:
    """Whether a Prefect API at `api_url` reports itself healthy."""
    try:
        with urllib.request.urlopen(f"{api_url.rstrip('/')}/health", timeout=timeout) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError, ValueError):
        return False


def configured_api_url(cwd: Path | None = None) -> str | None:
    """The Prefect API address this folder is configured for, read without importing Prefect.

    Importing Prefect's settings costs seconds, more than a small run; so this reads the places
    that name a server, in Prefect's order: $PREFECT_API_URL, ./prefect.toml (`[api] url`), then
    the active profile of the profiles file ($PREFECT_PROFILES_PATH, ./prefect.toml's
    `profiles_path` as the project's does, $PREFECT_HOME/profiles.toml). `--prefect` uses
    Prefect's own resolution.
    """
    if os.environ.get("PREFECT_API_URL"):
        return os.environ["PREFECT_API_URL"]
    folder = cwd or Path.cwd()
    project = _toml(folder / "prefect.toml")
    if (project.get("api") or {}).get("url"):
        return project["api"]["url"]
    profiles_path = os.environ.get("PREFECT_PROFILES_PATH") or project.get("profiles_path")
    home = Path(os.environ.get("PREFECT_HOME") or Path.home() / ".prefect").expanduser()
    profiles = _toml(folder / Path(profiles_path).expanduser() if profiles_path else home / "profiles.toml")
    active = os.environ.get("PREFECT_PROFILE") or profiles.get("active")
    return ((profiles.get("profiles") or {}).get(active) or {}).get("PREFECT_API_URL") or None


def _toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _writable_home() -> Path:
    from prefect.settings import PREFECT_HOME

    home = Path(PREFECT_HOME.value()).expanduser()
    try:
        home.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=home, prefix=".write-test-"):
            pass
    except OSError as error:
        raise PrefectServerError(
            f"Prefect's home {home} is not writable ({error.strerror or error}), so no Prefect server can "
            f"keep its database there; set PREFECT_HOME to a writable folder, or run without Prefect: "
            f"`{command('run --no-prefect')}`"
        ) from error
    return home


def _free_port() -> int:
    try:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    except OSError as error:
        raise PrefectServerError(
            f"no free port on 127.0.0.1 for a Prefect server ({error.strerror or error}); "
            f"run without Prefect: `{command('run --no-prefect')}`"
        ) from error


def _server_env() -> dict[str, str]:
    from prefect.settings import get_current_settings

    return {
        **os.environ,
        **get_current_settings().to_environment_variables(exclude_unset=True),
        "PREFECT_UI_ENABLED": "0",
        "PREFECT__SERVER_EPHEMERAL": "1",
        "PREFECT__SERVER_FINAL": "1",
    }


@contextlib.contextmanager
def temporary_server(timeout: float = STARTUP_TIMEOUT_S) -> Iterator[str]:
    """Start a Prefect server for this process, point Prefect at it, and stop it afterwards."""
    from prefect.settings import PREFECT_API_URL, PREFECT_SERVER_EPHEMERAL_ENABLED, PREFECT_UI_URL, temporary_settings

    home = _writable_home()
    port = _free_port()
    api_url = f"http://127.0.0.1:{port}/api"
    log_path = home / "temporary-server.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", __name__, str(os.getpid()), str(port)],
            env=_server_env(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_healthy(process, api_url, timeout, log_path)
        # No UI URL: this server serves no UI and stops with the run, so the "View at <url>" line
        # Prefect prints for a flow run would lead nowhere (Prefect prints none without a UI URL).
        with temporary_settings(updates={PREFECT_API_URL: api_url, PREFECT_SERVER_EPHEMERAL_ENABLED: False, PREFECT_UI_URL: ""}):
            try:
                yield api_url
            finally:
                _send_pending_logs()
    finally:
        _stop(process)


def _send_pending_logs() -> None:
    """The run's last log lines reach the server before it stops (else Prefect reports an error)."""
    from prefect.logging.handlers import APILogWorker

    APILogWorker.drain_all(timeout=15)


def _wait_until_healthy(process: subprocess.Popen, api_url: str, timeout: float, log_path: Path) -> None:
    deadline = time.monotonic() + timeout
    while not answers(api_url, timeout=1.0):
        if process.poll() is not None:
            raise PrefectServerError(
                f"the temporary Prefect server exited with status {process.returncode} "
                f"(its log: {log_path}); run without Prefect: `{command('run --no-prefect')}`"
            )
        if time.monotonic() > deadline:
            _stop(process)
            raise PrefectServerError(
                f"the temporary Prefect server did not answer within {timeout:.0f} s (its log: "
                f"{log_path}); run without Prefect: `{command('run --no-prefect')}`"
            )
        time.sleep(0.2)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _exit_when_orphaned(parent: int) -> None:
    """The server's watchdog: once `parent` is gone (we were re-parented), shut down, then force it."""
    while os.getppid() == parent:
        time.sleep(_ORPHAN_POLL_S)
    os.kill(os.getpid(), signal.SIGTERM)  # uvicorn shuts down cleanly on SIGTERM
    time.sleep(10)
    os._exit(1)


def _serve(parent: int, port: int) -> None:
    import uvicorn

    if os.getppid() != parent:
        return
    threading.Thread(target=_exit_when_orphaned, args=(parent,), daemon=True, name="orphan-watchdog").start()
    uvicorn.run(
        "prefect.server.api.server:create_app", factory=True, host="127.0.0.1", port=port, log_level="error", lifespan="on"
    )


if __name__ == "__main__":
    _serve(int(sys.argv[1]), int(sys.argv[2]))
