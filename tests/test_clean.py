"""Cleaning: HTML, Markdown and text to typed blocks; chrome, NFKC and whitespace."""

from __future__ import annotations

from ingest.clean import clean
from ingest.records import HEADING, LIST_ITEM, PARAGRAPH, TABLE_ROW, cell_spans


def kinds_texts(cleaned):
    return [(b.kind, b.text) for b in cleaned.blocks]


def test_html_drops_scripts_styles_frames_and_keeps_structure():
    html = (
        "<html><head><style>p{}</style><script>alert(1)</script></head><body><nav>Menu</nav>"
        "<h1>Title ７５％</h1><p>Hello <b>world</b>.</p><iframe src=x></iframe>"
        "<ul><li>one</li></ul><table><tr><td>a</td><td>b</td></tr></table></body></html>"
    )
    assert kinds_texts(clean(html, "html")) == [
        (HEADING, "Title 75%"),
        (PARAGRAPH, "Hello world."),
        (LIST_ITEM, "one"),
        (TABLE_ROW, "a | b"),
    ]


def test_markdown_links_keep_text_images_and_code_blocks_dropped_front_matter_parsed():
    md = (
        '---\ntitle: "T"\ndate: 2024-07-24\n---\n# Head\n\nSee [the docs](https://x.y) ![img](a.png)\n\n'
        "```\ncode()\n```\n\n- item `torch.compile`\n"
    )
    cleaned = clean(md, "markdown")
    assert cleaned.declared["title"] == "T"
    assert kinds_texts(cleaned) == [(HEADING, "Head"), (PARAGRAPH, "See the docs"), (LIST_ITEM, "item torch.compile")]


def test_html_tables_inside_markdown_become_rows():
    md = "<table>\n<tr>\n<td><strong>Beta</strong>\n</td>\n<td>原型\n</td>\n</tr>\n</table>\n"
    assert kinds_texts(clean(md, "markdown")) == [(TABLE_ROW, "Beta | 原型")]


def test_chrome_lines_are_dropped():
    text = "Skip to content\n本文です。\n回到顶部\nBack to top\n"
    assert kinds_texts(clean(text, "text")) == [(PARAGRAPH, "本文です。")]


def test_nfkc_and_whitespace():
    assert clean("速度が　７５％　向上\u200b。", "text").blocks[0].text == "速度が 75% 向上。"


def test_plain_text_headings_and_code_lines():
    text = "安定した機能\n1.BetterTransformer API\nimport functorch\n本文の説明です。"
    assert [b.kind for b in clean(text, "text").blocks] == [HEADING, HEADING, PARAGRAPH, PARAGRAPH]


def test_block_offsets_point_into_the_text():
    cleaned = clean("一行目。\n\n二行目。", "text")
    for offset, block in cleaned.block_offsets():
        assert cleaned.text[offset : offset + len(block.text)] == block.text


def test_markdown_table_keeps_empty_cells_as_columns():
    md = "| Stable | Beta | Prototype |\n|---|---|---|\n|  | NumPy | export |\n| a |  |  |\n|  |  |  |\n"
    rows = [b.text for b in clean(md, "markdown").blocks]
    assert rows == ["Stable | Beta | Prototype", "| NumPy | export", "a |  |"]
    assert [[row[s:e] for s, e in cell_spans(row)] for row in rows] == [
        ["Stable", "Beta", "Prototype"],
        ["", "NumPy", "export"],
        ["a", "", ""],
    ]


def test_markdown_table_pipes_inside_code_spans():
    """GFM: an escaped pipe stays in its cell; an unescaped one ends the cell even inside backticks."""
    md = "| op | meaning |\n|---|---|\n| `a \\| b` | union |\n| `x | y` | cut |\n"
    rows = [b.text for b in clean(md, "markdown").blocks]
    assert rows == ["op | meaning", "a|b | union", "`x | y`"]
    assert [[row[s:e] for s, e in cell_spans(row)] for row in rows][1:] == [["a|b", "union"], ["`x", "y`"]]


MERGED_HEADER_TABLE = (
    '<table><thead><tr><th rowspan="2">Setting</th><th colspan="2">Default</th><th rowspan="2">Meaning</th></tr>'
    "<tr><th>2.2</th><th>2.3</th></tr></thead><tbody>"
    "<tr><td>max_size</td><td>10</td><td>10</td><td>Connections kept open at most</td></tr>"
    "<tr><td>min_idle</td><td></td><td>2</td><td>Connections kept open while idle</td></tr>"
    '<tr><td rowspan="2">lifetime</td><td>30 min</td><td>1 h</td><td></td></tr>'
    "<tr><td>5 min</td><td>10 min</td><td>idle</td></tr></tbody></table>\n"
)
MERGED_HEADER_ROWS = [
    ["Setting", "Default", "", "Meaning"],
    ["", "2.2", "2.3", ""],
    ["max_size", "10", "10", "Connections kept open at most"],
    ["min_idle", "", "2", "Connections kept open while idle"],
    ["lifetime", "30 min", "1 h", ""],
    ["", "5 min", "10 min", "idle"],
]


def table_cells(cleaned) -> list[list[str]]:
    return [[b.text[s:e] for s, e in cell_spans(b.text)] for b in cleaned.blocks if b.kind == TABLE_ROW]


def test_html_tables_with_merged_cells_keep_every_cell_in_its_column():
    """colspan and rowspan leave empty cells where a merged cell continues (trafilatura's layout),
    in a web page (trafilatura) and in an HTML fragment inside Markdown (beautifulsoup4) alike."""
    article = (
        "<p>The pool keeps connections open between queries, so most of them skip the network "
        "round trip, the authentication and the session setup entirely.</p>"
    )
    page = (
        f"<html><body><nav><a href='/'>Home</a></nav><article><h1>Pool</h1>{article}{MERGED_HEADER_TABLE}"
        f"{article}</article></body></html>"
    )
    assert table_cells(clean(page, "html")) == MERGED_HEADER_ROWS
    assert table_cells(clean(f"# Pool\n\n{MERGED_HEADER_TABLE}", "markdown")) == MERGED_HEADER_ROWS


def test_a_page_nested_deeper_than_libxml2_reads_keeps_all_its_text():
    """libxml2 (under trafilatura) stops at 255 levels and silently drops what is deeper and after;
    such a page is read by beautifulsoup4 instead, whole."""
    for depth in (300, 5_000):
        page = (
            "<html><body><p>前の段落です。</p>"
            + "<div>" * depth
            + "<p>深い段落です。</p>"
            + "</div>" * depth
            + "<p>後の段落です。</p></body></html>"
        )
        assert [b.text for b in clean(page, "html").blocks] == ["前の段落です。", "深い段落です。", "後の段落です。"]
