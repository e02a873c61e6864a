"""`python -m ingest ...`: the same command line as `ingest ...`."""

from ingest.cli import app

if __name__ == "__main__":  # the stage workers (`ingest.run.runner`) import this module again
    app(prog_name="ingest")
