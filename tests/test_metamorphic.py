"""Metamorphic tests of the renderings check: no labels needed, every group of renderings.

For each group of ../shared/corpus2 (and the two translations of the PyTorch 2.4 blog in
../shared/corpus): (a) renaming every product name consistently leaves the mismatches as they
were; (b) changing one number in one rendering adds exactly that mismatch; (c) multiplying
one value by 10 in one rendering is reported as a magnitude change; (d) writing one value in
another notation adds nothing.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pytest

from ingest import run_pipeline, warehouse
from ingest.translate.engine import UntranslatedEngine
from seed_fixtures import SHARED

CORPUS2 = SHARED / "corpus2"


def _groups() -> dict[str, list[Path]]:
    groups: dict[str, list[Path]] = {}
    if (CORPUS2 / "SOURCES.tsv").is_file():
        with (CORPUS2 / "SOURCES.tsv").open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                groups.setdefault(row["group"], []).append(CORPUS2 / row["file"])
    corpus = SHARED / "corpus"
    pytorch_24 = [corpus / "004_zh_pytorch-2-4-release-apachecn.md", corpus / "005_zh_pytorch-2-4-release-pytorchchina.md"]
    if all(p.is_file() for p in pytorch_24):
        groups["corpus-2.4"] = pytorch_24
    return groups


GROUPS = _groups()
Mismatch = tuple[str, str, str, str, str]


class Group:
    """One group of renderings, ingested as given or with an edit to one of its files."""

    def __init__(self, files: list[Path], tmp: Path) -> None:
        self.texts = {f.name: f.read_text("utf-8") for f in files}
        self.tmp, self.runs = tmp, 0

    def ingest(self, texts: dict[str, str]) -> tuple[set[Mismatch], list[dict]]:
        self.runs += 1
        folder = self.tmp / f"run{self.runs}" / "group"  # one folder name: the doc ids are the same in every run
        folder.mkdir(parents=True)
        for name, text in texts.items():
            (folder / name).write_text(text, "utf-8")
        db = folder.parent / "w.duckdb"
        run_pipeline([folder], db, None, engine=UntranslatedEngine(), stage_cache=False)
        con = warehouse.connect(db, read_only=True)
        try:
            mismatches = {
                tuple(row) for row in con.execute("SELECT doc_a, doc_b, text_a, text_b, change FROM mismatches").fetchall()
            }
            agreements = warehouse.dicts(
                con,
                "SELECT doc_a, doc_b, text_a, text_b, kind, confidence FROM agreements "
                "WHERE relation = 'agree' ORDER BY doc_a, doc_b, seg_a, mention_a",
            )
        finally:
            con.close()
        return mismatches, agreements


@pytest.fixture(scope="module", params=sorted(GROUPS) or ["none"])
def group(request, tmp_path_factory):
    if request.param not in GROUPS:
        pytest.skip(f"{CORPUS2} is absent (the shared corpus sits beside the repo in CI)")
    group = Group(GROUPS[request.param], tmp_path_factory.mktemp(request.param))
    group.before, group.agreements = group.ingest(group.texts)
    return group


def _standalone(text: str) -> re.Pattern:
    """`text` as a whole token: not inside a longer number, word, URL or path ("2.0" of "pytorch-2.0/")."""
    return re.compile(rf"(?<![A-Za-z0-9_.,/-]){re.escape(text)}(?![A-Za-z0-9_,/-]|\.[A-Za-z0-9])")


def _candidate(group: Group, accept, kind: str = "number") -> tuple[str, str]:
    """(file, written text) of an agreed mention of `kind` written once in its file, that `accept` takes."""
    for row in group.agreements:
        if row["kind"] != kind or row["confidence"] < 0.6:
            continue
        for doc_id, text in ((row["doc_b"], row["text_b"]), (row["doc_a"], row["text_a"])):
            doc = doc_id.removeprefix("group/")
            if accept(text) and len(_standalone(text).findall(group.texts[doc])) == 1:
                return doc, text
    pytest.skip(f"no agreed {kind} in this group is written once in a form this test edits")


def _edited(group: Group, doc: str, old: str, new: str) -> dict[str, str]:
    return {**group.texts, doc: _standalone(old).sub(new, group.texts[doc], count=1)}


def _plain_integer(text: str) -> bool:
    return re.fullmatch(r"[1-9]\d{1,5}", text) is not None


def _one_spelling(name: str, texts) -> bool:
    """True when every case-insensitive occurrence of `name` in `texts` is written exactly so."""
    return all(found == name for text in texts for found in re.findall(re.escape(name), text, re.IGNORECASE))


def test_renaming_products_consistently_changes_no_mismatch(group):
    names = Counter(
        name for text in group.texts.values() for name in set(re.findall(r"(?<![A-Za-z0-9])[A-Z][A-Za-z]{4,}(?![A-Za-z])", text))
    )
    # Sorted, not in set order: which names are renamed must not depend on PYTHONHASHSEED. Only names
    # written in one case everywhere: names compare case-insensitively, so renaming "Smollm" while a URL
    # keeps "smollm" (and "SmolLM" stays) would not be a consistent rename.
    shared = sorted(
        name for name, count in names.items() if count == len(group.texts) and _one_spelling(name, group.texts.values())
    )[:3]
    if not shared:
        pytest.skip("no product name is written in every rendering")
    invented = {name: f"Zorbl{'aeiou'[i]}x" for i, name in enumerate(shared)}
    renamed = {
        doc: re.sub(rf"(?<![A-Za-z0-9])({'|'.join(invented)})(?![A-Za-z])", lambda m: invented[m.group()], text)
        for doc, text in group.texts.items()
    }
    after, _ = group.ingest(renamed)
    back = {new: old for old, new in invented.items()}
    restored = {tuple(re.sub("|".join(back), lambda m: back[m.group()], part) for part in mismatch) for mismatch in after}
    assert restored == group.before


def test_changing_one_number_adds_exactly_that_mismatch(group):
    doc, old = _candidate(group, _plain_integer)
    new = old[:-1] + str((int(old[-1]) + 3) % 10)
    after, _ = group.ingest(_edited(group, doc, old, new))
    added = after - group.before
    assert group.before <= after and len(added) == 1, (old, new, added)
    [mismatch] = added
    assert {new, old} == {text.replace(",", "") for text in mismatch[2:4]}


def test_a_value_ten_times_larger_is_a_magnitude_change(group):
    doc, old = _candidate(group, _plain_integer)
    after, _ = group.ingest(_edited(group, doc, old, old + "0"))
    added = after - group.before
    assert len(added) == 1 and next(iter(added))[4] == "magnitude", added


def test_the_same_value_in_another_notation_adds_nothing(group):
    doc, old = _candidate(group, lambda text: re.fullmatch(r"[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d{3,7}", text) is not None)
    value = int(old.replace(",", ""))
    new = f"{value:,}" if "," not in old else str(value)  # 34000 <-> 34,000
    if doc.split("_")[1] in ("zh", "ja") and value % 10_000 == 0:
        new = f"{value // 10_000}万"
    after, _ = group.ingest(_edited(group, doc, old, new))
    assert after == group.before, (old, new)


def _bumped(version: str) -> str:
    """The version with its last number two higher ("PyTorch 2.2" -> "PyTorch 2.4", "v0.0.1" -> "v0.0.3")."""
    last = list(re.finditer(r"\d+", version))[-1]
    return version[: last.start()] + str(int(last.group()) + 2) + version[last.end() :]


def test_changing_one_version_adds_exactly_that_version_change(group):
    doc, old = _candidate(group, lambda text: re.search(r"\d+$", text) is not None, kind="version")
    new = _bumped(old)
    added = group.ingest(_edited(group, doc, old, new))[0] - group.before
    assert [(m[4], {old, new} == set(m[2:4])) for m in added] == [("version", True)], (old, new, added)


# A status word and another one (Latin, as every rendering of these groups may write it).
_OTHER_STATUS = {"beta": "stable", "stable": "beta", "prototype": "beta"}


def test_changing_one_status_word_adds_exactly_that_label_change(group):
    def edit(text: str) -> str:
        return re.sub(
            "|".join(_OTHER_STATUS), lambda m: _match_case(_OTHER_STATUS[m.group().lower()], m.group()), text, count=1, flags=re.I
        )

    doc, old = _candidate(group, lambda text: edit(text) != text, kind="label")
    new = edit(old)
    added = group.ingest(_edited(group, doc, old, new))[0] - group.before
    assert [(m[4], new in m[2:4]) for m in added] == [("label", True)], (old, new, added)


def _match_case(word: str, like: str) -> str:
    return word.capitalize() if like[:1].isupper() else word
