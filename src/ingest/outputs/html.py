"""The consistency report as a self-contained HTML page, from a Jinja2 template.

Every value goes through `ingest.escape.html_text` (the environment's `finalize`: invisible
characters such as a U+202E in a file name shown as escapes), then autoescaping's HTML escaping;
the page loads nothing from the network (inline CSS, no images; CSP default-src 'none'). Its one
script is `templates/report.js`, inline and allowed by its SHA-256 alone (find, show one section,
sort a table); without it the page shows everything. Collapsible parts are <details>.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache
from importlib.resources import files

import jinja2
from markupsafe import Markup

from ..escape import html_text
from .findings import ReportData, template_globals


def highlight(text: str, value: str) -> Markup:
    """The sentence, escaped, with the first occurrence of `value` marked."""
    match = re.search(re.escape(value), text, re.IGNORECASE) if value else None
    if not match:
        return html_text(text)
    return (
        html_text(text[: match.start()])
        + Markup("<mark>")
        + html_text(match.group())
        + Markup("</mark>")
        + html_text(text[match.end() :])
    )


def _finalize(value: object) -> object:
    """Text as `html_text` (Markup, our own, passes); numbers and the like as they are."""
    return html_text(value) if isinstance(value, str) else value


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("ingest.outputs", "templates"),
        autoescape=True,
        finalize=_finalize,
        undefined=jinja2.StrictUndefined,
    )
    environment.filters["highlight"] = highlight
    script = (files("ingest.outputs") / "templates" / "report.js").read_text("utf-8")
    environment.globals.update(
        template_globals(),
        report_script=Markup(script),
        report_script_hash=base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii"),
    )
    return environment


def render_html(data: ReportData) -> str:
    return _environment().get_template("report.html.j2").render(data=data).lstrip()
