"""Web pages made at test time from the articles in ../shared (corpus*, seeds), each wrapped in
the chrome of a news site, a blog, a documentation page or a forum thread.

The articles are third-party text and stay in ../shared: nothing here copies them into the
repository. Each page's labels come from the article itself: its main text is the text of the
article's own HTML (Markdown rendered by markdown-it; code blocks, images and the lines the
project counts as web chrome, `clean/chrome.txt`, are no text), its
title the front matter's or the first heading's, its date the one the chrome declares. The
chrome (written for these tests) carries teasers with figures, navigation, cookie banners,
share bars and comments, listed as furniture that must not reach any block.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import re
from dataclasses import dataclass
from pathlib import Path

import lxml.html
import yaml
from markdown_it import MarkdownIt

from ingest.clean.normalize import chrome_lines

SHARED = Path(__file__).resolve().parents[2] / "shared"
TEMPLATES = ("news", "blog", "doc", "forum")
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*\n", re.S)
_KANA = re.compile(r"[\u3040-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")

# The chrome's words per language: every string here is page furniture.
CHROME = {
    "ja": {
        "site": "デブニュース",
        "nav": ["トップ", "ニュース一覧", "クラウド・インフラ", "生成AI特集", "イベント情報"],
        "account": ["ログイン", "無料会員登録", "お問い合わせ窓口"],
        "teasers": [
            "新型GPUで学習が50%高速化、その理由を徹底解説",
            "推論サーバーの応答が3倍速くなる設定10選",
            "メモリ使用量を40%削減した移行事例",
        ],
        "popular": "人気記事ランキング",
        "related": "あわせて読みたい",
        "related_items": ["分散学習フレームワーク比較2024年版", "コンテナ起動時間を70%短縮する方法"],
        "share": "この記事を共有する",
        "cookie": "当サイトはサービス向上のためCookieを利用しています。引き続き閲覧すると同意したものとみなされます。",
        "comments": "読者コメント",
        "comment_items": ["手元の環境では2倍以上速くなりました。", "移行手順の続編を期待しています。"],
        "footer": "本サイトに掲載の記事の無断転載を禁じます",
        "by": "文",
    },
    "zh": {
        "site": "极客日报",
        "nav": ["首页", "资讯中心", "人工智能专区", "云原生", "开发者社区"],
        "account": ["登录", "免费注册", "联系我们"],
        "teasers": ["新一代显卡训练速度提升50%，原因全解析", "推理延迟降低3倍的十个配置技巧", "内存占用减少40%的迁移实践"],
        "popular": "本周热门文章",
        "related": "相关阅读推荐",
        "related_items": ["2024年分布式训练框架横向对比", "容器启动时间缩短70%的方法"],
        "share": "分享到朋友圈",
        "cookie": "本站使用Cookie以提供更好的浏览体验，继续访问即视为您同意我们的Cookie政策。",
        "comments": "全部评论",
        "comment_items": ["实测速度快了两倍多，感谢分享！", "期待后续的迁移教程。"],
        "footer": "未经许可不得转载本站内容",
        "by": "作者",
    },
    "en": {
        "site": "DevDaily",
        "nav": ["Home", "Latest news", "Cloud and infrastructure", "AI weekly", "Events calendar"],
        "account": ["Sign in", "Create a free account", "Contact the editors"],
        "teasers": [
            "New GPUs make training 50% faster: what changed",
            "Ten settings that make inference servers 3x faster",
            "How one team cut memory use by 40% during a migration",
        ],
        "popular": "Most read this week",
        "related": "Read next",
        "related_items": ["Distributed training frameworks compared for 2024", "Cutting container start times by 70%"],
        "share": "Share this article",
        "cookie": "This site uses cookies to improve your experience. By continuing to browse you accept our cookie policy.",
        "comments": "Reader comments",
        "comment_items": ["It got more than twice as fast on my machine.", "Looking forward to the follow-up on migration."],
        "footer": "No part of this site may be reproduced without permission",
        "by": "By",
    },
}
AUTHOR = "Alex Example"


@dataclass(frozen=True)
class GeneratedPage:
    name: str  # source file and template, for test ids
    html: str
    main_text: str  # the article's text, as its own HTML shows it
    title: str
    date: dt.date
    furniture: tuple[str, ...]


def sources() -> list[Path]:
    """The distinct articles of ../shared (a file in two corpora once), empty without ../shared."""
    files = sorted(SHARED.glob("corpus*/*.md")) + sorted(SHARED.glob("seeds/*.txt"))
    seen, distinct = set(), []
    for path in files:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if path.name not in ("README.md", "LABELS.md") and digest not in seen:
            seen.add(digest)
            distinct.append(path)
    return distinct


def _language(path: Path, text: str) -> str:
    for code in ("ja", "zh", "en"):
        if f"_{code}_" in path.name:
            return code
    return "ja" if len(_KANA.findall(text)) > 20 else "zh" if _HAN.search(text) else "en"


def _article(path: Path) -> tuple[str, str]:
    """(title, the article's HTML) of a Markdown or plain-text article."""
    text = path.read_text("utf-8")
    title = ""
    match = _FRONT_MATTER.match(text)
    if match:
        front = yaml.safe_load(match.group(1)) or {}
        title, text = str(front.get("title") or ""), text[match.end() :]
    if path.suffix == ".txt":  # a page saved as text: its chrome lines ("回到顶部") are no article text
        lines = [line.strip() for line in text.splitlines() if line.strip() and line.strip().casefold() not in chrome_lines()]
        return lines[0], "".join(f"<p>{html.escape(line)}</p>\n" for line in lines[1:])
    body = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    heading = re.match(r"\s*(?:<div[^>]*>\s*)?<h1>(.*?)</h1>", body, re.S)
    if heading and (not title or _text(heading.group(1)) == title):
        title = title or _text(heading.group(1))
        body = body[: heading.start(1) - 4] + body[heading.end() :]  # the headline is the page's <h1>
    return title or path.stem, body


def _text(fragment: str) -> str:
    """The text of an HTML fragment as a reader sees it: no code blocks, images, scripts."""
    root = lxml.html.document_fromstring(f"<html><body>{fragment}</body></html>").body
    for hidden in root.xpath(".//pre|.//img|.//script|.//style|.//svg"):
        hidden.drop_tree()
    return " ".join(root.text_content().split())


def _date(path: Path) -> dt.date:
    return dt.date(2023, 1, 1) + dt.timedelta(days=int(hashlib.sha256(path.name.encode()).hexdigest(), 16) % 900)


def _items(texts: list[str], link: bool = True) -> str:
    return "".join(f'<li><a href="/a/{i}">{t}</a></li>' if link else f"<li>{t}</li>" for i, t in enumerate(texts))


def _chrome(template: str, lang: str, title: str, date: dt.date, body: str) -> str:
    c = CHROME[lang]
    stamp = f"{date.isoformat()}T09:00:00+00:00"
    header = (
        f'<header class="site-header"><a class="logo" href="/">{c["site"]}</a>'
        f'<ul class="account">{_items(c["account"])}</ul></header>'
        f'<nav class="global-nav"><ul>{_items(c["nav"])}</ul></nav>'
    )
    cookie = f'<div class="cookie-consent" role="dialog"><p>{c["cookie"]}</p><button>OK</button></div>'
    share = f'<div class="share-buttons"><span>{c["share"]}</span> <a href="#">X</a> <a href="#">Facebook</a></div>'
    popular = f'<aside class="sidebar"><h3>{c["popular"]}</h3><ol>{_items(c["teasers"])}</ol></aside>'
    related = f'<section class="related"><h2>{c["related"]}</h2><ul>{_items(c["related_items"])}</ul></section>'
    comments = (
        '<section class="comments" id="comments"><h2>'
        + c["comments"]
        + "</h2>"
        + "".join(
            f'<div class="comment"><p class="comment-author">user{i}</p><p>{t}</p></div>'
            for i, t in enumerate(c["comment_items"])
        )
        + "</section>"
    )
    footer = f'<footer class="site-footer"><p>{c["footer"]}</p><p>© {date.year} {c["site"]}</p></footer>'
    head = f"<title>{html.escape(title)} | {c['site']}</title>"
    if template == "news":
        head += (
            f'<meta property="og:title" content="{html.escape(title)}"><meta property="article:published_time" content="{stamp}">'
        )
        page = (
            f'{cookie}{header}<main><article><h1>{html.escape(title)}</h1><p class="byline">{c["by"]} {AUTHOR} '
            f'<time datetime="{stamp}">{date.isoformat()}</time></p>{share}<div class="article-body">{body}</div>'
            f"</article>{related}{comments}</main>{popular}{footer}"
        )
    elif template == "blog":
        page = (
            f'{header}<div id="content"><article class="entry"><div class="entry-date"><time datetime="{stamp}">'
            f'{date.isoformat()}</time></div><h1 class="entry-title">{html.escape(title)}</h1>'
            f'<div class="entry-content">{body}</div>{share}</article>{comments}</div>{popular}{footer}{cookie}'
        )
    elif template == "doc":
        head += f'<script type="application/ld+json">{{"@type": "TechArticle", "datePublished": "{stamp}"}}</script>'
        page = (
            f'{header}<div class="wrapper"><nav class="sidebar-toc"><p>{c["popular"]}</p><ul>'
            f'{_items(c["teasers"])}</ul></nav><div class="document" role="main"><h1>{html.escape(title)}</h1>'
            f'{body}</div></div><div class="prev-next">{related}</div>{footer}'
        )
    else:
        page = (
            f'{header}<div id="Main"><div class="topic"><h1>{html.escape(title)}</h1><div class="meta">'
            f'<a href="/u/alex">{AUTHOR}</a> · <time datetime="{stamp}">{date.isoformat()}</time></div>'
            f'<div class="topic-content">{body}</div></div><div class="replies">'
            + "".join(
                f'<div class="reply"><strong>user{i}</strong><div class="reply-content">{t}</div></div>'
                for i, t in enumerate(c["comment_items"])
            )
            + f'</div></div><div id="Rightbar">{popular}</div>{footer}'
        )
    return f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">{head}</head><body>{page}</body></html>'


def generated_pages(template_of=None) -> list[GeneratedPage]:
    """One page per article of ../shared, its template taken in turn (`template_of(index)` to choose)."""
    pages = []
    for index, path in enumerate(sources()):
        template = template_of(index) if template_of else TEMPLATES[index % len(TEMPLATES)]
        title, body = _article(path)
        lang, date = _language(path, body), _date(path)
        c = CHROME[lang]
        furniture = (
            c["cookie"],
            c["share"],
            c["popular"],
            c["related"],
            c["comments"],
            c["footer"],
            *c["teasers"],
            *c["related_items"],
            *c["comment_items"],
            *c["account"][1:],
            *c["nav"][2:],
        )
        pages.append(
            GeneratedPage(
                f"{path.parent.name}/{path.name}:{template}",
                _chrome(template, lang, title, date, body),
                f"{_text(html.escape(title))} {_text(body)}",
                title,
                date,
                furniture,
            )
        )
    return pages
