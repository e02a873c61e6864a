"""Is a Dask scheduler there? Asked before a run hands its stages to a cluster at an address
(`ingest run --dask-address`, the deployment's `dask_address`): Dask's own client waits ~45 s
where nothing listens, and for ever on something that is not a scheduler (a silent listener, a
web server)."""

from __future__ import annotations

import asyncio
import socket
import urllib.parse

from .errors import SchedulerAddressError, SchedulerError, one_line

# A scheduler that is up accepts a connection at once and answers who it is as fast.
CONNECT_TIMEOUT_S = 5.0
_ADVICE = "start one (`uv run dask scheduler`) and give its address, or use --dask for a local cluster"


def check_scheduler(address: str) -> None:
    """Return when a Dask scheduler answers at `address`, within seconds; else raise
    `SchedulerAddressError` (not an address) or `SchedulerError` (nothing, or something else, there)."""
    try:
        parts = urllib.parse.urlsplit(address if "://" in address else f"tcp://{address}")
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port, parts = None, None, None
    if parts is None or parts.scheme not in ("tcp", "tls") or not host or not port:
        raise SchedulerAddressError(f"the Dask address {address!r} is not a scheduler address; write it as tcp://HOST:PORT")
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as error:
        raise SchedulerError(f"no Dask scheduler answers at {address} ({error.strerror or error}); {_ADVICE}") from None
    try:
        reply = asyncio.run(asyncio.wait_for(_identity(address), 2 * CONNECT_TIMEOUT_S))
        said = f"it says it is {reply.get('type')!r}" if isinstance(reply, dict) else "its reply is no Dask message"
    except Exception as error:  # silence (a timeout), garbage (even a MemoryError from an absurd frame size)
        reply, said = None, one_line(error) or type(error).__name__
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise SchedulerError(f"what listens at {address} is not a Dask scheduler ({said}); {_ADVICE}")


async def _identity(address: str) -> object:
    """What the Dask server at `address` says it is ({"type": "Scheduler", ...})."""
    from distributed.comm import connect

    comm = await connect(address, timeout=CONNECT_TIMEOUT_S)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()
