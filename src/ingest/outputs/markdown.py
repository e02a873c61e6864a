"""The consistency report as Markdown (also the Prefect artifact), from a Jinja2 template.

Document text must not become markup wherever the report is rendered: every value the
template prints goes through `ingest.escape.markdown_text` (the environment's `finalize`), which
folds line breaks, shows invisible characters (a U+202E in a file name) as escapes and
backslash-escapes each character that could act as markup where it stands, so no link, image,
HTML, emphasis, autolink or table cell can come from a document, while dates, times and figures
read as written in the file itself. The template's own markup is literal text and is not touched.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jinja2
from markupsafe import Markup

from ..escape import markdown_text
from .findings import ReportData, template_globals


def _finalize(value: Any) -> Markup:
    """Every printed value as literal Markdown; what the template made itself (a macro's output,
    a code span: Markup) passes as it is."""
    return value if isinstance(value, Markup) else Markup(markdown_text(value))


def _code(text: str) -> Markup:
    """An inline code span of our own text (a command to paste)."""
    return Markup(f"`{text}`")


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    # Autoescaping makes macro output Markup (not escaped twice); `_finalize` escapes for Markdown
    # and marks the result safe, so markupsafe's HTML escaping never applies.
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("ingest.outputs", "templates"),
        autoescape=True,
        finalize=_finalize,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    environment.globals.update(template_globals(), code=_code)
    return environment


def render_markdown(data: ReportData) -> str:
    return _environment().get_template("report.md.j2").render(data=data)
