"""What one article may be and cost (environment variables raise the limits). The longest real
article is ~25 KB; a bigger file is a dump or a mistake, and extracting 50 MB would take many
minutes. These are part of the prepare stage's identity; the run parameters (`settings`) are not.
"""

from __future__ import annotations

import os

MAX_FILE_BYTES = int(os.environ.get("INGEST_MAX_FILE_BYTES", 16 * 1024 * 1024))
MAX_TEXT_CHARS = int(os.environ.get("INGEST_MAX_TEXT_CHARS", 200_000))
# What an article may cost to parse and process (ingest.clean.budget): characters that open
# markup (HTML '<'; Markdown line breaks, table '|', link '[' and '<'; a 200,000-character
# article has a few thousand), seconds of parsing, and segments (each is language-detected
# and extracted on its own: ~0.5 ms apiece).
MAX_MARKUP = int(os.environ.get("INGEST_MAX_MARKUP", 50_000))
MAX_CLEAN_SECONDS = float(os.environ.get("INGEST_MAX_CLEAN_SECONDS", 10))
MAX_SEGMENTS = int(os.environ.get("INGEST_MAX_SEGMENTS", 20_000))
