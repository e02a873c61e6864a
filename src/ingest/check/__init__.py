"""Everything that compares documents: claim keys, clusters and conflicts (the SQL views of `sql/`,
with the wording of every finding in `sql/00_wording.sql`), the alignment of renderings (`align`,
stored by `renderings`), the verdicts of truth discovery (`truth`), and the thresholds they all
read (`thresholds`).

`update_checks` runs after every load (and `ingest prune`): it applies the views when their
definitions changed, then recomputes the tables the views read, unless neither the documents nor
the code that checks them changed since it last ran. The claims' keys and clusters, which every
check and the report read, are among those tables (`STORED`), so they are computed once per update.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources

import duckdb

from .. import warehouse
from ..identity import check_digest
from .renderings import update_renderings
from .thresholds import placeholders
from .truth import update_truth

VIEWS = "views"  # schema_state's part for the views of sql/
# Tables `update_checks` fills from the views named `fresh_<table>` (sql/10_claim_clusters.sql), in
# this order: each is read by several checks and by the report, and costs a second to compute.
STORED = ("claim_clusters", "document_positions")


@lru_cache(maxsize=1)
def view_definitions() -> tuple[tuple[str, str], ...]:
    """(file name, SQL) of every view and macro in name order, the thresholds filled in."""
    values = placeholders()
    definitions = []
    for file in sorted((resources.files(__name__) / "sql").iterdir(), key=lambda f: f.name):
        sql = file.read_text("utf-8")
        for name, value in values.items():
            sql = sql.replace("{" + name + "}", value)
        definitions.append((file.name, sql))
    return tuple(definitions)


def views_digest() -> str:
    """The digest of the views' definitions as applied (thresholds included)."""
    digest = hashlib.sha256()
    for name, sql in view_definitions():
        digest.update(name.encode("utf-8") + b"\0" + sql.encode("utf-8"))
    return digest.hexdigest()


def views_are_current(con: duckdb.DuckDBPyConnection) -> bool:
    return warehouse.applied_digest(con, VIEWS) == views_digest()


def ensure_views(con: duckdb.DuckDBPyConnection) -> None:
    """Create or replace the views and macros, only when their definitions changed."""
    if views_are_current(con):
        return
    with warehouse.transaction(con):
        for name in STORED:  # an older version's view of that name
            if con.execute("SELECT 1 FROM duckdb_views() WHERE view_name = ? AND NOT internal", [name]).fetchone():
                con.execute(f"DROP VIEW {name}")
        for _, sql in view_definitions():
            con.execute(sql)
        warehouse.record_applied(con, VIEWS, views_digest())


def _state(con: duckdb.DuckDBPyConnection) -> tuple[str, str]:
    return warehouse.documents_digest(con), check_digest()


def is_current(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the tables, views and checks are what this version computes for these documents."""
    return (
        warehouse.schema_is_current(con)
        and views_are_current(con)
        and con.execute("SELECT documents_digest, code_digest FROM check_state").fetchall() == [_state(con)]
    )


def update_checks(con: duckdb.DuckDBPyConnection) -> bool:
    """Bring the views and the cross-document tables up to date; True if anything was computed."""
    ensure_views(con)
    state = _state(con)
    if con.execute("SELECT documents_digest, code_digest FROM check_state").fetchall() == [state]:
        return False
    update_renderings(con)
    with warehouse.transaction(con):
        for name in STORED:
            con.execute(f"CREATE OR REPLACE TABLE {name} AS FROM fresh_{name}")
    update_truth(con)
    con.execute("DELETE FROM check_state")
    con.execute("INSERT INTO check_state VALUES (?, ?)", list(state))
    return True
