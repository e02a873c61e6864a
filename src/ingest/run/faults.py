"""Which faults are worth retrying (the Prefect tasks' retry condition)."""

from __future__ import annotations

import duckdb

from ..errors import WarehouseLockedError


def is_transient(error: BaseException | None) -> bool:
    """Faults worth retrying after a pause: a locked warehouse, I/O and network hiccups, lost workers.

    A missing or unreadable input is not transient (retrying changes nothing), nor is a bug.
    """
    if error is None:
        return False
    if isinstance(error, WarehouseLockedError):
        return True
    if isinstance(error, (FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError)):
        return False
    if isinstance(error, (OSError, TimeoutError, ConnectionError)):
        return True
    if isinstance(error, duckdb.IOException):
        return True
    return type(error).__module__.startswith("distributed") and type(error).__name__ in {
        "CommClosedError",
        "KilledWorker",
        "FutureCancelledError",
    }
