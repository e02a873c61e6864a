"""The consistency report as a self-contained HTML page, from a Jinja2 template.

Autoescaping puts every value through HTML escaping; the page loads nothing from the network
(inline CSS, no scripts, no images; CSP default-src 'none'). Collapsible parts are <details>.
"""

from __future__ import annotations

import re
from functools import lru_cache

import jinja2
from markupsafe import Markup, escape

from ..errors import INSTALL_FROM_FILE, command, install_command
from .data import ReportData


def highlight(text: str, value: str) -> Markup:
    """The sentence, escaped, with the first occurrence of `value` marked."""
    match = re.search(re.escape(value), text, re.IGNORECASE) if value else None
    if not match:
        return escape(text)
    return (escape(text[:match.start()]) + Markup("<mark>") + escape(match.group()) + Markup("</mark>")
            + escape(text[match.end():]))


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(loader=jinja2.PackageLoader("ingest.outputs", "templates"),
                                     autoescape=True, undefined=jinja2.StrictUndefined)
    environment.filters["highlight"] = highlight
    environment.globals.update(install_command=install_command, install_from_file=INSTALL_FROM_FILE,
                               fill_command=command("translate"))
    return environment


def render_html(data: ReportData) -> str:
    return _environment().get_template("report.html.j2").render(data=data).lstrip()
