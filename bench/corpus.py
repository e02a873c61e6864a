"""A deterministic scale corpus made by recombining the real articles' sections.

Source material: the seed articles (`seeds/*.txt`) and, when it is there, the shared
corpus (`../shared/corpus/*.md`). Each source is cleaned with the pipeline's own
cleaner into blocks (headings, paragraphs, list items, table rows) and cut into
*sections*: a heading with the blocks that follow it. A generated document is a title,
a short byline (date and an original-URL line, which also keeps every document's bytes
unique) and whole sections drawn from sources of the same language until a target
length, drawn from a log-normal around the real articles' median, is reached. Whole
sections keep each claim next to the heading that names its subject, so the
extraction and claim stages see realistic input.

Documents are rendered as HTML (a page with navigation, scripts and a footer the
cleaner must drop), Markdown (optionally with front matter, tables as pipe tables) or
plain text, roughly a third each, and about 4 % of them in a legacy encoding
(Shift_JIS for Japanese, GB18030 for Chinese) so the read stage has to detect one.

Document `i` depends only on (`seed`, `i`) and the sources, so the corpus of 100 is
the first 100 documents of the corpus of 1,000. `build_corpus` also writes
`manifest.json` (language, format, encoding and cleaned length of each file), which
`mutate_corpus` uses to change a fraction of the documents in place.
"""

from __future__ import annotations

import json
import math
import random
import shutil
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEEDS_DIR = ROOT / "seeds"
SHARED_CORPUS_DIR = ROOT.parent / "shared" / "corpus"
MANIFEST = "manifest.json"

FORMATS = (("html", ".html"), ("markdown", ".md"), ("text", ".txt"))
LEGACY_ENCODING = {"ja": "shift_jis", "zh": "gb18030"}
LEGACY_SHARE = 0.04
# Cleaned characters per document: log-normal around the real articles (median ~3,600
# cleaned characters, from ~400 to ~8,300), clipped to a plausible range.
LENGTH_MEDIAN = 3200  # whole sections overshoot the target: the corpus median comes out near 3,700
LENGTH_SIGMA = 0.55
LENGTH_RANGE = (500, 12000)


@dataclass(frozen=True)
class Block:
    kind: str
    text: str


@dataclass(frozen=True)
class Section:
    heading: Block | None
    body: tuple[Block, ...]

    @property
    def chars(self) -> int:
        return sum(len(b.text) for b in self.blocks)

    @property
    def blocks(self) -> tuple[Block, ...]:
        return ((self.heading,) if self.heading else ()) + self.body


@dataclass(frozen=True)
class Source:
    name: str
    lang: str
    title: str
    sections: tuple[Section, ...]


@dataclass
class CorpusFile:
    path: str
    lang: str
    fmt: str
    encoding: str
    chars: int
    sources: list[str]


# ---- sources ------------------------------------------------------------------------------


def _source_files(extra_dirs: Sequence[Path] = ()) -> list[Path]:
    files = sorted(SEEDS_DIR.glob("*.txt"))
    for directory in (SHARED_CORPUS_DIR, *extra_dirs):
        if directory.is_dir():
            files += sorted(p for p in directory.iterdir() if p.suffix in (".md", ".txt", ".html"))
    return files


def _sections(blocks: Sequence[Block]) -> list[Section]:
    sections: list[Section] = []
    heading: Block | None = None
    body: list[Block] = []
    for block in blocks:
        if block.kind == "heading":
            if body or heading:
                sections.append(Section(heading, tuple(body)))
            heading, body = block, []
        else:
            body.append(block)
    if body or heading:
        sections.append(Section(heading, tuple(body)))
    # Headings with no body of their own (consecutive headings) lead the next section.
    merged: list[Section] = []
    pending: list[Block] = []
    for section in sections:
        blocks = pending + list(section.blocks)
        if not section.body:
            pending = blocks
            continue
        head = blocks[0] if blocks[0].kind == "heading" else None
        merged.append(Section(head, tuple(blocks[1:] if head else blocks)))
        pending = []
    return merged


@lru_cache(maxsize=4)
def load_sources(extra_dirs: tuple[Path, ...] = ()) -> tuple[Source, ...]:
    """The real articles, cleaned and cut into sections; ja and zh only."""
    from ingest.clean import clean
    from ingest.language import detect_language

    fmt_of = {".md": "markdown", ".txt": "text", ".html": "html"}
    sources = []
    for path in _source_files(extra_dirs):
        cleaned = clean(path.read_text("utf-8"), fmt_of[path.suffix])
        lang = detect_language(cleaned.text).lang
        if lang not in ("ja", "zh") or not cleaned.blocks:
            continue
        blocks = [Block(b.kind, b.text) for b in cleaned.blocks]
        title = str(cleaned.declared.get("title") or "") or next(
            (b.text for b in blocks[:3] if b.kind == "heading" and len(b.text) <= 80), blocks[0].text[:60]
        )
        sections = [s for s in _sections(blocks) if s.body]
        sources.append(Source(path.name, lang, title, tuple(sections)))
    if not sources:
        raise FileNotFoundError(f"no ja/zh source articles found under {SEEDS_DIR}")
    return tuple(sources)


# ---- one document -------------------------------------------------------------------------


def _target_chars(rng: random.Random) -> int:
    value = int(LENGTH_MEDIAN * math.exp(rng.gauss(0.0, LENGTH_SIGMA)))
    return max(LENGTH_RANGE[0], min(LENGTH_RANGE[1], value))


def _byline(lang: str, rng: random.Random, i: int, seed: int) -> list[Block]:
    year, month, day = rng.choice((2022, 2023, 2024, 2025)), rng.randint(1, 12), rng.randint(1, 28)
    url = f"https://news.example.com/{seed}/{i:06d}"
    if lang == "ja":
        return [Block("paragraph", f"公開日: {year}年{month}月{day}日"), Block("paragraph", f"元記事: {url}")]
    return [Block("paragraph", f"发布: {year}年{month}月{day}日"), Block("paragraph", f"原文: {url}")]


def _compose(i: int, seed: int, sources: Sequence[Source]) -> tuple[str, str, str, str, list[Block], list[str]]:
    rng = random.Random(f"ingest-bench:{seed}:{i}")
    by_lang = {lang: [s for s in sources if s.lang == lang] for lang in ("ja", "zh")}
    langs = [lang for lang, group in by_lang.items() if group]
    lang = langs[i % len(langs)] if rng.random() < 0.8 else rng.choice(langs)
    pool = by_lang[lang]
    fmt, suffix = FORMATS[rng.randrange(len(FORMATS))]
    encoding = LEGACY_ENCODING[lang] if fmt != "markdown" and rng.random() < LEGACY_SHARE * 1.5 else "utf-8"
    # Mostly one main source (an article is about one thing), plus sections borrowed from others.
    main = rng.choice(pool)
    title_source = main
    blocks = [Block("heading", title_source.title), *_byline(lang, rng, i, seed)]
    used = [main.name]
    target, chars = _target_chars(rng), 0
    start = rng.randrange(len(main.sections))
    k = 0
    while chars < target:
        if rng.random() < 0.7:
            section = main.sections[(start + k) % len(main.sections)]
            k += 1
        else:
            other = rng.choice(pool)
            section = rng.choice(other.sections)
            if other.name not in used:
                used.append(other.name)
        body = list(section.body)
        if len(body) > 3 and rng.random() < 0.3:  # trim a long section now and then
            cut = rng.randrange(2, len(body))
            body = body[:cut]
        for block in ((section.heading,) if section.heading else ()) + tuple(body):
            blocks.append(block)
            chars += len(block.text)
    return lang, fmt, suffix, encoding, blocks, used


# ---- rendering ----------------------------------------------------------------------------


def _runs(blocks: Sequence[Block]):
    """Consecutive blocks grouped by kind (list items and table rows are rendered together)."""
    run: list[Block] = []
    for block in blocks:
        if run and (block.kind != run[-1].kind or block.kind in ("heading", "paragraph")):
            yield run
            run = []
        run.append(block)
    if run:
        yield run


def _cells(block: Block) -> list[str]:
    return [cell.strip() for cell in block.text.split(" | ")]


def render_markdown(blocks: Sequence[Block], rng: random.Random) -> str:
    out: list[str] = []
    title, rest = blocks[0], blocks[1:]
    if rng.random() < 0.3:
        out.append(f"---\ntitle: {json.dumps(title.text, ensure_ascii=False)}\nlayout: post\n---\n")
    out.append(f"# {title.text}\n")
    for run in _runs(rest):
        kind = run[0].kind
        if kind == "heading":
            out.append(f"## {run[0].text}\n")
        elif kind == "paragraph":
            out.append(run[0].text.replace("|", "\\|") + "\n")
        elif kind == "list_item":
            out.append("\n".join(f"- {b.text}" for b in run) + "\n")
        else:
            rows = [_cells(b) for b in run]
            width = max(len(r) for r in rows)
            rows = [r + [""] * (width - len(r)) for r in rows]
            lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * width]
            lines += ["| " + " | ".join(r) + " |" for r in rows[1:]]
            out.append("\n".join(lines) + "\n")
    return "\n".join(out)


def render_text(blocks: Sequence[Block], rng: random.Random) -> str:
    out: list[str] = []
    for run in _runs(blocks):
        kind = run[0].kind
        if kind == "list_item":
            out.append("\n".join(f"- {b.text}" for b in run))
        elif kind == "table_row":
            out.append("\n".join(b.text for b in run))
        else:
            out.append(run[0].text)
    return "\n\n".join(out) + "\n"


_CHROME_HEAD = (
    '<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="{charset}">\n'
    "<title>{title}</title>\n<style>body{{font-family:sans-serif}} .ad{{display:none}}</style>\n"
    "<script>window.dataLayer=window.dataLayer||[];function gtag(){{dataLayer.push(arguments)}}</script>\n"
    '</head>\n<body>\n<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>'
    '<li><a href="/about">About</a></li></ul></nav>\n<main>\n<article>\n'
)
_CHROME_FOOT = (
    '</article>\n<aside class="ad"><!-- advertisement --></aside>\n</main>\n'
    "<footer><p>© 2024 Example News. All rights reserved.</p></footer>\n"
    '<script src="/static/app.js"></script>\n</body>\n</html>\n'
)


def render_html(blocks: Sequence[Block], rng: random.Random, lang: str, charset: str) -> str:
    title, rest = blocks[0], blocks[1:]
    out = [_CHROME_HEAD.format(lang=lang, charset=charset, title=escape(title.text)), f"<h1>{escape(title.text)}</h1>\n"]
    for run in _runs(rest):
        kind = run[0].kind
        if kind == "heading":
            out.append(f"<h2>{escape(run[0].text)}</h2>\n")
        elif kind == "paragraph":
            out.append(f"<p>{escape(run[0].text)}</p>\n")
        elif kind == "list_item":
            out.append("<ul>\n" + "".join(f"  <li>{escape(b.text)}</li>\n" for b in run) + "</ul>\n")
        else:
            rows = "".join("  <tr>" + "".join(f"<td>{escape(c)}</td>" for c in _cells(b)) + "</tr>\n" for b in run)
            out.append(f"<table>\n{rows}</table>\n")
    out.append(_CHROME_FOOT)
    return "".join(out)


def _encode(text: str, encoding: str) -> tuple[bytes, str]:
    if encoding != "utf-8":
        try:
            return text.encode(encoding), encoding
        except UnicodeEncodeError:
            pass
    return text.encode("utf-8"), "utf-8"


def render(blocks: Sequence[Block], fmt: str, lang: str, encoding: str, rng: random.Random) -> tuple[bytes, str]:
    if fmt == "html":
        charset = {"utf-8": "utf-8", "shift_jis": "Shift_JIS", "gb18030": "GB18030"}[encoding]
        data, used = _encode(render_html(blocks, rng, lang, charset), encoding)
        if used != encoding:  # not encodable: declare what it really is
            data, used = _encode(render_html(blocks, rng, lang, "utf-8"), "utf-8")
        return data, used
    text = render_markdown(blocks, rng) if fmt == "markdown" else render_text(blocks, rng)
    return _encode(text, encoding)


# ---- the corpus ---------------------------------------------------------------------------


def make_document(i: int, seed: int = 0, sources: Sequence[Source] | None = None) -> tuple[str, bytes, CorpusFile]:
    """File name, bytes and description of document `i` of the corpus with `seed`."""
    sources = sources or load_sources()
    lang, fmt, suffix, encoding, blocks, used = _compose(i, seed, sources)
    rng = random.Random(f"ingest-bench-render:{seed}:{i}")
    data, encoding = render(blocks, fmt, lang, encoding, rng)
    name = f"{i // 1000:02d}/{i:06d}_{lang}{suffix}"
    return name, data, CorpusFile(name, lang, fmt, encoding, sum(len(b.text) for b in blocks), used)


def build_corpus(n: int, out_dir: Path, seed: int = 0) -> list[Path]:
    """Write `n` documents under `out_dir` (replacing what was there); return their paths in order.

    Files go in subfolders of 1,000 (`00/000000_ja.html`, ...). Deterministic: the same
    (n, seed) and sources give byte-identical files, and the first m documents of a
    corpus of n > m are the corpus of m.
    """
    out_dir = Path(out_dir)
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    sources = load_sources()
    paths, manifest = [], []
    for i in range(n):
        name, data, info = make_document(i, seed, sources)
        path = out_dir / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        paths.append(path)
        manifest.append(asdict(info))
    (out_dir / MANIFEST).write_text(
        json.dumps({"n": n, "seed": seed, "sources": [s.name for s in sources], "files": manifest}, ensure_ascii=False, indent=0),
        "utf-8",
    )
    return paths


def read_manifest(out_dir: Path) -> list[CorpusFile]:
    data = json.loads((Path(out_dir) / MANIFEST).read_text("utf-8"))
    return [CorpusFile(**f) for f in data["files"]]


def mutate_corpus(out_dir: Path, fraction: float, seed: int = 1) -> list[Path]:
    """Change `fraction` of the documents in place (one paragraph added); return the changed paths."""
    files = read_manifest(out_dir)
    rng = random.Random(f"ingest-bench-mutate:{seed}")
    chosen = sorted(rng.sample(range(len(files)), max(1, round(len(files) * fraction))))
    sources = load_sources()
    changed = []
    for index in chosen:
        info = files[index]
        pool = [b for s in sources if s.lang == info.lang for sec in s.sections for b in sec.body if b.kind == "paragraph"]
        paragraph = rng.choice(pool).text
        path = Path(out_dir) / info.path
        text = path.read_bytes().decode(info.encoding)
        if info.fmt == "html":
            text = text.replace("</article>", f"<p>{escape(paragraph)}</p>\n</article>", 1)
        else:
            text = text.rstrip("\n") + "\n\n" + paragraph + "\n"
        path.write_bytes(_encode(text, info.encoding)[0])
        changed.append(path)
    return changed


def corpus_mix(files: Sequence[CorpusFile]) -> dict[str, dict[str, int]]:
    """Counts by language, format and encoding."""
    mix: dict[str, dict[str, int]] = {"lang": {}, "format": {}, "encoding": {}}
    for f in files:
        for key, value in (("lang", f.lang), ("format", f.fmt), ("encoding", f.encoding)):
            mix[key][value] = mix[key].get(value, 0) + 1
    return mix
