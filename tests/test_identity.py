"""Document identity and the input boundary (issue 13, items 1 and 2).

A document is a file: its id is the input folder's name and the path inside it, kept across
runs whatever other folders a run names; the same bytes are one source (later copies are
`duplicate` rows pointing at the first, across runs too); a file that is gone is `missing`
and leaves the checks until `ingest prune` removes its rows. File links are read only when
they resolve inside the input folders.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import unicodedata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ingest import prune, run_pipeline, warehouse
from ingest.cli import app
from ingest.translate.engine import UntranslatedEngine
from seed_fixtures import SEEDS

JA = "000_7df305071c9dd669.txt"  # FlexAttention is beta in PyTorch 2.5 ...
ZH = "001_dff0537ae45131ec.txt"  # ... and a prototype here: the seeds' contradiction
XLA = "002_4e95fd8798c6d130.txt"
OLD = "003_5d99275ed4bcda51.txt"
SECRET = "秘密のパスワードは hunter2 です。この行が倉庫に入ってはならない。"


class Warehouse:
    """One warehouse that several runs fill."""

    def __init__(self, tmp_path: Path) -> None:
        self.db, self.reports = tmp_path / "w.duckdb", tmp_path / "reports"

    def run(self, *paths: Path, **options):
        return run_pipeline(list(paths), self.db, self.reports, engine=UntranslatedEngine(), **options)

    def query(self, sql: str, params: list | None = None) -> list[tuple]:
        con = warehouse.connect(self.db, read_only=True)
        try:
            return con.execute(sql, params or []).fetchall()
        finally:
            con.close()

    def documents(self) -> dict[str, tuple]:
        """doc_id -> (status, duplicate_of)."""
        return {d: (s, dup) for d, s, dup in self.query("SELECT doc_id, status, duplicate_of FROM documents")}

    def report_checks(self) -> str:
        """What the report's checks say: its contradictions, notes and corroborations."""
        text = (self.reports / "consistency.md").read_text("utf-8")
        return text[text.index("## Contradictions") : text.index("## Translation")]


@pytest.fixture
def store(tmp_path) -> Warehouse:
    return Warehouse(tmp_path)


def folder(tmp_path: Path, name: str, *seeds: str) -> Path:
    """A folder `name` holding copies of the given seed files."""
    path = tmp_path / name
    path.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        shutil.copy(SEEDS / seed, path / seed)
    return path


# ---- item 1: the input boundary ---------------------------------------------------------------


def hostile_links(tmp_path: Path, inputs: Path) -> dict[str, str]:
    """Links in `inputs` that resolve outside it, each a way to hide that: name -> what it shows."""
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "secret.txt").write_text(f"社外秘\n\n{SECRET}\n", "utf-8")
    os.symlink(outside / "secret.txt", inputs / "direct.txt")  # a plain link out
    os.symlink("direct.txt", inputs / "chain.txt")  # a link to that link
    os.symlink("../outside/secret.txt", inputs / "relative.txt")  # '..' in the target
    os.symlink(outside / "deep", inputs / "linked_folder")  # a folder link ...
    os.symlink("linked_folder/../secret.txt", inputs / "through_folder.txt")  # ... and '..' through it
    os.symlink("/etc/passwd", inputs / "passwd.md")  # its first line a title
    return {
        "direct.txt": "secret.txt",
        "chain.txt": "secret.txt",
        "relative.txt": "secret.txt",
        "through_folder.txt": "secret.txt",
        "passwd.md": "/etc/passwd",
    }


def test_symlink_outside_the_input_roots_is_refused(tmp_path, store):
    inputs = folder(tmp_path, "in", JA)
    links = hostile_links(tmp_path, inputs)
    summary = store.run(inputs)

    rows = dict(store.query("SELECT doc_id, error FROM documents WHERE status = 'failed'"))
    assert set(rows) == {f"in/{name}" for name in links}
    for name, target in links.items():
        error = rows[f"in/{name}"]
        assert "symbolic link to" in error and target in error and "outside the input folders" in error
        assert "--follow-links" in error
    assert store.documents()[f"in/{JA}"] == ("ok", None)
    stored = " ".join(str(v) for row in store.query("SELECT title, text FROM documents") for v in row)
    stored += " ".join(t for (t,) in store.query("SELECT text FROM segments"))
    assert "hunter2" not in stored and "root:" not in stored  # nothing of a target reached the warehouse
    assert len(summary.failed) == len(links) and len(summary.loaded) == 1


def test_links_inside_the_input_roots_are_read_and_count_once(tmp_path, store):
    inputs = folder(tmp_path, "in", JA)
    os.symlink(JA, inputs / "alias.txt")
    (inputs / "sub").mkdir()
    os.symlink(f"../{JA}", inputs / "sub" / "up.txt")
    store.run(inputs)
    assert store.documents() == {
        f"in/{JA}": ("ok", None),
        "in/alias.txt": ("duplicate", f"in/{JA}"),
        "in/sub/up.txt": ("duplicate", f"in/{JA}"),
    }


def test_follow_links_allows_links_outside_the_input_roots(tmp_path, store):
    inputs = folder(tmp_path, "in")
    shutil.copy(SEEDS / JA, tmp_path / "elsewhere.txt")
    os.symlink(tmp_path / "elsewhere.txt", inputs / "linked.txt")
    store.run(inputs, follow_links=True)
    assert store.documents() == {"in/linked.txt": ("ok", None)}


def test_ingest_run_follow_links_option(tmp_path):
    inputs = folder(tmp_path, "in")
    shutil.copy(SEEDS / JA, tmp_path / "elsewhere.txt")
    os.symlink(tmp_path / "elsewhere.txt", inputs / "linked.txt")
    args = ["run", "--no-prefect", str(inputs), "--warehouse", str(tmp_path / "w.duckdb"), "--reports", str(tmp_path / "r")]
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code == 1 and "1 failed" in refused.output and "outside the input folders" in refused.output
    followed = CliRunner().invoke(app, [*args, "--follow-links"])
    assert followed.exit_code == 0 and "1 loaded" in " ".join(followed.output.split()), followed.output


# ---- item 2: document identity ------------------------------------------------------------------


def test_two_sites_with_the_same_file_name_keep_both_articles(tmp_path, store):
    """`ingest run siteA` then `ingest run siteB`, both with article.txt: two documents."""
    for site, seed in (("siteA", JA), ("siteB", ZH)):
        (tmp_path / site).mkdir()
        shutil.copy(SEEDS / seed, tmp_path / site / "article.txt")
        store.run(tmp_path / site)
    assert store.documents() == {"siteA/article.txt": ("ok", None), "siteB/article.txt": ("ok", None)}
    assert store.query("SELECT count(*) FROM conflicts WHERE severity = 'contradiction'") == [(2,)]


def test_a_folder_run_again_beside_another_stores_each_file_once(tmp_path, store):
    """`ingest run news` then `ingest run news other`: news' files keep their ids, nothing twice."""
    news, other = folder(tmp_path, "news", JA), folder(tmp_path, "other", ZH)
    store.run(news)
    summary = store.run(news, other)
    assert store.documents() == {f"news/{JA}": ("ok", None), f"other/{ZH}": ("ok", None)}
    assert summary.skipped == [f"news/{JA}"] and summary.loaded == [f"other/{ZH}"]
    sources = store.query("SELECT n_documents, n_sources FROM corroborations WHERE subject = 'cudnn-sdpa-backend'")
    assert sources == [(2, 2)]  # two articles, not one article corroborating itself


def test_nested_folders_name_one_file_alike(tmp_path, store):
    news = folder(tmp_path, "news")
    folder(news, "sub", JA)
    store.run(news)
    summary = store.run(news / "sub")
    assert summary.skipped == [f"news/sub/{JA}"]
    assert store.documents() == {f"news/sub/{JA}": ("ok", None)}


def test_a_file_changed_and_run_from_a_nested_folder_replaces_its_own_rows(tmp_path, store):
    """Its id was given under the outer folder (another input root): the same file, so the loader
    replaces it rather than taking it for another file holding the id."""
    news = folder(tmp_path, "news")
    sub = folder(news, "sub", JA)
    store.run(news)
    (sub / JA).write_text((SEEDS / JA).read_text("utf-8") + "\n追記です。\n", "utf-8")
    summary = store.run(sub)
    assert summary.loaded == [f"news/sub/{JA}"] and not summary.failed
    assert store.documents() == {f"news/sub/{JA}": ("ok", None)}


def test_two_folders_with_the_same_name_get_distinct_ids(tmp_path, store):
    first, second = folder(tmp_path / "a", "news", JA), folder(tmp_path / "b", "news", ZH)
    (first / ZH).write_text((SEEDS / ZH).read_text("utf-8") + "\n追記。\n", "utf-8")  # same name, other bytes
    store.run(first)
    store.run(second)
    documents = store.documents()
    [second_id] = [d for d in documents if d.endswith(ZH) and d != f"news/{ZH}"]
    assert second_id.startswith("news~") and second_id.endswith(f"/{ZH}")
    assert documents[f"news/{JA}"] == documents[f"news/{ZH}"] == documents[second_id] == ("ok", None)
    store.run(second)  # and the second folder keeps its id
    assert set(store.documents()) == set(documents)


def test_same_bytes_under_another_root_in_a_later_run_is_a_duplicate_of_the_first(tmp_path, store):
    store.run(folder(tmp_path, "siteA", JA))
    summary = store.run(folder(tmp_path, "mirror", JA))
    assert store.documents()[f"mirror/{JA}"] == ("duplicate", f"siteA/{JA}")
    assert summary.duplicates == {f"mirror/{JA}": f"siteA/{JA}"}
    assert store.query("SELECT count(*) FROM segments WHERE doc_id = ?", [f"mirror/{JA}"]) == [(0,)]


def test_a_gone_source_is_marked_missing_and_leaves_the_checks(tmp_path, store):
    inputs = folder(tmp_path, "in", JA, ZH)
    store.run(inputs)
    assert store.query("SELECT count(*) FROM conflicts WHERE severity = 'contradiction'") == [(2,)]
    (inputs / ZH).unlink()
    summary = store.run(inputs)
    assert summary.missing == [f"in/{ZH}"] and "1 missing (file gone)" in summary.line()
    status, error = store.query("SELECT status, error FROM documents WHERE doc_id = ?", [f"in/{ZH}"])[0]
    assert status == "missing" and "ingest prune" in error
    assert store.query("SELECT count(*) FROM segments WHERE doc_id = ?", [f"in/{ZH}"])[0][0] > 0  # kept...
    for view in ("conflicts", "corroborations"):  # ... but out of every check
        assert store.query(f"SELECT count(*) FROM {view}") == [(0,)], view
    assert store.query("SELECT count(*) FROM keyed_claims WHERE doc_id = ?", [f"in/{ZH}"]) == [(0,)]
    assert store.query("SELECT n_missing FROM runs ORDER BY started_at DESC LIMIT 1") == [(1,)]
    assert "Contradictions (0)" in store.report_checks()
    shutil.copy(SEEDS / ZH, inputs / ZH)  # the file comes back: it is ingested again
    store.run(inputs)
    assert store.documents()[f"in/{ZH}"] == ("ok", None)
    assert store.query("SELECT count(*) FROM conflicts WHERE severity = 'contradiction'") == [(2,)]


def test_prune_removes_the_rows_of_missing_documents(tmp_path, store):
    inputs = folder(tmp_path, "in", JA, ZH, XLA)
    store.run(inputs)
    (inputs / ZH).unlink()
    store.run(inputs)
    (inputs / XLA).unlink()  # gone since the last run: prune notices it too
    assert prune(store.db) == [f"in/{ZH}", f"in/{XLA}"]
    assert store.documents() == {f"in/{JA}": ("ok", None)}
    for table in warehouse.DOCUMENT_TABLES:
        assert store.query(f"SELECT count(*) FROM {table} WHERE doc_id <> ?", [f"in/{JA}"]) == [(0,)], table
    (inputs / JA).unlink()
    result = CliRunner().invoke(app, ["prune", "--warehouse", str(store.db)])
    assert result.exit_code == 0 and f"removed in/{JA}" in result.output and "1 missing" in result.output
    assert store.documents() == {}
    nowhere = CliRunner().invoke(app, ["prune", "--warehouse", str(tmp_path / "none.duckdb")])
    assert nowhere.exit_code == 2 and "no warehouse at" in nowhere.output and not (tmp_path / "none.duckdb").exists()


def test_a_copy_whose_original_is_gone_takes_its_place(tmp_path, store):
    store.run(folder(tmp_path, "siteA", JA))
    store.run(folder(tmp_path, "mirror", JA))
    (tmp_path / "siteA" / JA).unlink()
    store.run(folder(tmp_path, "unrelated", OLD))  # neither siteA nor mirror is an input of this run
    documents = store.documents()
    assert documents[f"siteA/{JA}"][0] == "missing" and documents[f"mirror/{JA}"] == ("ok", None)
    assert store.query("SELECT count(*) FROM keyed_claims WHERE doc_id = ?", [f"mirror/{JA}"])[0][0] > 0


# ---- the metamorphic soak: the same files under another root and through a symlink farm --------


def test_same_files_under_another_root_and_a_symlink_farm_count_once(tmp_path, store):
    """Ingest a folder; then the same files again under a second root and through a farm of links
    (inside the roots, so allowed); then the second root alone. Every distinct file stays one `ok`
    document (the others `duplicate`s of it), and the report's checks, sources counted once,
    are what the first run said."""
    seeds = [JA, ZH, XLA, OLD]
    original = folder(tmp_path, "original", *seeds)
    store.run(original)
    checks = store.report_checks()
    sources = store.query("SELECT source_id, n_documents FROM sources ORDER BY 1")

    copy = folder(tmp_path, "copy", *seeds)
    farm = tmp_path / "farm"
    (farm / "nested").mkdir(parents=True)
    for seed in seeds:
        os.symlink(original / seed, farm / f"link-{seed}")
        os.symlink(f"../link-{seed}", farm / "nested" / seed)  # a link to a link
    os.symlink(copy, farm / "folder-link")  # a folder link: not walked, nothing found twice
    summary = store.run(original, copy, farm)
    assert summary.n_files == 16 and len(summary.skipped) == 4 and len(summary.duplicates) == 12
    assert store.report_checks() == checks
    store.run(copy)  # the copy's folder alone, in a later run: still duplicates of the first

    documents = store.documents()
    assert {d for d, (status, _) in documents.items() if status == "ok"} == {f"original/{s}" for s in seeds}
    shas = dict(store.query("SELECT doc_id, sha256 FROM documents"))
    for doc_id, (status, duplicate_of) in documents.items():
        assert status in ("ok", "duplicate"), (doc_id, status)
        if status == "duplicate":
            assert documents[duplicate_of] == ("ok", None) and shas[duplicate_of] == shas[doc_id]
    assert len(documents) == 16 and len({shas[d] for d in documents}) == len(seeds)
    assert store.query("SELECT source_id, n_documents FROM sources ORDER BY 1") == sources
    assert store.report_checks() == checks


# ---- issue 26: copies that differ in bytes, concurrent runs, names, empty files, the tool's own files --------


def renderings(text: str) -> dict[str, bytes]:
    """One article's text as six byte-different files: another encoding, CRLF, a BOM, NFD, full-width
    and Arabic-Indic digits."""
    return {
        "a_utf8.txt": text.encode(),
        "b_shift_jis.txt": text.encode("shift_jis"),
        "c_crlf.txt": text.replace("\n", "\r\n").encode(),
        "d_bom.txt": b"\xef\xbb\xbf" + text.encode(),
        "e_nfd.txt": unicodedata.normalize("NFD", text).encode(),
        "f_fullwidth.txt": text.translate({ord(c): ord(c) + 0xFEE0 for c in "0123456789"}).encode(),
        "g_arabic_indic.txt": text.translate({ord(c): 0x0660 + int(c) for c in "0123456789"}).encode(),
    }


def test_byte_different_renderings_of_one_text_are_one_source(tmp_path, store):
    plain = Warehouse(tmp_path / "plain")
    plain.run(folder(tmp_path, "plain", JA, ZH))
    copies = folder(tmp_path, "copies", ZH)
    for name, data in renderings((SEEDS / JA).read_text("utf-8")).items():
        (copies / name).write_bytes(data)
    summary = store.run(copies)

    documents = store.documents()
    assert documents["copies/a_utf8.txt"] == ("ok", None) and documents[f"copies/{ZH}"] == ("ok", None)
    assert {doc_id: documents[doc_id] for doc_id in documents if doc_id[7] in "bcdefg"} == {
        f"copies/{name}": ("duplicate", "copies/a_utf8.txt") for name in renderings("") if name[0] in "bcdefg"
    }
    assert len(summary.duplicates) == 6 and len(summary.loaded) == 2
    assert store.query("SELECT count(*) FROM sources") == [(2,)]
    assert store.query(f"SELECT count(*) FROM segments WHERE doc_id <> 'copies/a_utf8.txt' AND doc_id <> 'copies/{ZH}'") == [(0,)]
    findings = (
        "SELECT (SELECT list(severity ORDER BY severity) FROM conflicts), "
        "(SELECT list(n_sources ORDER BY n_sources) FROM corroborations)"
    )
    assert store.query(findings) == plain.query(findings)  # as two files: no article corroborates itself
    store.run(copies)  # and so they stay
    assert store.documents() == documents


def test_the_same_bytes_loaded_by_two_concurrent_runs_count_once(tmp_path, store):
    """Both runs plan before either loads (each found no copy in the warehouse); the loader, the single
    writer, finds the copy in the warehouse when the second run loads."""
    from ingest.run.runner import Run
    from ingest.settings import RunOptions

    runs = [
        Run(
            RunOptions(paths=(str(folder(tmp_path, site, JA)),), warehouse_path=str(store.db), reports_dir=str(store.reports)),
            UntranslatedEngine(),
        )
        for site in ("siteA", "siteB")
    ]
    todo = [run.pending() for run in runs]
    assert [len(t) for t in todo] == [1, 1] and not any(s.duplicate_of for t in todo for s in t)
    for run, sources in zip(runs, todo):
        run.stage_and_load(sources)
        run.finish()
    assert store.documents() == {f"siteA/{JA}": ("ok", None), f"siteB/{JA}": ("duplicate", f"siteA/{JA}")}
    assert runs[1].summary.duplicates == {f"siteB/{JA}": f"siteA/{JA}"} and not runs[1].summary.loaded


def test_a_folder_named_like_another_folders_hashed_label_keeps_its_documents(tmp_path, store):
    second = tmp_path / "b" / "news"
    lookalike = f"news~{hashlib.sha256(str(second).encode()).hexdigest()[:6]}"
    store.run(folder(tmp_path / "a", "news", JA))
    for parent, name, seed in (("c", lookalike, ZH), ("b", "news", XLA)):  # one file name, two articles
        (folder(tmp_path / parent, name) / "article.txt").write_bytes((SEEDS / seed).read_bytes())
        store.run(tmp_path / parent / name)
    documents = store.documents()
    assert len(documents) == 3 and set(documents.values()) == {("ok", None)}
    ids = dict(store.query("SELECT doc_id, text FROM documents"))
    assert f"news/{JA}" in ids and f"{lookalike}/article.txt" in ids
    [third] = set(ids) - {f"news/{JA}", f"{lookalike}/article.txt"}
    assert third.startswith("news~") and third.endswith("/article.txt")
    assert ids[f"{lookalike}/article.txt"] != ids[third]  # neither replaced the other


@pytest.mark.parametrize("content", [b"", b" \n"])
def test_identical_files_that_fail_are_each_a_failed_row_not_duplicates(tmp_path, store, content):
    inputs = folder(tmp_path, "in", JA)
    for name in ("x1.txt", "x2.txt", "x3.txt"):
        (inputs / name).write_bytes(content)
    summary = store.run(inputs)
    documents = store.documents()
    assert [documents[f"in/x{i}.txt"] for i in (1, 2, 3)] == [("failed", None)] * 3
    assert sorted(summary.failed) == [f"in/x{i}.txt" for i in (1, 2, 3)] and not summary.duplicates
    again = store.run(inputs)
    assert sorted(again.skipped) == sorted(documents) and not again.failed


@pytest.mark.parametrize("where", ["reports", "."])
def test_reports_written_into_an_input_folder_are_never_read_as_articles(tmp_path, where):
    inputs = folder(tmp_path, "in", JA, ZH)
    store = Warehouse(tmp_path)
    store.reports = inputs / where
    first = store.run(inputs)
    assert (store.reports / "consistency.md").exists() and (store.reports / "consistency.html").exists()
    checks = store.report_checks()
    second = store.run(inputs)
    assert second.n_files == first.n_files == 2
    assert set(store.documents()) == {f"in/{JA}", f"in/{ZH}"} and store.report_checks() == checks
    shutil.copy(store.reports / "consistency.md", tmp_path / "elsewhere.md")  # a report moved anywhere
    assert store.run(inputs, tmp_path / "elsewhere.md").n_files == 2


def test_a_copy_of_a_text_in_another_folder_stays_a_copy_without_being_read_again(tmp_path, store):
    store.run(folder(tmp_path, "siteA", JA))
    mirror = folder(tmp_path, "mirror")
    (mirror / "crlf.txt").write_bytes((SEEDS / JA).read_bytes().replace(b"\n", b"\r\n"))
    store.run(mirror)
    assert store.documents()["mirror/crlf.txt"] == ("duplicate", f"siteA/{JA}")
    other = store.run(folder(tmp_path, "other", ZH))
    assert other.n_files == 1  # the copy's folder is not an input, and its original is as it was
    (tmp_path / "siteA" / JA).unlink()
    store.run(folder(tmp_path, "other", ZH))
    assert store.documents()["mirror/crlf.txt"] == ("ok", None)  # its original gone, it takes its place


def test_two_concurrent_runs_of_folders_with_one_name_lose_no_file(tmp_path, store):
    """Both runs plan before either loads, so both label their folder "news": the second load would
    have replaced the first folder's file. It fails instead, saying to run again, and the next run
    gives it an id of its own."""
    from ingest.run.runner import Run
    from ingest.settings import RunOptions

    first, second = folder(tmp_path / "x", "news"), folder(tmp_path / "z", "news")
    (first / "a.txt").write_bytes((SEEDS / JA).read_bytes())
    (second / "a.txt").write_bytes((SEEDS / ZH).read_bytes())
    runs = [
        Run(RunOptions(paths=(str(f),), warehouse_path=str(store.db), reports_dir=str(store.reports)), UntranslatedEngine())
        for f in (first, second)
    ]
    todo = [run.pending() for run in runs]
    assert [s.doc_id for t in todo for s in t] == ["news/a.txt", "news/a.txt"]
    for run, sources in zip(runs, todo):
        run.stage_and_load(sources)
        run.finish()
    assert store.query("SELECT doc_id, source_root FROM documents") == [("news/a.txt", str(first))]
    assert "run again" in runs[1].summary.failed["news/a.txt"]
    store.run(second)
    ids = dict(store.query("SELECT source_root, doc_id FROM documents WHERE status = 'ok'"))
    assert ids[str(first)] == "news/a.txt" and ids[str(second)].startswith("news~")
