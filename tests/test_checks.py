"""The SQL consistency checks on small, controlled documents."""

from __future__ import annotations

import shutil

from ingest import run_pipeline, warehouse
from seed_fixtures import corpus_or_skip


def ingest(tmp_path, files: dict[str, str]):
    root = tmp_path / "in"
    root.mkdir(parents=True)
    for name, text in files.items():
        (root / name).write_text(text, "utf-8")
    run_pipeline([root], tmp_path / "w.duckdb", None)
    return warehouse.connect(tmp_path / "w.duckdb", read_only=True)


def test_values_that_agree_at_their_precision_corroborate(tmp_path):
    con = ingest(
        tmp_path,
        {
            "a.txt": "PyTorch 2.5 発表\nZeRO++ のスループットは 3 倍に向上した。",
            "b.txt": "PyTorch 2.5 发布\nZeRO++ 的吞吐提高了 3.0 倍。",
        },
    )
    assert con.execute("SELECT count(*) FROM conflicts WHERE severity = 'contradiction'").fetchone()[0] == 0
    assert con.execute("SELECT value FROM corroborations WHERE subject = 'zeropp'").fetchall() == [("3x",)]


def test_different_values_for_the_same_release_contradict(tmp_path):
    con = ingest(
        tmp_path,
        {
            "a.txt": "PyTorch 2.5 発表\nZeRO++ のスループットは 2 倍に向上した。",
            "b.txt": "PyTorch 2.5 发布\nZeRO++ 的吞吐提高了 20 倍。",
        },
    )
    rows = con.execute("SELECT kind, value_a, value_b FROM conflicts WHERE severity = 'contradiction'").fetchall()
    assert rows == [("value_conflict", "2x", "20x")]


def test_different_releases_never_conflict(tmp_path):
    con = ingest(
        tmp_path,
        {
            "a.txt": "PyTorch 2.4 発表\n[Prototype] FlexAttention\n説明。",
            "b.txt": "PyTorch 2.5 发布\n[Beta] FlexAttention\n说明。",
        },
    )
    assert con.execute("SELECT count(*) FROM conflicts").fetchone()[0] == 0


def test_one_source_alone_is_never_flagged(tmp_path):
    con = ingest(tmp_path, {"a.txt": "PyTorch 2.5 発表\n[Beta] FlexAttention\nFlexAttention はプロトタイプです。"})
    assert con.execute("SELECT count(*) FROM conflicts").fetchone()[0] == 0


def test_three_sources_name_the_outlier(tmp_path):
    con = ingest(
        tmp_path,
        {
            "a.txt": "PyTorch 2.5 発表\n[Beta] FlexAttention\n本文。",
            "b.txt": "PyTorch 2.5 发布\n[Beta] FlexAttention\n正文。",
            "c.txt": "PyTorch 2.5 发布\n[Prototype] FlexAttention\n正文。",
        },
    )
    documents, outliers = con.execute("SELECT documents, outliers FROM corroborations WHERE subject = 'flexattention'").fetchone()
    assert documents == ["in/a.txt", "in/b.txt"] and outliers == ["in/c.txt"]


def test_a_number_changed_between_two_translations_is_flagged_without_translation(tmp_path):
    corpus = corpus_or_skip()
    inputs = tmp_path / "in"
    inputs.mkdir()
    shutil.copy(corpus / "004_zh_pytorch-2-4-release-apachecn.md", inputs)
    original = (corpus / "005_zh_pytorch-2-4-release-pytorchchina.md").read_text("utf-8")
    (inputs / "005_changed.md").write_text(original.replace("1.35 倍", "1.53 倍"), "utf-8")
    run_pipeline([inputs], tmp_path / "w.duckdb", None)
    con = warehouse.connect(tmp_path / "w.duckdb", read_only=True)
    rows = con.execute("SELECT unit_a, text_a, text_b, change FROM mismatches").fetchall()
    assert rows == [("x", "1.35 倍", "1.53 倍", "digits")]
    assert con.execute("SELECT count(*) FROM conflicts WHERE kind = 'aligned_value_mismatch'").fetchone()[0] == 1


def test_unaltered_translations_are_aligned_and_not_flagged(tmp_path):
    corpus = corpus_or_skip()
    run_pipeline([corpus], tmp_path / "w.duckdb", None)
    con = warehouse.connect(tmp_path / "w.duckdb", read_only=True)
    pairs = {tuple(sorted(p)) for p in con.execute("SELECT doc_a, doc_b FROM document_pairs").fetchall()}
    assert ("corpus/004_zh_pytorch-2-4-release-apachecn.md", "corpus/005_zh_pytorch-2-4-release-pytorchchina.md") in pairs
    assert con.execute("SELECT count(*) FROM aligned_segments").fetchone()[0] > 10
    assert con.execute("SELECT count(*) FROM mismatches").fetchone()[0] == 0


def test_supported_versions_corroborate_and_never_conflict(tmp_path):
    """A release supports several Python versions: 3.11 in one article and 3.12 in another is no
    contradiction, and two independent articles naming 3.12 corroborate it."""
    con = ingest(
        tmp_path,
        {
            "a.txt": "PyTorch 2.4 発表\nPyTorch 2.4 は Python 3.12 に対応した。",
            "b.txt": "PyTorch 2.4 发布\nPyTorch 2.4 新增支持 Python 3.12。",
            "c.txt": "PyTorch 2.4 released\nPyTorch 2.4 adds support for Python 3.11.",
        },
    )
    assert con.execute("SELECT count(*) FROM conflicts").fetchone()[0] == 0
    assert con.execute(
        "SELECT value, n_sources, outliers FROM corroborations WHERE attribute = 'supports_python'"
    ).fetchall() == [("3.12", 2, [])]


def test_least_versions_corroborate_and_only_possibly_conflict(tmp_path):
    """A minimum is often a part's, a platform's or a feature's (an adversarial review's cases: "the
    command-line client requires Node.js 18 or later" / "のサーバーは Node.js 20 以降が必要"): two
    write-ups naming two minimums of one dependency are a possible conflict, never a contradiction;
    two naming one corroborate, and a recommended one is another fact."""
    con = ingest(
        tmp_path,
        {
            "a.txt": "Quuxly 3.5 released\nThe command-line client now requires Frobdb 1.1.0 or later.",
            "b.txt": "Quuxly 3.5 正式发布\n值得注意的是，Frobdb 的最低版本要求提升至 1.1.1。",
            "c.txt": "Quuxly 3.5 リリース\nサーバーは Frobdb 1.1.1 以降が必要で、Frobdb 3.0 以降が推奨されている。",
        },
    )
    assert con.execute("SELECT attribute, severity, value_a, value_b FROM conflicts").fetchall() == [
        ("minimum_frobdb", "possible", "1.1", "1.1.1")
    ]
    # (and the release all three titles name)
    assert con.execute(
        "SELECT attribute, value, n_sources FROM corroborations WHERE subject = 'quuxly' ORDER BY attribute"
    ).fetchall() == [("minimum_frobdb", "1.1.1", 2), ("release", "3.5", 3)]


def test_a_version_written_in_full_corroborates_its_series_version(tmp_path):
    """ "Frobdb 1.1.0" and "Frobdb 1.1" are one version: two write-ups in either notation agree, and
    a release written "Quuxly 3.5.0" is the release "Quuxly 3.5"."""
    con = ingest(
        tmp_path,
        {
            "a.txt": "Quuxly 3.5.0 released\nThe command-line client now requires Frobdb 1.1.0 or later.",
            "b.txt": "Quuxly 3.5 正式发布\n值得注意的是，Frobdb 的最低版本要求提升至 1.1。",
        },
    )
    assert con.execute("SELECT count(*) FROM conflicts").fetchone()[0] == 0
    assert con.execute("SELECT attribute, release, value, n_sources FROM corroborations ORDER BY attribute").fetchall() == [
        ("minimum_frobdb", "quuxly 3.5", "1.1", 2),
        ("release", "quuxly 3.5", "3.5", 2),
    ]


def test_the_statuses_of_a_thing_released_agree_and_a_pre_release_contradicts_them(tmp_path):
    """ "now stable" and "正式发布" (generally available) are one fact, not a maturity conflict."""
    con = ingest(
        tmp_path,
        {
            "a.txt": "Quuxly 3.5 released\nThe Frob API is now stable in Quuxly 3.5.",
            "b.txt": "Quuxly 3.5 正式发布\nQuuxly 3.5 中 Frob API 已正式发布。",
            "c.txt": "Quuxly 3.5 リリース\nQuuxly 3.5 で Frob API はベータ版となった。",
        },
    )
    assert con.execute("SELECT attribute, n_sources FROM corroborations ORDER BY attribute").fetchall() == [
        ("maturity", 2),
        ("release", 3),
    ]
    assert con.execute("SELECT kind, value_b FROM conflicts").fetchall() == [("maturity_conflict", "beta")]


def test_dependency_versions_a_release_drops_or_names_corroborate(tmp_path):
    """The versions a word ending support points at (and those a list joins to them) are dropped,
    the others named; a comma stops the word, so the versions migrated to are not dropped."""
    con = ingest(
        tmp_path,
        {
            "a.txt": "PyTorch 1.13 発表\nCUDA 11.6 および 11.7 が導入され、CUDA 10.2 および 11.3 はサポートされなくなり、"
            "CUDA 11.6 および 11.7 への移行が完了しました。",
            "b.txt": "PyTorch 1.13 发布\n我们弃用了CUDA 10.2和11.3，并完成了CUDA 11.6和11.7的迁移。",
        },
    )
    assert con.execute("SELECT count(*) FROM conflicts").fetchone()[0] == 0
    assert con.execute(
        "SELECT attribute, value, n_sources FROM corroborations WHERE subject = 'pytorch' ORDER BY attribute, value"
    ).fetchall() == [
        ("drops_cuda", "10.2", 2),
        ("drops_cuda", "11.3", 2),
        ("mentions_cuda", "11.6", 2),
        ("mentions_cuda", "11.7", 2),
        ("release", "1.13", 2),
    ]


def test_the_platforms_and_hardware_a_release_names_corroborate_within_that_release(tmp_path):
    """Independent write-ups of one release (of a product no list names) naming the same system or
    chip agree; a write-up of another release is no source for it, and nothing conflicts."""
    con = ingest(
        tmp_path,
        {
            "a.txt": "Quuxly 3.5 発表\nLinux および Windows 環境での動作が最適化され、Intel の Arc GPU もサポートされた。",
            "b.txt": "Quuxly 3.5 发布\n我们为英特尔® Arc™ 显卡启用了 Windows 上的初步支持。",
            "c.txt": "Quuxly 3.4 released\nWindows wheels are published for every build.",
        },
    )
    assert con.execute("SELECT count(*) FROM conflicts").fetchone()[0] == 0
    assert con.execute(
        "SELECT attribute, value, release, n_sources FROM corroborations WHERE subject = 'quuxly' ORDER BY attribute, value"
    ).fetchall() == [
        ("mentions_hardware", "intel-arc", "quuxly 3.5", 2),
        ("mentions_platform", "windows", "quuxly 3.5", 2),
        ("release", "3.5", "quuxly 3.5", 2),
    ]


def test_a_maturity_read_through_a_list_neither_hides_nor_makes_a_finding(tmp_path):
    """A document that says FooKit is beta outright and lists it among stable names speaks by the
    outright claim: it still contradicts an article calling FooKit stable, and the listed value
    corroborates nothing; a listed value a document states nowhere else corroborates."""
    con = ingest(
        tmp_path,
        {
            "a.txt": "Quuxly 3.5 released\nFooKit is now beta. BarLib and BazKit are stable.\nFooKit and QuxLib are stable.",
            "b.txt": "Quuxly 3.5 発表\nFooKit は安定版です。BarLib も安定版になりました。",
        },
    )
    rows = con.execute("SELECT subject, value_a, value_b FROM conflicts WHERE severity = 'contradiction'").fetchall()
    assert {(subject, frozenset((a, b))) for subject, a, b in rows} == {("fookit", frozenset(("beta", "stable")))}
    corroborated = con.execute("SELECT subject, value FROM corroborations WHERE attribute = 'maturity'").fetchall()
    assert corroborated == [("barlib", "stable")]


def test_what_a_named_feature_offloads_to_corroborates_whatever_the_release(tmp_path):
    """An offload target is the feature's, not one release's: an article without a release and one
    about DeepSpeed 0.15.0 agree; a default backend stays with its release."""
    con = ingest(
        tmp_path,
        {
            "a.txt": "DeepSpeed on Windows\nZeRO-Inferenceは、CPUまたはNVMeメモリにオフロードする。",
            "b.txt": "DeepSpeed 0.15.0 发布\nZeRO-Inference 将模型权重卸载到 CPU 或 NVMe。",
            "c.txt": "PyTorch 2.4 发布\n将 TCPStore 的默认服务器后端切换为 libuv。",
            "d.txt": "PyTorch 2.5 released\nThe default TCPStore server backend is libuv.",
        },
    )
    assert con.execute("SELECT count(*) FROM conflicts").fetchone()[0] == 0
    assert con.execute(
        "SELECT subject, attribute, value, release, n_sources FROM corroborations "
        "WHERE attribute IN ('offload_target', 'default_backend') ORDER BY value"
    ).fetchall() == [("zero-inference", "offload_target", "cpu", None, 2), ("zero-inference", "offload_target", "nvme", None, 2)]


def _segments(texts: list[str], lang: str) -> list:
    from ingest.check.align import AlignSegment
    from ingest.extract.reader import read

    return [AlignSegment(i, "p", text, frozenset({"ACME"}), tuple(read(text, lang))) for i, text in enumerate(texts)]


def test_a_retelling_that_drops_most_figures_is_no_rendering():
    """Sentences that align but keep few of each other's figures are an independent write-up, not a
    translation: same_article needs the figures kept as well as the sentences aligned."""
    from ingest.check.align import compare_renderings

    english = [f"ACME {2 + i}.0 runs {10 + i}% faster on {3 + i} GPUs." for i in range(12)]
    kept = [f"ACME {2 + i}.0 は {3 + i} 個の GPU で {10 + i}% 高速に動作する。" for i in range(12)]
    retold = [f"ACME {2 + i}.0 は GPU で高速に動作する。" for i in range(12)]
    translation = compare_renderings(_segments(english, "en"), _segments(kept, "ja"))
    retelling = compare_renderings(_segments(english, "en"), _segments(retold, "ja"))
    assert translation.coverage >= 0.5 and translation.figures_kept == 1.0 and translation.same_article
    assert retelling.coverage >= 0.5 and retelling.figures_kept < 0.7 and not retelling.same_article


def test_copies_of_one_article_are_one_source_however_common_their_anchors(tmp_path):
    """Five copies of one article (each with its own last line) beside two other articles: every
    anchor of the copies is in more than half the corpus (and more documents than one article has
    renderings), so no anchor pairs them, but their sentences are word for word the same: one
    source, which cannot corroborate itself."""
    from seed_fixtures import SEEDS

    article = next(SEEDS.glob("000_*.txt")).read_text("utf-8")
    others = {p.name: p.read_text("utf-8") for p in sorted(SEEDS.glob("00[12]_*.txt"))}
    copies = {f"copy{i}.txt": f"{article}\n\nPosted again by reader {i}, with thanks.\n" for i in range(1, 6)}
    con = ingest(tmp_path, {**copies, **others})
    assert (
        con.execute("SELECT count(*) FROM document_pairs WHERE by_text AND NOT by_names AND NOT by_meaning").fetchone()[0] == 10
    )
    sources = dict(con.execute("SELECT source_id, n_documents FROM sources").fetchall())
    assert sources["in/copy1.txt"] == 5 and len(sources) == 3
    assert con.execute("SELECT max(n_sources) FROM corroborations").fetchone()[0] <= 3


# Products no list names (renamed consistently from the tests above): the release comes from the
# title ("Quuxly 3.5 発表"), so two articles about one release compare and two about two do not.
def test_a_release_no_list_names_keys_its_articles_facts(tmp_path):
    con = ingest(
        tmp_path,
        {
            "a.txt": "Quuxly 3.5 発表\nFrobnicator のスループットは 2 倍に向上した。",
            "b.txt": "Quuxly 3.5 发布\nFrobnicator 的吞吐提高了 20 倍。",
            "c.txt": "Quuxly v3.5 released\nThe Frobnicator throughput improved 2x.",
        },
    )
    assert dict(con.execute("SELECT doc_id, release FROM documents").fetchall()) == {
        "in/a.txt": "quuxly 3.5",
        "in/b.txt": "quuxly 3.5",
        "in/c.txt": "quuxly 3.5",
    }
    rows = con.execute("SELECT kind, value_a, value_b FROM conflicts WHERE severity = 'contradiction'").fetchall()
    assert {(kind, frozenset((a, b))) for kind, a, b in rows} == {("value_conflict", frozenset(("2x", "20x")))}
    assert con.execute("SELECT value, n_sources FROM corroborations WHERE subject = 'frobnicator'").fetchall() == [("2x", 2)]


def test_two_releases_no_list_names_never_conflict(tmp_path):
    con = ingest(
        tmp_path,
        {
            "a.txt": "Quuxly 3.4 発表\nFrobnicator のスループットは 2 倍に向上した。",
            "b.txt": "Quuxly 3.5 发布\nFrobnicator 的吞吐提高了 20 倍。",
        },
    )
    assert con.execute("SELECT count(*) FROM conflicts").fetchone()[0] == 0


def test_a_figure_of_the_release_meets_the_subject_its_sentence_writes_in_lower_case(tmp_path):
    """ "for vacuum … 20x less memory" names nothing (no capital): the release's figure; it
    corroborates what another source says of "VACUUM" (a fraction no word explains, "20分の1", is a
    reduction), and still never contradicts: only the two sources naming VACUUM disagree, and only
    possibly (a change no word keys by its measure: a subject has several, `thresholds.POSSIBLE_ONLY`)."""
    con = ingest(
        tmp_path,
        {
            "en.md": "# Frobnix 17 Released!\n\nFrobnix 17 adds a structure for vacuum that uses up to 20x less memory.\n",
            "ja.md": "# 「Frobnix 17」正式版\n\nFrobnix 17ではVACUUMのメモリ消費量は最大で20分の1になりました。\n",
            "zh.md": "# Frobnix 17 正式发布\n\nFrobnix 17 为 VACUUM 引入了新的内部内存结构，内存消耗最多可降低 10 倍。\n",
        },
    )
    rows = con.execute("SELECT subject, attribute, documents FROM corroborations WHERE subject = 'vacuum'").fetchall()
    assert rows == [("vacuum", "reduction_memory", ["in/en.md", "in/ja.md"])]
    conflicts = con.execute("SELECT doc_a, doc_b, severity FROM conflicts WHERE severity <> 'note'").fetchall()
    assert {(frozenset((a, b)), severity) for a, b, severity in conflicts} == {(frozenset(("in/ja.md", "in/zh.md")), "possible")}


def test_two_short_notes_about_one_release_are_no_renderings_of_one_article(tmp_path):
    """Five-sentence notes about one release align most of what little they say (an adversarial
    review's case): too few sentences to tell a translation from an independent note, so they are
    compared as two sources, and "83.1" against the predecessor's "62.4" is no changed figure."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Quuxlm 2.5 released\n\nThe team thanked more than two hundred contributors.\n\n"
            "Acme today released Quuxlm 2.5, its new open model family.\n\nQuuxlm 2.5 scores 83.1 on MATH.\n\n"
            "Installation packages are available from the download page.\n",
            "b.md": "# Acme ships Quuxlm 2.5\n\nQuuxlm 2.5 arrives in several sizes under an Apache license.\n\n"
            "Acme's previous model was released last year.\n\nIt scored 62.4 on MATH.\n\n"
            "The team thanked more than two hundred contributors.\n",
        },
    )
    assert con.execute("SELECT count(*) FROM renderings").fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM conflicts WHERE severity IN ('contradiction', 'possible')").fetchone()[0] == 0


def test_a_models_figures_meet_across_articles_without_a_release_and_only_possibly_conflict(tmp_path):
    """Hardware is named, not versioned: "A780" in two launch reports was two articles' facts that
    never met (an adversarial review of independent write-ups). A model's figures now compare
    whatever the article; a difference is only possible, the articles' dates may differ."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Arcton unveils the A780\n\nThe A780 comes with 24 GB of memory.",
            "b.md": "# Arcton 发布 A780 显卡\n\nA780 配备24GB显存。",
            "c.md": "# A780 レビュー\n\nA780 は16GBのメモリを搭載する。",
            "d.md": "# A790 preview\n\nThe A790 comes with 32 GB of memory.",
        },
    )
    agreed = con.execute("SELECT subject, attribute, value, n_sources FROM corroborations").fetchall()
    assert agreed == [("a780", "memory", "24 GB", 2)]
    found = con.execute("SELECT subject, value_a, value_b, severity FROM conflicts WHERE kind = 'value_conflict'").fetchall()
    assert found == [("a780", "24 GB", "16 GB", "possible")]


def test_release_dates_agree_within_a_day_and_a_week_apart_are_a_possible_conflict(tmp_path):
    """A release date was corroborate-only, so two write-ups dating one release a week apart (an
    adversarial review's planted change) were never compared; a day apart is a time zone."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Ember Engine 6.0\n\nForge Interactive released Ember Engine 6.0 on October 14, 2026.",
            "b.md": "# Ember 引擎 6.0 发布\n\nForge Interactive 于2026年10月21日发布了 Ember 引擎 6.0。",
            "c.md": "# Ember Engine 6.0 is out\n\nEmber Engine 6.0 was released on October 15, 2026.",
        },
    )
    found = con.execute("SELECT attribute, value_a, value_b, severity FROM conflicts WHERE kind = 'value_conflict'").fetchall()
    assert found == [("release_date", "2026-10-14", "2026-10-21", "possible")]
    agreed = con.execute("SELECT attribute, release, n_sources FROM corroborations ORDER BY attribute").fetchall()
    assert agreed == [("release", "ember 6.0", 3), ("release_date", "ember 6.0", 2)]


def test_a_model_named_with_its_maker_is_the_model(tmp_path):
    """ "Arcton A780" (a title's subject) and "A780" met nothing; a variant ("A780 Ti") is no part of it."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Arcton A780 launch\n\nThe graphics card comes with 24 GB of memory.",
            "b.md": "# Arcton 发布 A780 显卡\n\nA780 配备24GB显存。",
            "c.md": "# A780 Ti review\n\nThe A780 Ti comes with 32 GB of memory.",
        },
    )
    agreed = con.execute("SELECT subject, attribute, value, n_sources FROM corroborations").fetchall()
    assert agreed == [("a780", "memory", "24 GB", 2)]
    assert con.execute("SELECT count(*) FROM conflicts WHERE severity <> 'note'").fetchone()[0] == 0


def test_a_date_without_a_year_meets_its_month_and_day_and_only_corroborates(tmp_path):
    """ "ships on August 5" / "将于8月5日发布" made no claim (a review: 25 agreements lost), then took
    the year of the document's first whole date (often an earlier release's). No year is guessed:
    they meet as a month and a day, and a whole date another source gives the key with it; two
    dates in one sentence ("On March 2, … said it ships on August 12") conflict with neither."""
    files = {
        "a.md": "# Ember Engine 6.0\n\nForge previewed it on March 2, 2025. Ember Engine 6.0 ships on August 5.",
        "b.md": "# Ember 引擎 6.0\n\nForge 于2025年3月2日预览了 Ember 引擎 6.0。Ember 引擎 6.0 将于8月5日发布。",
        "c.md": "# Ember Engine 6.0 dated\n\nOn March 2, 2026, Forge said Ember Engine 6.0 ships on August 12.",
    }
    con = ingest(tmp_path / "yearless", files)
    agreed = con.execute("SELECT attribute, value, n_sources FROM corroborations WHERE value LIKE '%-08-%'").fetchall()
    assert agreed == [("release_date", "--08-05", 2)]
    con = ingest(tmp_path / "whole", {**files, "d.md": "# Ember Engine 6.0\n\nEmber Engine 6.0 ships on August 5, 2026."})
    agreed = con.execute("SELECT attribute, value, n_sources FROM corroborations WHERE value LIKE '%-08-%'").fetchall()
    assert agreed == [("release_date", "2026-08-05", 3)]
    assert con.execute("SELECT count(*) FROM conflicts WHERE severity <> 'note'").fetchone()[0] == 0


def test_another_model_of_a_line_is_no_part_of_it_and_a_described_model_is_the_model(tmp_path):
    """ "X5 Pro" spoke for "X5" (a variant's 12 GB against the base model's 8 GB); "AX9 Wi-Fi 7" (a
    title's subject) must still speak for "AX9": a second review's planted change was found through it."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Lumen VX5 Pro review\n\nThe VX5 Pro comes with 12 GB of memory.",
            "b.md": "# Lumen VX5\n\nThe VX5 comes with 8 GB of memory.",
            "c.md": "# Beacon AX9 Wi-Fi 7 router\n\nThe router comes with 2 GB of memory.",
            "d.md": "# Beacon 发布 AX9\n\nAX9 配备1GB内存。",
        },
    )
    found = con.execute("SELECT subject, value_a, value_b FROM conflicts WHERE severity <> 'note'").fetchall()
    assert found == [("ax9", "2 GB", "1 GB")]


def test_short_write_ups_that_align_three_quarters_are_no_renderings():
    """Two outlets' twelve-sentence write-ups of one announcement align nine sentences surely and each
    tells three of its own (adversarial reviews' cases): too little to call one a translation of the
    other; a translation aligns whole, and a long rendering may leave a quarter out."""
    from ingest.check.align import compare_renderings

    facts = [f"ACME {2 + i}.0 runs {10 + i}% faster on {3 + i} GPUs." for i in range(9)]
    retold = [f"ACME {2 + i}.0 は {3 + i} 個の GPU で {10 + i}% 高速に動作する。" for i in range(9)]
    own_en = ["Analysts expect strong demand this winter.", "Rivals have shipped similar tools.", "Shares rose slightly."]
    own_ja = ["業界では競争が激しい。", "同社は昨年も新製品を発表した。", "価格は未定だ。"]
    write_ups = compare_renderings(_segments(facts + own_en, "en"), _segments(retold + own_ja, "ja"))
    assert write_ups.coverage == 0.75 and not write_ups.same_article
    translation = compare_renderings(_segments(facts, "en"), _segments(retold, "ja"))
    assert translation.coverage == 1.0 and translation.same_article
    notes = compare_renderings(_segments(facts[:3], "en"), _segments(retold[:3], "ja"))
    assert notes.coverage == 1.0 and not notes.same_article  # three sentences alike tell nothing
    long_facts = [f"ACME {2 + i}.0 runs {10 + i}% faster on {3 + i} GPUs." for i in range(15)]
    long_retold = [f"ACME {2 + i}.0 は {3 + i} 個の GPU で {10 + i}% 高速に動作する。" for i in range(15)]
    long_rendering = compare_renderings(
        _segments(long_facts + own_en + own_en[:2], "en"), _segments(long_retold + own_ja + own_ja[:2], "ja")
    )
    assert long_rendering.coverage == 0.75 and long_rendering.same_article


def _three_renderings(tmp_path):
    names = "Quuxlm, Ferrox, Zentra, Helio, Vireo and Calder"
    return ingest(
        tmp_path,
        {
            "en.md": f"# Acme ships Quuxlm 2.5\n\nQuuxlm 2.5 works with {names}.\n\nQuuxlm 2.5 runs 30% faster on Zentra.\n",
            "ja.md": f"# Acme が Quuxlm 2.5 を公開\n\nQuuxlm 2.5 は {names} と連携する。\n\n"
            "Quuxlm 2.5 は Zentra で 30% 高速に動作する。\n",
            "zh.md": f"# Acme 发布 Quuxlm 2.5\n\nQuuxlm 2.5 支持 {names}。\n\nQuuxlm 2.5 在 Zentra 上快 30%。\n",
        },
    )


def test_three_renderings_ingested_alone_are_each_others_candidates(tmp_path):
    """Every name the three share is in all the documents: in a large corpus such a name says
    nothing, but here the whole corpus is one article."""
    con = _three_renderings(tmp_path)
    pairs = con.execute("SELECT doc_a, doc_b FROM document_pairs ORDER BY ALL").fetchall()
    assert pairs == [("in/en.md", "in/ja.md"), ("in/en.md", "in/zh.md"), ("in/ja.md", "in/zh.md")]


def test_pairs_aligned_in_batches_store_what_one_batch_stores(tmp_path, monkeypatch):
    from ingest.check import renderings

    assert list(renderings._batches([("a", "b"), ("a", "c"), ("b", "c"), ("d", "e")])) == [
        [("a", "b"), ("a", "c"), ("b", "c"), ("d", "e")]
    ]
    monkeypatch.setattr(renderings, "BATCH_DOCUMENTS", 3)
    assert list(renderings._batches([("a", "b"), ("a", "c"), ("b", "c"), ("d", "e")])) == [
        [("a", "b"), ("a", "c"), ("b", "c")],
        [("d", "e")],
    ]
    _three_renderings(tmp_path).close()
    tables = ("alignments", "aligned_units", "mention_pairs", "renderings")
    con = warehouse.connect(tmp_path / "w.duckdb")
    whole = {
        t: con.execute(
            f"SELECT * EXCLUDE (version) FROM {t} ORDER BY ALL" if t == "alignments" else f"SELECT * FROM {t} ORDER BY ALL"
        ).fetchall()
        for t in tables
    }
    assert len(whole["alignments"]) == 3
    monkeypatch.setattr(renderings, "BATCH_DOCUMENTS", 2)
    con.execute("DELETE FROM alignments")
    assert renderings.update_renderings(con) == 3
    batched = {
        t: con.execute(
            f"SELECT * EXCLUDE (version) FROM {t} ORDER BY ALL" if t == "alignments" else f"SELECT * FROM {t} ORDER BY ALL"
        ).fetchall()
        for t in tables
    }
    assert batched == whole


def test_a_change_shown_only_through_a_third_rendering_is_reported(tmp_path):
    """A zh rendering of another revision (its rollout date moved) is taken for a rendering of the ja
    one, but too little of it aligns with the English to be taken for one of it: the change between
    ja and zh is reported, once (an adversarial review's case: the pair not taken marked it a repeat)."""
    from pathlib import Path

    run_pipeline([Path(__file__).parent / "renderings" / "revision_through_a_third"], tmp_path / "w.duckdb", None)
    con = warehouse.connect(tmp_path / "w.duckdb", read_only=True)
    changes = con.execute("SELECT doc_a, doc_b, text_a, text_b FROM mismatches").fetchall()
    assert changes == [
        ("revision_through_a_third/ja.md", "revision_through_a_third/zh.md", "2025年3月18日", "2025 年 3 月 25 日")
    ]


def test_a_named_models_scores_and_a_releases_support_period_conflict_across_sources(tmp_path):
    """Two write-ups of one release: the instruct model's MATH score differs (a contradiction) and
    the support period (only possible: `thresholds.POSSIBLE_ONLY`); a base model's score, a score
    under other shots and an extended support period are other facts (none flagged); "1 year" of
    warranty and "12 个月" agree."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Zorblex 3.0 released\n\nZorblex 3.0 ships today.\n\n"
            "Zorblex-3.0-70B-Instruct scores 83.1 on MATH. Zorblex-3.0-70B scores 61.0 on MATH.\n\n"
            "Zorblex-3.0-8B scores 70.2 on MMLU (5-shot).\n\n"
            "The release will receive security updates for five years. Extended support lasts ten years.\n\n"
            "Every Zorblex 3.0 appliance comes with a warranty of 1 year.",
            "b.md": "# Zorblex 3.0 正式发布\n\nZorblex 3.0 今日发布。\n\n"
            "Zorblex-3.0-70B-Instruct 在 MATH 上得分 81.3。\n\n"
            "Zorblex-3.0-8B 在 MMLU 上得分 66.0（0-shot）。\n\n"
            "该版本将提供 3 年的安全更新。\n\n"
            "Zorblex 3.0 一体机提供 12 个月保修。",
        },
    )
    found = con.execute(
        "SELECT subject, attribute, value_a, value_b, severity FROM conflicts WHERE kind = 'value_conflict' ORDER BY attribute"
    ).fetchall()
    assert found == [
        ("zorblex-3-0-70b-instruct", "score_math", "83.1", "81.3", "contradiction"),
        ("zorblex", "support_period", "5 years", "3 years", "possible"),
    ]
    agreed = con.execute("SELECT attribute, value FROM corroborations WHERE attribute = 'warranty'").fetchall()
    assert agreed == [("warranty", "1 year")]


def test_two_maxima_differ_and_a_product_two_titles_name_is_compared_without_a_release(tmp_path):
    """Two reviews of one device (no version number, its name in both titles): "up to eight weeks"
    and "最長6週間" are two different longest battery lives, a possible conflict (a device's figures
    without a release may change between two articles' dates); "up to 8 weeks" against "6 weeks"
    both hold (a note); the same price agrees. A product only one title names is not compared."""
    reviews = {
        "a.md": "# Folio's Inkleaf Pro brings a color screen\n\n"
        "Folio says the Inkleaf Pro battery lasts up to eight weeks with typical reading. It costs $249.",
        "b.md": "# Folio初のカラー電子書籍リーダー「Inkleaf Pro」\n\nInkleaf Proのバッテリーは最長6週間もつ。価格は249ドル。",
        "d.md": "# E-readers of the year\n\nThe Inkleaf Pro battery lasts 3 weeks.",
    }
    battery = "SELECT kind, severity, value_a, value_b FROM conflicts WHERE attribute = 'battery_life'"
    con = ingest(tmp_path / "maxima", reviews)
    assert con.execute(battery).fetchall() == [("value_conflict", "possible", "8 weeks", "6 weeks")]
    agreed = con.execute("SELECT attribute, value, n_sources FROM corroborations WHERE attribute = 'price'").fetchall()
    assert agreed == [("price", "249 USD", 2)]
    exact = {**reviews, "b.md": "# Inkleaf Pro hands-on\n\nThe Inkleaf Pro battery lasts 6 weeks."}
    assert ingest(tmp_path / "exact", exact).execute(battery).fetchall() == [("hedged_overlap", "note", "8 weeks", "6 weeks")]


def test_a_models_score_stated_alone_meets_one_stated_beside_another_models(tmp_path):
    """Without a release, a model's score one sentence states alone (one value) and one stated beside
    a smaller model's (only corroborating) are both the model's: they agree."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Quux-3 released\n\nThe flagship Quux-3 70B scores 86.1 on MMLU and 82.4 on HumanEval.",
            "b.md": "# Quux-3 发布\n\n评测中，Quux-3 70B 的 MMLU 得分为 86.1，而最小的 Quux-3 8B 的 MMLU 得分为 68.3。",
        },
    )
    agreed = con.execute("SELECT subject, attribute, value, n_sources FROM corroborations").fetchall()
    assert agreed == [("quux-3-70b", "score_mmlu", "86.1", 2)]


def test_a_model_one_article_names_meets_the_release_another_makes_of_its_name(tmp_path):
    """ "Novaro Vela 7 发布" makes release "vela 7" of the name another article gives a model ("「Vela 7」
    を発表", "Novaro Vela 7"): their figures met nothing (a held-out set of independent write-ups).
    They meet now; a difference between them would only be possible: one article names no release."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Novaro Vela 7 发布\n\nVela 7 的电池容量为 5500mAh，机身重量为 198 克。",
            "b.md": "# Novaro「Vela 7」を発表\n\n「Vela 7」のバッテリーは5,500mAhで、重量は205gだ。",
        },
    )
    agreed = con.execute("SELECT subject, attribute, scope, value FROM corroborations").fetchall()
    assert ("vela", "measure_mAh", "vela 7", "5500 mAh") in agreed
    assert con.execute("SELECT count(*) FROM conflicts WHERE severity = 'contradiction'").fetchone()[0] == 0


def test_a_name_after_its_makers_is_the_name_and_editions_of_a_product_never_conflict(tmp_path):
    """ "Meridane Calyx S" and "Calyx S" met nothing; the Long Range and the Standard edition's
    ranges (680 and 540 km) were a possible conflict: an edition named in a sentence is a condition."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Meridane、新型EVセダン「Calyx S」を発表\n\n「Calyx S」のロングレンジ仕様は航続680kmを実現した。",
            "b.md": "# Meridane Calyx S: a first look\n\nThe Long Range model of the Calyx S is rated at 680 km.",
            "c.md": "# Meridane Calyx S 国内预售\n\nCalyx S 标准版的续航为 540 公里。",
        },
    )
    agreed = con.execute("SELECT subject, attribute, value, n_sources FROM corroborations").fetchall()
    assert ("calyx-s", "measure_km", "680 km", 2) in agreed
    assert con.execute("SELECT count(*) FROM conflicts WHERE severity <> 'note'").fetchone()[0] == 0


def test_a_date_of_the_articles_product_without_its_version_corroborates(tmp_path):
    """A lede names the product and, apart, its version or none ("「Tidewater」の開発チームは2025年10月14日、
    …4.0を公開した", "Halvard Micro announced its Corvex C5 … on April 21"): the date met no other
    article's. It corroborates now; dated a week apart, it does not conflict (it may date another release)."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Tidewater 4.0 lands\n\nThe Tidewater project shipped Tidewater 4.0 on October 14, 2025.",
            "b.md": "# Webフレームワーク「Tidewater 4.0」リリース\n\n"
            "「Tidewater」の開発チームは2025年10月14日、メジャーバージョンとなる4.0を公開した。",
            "c.md": "# Tidewater 4.0 の概要\n\n「Tidewater」の開発チームは2025年10月21日、新版を公開した。",
        },
    )
    agreed = con.execute("SELECT attribute, release, n_sources FROM corroborations").fetchall()
    assert ("release_date", "tidewater 4.0", 2) in agreed
    assert con.execute("SELECT count(*) FROM conflicts WHERE attribute = 'release_date'").fetchone()[0] == 0


def test_a_change_an_article_without_a_release_states_of_the_release_agrees_with_the_one_keyed(tmp_path):
    """ "Pages also load 1.4x faster" under "Vireo 12 arrives…" (no release read: a bare major number)
    met "页面加载速度…提升至原来的 1.4 倍" of release vireo 12 until that one was keyed by its operation
    (speedup_load); the unkeyed change of the name the release is made of still speaks for it."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Vireo 12 arrives with a leaner memory footprint\n\nPages also load 1.4x faster on average.",
            "b.md": "# 浏览器 Vireo 12 正式发布\n\n性能方面,页面加载速度平均提升至原来的 1.4 倍。",
        },
    )
    agreed = con.execute("SELECT subject, attribute, value, n_sources FROM corroborations").fetchall()
    assert ("vireo", "speedup_load", "1.4x", 2) in agreed
    assert con.execute("SELECT count(*) FROM conflicts WHERE severity <> 'note'").fetchone() == (0,)


def test_a_product_named_with_its_maker_is_the_product_another_title_names(tmp_path):
    """ "Voltcairn Hearth" in one review and "Hearth" in a write-up headed "Voltcairn 发布家用储能电池
    Hearth" are one product (a name of one word after its maker's, which a title names alone)."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# 储能企业 Voltcairn 发布家用储能电池 Hearth\n\nHearth 单台容量为 13.5千瓦时。",
            "b.md": "# Voltcairn Hearth home battery review\n\nThe Voltcairn Hearth stores 13.5 kWh.",
        },
    )
    agreed = con.execute("SELECT subject, attribute, value, n_sources FROM corroborations").fetchall()
    assert agreed == [("hearth", "measure_kWh", "13.5 kWh", 2)]


def test_a_releases_changes_keyed_by_what_they_measure_conflict_only_when_the_measure_is_one(tmp_path):
    """Sentences naming no part of the release ("Idle memory per worker process is down 18%") made
    figures that only corroborated, so two sources' different memory savings met nothing (a held-out
    set of independent write-ups). Keyed by what they measure, 18% and 25% of memory are a possible
    conflict; 30% of latency is another fact; a figure a sentence names its part for ("VACUUM"
    in another article) is still that part's, agreeing; and a change no measure keys ("need 25% less")
    or a measure no change keys ("a 30% p95 latency gain") agrees with the one keyed, never conflicts."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Tidewater 4.0 released\n\nTidewater 4.0 ships today. Idle memory per worker process is down 18%. "
            "The new vacuum consumes up to 20x less memory.",
            "b.md": "# Tidewater 4.0 リリース\n\nTidewater 4.0が公開された。アイドル時のメモリ使用量は25%削減された。"
            "また、p95レイテンシは30%短縮された。",
            "c.md": "# Tidewater 4.0 发布\n\nTidewater 4.0 正式发布。VACUUM 的内存消耗最多可降低 20 倍。",
            "d.md": "# Tidewater 4.0 review\n\nTidewater 4.0 is out. Worker processes need 25% less when idle.",
            "e.md": "# Tidewater 4.0 notes\n\nTidewater 4.0 is out. Expect a 30% p95 latency gain.",
        },
    )
    found = con.execute("SELECT attribute, value_a, value_b, severity FROM conflicts WHERE severity <> 'note'").fetchall()
    assert found == [("reduction_memory", "18%", "25%", "possible")]
    agreed = con.execute("SELECT subject, attribute, value, n_sources FROM corroborations").fetchall()
    assert ("vacuum", "reduction_memory", "20x", 2) in agreed
    assert ("tidewater", "reduction_memory", "25%", 2) in agreed
    assert ("tidewater", "reduction_latency", "30%", 2) in agreed  # (a measure no change keys: e.md)


def test_changes_of_one_subject_keyed_by_two_measures_never_conflict(tmp_path):
    """ "cuts build times by 18%" and "链接时间缩短 40%" of one named tool are two measures' changes (a
    held-out set's false contradiction, then a possible conflict): keyed by what they measure, the
    build time's and a change no measure word keys, they do not meet."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Quuxly 3.5 released\n\nThe Frobnicator in Quuxly 3.5 cuts build times by 18%.\n",
            "b.md": "# Quuxly 3.5 发布\n\nQuuxly 3.5 中的 Frobnicator 将链接时间缩短 40%。\n",
        },
    )
    found = con.execute("SELECT subject, attribute, severity FROM conflicts WHERE kind = 'value_conflict'").fetchall()
    assert found == []


def test_a_figure_no_word_names_corroborates_the_same_figure_and_never_conflicts(tmp_path):
    """A span of time or a count no word names (`unnamed_*`) meets the same unnamed figure of the
    subject in another source, and the named count another source states ("150 辆" / "150 buses"),
    under that name only; a different value is no finding: what it measures is unknown."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Tavro 发布电动公交车 E12\n\nE12 完成一次完整运行大约需要 44 小时。Valmora 的运营商订购了 150 辆。\n",
            "b.md": "# Tavro unveils the E12 electric bus\n\n"
            "A full run of the E12 takes about 44 hours. Valmora's operator ordered 150 buses.\n",
            "c.md": "# Tavro E12 レビュー\n\nE12の1回の運行にかかる時間は約40時間だ。\n",
        },
    )
    agreed = con.execute("SELECT attribute, value, n_sources FROM corroborations ORDER BY attribute").fetchall()
    assert agreed == [("count_buse", "150", 2), ("unnamed_duration", "44 hours", 2)]
    assert con.execute("SELECT count(*) FROM conflicts WHERE severity <> 'note'").fetchone()[0] == 0


def test_a_figure_no_release_scopes_corroborates_the_release_another_source_names(tmp_path):
    """ "Tessel … 2026年2月11日に新版を公開した" (no version) met nothing of "Tessel 15.2 … released on
    February 11, 2026": it speaks for each release other sources date, and only corroborates."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Tessel 15.2 released\n\nThe Tessel project released version 15.2 of its toolchain on February 11, 2026.\n",
            "b.md": "# コンパイラー「Tessel」新版\n\n「Tessel」の開発プロジェクトは、2026年2月11日に新版を公開した。\n",
        },
    )
    agreed = con.execute("SELECT subject, release, n_sources FROM corroborations WHERE attribute = 'release_date'").fetchall()
    assert agreed == [("tessel", "tessel 15.2", 2)]


def test_the_status_of_a_feature_common_words_name_meets_across_languages_and_not_the_products(tmp_path):
    """ "offline voice assistant" / "オフライン音声アシスタント" / "离线语音助手": one feature, keyed by
    the concepts of its words (each word meets through any shared concept), so its preview status
    corroborates across three sources; the product's own GA status, which another source gives,
    contradicts none of them; another feature's beta is another key."""
    con = ingest(
        tmp_path,
        {
            "a.md": "# Lumo X2 smart speaker review\n\nThe offline voice assistant remains in preview.\n",
            "b.md": "# Lumo、スマートスピーカー「X2」を発売\n\nオフライン音声アシスタントは引き続きプレビュー版で提供。\n",
            "c.md": "# Lumo 发布智能音箱 X2\n\n离线语音助手目前仍为预览版。睡眠定时器功能处于测试版。\n",
            "d.md": "# Lumo X2 on sale\n\nLumo said the X2 is now generally available.\n",
        },
    )
    agreed = con.execute("SELECT subject, value, n_documents FROM corroborations WHERE attribute = 'maturity'").fetchall()
    assert [(subject.split("~")[1:], value, n) for subject, value, n in agreed] == [(["offlin", "voic", "assist"], "preview", 3)]
    assert con.execute("SELECT count(*) FROM conflicts WHERE severity <> 'note'").fetchone()[0] == 0


def _differences(con, table: str) -> int:
    """Rows the stored table and the view that computes it (`fresh_<table>`) do not share."""
    stored, fresh = table, f"fresh_{table}"
    return con.execute(
        f"SELECT count(*) FROM ((FROM {stored} EXCEPT ALL FROM {fresh}) UNION ALL (FROM {fresh} EXCEPT ALL FROM {stored}))"
    ).fetchone()[0]


def test_the_stored_keys_and_clusters_follow_every_change_of_the_documents(tmp_path):
    """claim_clusters and document_positions are tables `update_checks` fills: after a re-run that
    changes one document's value and removes another, they hold what their views compute now."""
    files = {
        "a.txt": "PyTorch 2.5 発表\nZeRO++ のスループットは 3 倍に向上した。",
        "b.txt": "PyTorch 2.5 发布\nZeRO++ 的吞吐提高了 3.0 倍。",
        "c.txt": "PyTorch 2.5 发布\nZeRO++ 的吞吐提高了 3 倍。",
    }
    con = ingest(tmp_path, files)
    assert con.execute("SELECT n_documents FROM corroborations WHERE subject = 'zeropp'").fetchall() == [(3,)]
    con.close()
    (tmp_path / "in" / "b.txt").write_text(files["b.txt"].replace("3.0 倍", "5 倍"), "utf-8")
    (tmp_path / "in" / "c.txt").unlink()
    run_pipeline([tmp_path / "in"], tmp_path / "w.duckdb", None)
    con = warehouse.connect(tmp_path / "w.duckdb", read_only=True)
    assert con.execute("SELECT value_a, value_b FROM conflicts WHERE severity = 'contradiction'").fetchall() == [("3x", "5x")]
    assert con.execute("SELECT count(*) FROM claim_clusters").fetchone()[0] > 0
    assert _differences(con, "claim_clusters") == 0 and _differences(con, "document_positions") == 0


def test_a_warehouse_whose_clusters_were_views_gets_the_tables(tmp_path):
    """An older version's claim_clusters and document_positions were views: the next run replaces them."""
    files = {
        "a.txt": "PyTorch 2.5 発表\nZeRO++ のスループットは 2 倍に向上した。",
        "b.txt": "PyTorch 2.5 发布\nZeRO++ 的吞吐提高了 20 倍。",
    }
    ingest(tmp_path, files).close()
    con = warehouse.connect(tmp_path / "w.duckdb")
    for table in ("document_positions", "claim_clusters"):
        con.execute(f"DROP TABLE {table}")
        con.execute(f"CREATE VIEW {table} AS FROM fresh_{table}")
    con.execute("DELETE FROM schema_state WHERE part = 'views'")
    con.execute("DELETE FROM check_state")
    con.close()
    run_pipeline([tmp_path / "in"], tmp_path / "w.duckdb", None)
    con = warehouse.connect(tmp_path / "w.duckdb", read_only=True)
    kinds = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE table_name IN ('claim_clusters', 'document_positions') ORDER BY 1"
    ).fetchall()
    assert kinds == [("claim_clusters",), ("document_positions",)]
    assert con.execute("SELECT value_a, value_b FROM conflicts WHERE severity = 'contradiction'").fetchall() == [("2x", "20x")]
