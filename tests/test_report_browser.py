"""The HTML report in a real browser: headless Chromium (Debian package `chromium`) loads the page,
the rendered DOM has every section, the CJK evidence and no console error, and a screenshot is saved;
at 1,400 and 700 px it fits the window, and its find box, section filter, sort and same-page links work.

`make test` installs chromium and fonts-noto-cjk with apt-get when it can; without them this test
skips and says which is missing. Screenshots go to the test's folder, or to docs/screenshots/ with
INGEST_UPDATE_SCREENSHOTS=1 (how the committed ones were made).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from seed_fixtures import ROOT

if TYPE_CHECKING:
    from playwright.sync_api import Page

SECTIONS = ("Summary", "Contradictions", "Corroborations", "Notes", "Sources", "Translation", "Documents")


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    pytest.skip(
        "headless Chromium is not installed (no chromium, chromium-browser or google-chrome on PATH); "
        "`make test` installs the Debian package with apt-get when run as root or with passwordless sudo"
    )


def _cjk_font() -> None:
    fonts = subprocess.run(["fc-list"], capture_output=True, text=True).stdout if shutil.which("fc-list") else ""
    if "CJK" not in fonts:
        pytest.skip(
            "no CJK font is installed (Debian package fonts-noto-cjk), so a screenshot would show boxes; "
            "`make test` installs it with apt-get when run as root or with passwordless sudo"
        )


def _screenshot_dir(tmp_path: Path) -> Path:
    if os.environ.get("INGEST_UPDATE_SCREENSHOTS"):
        return ROOT / "docs" / "screenshots"
    return tmp_path


@contextlib.contextmanager
def browser_page(width: int) -> Iterator[tuple[Page, list[str]]]:
    """A headless Chromium page `width` px wide, and the console errors, page errors and network
    requests it makes (a report makes none)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": width, "height": 900})
            problems: list[str] = []
            page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.on("request", lambda r: problems.append(f"request {r.url}") if not r.url.startswith("file:") else None)
            yield page, problems
        finally:
            browser.close()


def render(page_path: Path, screenshot: Path, width: int = 1280) -> dict:
    """Open the page in headless Chromium; what the DOM shows, the console errors, a screenshot."""
    with browser_page(width) as (page, problems):
        page.goto(page_path.as_uri())
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        # the top of the page: the summary, the contradictions table and the first cards
        height = min(2400, page.evaluate("document.documentElement.scrollHeight"))
        page.screenshot(path=str(screenshot), full_page=True, clip={"x": 0, "y": 0, "width": width, "height": height})
        if page.locator("#c1").count():  # and the first contradiction's card on its own
            page.locator("#c1").screenshot(path=str(screenshot.with_name(screenshot.stem + "-card.png")))
        return {
            "problems": problems,
            "headings": page.eval_on_selector_all("h2", "hs => hs.map(h => h.innerText)"),
            "text": page.inner_text("body"),
            "table_rows": page.eval_on_selector_all("#contradictions tr:has(td)", "rs => rs.length"),
            "cards": page.eval_on_selector_all("#contradictions .card", "cs => cs.length"),
            "marks": page.eval_on_selector_all("#contradictions .card mark", "ms => ms.length"),
            "width": page.evaluate("document.documentElement.scrollWidth"),
        }


def test_seeds_report_in_a_real_browser(seeded_warehouse, tmp_path):
    _chromium()
    _cjk_font()
    shown = render(seeded_warehouse.parent / "reports" / "consistency.html", _screenshot_dir(tmp_path) / "report-seeds.png")
    assert shown["problems"] == []
    for section in SECTIONS:
        assert any(h.startswith(section) for h in shown["headings"]), (section, shown["headings"])
    assert "増強英特尔 GPU 支持" in shown["text"] or "增强英特尔 GPU 支持" in shown["text"]
    assert "ベータ機能" in shown["text"]
    assert shown["table_rows"] == 2 and shown["cards"] == 2 and shown["marks"] >= 2
    assert shown["width"] <= 1280  # nothing forces a horizontal scroll


@pytest.mark.parametrize("width", [1400, 700])
def test_seeds_report_fits_the_window_and_finds_filters_sorts_and_links(seeded_warehouse, tmp_path, width):
    """The find box narrows every section to what matches; the section filter shows one section;
    a header click sorts its table (again: the other way); a summary figure and a table row lead to
    their section and card. Screenshots of the narrow page are kept with the others."""
    _chromium()
    _cjk_font()
    report = seeded_warehouse.parent / "reports" / "consistency.html"
    with browser_page(width) as (page, problems):
        page.goto(report.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no horizontal scroll
        if width == 700:
            page.screenshot(path=str(_screenshot_dir(tmp_path) / "report-seeds-700px.png"))
        assert page.is_visible("#tools") and "items shown" in page.inner_text("#shown")

        def visible(selector: str) -> int:
            return page.eval_on_selector_all(selector, "es => es.filter(e => e.offsetParent !== null).length")

        assert visible("#contradictions .card") == 2
        page.fill("#find", "FlexAttention")
        assert visible("#contradictions .card") == 1 and visible("#contradictions tr:has(td)") == 1
        assert "FlexAttention" in page.inner_text("#contradictions .card:not([hidden])")
        page.fill("#find", "no such words anywhere")
        assert visible(".card") == 0 and page.inner_text("#shown").startswith("0 of ")
        page.fill("#find", "")
        page.select_option("#show", "documents")
        assert visible("#contradictions") == 0 and visible("#documents tr:has(td)") > 0

        first_column = "rs => rs.map(r => r.cells[0].textContent.trim())"
        rows = "#documents tr:has(td)"
        page.click("#documents th >> nth=0")
        ascending = page.eval_on_selector_all(rows, first_column)
        assert len(ascending) > 1 and ascending == page.evaluate("xs => [...xs].sort((a, b) => a.localeCompare(b))", ascending)
        page.click("#documents th >> nth=0")
        assert page.eval_on_selector_all(rows, first_column) == list(reversed(ascending))

        page.select_option("#show", "all")
        source = page.get_attribute("#sources a[data-find] >> nth=0", "data-find")
        page.click("#sources a[data-find] >> nth=0")  # a source's view: what cites it
        assert page.input_value("#find") == source and visible(".card, #corroborations tr:has(td)") > 0
        cited = page.eval_on_selector_all(
            ".card, #corroborations tr:has(td)", "es => es.filter(e => !e.hidden).map(e => e.textContent)"
        )
        assert all(source.lower() in text.lower() for text in cited)
        page.fill("#find", "")
        page.click('#summary a[href="#contradictions"]')
        assert page.evaluate("location.hash") == "#contradictions"
        page.click("#contradictions tr:has(td) a >> nth=0")
        assert page.evaluate("location.hash") == "#c1" and page.is_visible("#c1")
        assert problems == []


@pytest.mark.slow
def test_a_1000_document_report_in_a_real_browser(bench_1000, tmp_path):
    _chromium()
    _cjk_font()
    shown = render(bench_1000.reports / "consistency.html", _screenshot_dir(tmp_path) / "report-1000-documents.png")
    assert shown["problems"] == []
    assert all(any(h.startswith(s) for h in shown["headings"]) for s in SECTIONS)
    assert shown["width"] <= 1280


def test_the_show_menu_narrows_the_page_to_what_is_new_since_the_previous_report(tmp_path):
    from ingest.outputs.files import write_report_files
    from ingest.outputs.findings import Corroboration, ReportData, Summary

    _chromium()

    def report(values: list[str]) -> ReportData:
        corroborations = [Corroboration("flexattention", "speedup", "pytorch 2.5", v, 2, 2, [], []) for v in values]
        return ReportData(
            "now", Summary(2, {"ja": 2}, 2, 0, 0, len(values), 0, 0, 0), [], corroborations, [], [], [], [], {}, [], []
        )

    write_report_files(report(["2x", "3x"]), tmp_path)
    write_report_files(report(["2x", "3x", "4x"]), tmp_path)
    with browser_page(1400) as (page, problems):
        page.goto((tmp_path / "consistency.html").as_uri())
        rows = "#corroborations tr:has(td)"
        shown = f"document.querySelectorAll('{rows}').length - document.querySelectorAll('{rows}[hidden]').length"
        assert page.evaluate(shown) == 3
        page.select_option("#show", "new")
        assert page.evaluate(shown) == 1 and "4x" in page.inner_text(f"{rows}:not([hidden])")
        assert page.inner_text("#shown").startswith("1 of ") and problems == []
