"""`python -m ingest ...`: the same command line as `ingest ...`."""

from ingest.cli import app

app(prog_name="ingest")
