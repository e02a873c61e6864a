"""A realistic benchmark corpus: distinct articles, each in one to three renderings, with labels.

bench/corpus.py recombines the sections of ~11 real articles, so at 1,000 documents every two
documents of a language share most of their names: no anchor is rare and no pair is a rendering.
Real collections are the other way round: many distinct articles, a few translations of each.
Here every article is the write-up of one release of an invented product (names from syllables,
features from two parts, the hardware and dependencies many articles share), its facts drawn from
the parallel sentences of bench/articles.yaml (versions, percentages, multipliers, counts, dates,
maturity labels, among sentences without figures), in sections of paragraphs and lists.

An article is written in one language (English 60 %, Japanese and Chinese 20 % each) and rendered
in 0-2 others, a rendering translated now and then from another revision (a figure changed, a
sentence left out); some English originals also leave an earlier draft (a figure changed, a
sentence missing). A quarter of the releases get an independent write-up too (another article:
about half of the original's facts, its own others, retold with "according to the announcement"),
and a quarter of the products come back with another release. Labels: `articles.json`, each file's
article, release and role; renderings of one article (drafts included) are the labelled pairs.

Document `i` depends only on (`seed`, its group) and the data, so the first m documents of a corpus
of n > m are the corpus of m (but for the last group's cut).
"""

from __future__ import annotations

import argparse
import calendar
import itertools
import json
import random
import shutil
from collections.abc import Collection
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from bench.corpus import FORMATS, LEGACY_ENCODING, LEGACY_SHARE, Block, render

DATA = Path(__file__).with_name("articles.yaml")
LABELS = "articles.json"
LANGS = ("en", "ja", "zh")
ORIGINAL_LANG_WEIGHTS = (0.6, 0.2, 0.2)
RENDERINGS_WEIGHTS = (0.4, 0.35, 0.25)  # an article in 1, 2 or 3 languages
CHANGED_RENDERING = 0.25  # a rendering translated from another revision: one figure differs
SHORTER_RENDERING = 0.3  # ...or one sentence left out
DRAFT = 0.1  # an English original's earlier draft kept beside it
WRITEUP = 0.25  # an independent write-up of the same release
RETURNING_PRODUCT = 0.25  # another release of an earlier product
FACT_SHARE = 0.65  # of a paragraph's sentences; the rest have no figures
SENTENCE_JOIN = {"en": " ", "ja": "", "zh": ""}


@lru_cache(maxsize=1)
def data() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(DATA.read_text("utf-8"))
    return loaded


@dataclass(frozen=True)
class Sentence:
    """One fact (its kind and slots) or a sentence without figures (`filler` index)."""

    kind: str
    slots: tuple[tuple[str, Any], ...] = ()
    filler: int = -1
    reported: bool = False  # retold by a write-up ("according to the announcement, ...")
    place: str = ""  # where the article states it ("section.sentence"): a revision's changes are labelled by it


@dataclass
class Article:
    key: str
    release: dict[str, str]
    writeup: bool
    sections: list[tuple[int, str, list[Sentence]]] = field(default_factory=list)  # heading, block kind, sentences
    changed: dict[str, str] = field(default_factory=dict)  # place -> the slot another revision states otherwise
    omitted: list[str] = field(default_factory=list)  # places another revision leaves out


@dataclass
class LabelledFile:
    path: str
    lang: str
    fmt: str
    article: str
    release: str
    role: str  # original | rendering | draft | writeup
    changed: dict[str, str] = field(default_factory=dict)  # against the article's original: place -> slot
    omitted: list[str] = field(default_factory=list)


# ---- releases and facts -------------------------------------------------------------------


def _name(rng: random.Random) -> str:
    return "".join(rng.choice(data()["syllables"]) for _ in range(rng.choice((2, 2, 3)))).capitalize()


def _release(group: int, seed: int) -> dict[str, str]:
    rng = random.Random(f"articles-release:{seed}:{group}")
    if group and rng.random() < RETURNING_PRODUCT:
        product = _release(rng.randrange(group), seed)["product"]
    else:
        product = _name(rng)
    major, minor = rng.randint(1, 12), rng.randint(1, 30)
    year, month, day = rng.choice((2023, 2024, 2025)), rng.randint(1, 12), rng.randint(1, 28)
    return {
        "product": product,
        "version": f"{major}.{minor}",
        "previous": f"{major}.{minor - 1}",
        "next": f"{major}.{minor + 2}",
        "date": f"{year:04d}-{month:02d}-{day:02d}",
        "url": f"https://{product.lower()}.example.org/blog/{major}-{minor}-release",
    }


def _features(rng: random.Random) -> list[str]:
    first, second = data()["feature_parts"]
    return [rng.choice(first) + rng.choice(second) for _ in range(rng.randint(4, 8))]


ONCE = ("released_on", "contributions")  # facts an article states once


def _fact(rng: random.Random, features: list[str], stated: set[tuple[str, str]]) -> Sentence:
    """A fact not yet stated: a kind of fact once per feature (once at all for `ONCE`)."""
    d = data()
    if len(stated) >= len(ONCE) + (len(d["facts"]) - len(ONCE)) * len(set(features)):
        return Sentence("filler", filler=0)  # every fact of these features stated (a long article with few)
    while True:
        kind, feature = rng.choice(sorted(d["facts"])), rng.choice(features)
        key = (kind, "" if kind in ONCE else feature)
        if key not in stated:
            stated.add(key)
            break
    slots = {
        "F": feature,
        "G": rng.choice(d["hardware"]),
        "D": rng.choice(d["dependencies"]),
        "dv": f"{rng.randint(1, 20)}.{rng.randint(0, 9)}",
        "pct": rng.randint(5, 95),
        "x": rng.choice((1.3, 1.5, 1.8, 2, 2.5, 3, 4, 6, 10)),
        "n": rng.randint(120, 9000),
        "m": rng.randint(12, 800),
        "k": rng.choice((8, 16, 32, 64, 128, 256)),
        "gb": rng.choice((8, 16, 24, 40, 48, 80, 141, 192)),
        "status": rng.randrange(len(d["statuses"])),
        "topic": rng.randrange(len(d["topics"])),
    }
    return Sentence(kind, tuple(sorted(slots.items())))


def _changed(sentence: Sentence, rng: random.Random) -> tuple[Sentence, str]:
    """The fact with one figure of its sentence changed (as another revision states it), and its slot."""
    slots = dict(sentence.slots)
    slot = rng.choice(_figures(sentence))
    value = slots[slot]
    if slot == "dv":
        major, minor = value.split(".")
        slots[slot] = f"{major}.{int(minor) + 1}"
    elif slot == "x":
        slots[slot] = value + 1
    elif slot == "pct":
        slots[slot] = value + 3 if value < 90 else value - 10
    else:
        slots[slot] = value * 2
    return replace(sentence, slots=tuple(sorted(slots.items()))), slot


def _article(group: int, seed: int, writeup: bool = False, base: Article | None = None) -> Article:
    d = data()
    release = _release(group, seed)
    rng = random.Random(f"articles-{'writeup' if writeup else 'article'}:{seed}:{group}")
    features = _features(random.Random(f"articles-features:{seed}:{group}"))
    retold = [s for _, _, body in (base.sections if base else []) for s in body if s.filler < 0]
    article = Article(f"{seed}-{group}{'w' if writeup else ''}", release, writeup)
    fillers = list(range(len(d["fillers"])))
    rng.shuffle(fillers)
    stated: set[tuple[str, str]] = set()
    for i, heading in enumerate(sorted(rng.sample(range(len(d["headings"])), rng.randint(4, 7)))):
        kind = "list_item" if rng.random() < 0.25 else "paragraph"
        body = []
        for j in range(rng.randint(3, 7)):
            if rng.random() >= FACT_SHARE and fillers:
                sentence = Sentence("filler", filler=fillers.pop())
            elif retold and rng.random() < 0.5:
                sentence = replace(retold.pop(rng.randrange(len(retold))), reported=rng.random() < 0.5)
            else:
                sentence = _fact(rng, features, stated)
            body.append(replace(sentence, place=f"{i}.{j}"))
        article.sections.append((heading, kind, body))
    return article


# ---- rendering ----------------------------------------------------------------------------


def _date(iso: str, lang: str) -> str:
    year, month, day = (int(part) for part in iso.split("-"))
    if lang == "en":
        return f"{calendar.month_name[month]} {day}, {year}"
    return f"{year}年{month}月{day}日"


def _text(sentence: Sentence, lang: str, release: dict[str, str]) -> str:
    d = data()
    index = LANGS.index(lang)
    if sentence.filler >= 0:
        return str(d["fillers"][sentence.filler][index])
    slots = dict(sentence.slots)
    values = {
        **slots,
        "P": release["product"],
        "V": release["version"],
        "Vp": release["previous"],
        "Vn": release["next"],
        "date": _date(release["date"], lang),
        "status": d["statuses"][slots["status"]][index],
        "topic": d["topics"][slots["topic"]][index],
    }
    text = str(d["facts"][sentence.kind][index]).format(**values)
    if sentence.reported:
        lead = str(d["byline"]["reported"][index])
        text = lead + (text[0].lower() + text[1:] if lang == "en" and not text[:2].isupper() else text)
    return text


def _blocks(article: Article, lang: str, byline: list[str]) -> list[Block]:
    d = data()
    index = LANGS.index(lang)
    release = article.release
    title = d["titles"]["writeup" if article.writeup else "article"][index].format(P=release["product"], V=release["version"])
    blocks = [Block("heading", title)]
    date = _date(release["date"], lang)
    blocks += [Block("paragraph", d["byline"][line][index].format(date=date, url=release["url"])) for line in byline]
    for heading, kind, body in article.sections:
        blocks.append(Block("heading", d["headings"][heading][index]))
        texts = [_text(s, lang, release) for s in body]
        if kind == "list_item":
            blocks += [Block("list_item", t) for t in texts]
        else:  # one or two paragraphs
            cut = len(texts) // 2 if len(texts) > 4 else len(texts)
            for part in (texts[:cut], texts[cut:]):
                if part:
                    blocks.append(Block("paragraph", SENTENCE_JOIN[lang].join(part)))
    return blocks


def _revised(article: Article, rng: random.Random, change: bool, shorten: bool) -> Article:
    """Another revision of the article: one figure changed and/or one sentence left out."""
    sections = [(h, k, list(body)) for h, k, body in article.sections]
    places = [(i, j) for i, (_, _, body) in enumerate(sections) for j in range(len(body))]
    changed: dict[str, str] = {}
    omitted: list[str] = []
    if change:
        figures = [(i, j) for i, j in places if sections[i][2][j].filler < 0 and _figures(sections[i][2][j])]
        if figures:
            i, j = rng.choice(figures)
            sections[i][2][j], slot = _changed(sections[i][2][j], rng)
            changed[sections[i][2][j].place] = slot
    if shorten:
        i, j = rng.choice(places)
        if len(sections[i][2]) > 1:
            omitted.append(sections[i][2].pop(j).place)
            changed.pop(omitted[-1], None)
    return replace(article, sections=sections, changed=changed, omitted=omitted)


def _figures(sentence: Sentence) -> tuple[str, ...]:
    """The slots of a fact's sentence a revision may state otherwise ("pct", "x", ...)."""
    text = data()["facts"][sentence.kind][0]
    return tuple(slot for slot in ("pct", "x", "n", "m", "k", "gb", "dv") if "{" + slot + "}" in text)


def _group(group: int, seed: int) -> list[tuple[str, str, Article, list[str]]]:
    """The documents of one release: (language, role, article, byline lines)."""
    rng = random.Random(f"articles-group:{seed}:{group}")
    original = _article(group, seed)
    lang = rng.choices(LANGS, ORIGINAL_LANG_WEIGHTS)[0]
    docs = [(lang, "original", original, ["published"])]
    others = [other for other in LANGS if other != lang]
    rng.shuffle(others)
    for other in others[: rng.choices((0, 1, 2), RENDERINGS_WEIGHTS)[0]]:
        revised = _revised(original, rng, rng.random() < CHANGED_RENDERING, rng.random() < SHORTER_RENDERING)
        docs.append((other, "rendering", revised, ["published", "original"]))
    if lang == "en" and rng.random() < DRAFT:
        docs.append(("en", "draft", _revised(original, rng, True, True), ["published"]))
    if rng.random() < WRITEUP:
        writeup = _article(group, seed, writeup=True, base=original)
        docs.append((rng.choice(LANGS), "writeup", writeup, ["published", "original"] if rng.random() < 0.5 else ["published"]))
    return docs


def documents(n: int, seed: int = 0):
    """The first `n` documents: (index, language, role, article, byline lines)."""
    produced = 0
    for group in itertools.count():
        for lang, role, article, byline in _group(group, seed):
            if produced == n:
                return
            yield produced, lang, role, article, byline
            produced += 1


def build_articles(n: int, out_dir: Path, seed: int = 0) -> list[LabelledFile]:
    """Write `n` documents and their labels (`articles.json`) under `out_dir`, replacing what was there."""
    out_dir = Path(out_dir)
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    files = []
    for i, lang, role, article, byline in documents(n, seed):
        rng = random.Random(f"articles-render:{seed}:{i}")
        fmt, suffix = FORMATS[rng.randrange(len(FORMATS))]
        legacy = lang in LEGACY_ENCODING and fmt != "markdown" and rng.random() < LEGACY_SHARE * 1.5
        encoding = LEGACY_ENCODING[lang] if legacy else "utf-8"
        payload, _ = render(_blocks(article, lang, byline), fmt, lang, encoding, rng)
        name = f"{i // 1000:02d}/{i:06d}_{lang}{suffix}"
        (out_dir / name).parent.mkdir(exist_ok=True)
        (out_dir / name).write_bytes(payload)
        release = f"{article.release['product']} {article.release['version']}"
        files.append(LabelledFile(name, lang, fmt, article.key, release, role, article.changed, article.omitted))
    (out_dir / LABELS).write_text(json.dumps([asdict(f) for f in files], ensure_ascii=False, indent=0), "utf-8")
    return files


def read_labels(out_dir: Path) -> list[LabelledFile]:
    return [LabelledFile(**f) for f in json.loads((Path(out_dir) / LABELS).read_text("utf-8"))]


def labelled_pairs(files: list[LabelledFile]) -> set[tuple[str, str]]:
    """Renderings of one article (drafts included), as pairs of paths in order."""
    by_article: dict[str, list[str]] = {}
    for f in files:
        by_article.setdefault(f.article, []).append(f.path)
    return {tuple(sorted(pair)) for paths in by_article.values() for pair in itertools.combinations(paths, 2)}  # type: ignore[misc]


def labelled_changes(files: list[LabelledFile], paired: Collection[str] | None = None) -> dict[str, int]:
    """Per article, the figures its renderings state differently: for each fact, the values its
    renderings (of `paired` ones, if given) state, less one. Every change is of a fact its revision
    states, so a fact stated alike by all is none; two revisions changing one slot of a fact agree."""
    changes: dict[str, int] = {}
    by_article: dict[str, list[LabelledFile]] = {}
    for f in files:
        if paired is None or f.path in paired:
            by_article.setdefault(f.article, []).append(f)
    for article, group in by_article.items():
        places = {p for f in group for p in f.changed} | {p for f in group for p in f.omitted}
        changes[article] = sum(max(0, len({f.changed.get(p, "") for f in group if p not in f.omitted}) - 1) for p in places)
    return changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    files = build_articles(args.n, args.out, args.seed)
    roles: dict[str, int] = {}
    for f in files:
        roles[f.role] = roles.get(f.role, 0) + 1
    print(json.dumps({"files": len(files), "roles": roles, "labelled_pairs": len(labelled_pairs(files))}))


if __name__ == "__main__":
    main()
