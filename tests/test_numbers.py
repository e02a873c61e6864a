"""One figure read whole: CJK magnitudes and numerals, Latin magnitudes, written precision."""

from __future__ import annotations

import pytest

from ingest.extract.notation import numerals
from ingest.extract.reader import read, read_number, values_agree


@pytest.mark.parametrize(
    "text, value",
    [
        ("3万", 30_000),
        ("29.8k", 29_800),
        ("1,000", 1_000),
        ("1.5亿", 150_000_000),
        ("70億", 7_000_000_000),
        ("175B", 175e9),
        ("64k", 64_000),
        ("100 万", 1_000_000),
        ("７５", 75),
        ("二十", 20),
        ("三千五百", 3_500),
        ("一万二千", 12_000),
        # the places below a magnitude, in digits (a review's false changes: "2万" against "28,000")
        ("2万8000", 28_000),
        ("18万6000", 186_000),
        ("1兆8200億", 1.82e12),
        ("3万5千", 35_000),
    ],
)
def test_values(text, value):
    assert read_number(text).value == pytest.approx(value)


def test_written_precision_decides_agreement():
    assert values_agree(read_number("3万"), read_number("29.8k"))
    assert not values_agree(read_number("2万"), read_number("20万"))
    assert values_agree(read_number("97.5"), read_number("97.5"))
    assert not values_agree(read_number("2"), read_number("1.53"))


def test_a_score_or_a_phone_number_is_no_range_up_to_nothing():
    """ "won 2-0" and "0570-00-2486" divided by the range's zero high end: the whole document failed."""
    assert read_number("2-0") is None
    for text in ("won 2-0 at home", "予約は電話0570-00-2486で受け付ける。"):
        assert all(r.value_max is None or r.value_max >= (r.value or 0) for r in read(text, None))


def test_an_article_after_a_frequency_is_per_not_one():
    assert [(r.kind, r.value) for r in read("operates three times a week", "en")] == [("multiplier", 3.0)]
    assert [(r.value, r.unit) for r in read("five hours a day", "en")] == [(5.0, "hours")]
    assert [(r.value, r.unit) for r in read("nearly a year later", "en")] == [(1.0, "years")]


@pytest.mark.parametrize(
    "text, lang, readings",
    [
        ("a 14.2-inch display and a 20-hour battery", "en", [("number", 14.2, "inches"), ("number", 20.0, "hours")]),
        ("a 2-GB card, a 3-nm process", "en", [("number", 2.0, "GB"), ("number", 3.0, "nm")]),
        ("a 7B-parameter model", "en", [("number", 7e9, "parameters")]),
        ("解像度2880×1800ピクセル", "ja", [("number", 2880.0, None), ("number", 1800.0, "pixels")]),
        ("GPT-4, x86-64, 7-Zip", "en", [("id", None, None)] * 3),
    ],
)
def test_a_number_in_a_compound_adjective_or_a_dimension_is_a_figure(text, lang, readings):
    """A review's false change: "14.2-inch" was an identifier in English and "2880" (before "×1800")
    one in Japanese, so the figures left over were paired (2,880 with 14.2)."""
    assert [(r.kind, r.value, r.unit) for r in read(text, lang)] == readings


@pytest.mark.parametrize(
    "text, lang, value",
    [
        ("三分之一的用户", "zh", 1 / 3),
        ("约四分之一", "zh", 0.25),
        ("三分の一", "ja", 1 / 3),
        ("4分の1に", "ja", 0.25),
        ("two-thirds of the budget", "en", 2 / 3),
        ("a quarter of them", "en", 0.25),
    ],
)
def test_fractions_in_numerals_and_words(text, lang, value):
    """ "三分之一" was 三 minutes (分), so "half" / "三分之一" was never compared."""
    assert [(r.kind, r.value) for r in read(text, lang)] == [("fraction", pytest.approx(value))]


def test_tenths_after_a_number_are_a_percentage_rounded_to_ten():
    """ "3割" was a count of 3 (an adversarial review); it is 30 %, give or take 5, so "28%" agrees."""
    assert [(r.kind, r.value, r.tol) for r in read("利用者の約3割が移行した。", "ja")] == [("percent", 30.0, 5.0)]
    assert values_agree(read_number("28%"), read("3割", "ja")[0])
    assert [r.kind for r in read("その割合は2割合ではなく、2割り当てだ", "ja")] == ["number", "number"]


def test_a_rank_or_a_percentage_is_no_fraction():
    assert [(r.kind, r.value) for r in read("a third version", "en")] == []
    assert [(r.kind, r.value) for r in read("百分之二十", "zh")] == [("percent", 20.0)]


@pytest.mark.parametrize(
    "text, lang, readings",
    [
        ("starts at $38,990, US$5 or NT$30,000", "en", [(38_990, "USD"), (5, "USD"), (30_000, None)]),
        ("priced at 249,900 yuan or €499", "en", [(249_900, "CNY"), (499, "EUR")]),
        ("価格は1199ドル、1万9800円", "ja", [(1_199, "USD"), (19_800, "JPY")]),
        ("起售价为25.99万元，约3.5万美元", "zh", [(259_900, "CNY"), (35_000, "USD")]),
    ],
)
def test_an_amount_of_money_has_its_currency(text, lang, readings):
    """Prices were bare numbers, "$1,199" the same as "1199元"; "¥" names no currency (yen or yuan)."""
    assert [(pytest.approx(r.value), r.unit) for r in read(text, lang)] == readings


def test_not_numbers():
    assert read_number("H100") is None
    assert read_number("abc") is None
    assert numerals().value("模型") is None


@pytest.mark.parametrize(
    "text, lang",
    [
        ("アシストは時速25kmまで働く。", "ja"),
        ("助力最高时速 25 公里", "zh"),
        ("assist up to 25 km/h", "en"),
        ("assist up to 25 km per hour", "en"),
    ],
)
def test_a_distance_per_hour_is_a_speed(text, lang):
    """ "時速25km" was a distance of 25 km and contradicted a belt's 30,000 km life (`speeds`)."""
    from ingest.extract.entities import find_entities

    assert [(r.norm, r.unit) for r in read(text, lang)] == [("25", "km/h")]
    assert [e.norm for e in find_entities(text, lang)] == ["25 km/h"]
    assert [r.unit for r in read("续航 120 公里,每小时充电 10 度", "zh")][:1] == ["km"]


def test_a_latin_name_earlier_in_a_cjk_sentence_leaves_a_count_its_noun():
    """ "XRを合わせて9つのプラットフォーム" counts platforms: the capital letters of "XR" and the Japanese
    after them were read as a name the number is a version of; a word a verb ending follows is no
    noun it counts ("150台購入した")."""
    assert [(m.text, m.counted) for m in read("PC、XRを合わせて9つのプラットフォームで", "ja")] == [("9", "platform")]
    assert [(m.text, m.counted) for m in read("Strand Xを150台購入した。", "ja")] == [("150", None)]
    assert [(m.text, m.counted) for m in read("PyTorch 2 系列", "zh")] == [("2", None)]


def test_a_counter_is_the_segment_languages_own():
    """ "23項目" is 23 items in Japanese: "項" counts in Chinese, and "目" after it read as an ordinal
    ("3回目") dropped the number; the counters of another language strip nothing."""
    assert [(m.text, m.counted) for m in read("機能も23項目が実装された。", "ja")] == [("23", "item head categori")]
    assert read("3回目の会合", "ja") == [] and read("二つ目の方法", "ja") == []


def test_a_list_items_label_names_the_unit_of_its_figure():
    """ "Contributors to the release: 312" counts contributors as "312 名贡献者" does; a label no unit
    word opens leaves the figure bare."""
    assert [(m.text, m.unit) for m in read("Contributors to the release: 312", "en")] == [("312", "contributors")]
    assert [(m.text, m.unit) for m in read("- GPUs: 64", "en")] == [("64", "gpus")]
    assert [(m.text, m.unit) for m in read("The ratio: 312", "en")] == [("312", None)]


def test_a_noun_before_a_word_for_the_number_of_names_the_unit():
    """ "パラメーター数15億" is 1.5 billion parameters: "数" after a noun says "the number of", not
    "several" (the figure was dropped as vague), and the noun names the unit; "数十億" stays vague."""
    assert [(m.text, m.unit) for m in read("パラメーター数15億で", "ja")] == [("15億", "parameters")]
    assert read("数十億", "ja") == []
