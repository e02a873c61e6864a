"""Independent sources, their trust, and which value the sources support where they disagree.

The renderings of one article (a group of `renderings`) are one source; any other document is
a source of its own. Truth discovery in the manner of TruthFinder (Yin, Han & Yu, KDD 2007):
a value is as credible as the sources that state it are trustworthy (the chance that at least
one of them is right), and a source is as trustworthy as the values it states are credible,
iterated to a fixed point over every key (subject, attribute, scope, unit, conditions,
baseline) that two or more sources state. Counting renderings once is the simplest form of
source dependence (Dong, Berti-Equille & Srivastava, VLDB 2009): a translation copies its
original's errors, so it cannot outvote them.

Per key on which sources disagree, the verdict names the value more independent sources
state; with as many sources on each side it is undecided (one source against one is never
settled by trust alone).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import duckdb

from ..warehouse import dicts, transaction
from ..warehouse.load import insert_rows
from .thresholds import INITIAL_TRUST, TRUST_ROUNDS

# The report's one sentence on what trust is.
TRUST_EXPLAINED = (
    "A source's trust is the mean credibility of the values it states on facts other sources state too, and a "
    "value's credibility the chance that at least one of the sources stating it is right, worked out together "
    "until they settle; the renderings of one article are one source, so a translation cannot outvote its original."
)

Key = tuple[str, str, str, str | None, str | None, str | None]
KeyCluster = tuple[str, str, str, str | None, str | None, str | None, str]  # a Key and a cluster, flat: (*key, cluster)


@dataclass
class _Source:
    documents: set[str] = field(default_factory=set)
    statements: set[tuple[Key, str]] = field(default_factory=set)  # (key, cluster)
    trust: float = INITIAL_TRUST


def update_truth(con: duckdb.DuckDBPyConnection) -> None:
    """Recompute `sources` and `claim_verdicts` from the claims the warehouse holds."""
    rows = dicts(
        con,
        """
        SELECT p.key_subject, p.attribute, p.scope, p.unit, p.conditions, p.baseline, p.doc_id, p.clusters,
               coalesce(r.group_id, p.doc_id) AS source
        FROM document_positions p LEFT JOIN renderings r USING (doc_id)
        WHERE NOT p.corroborate_only""",
    )
    sources: dict[str, _Source] = defaultdict(_Source)
    stated_by: dict[Key, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))  # key -> cluster -> sources
    for row in rows:
        key: Key = (row["key_subject"], row["attribute"], row["scope"], row["unit"], row["conditions"], row["baseline"])
        source = sources[row["source"]]
        source.documents.add(row["doc_id"])
        for cluster in row["clusters"]:
            source.statements.add((key, cluster))
            stated_by[key][cluster].add(row["source"])
    shared = {key for key, clusters in stated_by.items() if len({s for ss in clusters.values() for s in ss}) >= 2}
    credibility = _iterate(sources, stated_by, shared)
    values = _cluster_values(con)
    with transaction(con):
        con.execute("DELETE FROM sources")
        con.execute("DELETE FROM claim_verdicts")
        insert_rows(con, "sources", [_source_row(name, source, stated_by, shared) for name, source in sources.items()])
        insert_rows(
            con,
            "claim_verdicts",
            [_verdict(key, stated_by[key], sources, credibility, values) for key in shared if len(stated_by[key]) >= 2],
        )
        con.execute("UPDATE claim_verdicts SET verdict = verdict_text(supported, sides)")


def _iterate(
    sources: dict[str, _Source], stated_by: dict[Key, dict[str, set[str]]], shared: set[Key]
) -> dict[tuple[Key, str], float]:
    """Credibility of every (key, cluster) of shared keys, and every source's trust, at their fixed point."""
    credibility: dict[tuple[Key, str], float] = {}
    for _ in range(TRUST_ROUNDS):
        for key in shared:
            raw = {}
            for cluster, stating in stated_by[key].items():
                doubt = 1.0
                for name in stating:
                    doubt *= 1.0 - sources[name].trust
                raw[cluster] = 1.0 - doubt
            total = sum(raw.values()) or 1.0
            credibility.update({(key, cluster): value / total for cluster, value in raw.items()})
        for source in sources.values():
            checked = [credibility[statement] for statement in source.statements if statement[0] in shared]
            if checked:
                source.trust = min(0.99, max(0.01, sum(checked) / len(checked)))
    return credibility


def _cluster_values(con: duckdb.DuckDBPyConnection) -> dict[KeyCluster, str]:
    """A readable value for every cluster of every key (its first claim's)."""
    return {
        (
            row["key_subject"],
            row["attribute"],
            row["scope"],
            row["unit"],
            row["conditions"],
            row["baseline"],
            row["cluster"],
        ): row["value"]
        for row in dicts(
            con,
            "SELECT key_subject, attribute, scope, unit, conditions, baseline, cluster, "
            "arg_min(value, doc_id || claim_id) AS value FROM claim_clusters GROUP BY ALL",
        )
    }


def _source_row(name: str, source: _Source, stated_by: dict[Key, dict[str, set[str]]], shared: set[Key]) -> dict[str, Any]:
    checked = [(key, cluster) for key, cluster in source.statements if key in shared]
    agreeing = [1 for key, cluster in checked if len(stated_by[key][cluster]) >= 2]
    return {
        "source_id": name,
        "documents": sorted(source.documents),
        "n_documents": len(source.documents),
        "trust": round(source.trust, 3),
        "checked": len(checked),
        "agreeing": len(agreeing),
    }


def _verdict(
    key: Key,
    clusters: dict[str, set[str]],
    sources: dict[str, _Source],
    credibility: dict[tuple[Key, str], float],
    values: dict[KeyCluster, str],
) -> dict[str, Any]:
    """The supported value of a key (the one more independent sources state; none on a tie) and
    every value with its sources and documents; its words are the macro `verdict_text`."""
    ranked = sorted(clusters.items(), key=lambda item: (-len(item[1]), -credibility.get((key, item[0]), 0.0), item[0]))
    value = lambda cluster: values.get((*key, cluster), cluster)  # noqa: E731
    sides = [
        {"value": value(cluster), "n_sources": len(stating), "n_documents": sum(len(sources[s].documents) for s in stating)}
        for cluster, stating in ranked
    ]
    top, second = ranked[0], ranked[1]
    decided = len(top[1]) > len(second[1])
    return {
        "subject": key[0],
        "attribute": key[1],
        "scope": key[2],
        "unit": key[3],
        "conditions": key[4],
        "baseline": key[5],
        "supported": value(top[0]) if decided else None,
        "sides": sides,
    }
