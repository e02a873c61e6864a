"""Scoring what the checks say about pairs of documents against keys that quote both sides.

Two keys use it: the corpus2 answer key (tests/labels/corpus2/{tuned,blind}/*.yaml: changes
between renderings of one article) and the cross-article labels (tests/labels/claims/
{tuned,blind}.yaml: facts different articles state). Each names the contradictions a reader
must be shown (must_flag; should_flag is optional), the facts that must be seen to agree
(must_corroborate) and the traps that must not be flagged (must_not_flag), each side by
document, a quote and the value as written.

The program's findings are read from the warehouse as pairs of sides (document, evidence
sentence, value as written): contradictions and notes from `conflicts`, agreements from
`agreements` and from corroborated claims. A finding matches a pair of labelled sides when
it links the same two documents, each evidence sentence holds the side's quote (compared
NFKC-folded, without Markdown marks or spaces), and each value holds the side's value.

- must_flag / should_flag: found when a finding links two of its sides that state different values;
- must_corroborate: found when agreements connect all of its sides;
- must_not_flag: flagged when a contradiction links two of its sides;
- precision of contradictions: among the findings whose documents are all in labelled groups,
  those matching a must/should item, against those matching a trap and those matching nothing
  (reported apart: "unlabelled" is not proven wrong).
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from pathlib import Path

import duckdb
import yaml

from ..extract.reader import read
from ..warehouse import dicts, scalar

CATEGORIES = ("must_flag", "should_flag", "must_corroborate", "must_not_flag")
PARTS = ("tuned", "blind")
_MARKS = re.compile(r"[\s*`#\[\]\\]+")


def fold(text: str) -> str:
    """Text as compared: NFKC, casefolded, without whitespace and Markdown marks."""
    return _MARKS.sub("", unicodedata.normalize("NFKC", text or "")).casefold()


@dataclass(frozen=True)
class Side:
    doc: str
    quote: str
    value: str


@dataclass(frozen=True)
class GoldItem:
    id: str
    group: str
    part: str
    category: str
    kind: str
    number_based: bool
    sides: tuple[Side, ...]


@dataclass(frozen=True)
class Finding:
    """One thing the program says about two renderings: they contradict, agree, or differ in a note."""

    kind: str  # contradiction | note | agreement
    a: Side
    b: Side
    detail: str = ""

    @property
    def docs(self) -> frozenset[str]:
        return frozenset((self.a.doc, self.b.doc))


def label_files(root: Path) -> list[tuple[Path, str]]:
    """(file, part) of a labelled set: root/{tuned,blind}/*.yaml or root/{tuned,blind}.yaml."""
    return [(file, part) for part in PARTS for file in sorted([*(root / part).glob("*.yaml"), *root.glob(f"{part}.yaml")])]


def load_labels(files: Sequence[tuple[Path, str]]) -> list[GoldItem]:
    """Every labelled item of the files, with the part it belongs to."""
    items = []
    for file, part in files:
        data = yaml.safe_load(file.read_text("utf-8"))
        for category in CATEGORIES:
            for item in data.get(category) or []:
                items.append(
                    GoldItem(
                        item["id"],
                        data["group"],
                        part,
                        category,
                        item.get("kind", ""),
                        bool(item.get("number_based", True)),
                        tuple(Side(s["doc"], s["quote"], str(s["value"])) for s in item["sides"]),
                    )
                )
    return items


def labelled_documents(files: Sequence[tuple[Path, str]]) -> dict[str, str]:
    """doc -> the part its labels belong to (blind when any of them is)."""
    docs: dict[str, str] = {}
    for file, part in files:
        for doc in yaml.safe_load(file.read_text("utf-8"))["documents"]:
            if docs.get(doc) != "blind":
                docs[doc] = part
    return docs


def _holds(evidence: str, quote: str) -> bool:
    """The evidence sentence holds the quote (or most of it: segmentation may cut a quote)."""
    e, q = fold(evidence), fold(quote)
    if not e or not q:
        return False
    if q in e or (len(e) >= 8 and e in q):
        return True
    match = SequenceMatcher(None, e, q, autojunk=False).find_longest_match(0, len(e), 0, len(q))
    return match.size >= max(12, int(0.6 * len(q)))


def _same_value(found: str, gold: str) -> bool:
    """The same value as written, or in another notation ("13x" / "13倍", "0.076923x" / "1/13"), or
    without the hedge the label writes with it ("11.6以上" / "CUDA 11.6")."""
    f, g = fold(found), fold(gold)
    if f and g and (g in f or f in g):
        return True
    if any(f.endswith(fold(r.text)) for r in read(unicodedata.normalize("NFKC", gold or ""), "zh") if fold(r.text)):
        return True
    values_f, values_g = _values(found), _values(gold)
    return any(abs(x - y) <= 0.01 * max(abs(x), abs(y)) for x in values_f for y in values_g)


def _values(text: str) -> set[float]:
    """The numeric values a written value may stand for (a factor and its inverse)."""
    values = set()
    for mention in read(unicodedata.normalize("NFKC", text or ""), "zh"):
        if mention.value:
            values.update({mention.value, 1.0 / mention.value} if mention.unit == "x" or mention.value < 1 else {mention.value})
    return values


def _side_matches(finding: Side, gold: Side) -> bool:
    return finding.doc == gold.doc and _holds(finding.quote, gold.quote) and _same_value(finding.value, gold.value)


def _links(finding: Finding, x: Side, y: Side) -> bool:
    return (_side_matches(finding.a, x) and _side_matches(finding.b, y)) or (
        _side_matches(finding.a, y) and _side_matches(finding.b, x)
    )


def _differing_pairs(item: GoldItem) -> list[tuple[Side, Side]]:
    sides = item.sides
    return [(x, y) for i, x in enumerate(sides) for y in sides[i + 1 :] if x.doc != y.doc and fold(x.value) != fold(y.value)]


def _all_pairs(item: GoldItem) -> list[tuple[Side, Side]]:
    sides = item.sides
    return [(x, y) for i, x in enumerate(sides) for y in sides[i + 1 :] if x.doc != y.doc]


def _connected(item: GoldItem, findings: Sequence[Finding]) -> bool:
    """Agreements connect every side of the item (each side reaches the first)."""
    reach = {0}
    changed = True
    while changed:
        changed = False
        for i, x in enumerate(item.sides):
            for j, y in enumerate(item.sides):
                if i in reach and j not in reach and x.doc != y.doc and any(_links(f, x, y) for f in findings):
                    reach.add(j)
                    changed = True
    return len(reach) == len(item.sides)


@dataclass
class ItemResult:
    item: GoldItem
    hit: bool
    by: list[Finding] = field(default_factory=list)


@dataclass
class PartScore:
    """One part's (tuned or blind) figures."""

    results: list[ItemResult] = field(default_factory=list)
    contradictions: int = 0  # findings of kind contradiction within the part's groups
    matched_flags: int = 0  # ...that match a must/should item
    matched_traps: int = 0  # ...that match a trap
    unlabelled: list[Finding] = field(default_factory=list)

    def recall(self, category: str, number_based_only: bool = False) -> tuple[int, int]:
        rows = [r for r in self.results if r.item.category == category and (r.item.number_based or not number_based_only)]
        return sum(r.hit for r in rows), len(rows)

    @property
    def labelled_precision(self) -> float:
        judged = self.matched_flags + self.matched_traps
        return self.matched_flags / judged if judged else 1.0

    @property
    def strict_precision(self) -> float:
        return self.matched_flags / self.contradictions if self.contradictions else 1.0


def score(items: Sequence[GoldItem], findings: Sequence[Finding], parts: dict[str, str]) -> dict[str, PartScore]:
    """Per part: every item found or not, and the precision of the contradiction findings."""
    scores = {part: PartScore() for part in PARTS}
    flagging = [f for f in findings if f.kind == "contradiction"]
    noting = [f for f in findings if f.kind in ("contradiction", "note")]
    agreeing = [f for f in findings if f.kind == "agreement"]
    for item in items:
        if item.category in ("must_flag", "should_flag"):
            pool = flagging if item.category == "must_flag" else noting
            by = [f for f in pool for x, y in _differing_pairs(item) if _links(f, x, y)]
            scores[item.part].results.append(ItemResult(item, bool(by), by))
        elif item.category == "must_corroborate":
            scores[item.part].results.append(ItemResult(item, _connected(item, agreeing)))
        else:
            by = [f for f in flagging for x, y in _all_pairs(item) if _links(f, x, y)]
            scores[item.part].results.append(ItemResult(item, bool(by), by))
    flags = [i for i in items if i.category in ("must_flag", "should_flag")]
    traps = [i for i in items if i.category == "must_not_flag"]
    for finding in flagging:
        if not finding.docs <= parts.keys():
            continue
        # A finding counts in the part of the item it matches, else in its documents' part.
        flag = next((i for i in flags if any(_links(finding, x, y) for x, y in _differing_pairs(i))), None)
        trap = None if flag else next((i for i in traps if any(_links(finding, x, y) for x, y in _all_pairs(i))), None)
        matched = flag or trap
        part = matched.part if matched else ("blind" if any(parts[d] == "blind" for d in finding.docs) else "tuned")
        score_ = scores[part]
        score_.contradictions += 1
        if flag:
            score_.matched_flags += 1
        elif trap:
            score_.matched_traps += 1
        else:
            score_.unlabelled.append(finding)
    return scores


# ---- findings from the warehouse ----------------------------------------------------------------


def _doc_names(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """doc_id -> the file name the labels use."""
    return {row["doc_id"]: Path(row["path"]).name for row in dicts(con, "SELECT doc_id, path FROM documents")}


def _has_view(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(scalar(con, "SELECT count(*) FROM duckdb_views() WHERE view_name = ?", [name]))


def findings_from(con: duckdb.DuckDBPyConnection, flagged: Sequence[str] = ("contradiction",)) -> list[Finding]:
    """Contradictions, notes and agreements the warehouse holds, as pairs of sides; a conflict of a
    severity in `flagged` is a contradiction (with "possible": what the report shows as possible)."""
    names = _doc_names(con)
    found: list[Finding] = []
    for row in dicts(con, "SELECT * FROM conflicts"):
        if row.get("doc_a") is None or row.get("doc_b") is None:
            continue
        kind = "contradiction" if row["severity"] in flagged else "note"
        found.append(
            Finding(
                kind,
                Side(
                    names.get(row["doc_a"], row["doc_a"]), row["evidence_a"] or "", str(row.get("text_a") or row["value_a"] or "")
                ),
                Side(
                    names.get(row["doc_b"], row["doc_b"]), row["evidence_b"] or "", str(row.get("text_b") or row["value_b"] or "")
                ),
                row.get("kind") or "",
            )
        )
    found += _group_conflicts(con, names, flagged)
    if _has_view(con, "agreements"):
        for row in dicts(con, "SELECT * FROM agreements"):
            found.append(
                Finding(
                    "agreement",
                    Side(names[row["doc_a"]], row["evidence_a"], row["text_a"]),
                    Side(names[row["doc_b"]], row["evidence_b"], row["text_b"]),
                )
            )
    found += _corroborated_claims(con, names)
    return found


def _written(claim: str) -> str:
    """SQL for a claim's value as written: its entity's text, else its span of the evidence sentence
    (a figure read without an entity: "on April 22", a span of time), else its value."""
    span = f"substr({claim}.evidence, {claim}.char_start + 1, {claim}.char_end - {claim}.char_start)"
    return f"coalesce(e.text, nullif({span}, ''), {claim}.value)"


def _group_conflicts(con: duckdb.DuckDBPyConnection, names: dict[str, str], flagged: Sequence[str]) -> list[Finding]:
    """A conflict between groups of documents links every document of one side with every document
    of the other, each with its own sentence (the conflicts row shows each group's first)."""
    rows = dicts(
        con,
        f"""
        SELECT f.severity, f.kind, f.subject, f.attribute, f.scope, f.docs_a, f.docs_b, c.doc_id, c.value, c.evidence,
               -- a maturity as written and as normalised (the source-language word, then "beta"): labels quote either
               CASE WHEN f.attribute = 'maturity' THEN concat_ws(' ', e.text, c.value) ELSE {_written("c")} END
                 AS written
        FROM conflicts f
        JOIN claim_clusters c ON c.key_subject = f.subject AND c.attribute = f.attribute AND c.scope = f.scope
         AND c.conditions IS NOT DISTINCT FROM f.conditions AND c.baseline IS NOT DISTINCT FROM f.baseline
        LEFT JOIN entities e ON e.doc_id = c.doc_id AND e.seg_idx = c.seg_idx AND e.char_start = c.char_start
         AND e.char_end = c.char_end
        WHERE f.kind IN ('maturity_conflict', 'value_conflict')""",
    )
    by_conflict: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        key = (
            row["severity"],
            row["kind"],
            row["subject"],
            row["attribute"],
            row["scope"],
            tuple(row["docs_a"]),
            tuple(row["docs_b"]),
        )
        by_conflict[key].append(row)
    found = []
    for (severity, kind, *_, docs_a, docs_b), members in by_conflict.items():
        sides = [[m for m in members if m["doc_id"] in docs] for docs in (docs_a, docs_b)]
        for x in sides[0]:
            for y in sides[1]:
                found.append(
                    Finding(
                        "contradiction" if severity in flagged else "note",
                        Side(names[x["doc_id"]], x["evidence"], x["written"]),
                        Side(names[y["doc_id"]], y["evidence"], y["written"]),
                        kind,
                    )
                )
    return found


def across_articles(con: duckdb.DuckDBPyConnection, findings: Sequence[Finding]) -> list[Finding]:
    """The findings between different articles: renderings of one article are the renderings key's."""
    names = _doc_names(con)
    group = {names[doc]: grp for doc, grp in con.execute("SELECT doc_id, group_id FROM renderings").fetchall()}
    return [f for f in findings if group.get(f.a.doc) is None or group.get(f.a.doc) != group.get(f.b.doc)]


def _corroborated_claims(con: duckdb.DuckDBPyConnection, names: dict[str, str]) -> list[Finding]:
    """Pairs of claims from different documents that a corroboration joins."""
    rows = dicts(
        con,
        "SELECT c.subject, c.attribute, c.release, c.value AS agreed, cl.doc_id, cl.evidence, "
        f"{_written('cl')} AS written "
        "FROM corroborations c, unnest(c.claim_ids) AS t(claim_id) JOIN claims cl USING (claim_id) "
        "LEFT JOIN entities e ON e.doc_id = cl.doc_id AND e.seg_idx = cl.seg_idx "
        "AND e.char_start = cl.char_start AND e.char_end = cl.char_end",
    )
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        groups[(row["subject"], row["attribute"], row["release"], row["agreed"])].append(row)
    found = []
    for members in groups.values():
        for i, x in enumerate(members):
            for y in members[i + 1 :]:
                if x["doc_id"] != y["doc_id"]:
                    found.append(
                        Finding(
                            "agreement",
                            Side(names[x["doc_id"]], x["evidence"], x["written"]),
                            Side(names[y["doc_id"]], y["evidence"], y["written"]),
                        )
                    )
    return found


def report_lines(scores: dict[str, PartScore], reveal_blind: bool = False) -> list[str]:
    """The figures per part; item ids and misses for the tuned part (the blind part only if revealed)."""
    lines = []
    for part, part_score in scores.items():
        flagged = part_score.recall("must_flag")
        numeric = part_score.recall("must_flag", number_based_only=True)
        lines.append(
            f"{part}: must-flag {flagged[0]}/{flagged[1]} (number-based {numeric[0]}/{numeric[1]}), "
            f"should-flag {part_score.recall('should_flag')[0]}/{part_score.recall('should_flag')[1]}, "
            f"must-corroborate {part_score.recall('must_corroborate')[0]}/{part_score.recall('must_corroborate')[1]}, "
            f"traps flagged {part_score.recall('must_not_flag')[0]}/{part_score.recall('must_not_flag')[1]}; "
            f"contradictions reported {part_score.contradictions}: {part_score.matched_flags} labelled true, "
            f"{part_score.matched_traps} traps, {len(part_score.unlabelled)} unlabelled"
        )
        if part == "blind" and not reveal_blind:
            continue
        for result in part_score.results:
            wanted = result.item.category != "must_not_flag"
            if result.hit != wanted:
                lines.append(f"  {'missed' if wanted else 'flagged trap'} {result.item.id} ({result.item.category})")
    return lines


def unlabelled_findings(scores: dict[str, PartScore], part: str = "tuned") -> Iterable[Finding]:
    return scores[part].unlabelled
