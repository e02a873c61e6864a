"""The project's local Prefect: `make serve` / `make stop` (also `python scripts/prefect_local.py status`).

serve: start a Prefect server on 127.0.0.1 (SQLite under $PREFECT_HOME, by default the project's
.prefect/, analytics off) on the port it had last time ($PREFECT_HOME/server.port) when that is
free, else on a new free port that is then recorded; tell its UI that address; wait until it is
healthy, point the project's Prefect profile at it, create the `local` work pool (type process),
deploy prefect.yaml, start a worker on the pool, print the UI address and the run command. The
PIDs go to $PREFECT_HOME/*.pid.
stop: stop exactly the processes named by those PID files, and take the address out of the profile.

Only the standard library here (and the `prefect` executable of this environment).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

from ingest.prefect_server import answers

ROOT = Path(__file__).resolve().parents[1]
PROFILE = "ingest-local"
POOL = "local"
DEPLOYMENT = "ingest/ingest"
RUN_COMMAND = f"uv run prefect deployment run {DEPLOYMENT} --watch"
HEALTH_TIMEOUT_S = float(os.environ.get("INGEST_PREFECT_START_TIMEOUT", "180"))
PROCESSES = ("worker", "server")  # stop order


def home() -> Path:
    return Path(os.environ.get("PREFECT_HOME") or ROOT / ".prefect").expanduser().resolve()


def profiles_path() -> Path:
    configured = os.environ.get("PREFECT_PROFILES_PATH")
    return Path(configured).expanduser().resolve() if configured else home() / "profiles.toml"


def prefect_executable() -> str:
    candidate = Path(sys.executable).with_name("prefect")
    return str(candidate) if candidate.exists() else "prefect"


def base_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        PREFECT_HOME=str(home()),
        PREFECT_PROFILES_PATH=str(profiles_path()),
        PREFECT_SERVER_ANALYTICS_ENABLED="false",
        DO_NOT_TRACK="1",
    )
    env.pop("PREFECT_API_URL", None)
    return env


# ---- PID files ----------------------------------------------------------------------------


def pid_file(name: str) -> Path:
    return home() / f"{name}.pid"


def read_pid(name: str) -> int | None:
    try:
        return int(pid_file(name).read_text().split()[0])
    except (FileNotFoundError, ValueError, IndexError):
        return None


def is_ours(pid: int) -> bool:
    """Alive, and still a prefect process (a recycled PID of another program is left alone)."""
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return True  # no /proc (macOS): trust the PID file
    return "prefect" in cmdline


def stop_pid(name: str, timeout: float = 20.0) -> str:
    pid = read_pid(name)
    if pid is None:
        return f"{name}: not running"
    message = f"{name}: PID {pid} was not running"
    if is_ours(pid):
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and is_ours(pid):
            _reap(pid)
            time.sleep(0.2)
        if is_ours(pid):
            os.kill(pid, signal.SIGKILL)
            message = f"{name}: PID {pid} killed (did not stop on SIGTERM within {timeout:.0f}s)"
        else:
            message = f"{name}: PID {pid} stopped"
    pid_file(name).unlink(missing_ok=True)
    return message


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


# ---- the profile --------------------------------------------------------------------------


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(str(value))


def write_profiles(data: dict) -> None:
    lines = [f"active = {_toml_value(data['active'])}"] if data.get("active") else []
    for name, settings in (data.get("profiles") or {}).items():
        lines += ["", f"[profiles.{json.dumps(name)}]"]
        lines += [f"{key} = {_toml_value(value)}" for key, value in settings.items()]
    path = profiles_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", "utf-8")


def read_profiles() -> dict:
    try:
        return tomllib.loads(profiles_path().read_text("utf-8"))
    except FileNotFoundError:
        return {}


def set_profile_api_url(url: str | None) -> None:
    """Make the project profile active with PREFECT_API_URL = url.

    Without a url (after `make stop`) the profile also turns Prefect's temporary servers off, so
    that `prefect deployment run ingest/ingest` fails at once with "No Prefect API URL provided"
    instead of starting an empty temporary server and waiting there for a worker that never
    comes. (`ingest run` turns them back on for itself.)
    """
    data = read_profiles()
    profiles = data.setdefault("profiles", {})
    profile = profiles.setdefault(PROFILE, {})
    profile["PREFECT_SERVER_ANALYTICS_ENABLED"] = False
    if url:
        profile["PREFECT_API_URL"] = url
        profile.pop("PREFECT_SERVER_EPHEMERAL_ENABLED", None)
    else:
        profile.pop("PREFECT_API_URL", None)
        profile["PREFECT_SERVER_EPHEMERAL_ENABLED"] = False
    data["active"] = PROFILE
    write_profiles(data)


def profile_api_url() -> str | None:
    return (read_profiles().get("profiles") or {}).get(PROFILE, {}).get("PREFECT_API_URL")


# ---- server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_is_free(port: int) -> bool:
    """Whether a server could listen on 127.0.0.1:port now.

    With SO_REUSEADDR, as uvicorn binds: the port of a server stopped a moment ago sits in
    TIME_WAIT, which would block a plain bind but not the server, and must still count as free.
    """
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def port_file() -> Path:
    return home() / "server.port"


def server_port() -> int:
    """The port for the server: the same every time, so the UI address and its bookmarks last.

    $PREFECT_SERVER_API_PORT (Prefect's own setting) when set, and then it must be free; else the
    port recorded in $PREFECT_HOME/server.port when it is free; else a new free port. The port
    used is recorded for next time.
    """
    configured = os.environ.get("PREFECT_SERVER_API_PORT")
    if configured:
        try:
            port = int(configured)
        except ValueError:
            raise SystemExit(
                f"PREFECT_SERVER_API_PORT={configured!r} is not a port number; set it to one "
                f"(e.g. 4200) or unset it to use the port recorded in {port_file()}"
            ) from None
        if not port_is_free(port):
            raise SystemExit(
                f"PREFECT_SERVER_API_PORT={port}, but port {port} on 127.0.0.1 is in use; "
                f"stop what listens there, or unset PREFECT_SERVER_API_PORT to use "
                f"the port recorded in {port_file()}"
            )
        port_file().write_text(f"{port}\n")
        return port
    try:
        recorded = int(port_file().read_text().split()[0])
    except (FileNotFoundError, ValueError, IndexError):
        recorded = None
    if recorded and port_is_free(recorded):
        return recorded
    port = free_port()
    if recorded:
        print(
            f"Port {recorded} (recorded in {port_file()}) is in use by another program; "
            f"using port {port} from now on: the UI address changes.",
            flush=True,
        )
    port_file().write_text(f"{port}\n")
    return port


def server_env(port: int) -> dict[str, str]:
    """The server's own settings. Each is needed because the server does not derive it itself:

    - the UI asks /ui-settings for the API's address, which Prefect takes from PREFECT_API_URL,
      else from PREFECT_SERVER_API_HOST/PORT (default 4200), never from `--port`: without these
      every UI page says "Can't connect to Server API" at 127.0.0.1:4200;
    - PREFECT_UI_URL is where the server's own links (automations, notifications) point;
    - Prefect 3.8's server streams no logs by default, so `prefect deployment run --watch` showed
      the run's events but none of its log lines (not even the summary line that ends it).
    """
    api_url = f"http://127.0.0.1:{port}/api"
    return base_env() | {
        "PREFECT_SERVER_API_HOST": "127.0.0.1",
        "PREFECT_SERVER_API_PORT": str(port),
        "PREFECT_UI_API_URL": api_url,
        "PREFECT_UI_URL": api_url.removesuffix("/api"),
        "PREFECT_SERVER_LOGS_STREAM_OUT_ENABLED": "true",
        "PREFECT_SERVER_LOGS_STREAM_PUBLISHING_ENABLED": "true",
    }


def start_process(name: str, args: list[str], env: dict[str, str]) -> subprocess.Popen:
    logs = home() / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    with (logs / f"{name}.log").open("ab") as log:
        process = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True
        )
    pid_file(name).write_text(f"{process.pid}\n")
    return process


def log_tail(name: str, lines: int = 30) -> str:
    try:
        return "\n".join((home() / "logs" / f"{name}.log").read_text("utf-8", "replace").splitlines()[-lines:])
    except FileNotFoundError:
        return ""


def start_server(port: int) -> str:
    api_url = f"http://127.0.0.1:{port}/api"
    process = start_process(
        "server", [prefect_executable(), "server", "start", "--host", "127.0.0.1", "--port", str(port)], server_env(port)
    )
    deadline = time.monotonic() + HEALTH_TIMEOUT_S
    while not answers(api_url, timeout=2.0):
        if process.poll() is not None:
            pid_file("server").unlink(missing_ok=True)
            raise SystemExit(f"the Prefect server exited with status {process.returncode}:\n{log_tail('server')}")
        if time.monotonic() > deadline:
            stop_pid("server")
            raise SystemExit(f"the Prefect server did not become healthy within {HEALTH_TIMEOUT_S:.0f}s:\n{log_tail('server')}")
        time.sleep(0.5)
    return api_url


def prefect(args: list[str], api_url: str) -> None:
    env = base_env() | {"PREFECT_API_URL": api_url}
    result = subprocess.run([prefect_executable(), *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"`prefect {' '.join(args)}` failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")


def _api(api_url: str, path: str, body: dict) -> list | dict:
    request = urllib.request.Request(
        f"{api_url}{path}", data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def wait_for_worker(api_url: str, process: subprocess.Popen, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pid_file("worker").unlink(missing_ok=True)
            raise SystemExit(f"the worker exited with status {process.returncode}:\n{log_tail('worker')}")
        try:
            workers = _api(api_url, f"/work_pools/{POOL}/workers/filter", {})
        except (urllib.error.URLError, OSError, ValueError):
            workers = []
        if any(w.get("status") == "ONLINE" for w in workers):
            return
        time.sleep(0.5)
    raise SystemExit(f"the worker did not come online within {timeout:.0f}s:\n{log_tail('worker')}")


def running_api_url() -> str | None:
    """The address of the server this home's PID file names, if it is alive and answers."""
    pid = read_pid("server")
    url = profile_api_url()
    if pid is not None and is_ours(pid) and url and answers(url, timeout=2.0):
        return url
    return None


def serve() -> int:
    home().mkdir(parents=True, exist_ok=True)
    api_url = running_api_url()
    if api_url and read_pid("worker") and is_ours(read_pid("worker")):
        print(f"The project's Prefect server is already running (PIDs in {home()}).")
        announce(api_url)
        return 0
    for name in PROCESSES:  # leftovers of a server or worker that died: clean up before starting
        if name == "server" and api_url:
            continue
        stop_pid(name)
    if not api_url:
        port = server_port()
        print(f"Starting a Prefect server on 127.0.0.1:{port} (home {home()}; the port is kept in {port_file()}) ...", flush=True)
        api_url = start_server(port)
    set_profile_api_url(api_url)
    print(f"Server healthy at {api_url}; creating work pool `{POOL}`, deploying prefect.yaml ...", flush=True)
    prefect(["work-pool", "create", POOL, "--type", "process", "--overwrite"], api_url)
    prefect(["--no-prompt", "deploy", "--all", "--prefect-file", str(ROOT / "prefect.yaml")], api_url)
    print("Starting a worker on the pool ...", flush=True)
    worker = start_process(
        "worker", [prefect_executable(), "worker", "start", "--pool", POOL], base_env() | {"PREFECT_API_URL": api_url}
    )
    wait_for_worker(api_url, worker)
    announce(api_url)
    return 0


def ui_api_url(ui: str) -> str | None:
    """The API address the server's UI uses (what every page of the UI talks to)."""
    try:
        with urllib.request.urlopen(f"{ui}/ui-settings", timeout=10) as response:
            return json.loads(response.read()).get("api_url")
    except (urllib.error.URLError, OSError, ValueError):
        return None


def announce(api_url: str) -> None:
    ui = api_url.removesuffix("/api")
    ui_api = ui_api_url(ui)
    if ui_api != api_url:  # a server started by an older `make serve`: its UI cannot reach it
        print(
            f"Warning: this server's UI talks to {ui_api or 'no API'} instead of {api_url}, so its pages "
            f'say "Can\'t connect to Server API"; `make stop && make serve` restarts it with the right address.'
        )
    if profiles_path() == (ROOT / ".prefect" / "profiles.toml").resolve():
        where = f"from this folder prefect.toml points Prefect at {profiles_path()},"
    else:
        where = f"with PREFECT_PROFILES_PATH={profiles_path()} Prefect reads"
    print(f"""
Prefect UI:   {ui}   (port {ui.rsplit(":", 1)[1]}, kept in {port_file()} for the next `make serve`)
Run the flow: {RUN_COMMAND}
              ({where}
               whose active profile `{PROFILE}` holds PREFECT_API_URL={api_url};
               or anywhere: PREFECT_API_URL={api_url} {RUN_COMMAND})
Parameters:   -p warehouse_path=/tmp/ingest.duckdb -p reports_dir=/tmp/reports -p dask=true
Stop:         make stop   (PIDs in {home()}/server.pid and worker.pid, logs in {home()}/logs/)""")


def stop() -> int:
    for name in PROCESSES:
        print(stop_pid(name))
    set_profile_api_url(None)
    return 0


def status() -> int:
    api_url = running_api_url()
    if not api_url:
        print("No Prefect server of this project is running; start one with `make serve`.")
        return 1
    for name in PROCESSES:
        pid = read_pid(name)
        print(f"{name}: PID {pid} {'running' if pid and is_ours(pid) else 'not running'}")
    announce(api_url)
    return 0


def main(argv: list[str]) -> int:
    commands = {"serve": serve, "stop": stop, "status": status}
    if len(argv) != 1 or argv[0] not in commands:
        print(f"usage: {Path(__file__).name} serve|stop|status", file=sys.stderr)
        return 2
    return commands[argv[0]]()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
