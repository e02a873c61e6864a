"""The cross-document checks that run in Python after every load: renderings aligned
(`renderings`), then sources and verdicts (`truth`). Skipped when neither the documents nor
the code that checks them changed since they last ran."""

from __future__ import annotations

import duckdb

from ..warehouse import documents_digest
from .identity import check_digest
from .renderings import update_renderings
from .truth import update_truth


def update_checks(con: duckdb.DuckDBPyConnection) -> bool:
    """Bring the cross-document tables up to date; True if anything was computed."""
    state = (documents_digest(con), check_digest())
    if con.execute("SELECT documents_digest, code_digest FROM check_state").fetchall() == [state]:
        return False
    update_renderings(con)
    update_truth(con)
    con.execute("DELETE FROM check_state")
    con.execute("INSERT INTO check_state VALUES (?, ?)", list(state))
    return True
