"""Reading web pages as a reader sees them: main text, title and date, against trafilatura alone.

Two page sets: the labelled pages in tests/pages/ (written for these tests: news sites, blogs,
documentation and forum threads in Japanese, Chinese and English, with their furniture), and
pages made at test time from the articles in ../shared, each wrapped in every chrome template
(`page_generator`). Each page is scored for main-text F1 (CJK by character, Latin by word) and
title and date accuracy (`page_scoring`), for trafilatura's default extraction and for the
pipeline's cleaner; no block of ours may hold any of the page's furniture. Run with -s to see
the figures.
"""

from __future__ import annotations

import datetime as dt
import socket
from pathlib import Path

import pytest
import yaml

from page_generator import SHARED, TEMPLATES, generated_pages
from page_scoring import leaks, ours, score, trafilatura_alone

PAGES = Path(__file__).parent / "pages"
# On pages made from ../shared, trafilatura's default keeps a few lists its precision mode (ours)
# leaves out (mostly links or inline code, outside an <article>): measured 0.006-0.028 of F1 below
# it on 5 of 204 pages (the FP6 and Accelerate articles); every other page scores at least as well.
GENERATED_F1_SLACK = 0.03


def _expected_text(main: list[dict]) -> str:
    parts = []
    for item in main:
        ((kind, value),) = item.items()
        parts.append(" | ".join(value) if kind == "row" else value)
    return "\n".join(parts)


def _labelled() -> list[tuple[str, str, dict]]:
    return [
        (path.stem, path.read_text("utf-8"), yaml.safe_load(path.with_suffix(".yaml").read_text("utf-8")))
        for path in sorted(PAGES.glob("*.html"))
    ]


def _line(name: str, mine, theirs) -> str:
    return (
        f"{name:58s} F1 ours {mine.f1:.3f} trafilatura {theirs.f1:.3f} | title {int(mine.title)}/"
        f"{int(theirs.title)} | date {int(mine.date)}/{int(theirs.date)}"
    )


def test_labelled_pages_read_at_least_as_well_as_trafilatura_and_without_furniture():
    assert len(_labelled()) >= 8
    lines, totals = [], {"ours": [0.0, 0, 0], "trafilatura": [0.0, 0, 0]}
    for name, page, label in _labelled():
        text, title, date = _expected_text(label["main"]), label["title"], label["date"]
        assert date is None or isinstance(date, dt.date)
        reading = ours(page)
        mine, theirs = score(reading, text, title, date), score(trafilatura_alone(page), text, title, date)
        lines.append(_line(f"{name} ({label['kind']}, {label['lang']})", mine, theirs))
        for key, result in (("ours", mine), ("trafilatura", theirs)):
            totals[key] = [totals[key][0] + result.f1, totals[key][1] + result.title, totals[key][2] + result.date]
        assert mine.f1 >= theirs.f1, lines[-1]
        assert mine.title >= theirs.title and mine.date >= theirs.date, lines[-1]
        assert leaks(reading, label["furniture"]) == [], name
    print("\n" + "\n".join(lines))
    for key, (f1_sum, titles, dates) in totals.items():
        print(f"{key}: mean F1 {f1_sum / len(lines):.3f}, titles {titles}/{len(lines)}, dates {dates}/{len(lines)}")


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared (the articles the pages are made from) is absent")
def test_pages_made_from_the_shared_articles():
    pages = [
        page
        for shift in range(len(TEMPLATES))
        for page in generated_pages(lambda index, shift=shift: TEMPLATES[(index + shift) % len(TEMPLATES)])
    ]
    assert pages
    by_template: dict[str, list] = {template: [] for template in TEMPLATES}
    lines = []
    for page in pages:
        reading = ours(page.html)
        mine = score(reading, page.main_text, page.title, page.date)
        theirs = score(trafilatura_alone(page.html), page.main_text, page.title, page.date)
        by_template[page.name.rsplit(":", 1)[1]].append((mine, theirs))
        lines.append(_line(page.name, mine, theirs))
        assert leaks(reading, page.furniture) == [], page.name
        assert mine.title >= theirs.title and mine.date >= theirs.date, lines[-1]
        assert mine.f1 >= theirs.f1 - GENERATED_F1_SLACK, lines[-1]
    print("\n" + "\n".join(lines))
    for template, results in by_template.items():
        n = len(results)
        print(
            f"{template}: {n} pages, mean F1 ours {sum(m.f1 for m, _ in results) / n:.3f} trafilatura "
            f"{sum(t.f1 for _, t in results) / n:.3f}; ours below trafilatura on "
            f"{sum(m.f1 < t.f1 for m, t in results)}; titles {sum(m.title for m, _ in results)}/"
            f"{sum(t.title for _, t in results)}, dates {sum(m.date for m, _ in results)}/"
            f"{sum(t.date for _, t in results)}"
        )


def test_reading_pages_opens_no_network_connection(monkeypatch):
    """trafilatura and htmldate can fetch URLs; the cleaner hands them parsed pages only."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"a network connection was attempted: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    for name, page, label in _labelled():
        assert ours(page).title == label["title"], name
