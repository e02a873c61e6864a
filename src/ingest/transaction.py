"""One DuckDB transaction: all of a block's statements land, or none does.

At the bottom of the package because the stages that fill what a run left waiting
(translate/waiting.py) write through a connection they are given, as the warehouse does.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import duckdb


@contextlib.contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """The block's statements in one transaction: committed at its end, rolled back if anything
    raises. The error raised is the first one: a ROLLBACK that fails because DuckDB already ended
    the transaction (a failed COMMIT) does not replace it."""
    con.execute("BEGIN TRANSACTION")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(duckdb.Error):
            con.execute("ROLLBACK")
        raise
