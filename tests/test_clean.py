"""Cleaning: HTML, Markdown and text to typed blocks; chrome, NFKC and whitespace."""

from __future__ import annotations

from ingest.clean import clean
from ingest.records import HEADING, LIST_ITEM, PARAGRAPH, TABLE_ROW, cell_spans


def kinds_texts(cleaned):
    return [(b.kind, b.text) for b in cleaned.blocks]


def test_html_drops_scripts_styles_frames_and_keeps_structure():
    html = ("<html><head><style>p{}</style><script>alert(1)</script></head><body><nav>Menu</nav>"
            "<h1>Title ７５％</h1><p>Hello <b>world</b>.</p><iframe src=x></iframe>"
            "<ul><li>one</li></ul><table><tr><td>a</td><td>b</td></tr></table></body></html>")
    assert kinds_texts(clean(html, "html")) == [
        (HEADING, "Title 75%"), (PARAGRAPH, "Hello world."), (LIST_ITEM, "one"), (TABLE_ROW, "a | b")]


def test_markdown_links_keep_text_images_and_code_blocks_dropped_front_matter_parsed():
    md = ("---\ntitle: \"T\"\ndate: 2024-07-24\n---\n# Head\n\nSee [the docs](https://x.y) ![img](a.png)\n\n"
          "```\ncode()\n```\n\n- item `torch.compile`\n")
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
        assert cleaned.text[offset:offset + len(block.text)] == block.text


def test_markdown_table_keeps_empty_cells_as_columns():
    md = "| Stable | Beta | Prototype |\n|---|---|---|\n|  | NumPy | export |\n| a |  |  |\n|  |  |  |\n"
    rows = [b.text for b in clean(md, "markdown").blocks]
    assert rows == ["Stable | Beta | Prototype", "| NumPy | export", "a |  |"]
    assert [[row[s:e] for s, e in cell_spans(row)] for row in rows] == [
        ["Stable", "Beta", "Prototype"], ["", "NumPy", "export"], ["a", "", ""]]


def test_markdown_table_pipes_inside_code_spans():
    """GFM: an escaped pipe stays in its cell; an unescaped one ends the cell even inside backticks."""
    md = "| op | meaning |\n|---|---|\n| `a \\| b` | union |\n| `x | y` | cut |\n"
    rows = [b.text for b in clean(md, "markdown").blocks]
    assert rows == ["op | meaning", "a|b | union", "`x | y`"]
    assert [[row[s:e] for s, e in cell_spans(row)] for row in rows][1:] == [["a|b", "union"], ["`x", "y`"]]
