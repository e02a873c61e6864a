"""Every number in a segment as a mention: one value whatever the notation, and non-quantities marked."""

from __future__ import annotations

import pytest

from ingest.check.align import AlignSegment, compare_renderings
from ingest.check.align.compare import counted_equivalents, match_mentions
from ingest.check.thresholds import ALIGNED_CONTRADICTION_CONFIDENCE
from ingest.extract.reader import DATE, IDENTIFIER, MODEL, QUANTITIES, REFERENCE, URL, VERSION
from ingest.extract.reader import read as find_mentions


def _only(text: str, lang: str):
    mentions = [m for m in find_mentions(text, lang) if m.kind in QUANTITIES | {VERSION, DATE, MODEL}]
    assert len(mentions) == 1, f"{text!r}: {mentions}"
    return mentions[0]


# The same figure in two notations: each pair must agree.
SAME = [
    (("over 30 million textbooks", "en"), ("超过 3000 万本课文", "zh")),
    (("0.5 million", "en"), ("50万", "zh")),
    (("500,000 samples", "en"), ("50 万的样本", "zh")),
    (("1.3T tokens", "en"), ("1.3 万亿的 token", "zh")),
    (("1兆パラメータ", "ja"), ("1.0T parameters", "en")),
    (("2200 亿", "zh"), ("220B", "en")),
    (("34,000 topics", "en"), ("3.4 万个主题", "zh")),
    (("9,300万個", "ja"), ("9300万个参数", "zh")),
    (("13億", "ja"), ("13亿", "zh")),
    (("three million", "en"), ("三百万", "zh")),
    (("１０年間", "ja"), ("十年", "zh")),
    (("twice as fast", "en"), ("速度翻倍", "zh")),
    (("两倍的吞吐", "zh"), ("2x throughput", "en")),
    (("reduced to 1/13", "en"), ("13倍减少", "zh")),
    (("10-18% less memory", "en"), ("内存减少 10～18%", "zh")),
    (("1.69 to 2.65x", "en"), ("1.69～2.65 倍", "zh")),
    (("百分之二十", "zh"), ("20%", "en")),
    (("400k", "en"), ("40万", "zh")),
    (("1M+ downloads", "en"), ("100万以上", "ja")),
    (("stable for nearly a year", "en"), ("稳定将近一年", "zh")),
    (("in the works for over a year", "en"), ("进行了一年多", "zh")),
    (("over a million downloads", "en"), ("超过100万次下载", "zh")),
    (("these three facets", "en"), ("这三方面的贡献", "zh")),
    # a unit glued to its number that goes on past the word is read whole
    (("capable of 3.25 GB/sec reads", "en"), ("每个SSD可提供3.25GB/秒的读取速度", "zh")),
    (("3.25GB/s", "en"), ("3.25 GB/秒", "ja")),
]


@pytest.mark.parametrize("left, right", SAME, ids=[f"{a[0]} = {b[0]}" for a, b in SAME])
def test_one_value_in_another_notation_agrees(left, right):
    x, y = _only(*left), _only(*right)
    [pair] = match_mentions([x], [y])
    assert pair.relation in ("agree", "hedge"), (x, y)


# A changed figure, and the kind of change it is.
CHANGED = [
    (("over 30 million textbooks", "en"), ("超过三百万的课文", "zh"), "magnitude"),
    (("The 1.7B parameter model", "en"), ("1.7T 的模型", "zh"), "magnitude"),
    (("28B tokens", "en"), ("20 亿 token", "zh"), "value"),
    (("BART-460M", "en"), ("BART-406M", "zh"), "size"),
    (("MobileLM-360M", "zh"), ("SmolLM-360M", "zh"), "name"),
    (("1.0.0rc0", "en"), ("1.0.0rc1", "en"), "version"),
    (("2024年10月17日公開", "ja"), ("2024-10-18", "en"), "date"),
    (("speedups of 2.5x", "en"), ("3.5 倍的加速", "zh"), "digits"),
    (("speedups of 2.5x", "en"), ("4 倍的加速", "zh"), "value"),
    (("426 contributors", "en"), ("462 个贡献者", "zh"), "digits"),
    (("1.69 to 2.68 times", "en"), ("1.69到2.65倍", "zh"), "digits"),
    (("OPT-like-178B", "ja"), ("OPT-175B", "zh"), "size"),
]


@pytest.mark.parametrize("left, right, kind", CHANGED, ids=[f"{a[0]} != {b[0]}" for a, b, _ in CHANGED])
def test_a_changed_figure_is_paired_and_its_change_named(left, right, kind):
    x, y = _only(*left), _only(*right)
    [pair] = match_mentions([x], [y])
    assert (pair.relation, pair.change) == ("changed", kind)


def test_same_values_in_another_order_agree():
    en = find_mentions("trained on only 600B tokens compared to MobileLM's 1T tokens", "en")
    zh = find_mentions("相比于使用 1T token 的数据量去训练，只使用了 600B 的数据量", "zh")
    assert {p.relation for p in match_mentions(en, zh)} == {"agree"}


def test_a_model_of_another_size_pairs_only_with_its_own_name():
    """ "OPT-like-178B" / "OPT-175B" is a changed size; among other models of one family, sizes
    that do not agree are not paired by a shared word of their names."""
    ja = find_mentions("OPT-13B、OPT-30B、OPT-like-178B", "ja")
    zh = find_mentions("OPT-13B、OPT-30B、OPT-175B", "zh")
    assert sorted((p.a.text, p.b.text, p.relation) for p in match_mentions(ja, zh)) == [
        ("OPT-13B", "OPT-13B", "agree"),
        ("OPT-30B", "OPT-30B", "agree"),
        ("OPT-like-178B", "OPT-175B", "changed"),
    ]
    ja = find_mentions("OPT-like-178B と OPT-like-66B", "ja")
    zh = find_mentions("OPT-175B", "zh")
    assert [p.relation for p in match_mentions(ja, zh)] == []


def test_a_range_agrees_with_its_two_ends_written_apart():
    en = find_mentions("We scale the number of NVMe SSDs from 1 to 4", "en")
    zh = find_mentions("我们将NVMe SSD的数量从1扩展到4", "zh")
    for a, b in ((en, zh), (zh, en)):
        assert [p.relation for p in match_mentions(a, b)] == ["agree"]
    # one end changed: the figure next to the agreed end is the other end
    changed = find_mentions("我们将NVMe SSD的数量从1扩展到5", "zh")
    for a, b in ((en, changed), (changed, en)):
        assert sorted((p.relation, p.a.text, p.b.text) for p in match_mentions(a, b)) in (
            [("changed", "1 to 4", "5")],
            [("changed", "5", "1 to 4")],
        )
    low_changed = find_mentions("我们将NVMe SSD的数量从2扩展到4", "zh")
    assert [(p.relation, p.a.text, p.b.text) for p in match_mentions(en, low_changed)] == [("changed", "1 to 4", "2")]


def test_counted_nouns_the_renderings_tie_by_an_agreed_figure_count_one_thing():
    """The dictionaries gloss 查询 as "check, inquire" and クエリ as "query": no shared concept. A
    figure the two renderings agree on ties them, so a changed figure counting them pairs surely;
    untied, the last figure left beside an agreed one is only a possible change. Another noun stays
    another thing, and a figure naming no noun is no rival of two that name one thing."""
    zh = find_mentions("服务器的吞吐量为 1.46 查询/秒，而集群达到了 23.7 查询/秒。", "zh")
    ja = find_mentions("サーバーのスループットは1.49クエリ/秒で、クラスタでは23.7クエリ/秒に達します。", "ja")
    untied = [(p.relation, p.a.text, p.b.text, p.certainty < ALIGNED_CONTRADICTION_CONFIDENCE) for p in match_mentions(zh, ja)]
    assert untied == [("agree", "23.7", "23.7", False), ("changed", "1.46", "1.49", True)]
    equivalents = counted_equivalents(match_mentions(zh, ja))
    tied = [
        (p.relation, p.a.text, p.b.text, p.certainty < ALIGNED_CONTRADICTION_CONFIDENCE)
        for p in match_mentions(zh, ja, equivalents)
    ]
    assert tied == [("agree", "23.7", "23.7", False), ("changed", "1.46", "1.49", False)]
    assert match_mentions(find_mentions("有 5 个副本。", "zh"), find_mentions("7クエリ/秒。", "ja"), equivalents) == []
    zh, ja = find_mentions("集群达到了 23.0 查询/秒。", "zh"), find_mentions("1つのレプリカで23.7クエリ/秒に達します。", "ja")
    assert [(p.relation, p.a.text, p.b.text) for p in match_mentions(zh, ja, equivalents)] == [("changed", "23.0", "23.7")]


def test_renderings_learn_counted_nouns_from_every_aligned_sentence():
    """The tie comes from any sentence of the two renderings, not only the one with the change."""

    def segments(texts: list[str], lang: str) -> list[AlignSegment]:
        return [AlignSegment(i, "p", t, frozenset({"ACME"}), tuple(find_mentions(t, lang))) for i, t in enumerate(texts)]

    zh = segments(["ACME 集群达到了 23.7 查询/秒。", "ACME 服务器的吞吐量为 1.46 查询/秒。"], "zh")
    ja = segments(["ACME クラスタでは23.7クエリ/秒に達します。", "ACME サーバーのスループットは1.49クエリ/秒です。"], "ja")
    pairs = [(p.pair.relation, p.pair.a.text, p.pair.b.text) for p in compare_renderings(zh, ja).pairs]
    assert pairs == [("agree", "23.7", "23.7"), ("changed", "1.46", "1.49")]


def test_a_changed_version_pairs_with_its_products_other_version_among_other_versions():
    a = find_mentions("随 Quux 12.6.3 和 Frob 6.2.4 一起提供；下一个 Foo 2.7 版本将切换到 Bar 2.28，而 baz-2.28 不变。", "zh")
    b = find_mentions("随 Quux 12.6.3 和 Frob 6.2.4 一起提供；下一个 Foo 2.9 版本将切换到 Bar 2.28，而 baz 2.28 不变。", "zh")
    changed = [(p.a.text, p.b.text) for p in match_mentions(a, b) if p.relation == "changed"]
    assert changed == [("Foo 2.7", "Foo 2.9")]


def test_a_version_written_in_full_in_one_rendering_is_no_change():
    en = find_mentions("Foo 2.1 requires Python 3.10.0 and ships with Bar 11.3.0.", "en")
    zh = find_mentions("Foo 2.1 需要 Python 3.10，并附带 Bar 11.3。", "zh")
    assert {p.relation for p in match_mentions(en, zh)} == {"agree"}


def test_an_omission_is_not_a_change():
    en = find_mentions("We produced 39 million documents of 28B tokens over 34,000 topics.", "en")
    zh = find_mentions("我们生成了 3900 万合成数据。", "zh")
    assert [p.relation for p in match_mentions(en, zh)] == ["agree"]


@pytest.mark.parametrize(
    "text, kind, lang",
    [
        ("OpenFold对PDB链7B3A_A的预测", IDENTIFIER, "zh"),
        ("on A100 GPUs with fp16", IDENTIFIER, "en"),
        ("see https://example.com/v2/page-2024 for details", URL, "en"),
        ("图5：微软降水预报", REFERENCE, "zh"),
        ("as Figure 3 shows", REFERENCE, "en"),
        ("表 2 に示す", REFERENCE, "ja"),
        ("PyTorch 2.5 のリリース", VERSION, "ja"),
        ("DeepSpeed(現時点では0.14.5)", VERSION, "ja"),
        ("Python versions 3.8-3.10", VERSION, "en"),
        ("installs v0.* wheels", VERSION, "en"),
    ],
    ids=lambda v: str(v)[:30],
)
def test_identifiers_urls_references_and_versions_are_never_quantities(text, kind, lang):
    mentions = find_mentions(text, lang)
    assert kind in {m.kind for m in mentions}
    assert not [m for m in mentions if m.kind in QUANTITIES], mentions


@pytest.mark.parametrize(
    "text, lang",
    [
        ("十分重要", "zh"),
        ("百度的模型", "zh"),
        ("千万不要", "zh"),
        ("数百个模型", "zh"),
        ("一般的な方法", "ja"),
        ("several hundred GPUs", "en"),
        ("a model of a few days", "en"),
        ("一方面", "zh"),
    ],
)
def test_idioms_and_estimates_are_no_figures(text, lang):
    assert not [m for m in find_mentions(text, lang) if m.kind in QUANTITIES]


def test_dates_compare_as_dates():
    a, b = _only("2024年10月17日", "zh"), _only("2024-10-17", "en")
    assert a.norm == b.norm == "2024-10-17"
    assert _only("October 17, 2024", "en").norm == "2024-10-17"


def test_a_month_and_year_keep_the_year_at_a_sentences_end():
    """An adversarial review's cases: "by January 2025." was read as a month alone, so against
    "截至2025年1月" every such sentence made a date change."""
    assert [(m.kind, m.norm) for m in find_mentions("installed on all iPhones by January 2025.", "en")] == [(DATE, "2025-01")]
    assert [m.norm for m in find_mentions("May 2024.5", "en")] == ["2024.5"]  # (a number goes on: no year)


@pytest.mark.parametrize(
    "a, la, b, lb, relations",
    [
        ("It ships in April.", "en", "2025年4月に提供される。", "ja", ["agree"]),  # a year added
        ("The event ends October 17.", "en", "活动于2024年10月17日结束。", "zh", ["agree"]),
        ("The event ends October 17.", "en", "活动于10月7日结束。", "zh", ["changed"]),  # the day changed
        ("It arrives at Titan in July 2034.", "en", "它将于2035年7月抵达泰坦。", "zh", ["changed"]),
    ],
)
def test_dates_agree_when_every_part_both_write_agrees(a, la, b, lb, relations):
    assert [p.relation for p in match_mentions(find_mentions(a, la), find_mentions(b, lb))] == relations


@pytest.mark.parametrize(
    "a, la, b, lb, relations",
    [
        ("pooling through psycopg 3.1.", "en", "通过 psycopg 3.2 使用连接池。", "zh", ["changed"]),
        ("to arrive in 2034.", "en", "计划于2035年抵达。", "zh", ["changed"]),
        ("48 ports", "en", "47个端口", "zh", ["changed"]),
        ("3万名用户", "zh", "29.8k users", "en", ["agree"]),  # overlapping precision still agrees
        ("1.46 queries/s", "en", "1.5 查询/秒", "zh", ["agree"]),
    ],
)
def test_values_whose_precision_only_touches_differ(a, la, b, lb, relations):
    """ "3.1" holds 3.05-3.15 and "3.2" 3.15-3.25: one point in common is no agreement (it was)."""
    assert [p.relation for p in match_mentions(find_mentions(a, la), find_mentions(b, lb))] == relations


def test_a_products_number_pairs_only_with_the_same_products():
    """ "Android 15" is no figure of "1日6時間" (an adversarial review's false change), "Firefox 129"
    / "Firefox 130" is a change."""
    en = find_mentions("Android 15 raises the data sync limit to six hours per day.", "en")
    ja = find_mentions("データ同期の上限は1日6時間に引き上げられた。", "ja")
    assert [(p.relation, p.a.text, p.b.text) for p in match_mentions(en, ja)] == [("agree", "six", "6")]
    en = find_mentions("Firefox 129 is scheduled for August 6, 2024.", "en")
    zh = find_mentions("Firefox 130 计划于2024年8月6日发布。", "zh")
    changed = [(p.a.text, p.b.text) for p in match_mentions(en, zh) if p.relation == "changed"]
    assert changed == [("129", "130")]
    assert [m.name for m in find_mentions("In 2024, Top 10 picks", "en")] == [None, None]


@pytest.mark.parametrize(
    "a, la, b, lb, pairs",
    [
        ("remains 512 MB.", "en", "仍为512 GB。", "zh", [("changed", "magnitude")]),
        ("a 1.5 GB cache", "en", "1,500 MB 的缓存", "zh", [("agree", None)]),
        ("runs at 2.4 GHz", "en", "2400 MHz で動作", "ja", [("agree", None)]),
        ("more than 10 terabytes of data", "en", "10TBを超えるデータ", "ja", [("hedge", None)]),  # no unit: the other's
        ("The battery is 5,100 mAh.", "en", "バッテリーは4,500mAhだ。", "ja", [("changed", "value")]),
        ("a 50-megapixel camera", "en", "5000万画素のカメラ", "ja", [("agree", None)]),
        ("a 48MP camera", "en", "5000万像素摄像头", "zh", [("changed", "value")]),
    ],
)
def test_figures_in_two_scales_of_one_unit_compare_in_its_base(a, la, b, lb, pairs):
    """An adversarial review's cases: "512 MB" / "512 GB" was never compared (two units), and
    "4,500mAh" was an identifier "500mAh" (a unit the lexicon lacked)."""
    assert [(p.relation, p.change) for p in match_mentions(find_mentions(a, la), find_mentions(b, lb))] == pairs


def test_a_fraction_compares_with_a_fraction_word():
    """ "half" / "三分之一": the zh fraction was read as 三 minutes, and the change was missed."""
    pairs = match_mentions(find_mentions("Half of the users upgraded.", "en"), find_mentions("三分之一的用户已升级。", "zh"))
    assert [(p.relation, p.change) for p in pairs] == [("changed", "value")]


def test_the_only_figures_left_with_one_digit_at_another_power_of_ten_are_a_possible_change():
    """ "about 7 billion passengers" / "约7亿人次": the nouns share no concept the dictionaries know,
    but one digit at a power of ten apart is a slipped magnitude, never sure enough to be more."""
    pairs = match_mentions(find_mentions("has carried about 7 billion passengers", "en"), find_mentions("已运送约7亿人次", "zh"))
    assert [(p.relation, p.change, p.certainty < ALIGNED_CONTRADICTION_CONFIDENCE) for p in pairs] == [
        ("changed", "magnitude", True)
    ]


def test_a_version_agrees_with_the_same_number_the_other_rendering_reads_as_no_version():
    """ "LLVM 19.1.0" / "LLVM 19.1" (a score-shaped number with no release cue), "3.20.0" / "3.20":
    unpaired, they had cost a review's LLVM translation its recognition as a rendering."""
    for a, b in (("released LLVM 19.1.0.", "发布了 LLVM 19.1。"), ("raised to 3.20.0.", "提高到3.20。")):
        assert [p.relation for p in match_mentions(find_mentions(a, "en"), find_mentions(b, "zh"))] == ["agree"], a
    assert [p.relation for p in match_mentions(find_mentions("3.20.0", "en"), find_mentions("3.2 GB", "zh"))] == []


@pytest.mark.parametrize(
    "a, la, b, lb, relations",
    [
        (
            "The getopt module is deprecated in this release.",
            "en",
            "本リリースで getopt モジュールは非推奨となった。",
            "ja",
            ["agree"],
        ),
        ("The old API has been removed.", "en", "旧 API 已被移除。", "zh", ["agree"]),
        ("The getopt module is deprecated in this release.", "en", "本版本中已移除 getopt 模块。", "zh", ["changed"]),
        ("This removed the need for locks.", "en", "这消除了对锁的需求。", "zh", []),  # an active "removed" is no status
        ("The Photos app is now stable.", "en", "写真アプリは正式版となった。", "ja", ["agree"]),
    ],
)
def test_a_status_past_maturity_is_compared_between_renderings(a, la, b, lb, relations):
    """(and the statuses of a thing released agree: "now stable" / "正式版となった")"""
    assert [p.relation for p in match_mentions(find_mentions(a, la), find_mentions(b, lb))] == relations


def test_a_glued_unit_is_read_whole_and_a_shorter_one_stays_itself():
    assert (_only("3.25GB/秒", "zh").unit, _only("3.25GB/sec", "en").unit) == ("GB/s", "GB/s")
    assert (_only("12GB内存", "zh").unit, _only("12GB of memory", "en").unit) == ("GB", "GB")


def test_every_mention_slices_its_segment():
    text = "最终，我们生成了 3900 万合成数据，规模达到了 20 亿，涵盖主题超过 3.4 万 (v1.2, A100, 图5)。"
    for mention in find_mentions(text, "zh"):
        assert text[mention.start : mention.end] == mention.text


def test_the_last_figure_beside_agreed_ones_is_a_possible_change_whatever_its_noun():
    """A list whose other figures agree leaves one slot on each side: changed, though the dictionaries
    do not tie 功能 to "feature"; never sure enough for a contradiction, and never between figures far
    apart (another quantity, not an edit) or without an agreed figure beside them."""
    en = find_mentions("To see a full list of public 2.1, 2.0, and 1.16 feature submissions click here.", "en")
    zh = find_mentions("要查看公共2.1、2.0和1.13功能提交的完整列表，请单击此处。", "zh")
    pairs = match_mentions(en, zh)
    assert [(p.relation, p.a.text, p.b.text) for p in pairs] == [
        ("agree", "2.1", "2.1"),
        ("agree", "2.0", "2.0"),
        ("changed", "1.16", "1.13"),
    ]
    assert pairs[-1].certainty < ALIGNED_CONTRADICTION_CONFIDENCE
    far = find_mentions("该模型有 7 个变体，使用了 1000 个 GPU。", "zh")
    assert [p.relation for p in match_mentions(find_mentions("It has 7 variants trained on 2 trillion tokens.", "en"), far)] == [
        "agree"
    ]
    alone = (
        find_mentions("服务器的吞吐量为 1.46 查询/秒。", "zh"),
        find_mentions("サーバーのスループットは1.49クエリ/秒です。", "ja"),
    )
    assert match_mentions(*alone) == []


@pytest.mark.parametrize(
    "a, la, b, lb, relations",
    [
        # a bound restated as a plain figure is that bound: another figure is a change (an adversarial review's case)
        ("The battery lasts up to 20 minutes.", "en", "电池续航15分钟。", "zh", ["changed"]),
        ("Over 300 contributors took part.", "en", "共有320名贡献者参与。", "zh", ["changed"]),
        # ...hedged alike, two figures differ (zh 最长 is "up to": it was a plain figure)
        ("It handles sequences of up to 128K tokens.", "en", "可处理最长64K个token的序列。", "zh", ["changed"]),
        # ...while an approximation may be rounded, and two hedges may meet
        ("almost 300 contributors", "en", "280+ 名贡献者", "zh", ["hedge"]),
        ("about 300 contributors", "en", "290名贡献者", "zh", ["hedge"]),
    ],
)
def test_a_bound_against_a_plain_figure_is_no_hedge_that_meets(a, la, b, lb, relations):
    assert [p.relation for p in match_mentions(find_mentions(a, la), find_mentions(b, lb))] == relations


def test_another_product_of_a_line_is_no_changed_number():
    """A rendering that names the product with both numbers names two products: "the Watch 3" beside
    a translation's "the previous generation" is an omission, not the Watch 4 written as 3."""

    def segments(texts: list[str], lang: str) -> list[AlignSegment]:
        return [AlignSegment(i, "p", t, frozenset({"Pulsar"}), tuple(find_mentions(t, lang))) for i, t in enumerate(texts)]

    en = segments(["Pulsar Watch 4 is out.", "Its display reaches 3,000 nits, up from 2,000 nits on the Pulsar Watch 3."], "en")
    zh = segments(["Pulsar Watch 4 发布。", "Pulsar Watch 4 的峰值亮度从上一代的 2000 尼特提升至 3000 尼特。"], "zh")
    assert "changed" not in {p.pair.relation for p in compare_renderings(en, zh).pairs}
    # the number changed where neither rendering names the other's: a changed figure
    zh_changed = segments(["Pulsar Watch 5 发布。", "Pulsar Watch 5 的峰值亮度从上一代的 2000 尼特提升至 3000 尼特。"], "zh")
    changed = [(p.pair.a.text, p.pair.b.text) for p in compare_renderings(en, zh_changed).pairs if p.pair.relation == "changed"]
    assert changed == [("Watch 4", "Watch 5"), ("3", "5")]
