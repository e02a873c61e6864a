"""Property-based tests (hypothesis) of the stages that see raw document content: the reader,
cleaner, segmenter, number normaliser and entity extractors. Arbitrary input never raises
anything unexpected, offsets always point at the text they claim, normalisation is
idempotent. The whole file runs in well under 30 s."""

from __future__ import annotations

import math
import os

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from ingest.clean import clean
from ingest.errors import ReadError
from ingest.extract.entities import find_entities
from ingest.extract.notation import LARGEST_FIGURE, canonical
from ingest.extract.reader import read_number
from ingest.language import detect_language
from ingest.read import decode
from ingest.records import BLOCK_SEPARATOR, Decoded
from ingest.segment import MAX_SEGMENT_CHARS, segment

# INGEST_HYPOTHESIS_SCALE=20 runs twenty times the examples (a deeper search, minutes).
SCALE = float(os.environ.get("INGEST_HYPOTHESIS_SCALE", "1"))
# Deterministic: the same examples in every run (derandomize, no example database), and nothing
# measured on the clock (no deadline, no too_slow health check): a loaded machine cannot fail them.
_STEADY = {
    "deadline": None,
    "derandomize": True,
    "database": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}
FAST = settings(max_examples=int(150 * SCALE), **_STEADY)
MORE = settings(max_examples=int(300 * SCALE), **_STEADY)

# Pieces of the text these stages care about, so random strings hit their rules often.
TOKENS = [
    "PyTorch",
    " 2.5",
    "2.5.1",
    "CUDA 12.4",
    "H100",
    "A100",
    "GPU",
    "75%",
    "最大",
    "約",
    "up to",
    "1.5倍",
    "3x",
    "2万",
    "29.8k",
    "1,000",
    "億",
    "十二",
    "百分之二十",
    "ベータ",
    "beta",
    "prototype",
    "原型",
    "安定版",
    "。",
    "、",
    ". ",
    "! ",
    "？",
    "\n",
    "\n\n",
    " ",
    "\t",
    "「",
    "」",
    "(",
    ")",
    "|",
    "---",
    "# ",
    "- ",
    "1. ",
    "<p>",
    "</p>",
    "<div>",
    "<table><tr><td>",
    "</td></tr></table>",
    "<script>x</script>",
    "<!-- c -->",
    "&amp;",
    "\u200b",
    "\u202e",
    "\ufeff",
    "\u3000",
    "\x00",
    "\r\n",
    "é",
    "한국어",
    "中文",
    "日本語",
    "ｆｕｌｌ",
    "２０２４年１０月",
    "2024-10-17",
    "v2.5",
    "torch.compile",
    "e.g. this",
    "TB",
    "GB",
    "ms",
    "tokens/s",
]
structured_text = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=8)), max_size=40).map("".join)
# Markup shards: what trips HTML and Markdown parsers ('<![0' once made html.parser raise).
MARKUP = [
    "<",
    ">",
    "</",
    "<!",
    "<?",
    "<![",
    "]]>",
    "CDATA[",
    "--",
    "-->",
    "=",
    '"',
    "'",
    " ",
    "a",
    "p",
    "td",
    "tr",
    "script",
    "&",
    "#",
    "x",
    ";",
    "[",
    "]",
    "(",
    ")",
    "*",
    "_",
    "`",
    "|",
    "\n",
    "#",
    "!",
    "/",
    "0",
    "文",
]
markup_text = st.lists(st.sampled_from(MARKUP), max_size=60).map("".join)
any_text = st.one_of(st.text(max_size=300), structured_text, markup_text)
FORMATS = ["text", "markdown", "html"]


# ---- reader -----------------------------------------------------------------------------

encoded_text = st.tuples(
    st.text(max_size=200),
    st.sampled_from(
        [
            "utf-8",
            "utf-8-sig",
            "utf-16",
            "utf-16-le",
            "utf-16-be",
            "shift_jis",
            "euc_jp",
            "gb18030",
            "big5",
            "latin-1",
            "cp1252",
            "iso2022_jp",
        ]
    ),
).map(lambda pair: pair[0].encode(pair[1], errors="ignore"))
raw_bytes = st.one_of(
    st.binary(max_size=600), encoded_text, st.tuples(encoded_text, st.binary(max_size=8), encoded_text).map(lambda t: b"".join(t))
)


@FAST
@given(raw_bytes)
@example(b"")
@example(b"\xff\xfe")  # a UTF-16 BOM and nothing else
@example(b"\xef\xbb\xbf \n")  # a UTF-8 BOM and whitespace
@example(b"a\x00" * 10 + b"\x00\xd8")  # UTF-16LE ending in half a surrogate pair
@example(b"\x1b$B")  # an ISO-2022-JP escape and nothing else
def test_reader_returns_text_or_read_error(raw):
    try:
        decoded = decode(raw)
    except ReadError as error:
        assert str(error)  # a reason, always
        return
    assert isinstance(decoded, Decoded) and isinstance(decoded.text, str) and decoded.text.strip()
    assert decoded.encoding and (decoded.warning is None or decoded.warning.startswith("warning:"))
    decoded.text.encode("utf-8")  # storable: no lone surrogates


@FAST
@given(st.text(min_size=1, max_size=200).filter(str.strip))
def test_reader_round_trips_utf8(text):
    assume("\x00" not in text[:1000])
    assert decode(text.encode("utf-8")).text == text


# ---- cleaner and segmenter --------------------------------------------------------------


@FAST
@given(any_text, st.sampled_from(FORMATS))
@example("<div>" * 3000 + "x", "html")
@example("> " * 500 + "x", "markdown")
@example("---\ndate: 2024-13-45\n---\nx", "markdown")
@example("---\na: [" + "[" * 2000 + "\n---\nx", "markdown")
@example("<![0", "html")  # html.parser raised AssertionError (bs4: ParserRejectedMarkup)
@example("<a " * 3000, "html")
@example("<!--" * 3000, "markdown")
def test_cleaner_never_raises_and_yields_clean_lines(text, fmt):
    cleaned = clean(text, fmt)
    for block in cleaned.blocks:
        assert block.text and block.text == block.text.strip() and "\n" not in block.text
        assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or c in "\u200b\u202e\ufeff" for c in block.text)
    assert cleaned.text == BLOCK_SEPARATOR.join(b.text for b in cleaned.blocks)


@FAST
@given(any_text, st.sampled_from(FORMATS))
@example("a" * 2000, "text")
@example("。" * 900, "text")
def test_segment_offsets_slice_the_cleaned_text(text, fmt):
    cleaned = clean(text, fmt)
    full = cleaned.text
    previous_end = 0
    for index, seg in enumerate(segment(cleaned)):
        assert seg.seg_idx == index
        assert full[seg.char_start : seg.char_end] == seg.text
        assert seg.text and seg.text == seg.text.strip() and len(seg.text) <= MAX_SEGMENT_CHARS
        assert seg.char_start >= previous_end
        previous_end = seg.char_end


@FAST
@given(any_text, st.sampled_from([None, "ja", "zh", "en"]))
def test_language_detection_never_raises(text, context):
    guess = detect_language(text, context)
    assert guess.lang and 0.0 <= guess.confidence <= 1.0


# ---- numbers ----------------------------------------------------------------------------

number_text = st.one_of(
    st.from_regex(r"\A[0-9０-９]{1,25}(?:[.,][0-9]{1,12})?(?: ?[万萬亿億兆kKMBT]|千万|百万)?\Z"),
    st.from_regex(r"\A[〇零一二两三四五六七八九十百千万億亿]{1,8}\Z"),
    st.text(alphabet="0123456789.,kKMBT万億十百千一二三 ", max_size=30),
    st.text(max_size=30),
)


@MORE
@given(number_text)
@example("9" * 400)  # overflows to infinity
@example("0.00000015")  # would print as 1.5e-07
@example("1" * 19)  # past the integer fast path
def test_read_number_never_raises_and_canonical_is_idempotent(text):
    number = read_number(text)
    if number is None:
        return
    assert number.tol >= 0 or math.isnan(number.tol)
    form = canonical(number.value)
    assert "e" not in form.lower() or not math.isfinite(number.value)
    if not math.isfinite(number.value):
        return
    again = read_number(form)
    assert again is not None, form
    assert canonical(again.value) == form


@MORE
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_canonical_never_raises(value):
    form = canonical(value)
    if math.isfinite(value) and 0 <= value <= LARGEST_FIGURE:
        assert canonical(read_number(form).value) == form
    elif math.isfinite(value) and value > LARGEST_FIGURE:  # beyond any figure prose states: no figure
        assert read_number(form) is None


# ---- extractors -------------------------------------------------------------------------


@FAST
@given(any_text, st.sampled_from(["ja", "zh", "en", "ko"]))
def test_entities_never_raise_and_offsets_point_at_their_text(text, lang):
    for entity in find_entities(text, lang):
        assert 0 <= entity.start < entity.end <= len(text)
        assert text[entity.start : entity.end] == entity.text


@pytest.mark.parametrize("lang", ["ja", "zh", "en"])
def test_entities_on_cleaned_segments_point_at_the_segment(lang):
    """The same property on the pipeline's own path: cleaned, segmented, then extracted."""
    sample = (
        "PyTorch 2.5 では H100 上で SDPA が最大 75% 高速化、1.5倍の速度。CUDA 12.4 と 12.6 に対応。"
        "百分之二十 的提升, up to 3x faster, 2万 tokens, 29.8k GPU hours. ベータ版 FlexAttention."
    )
    for seg in segment(clean(sample, "text")):
        for entity in find_entities(seg.text, lang):
            assert seg.text[entity.start : entity.end] == entity.text
