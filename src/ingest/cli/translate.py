"""`ingest translate`: translate the segments earlier runs left waiting (`--translate evidence|none`)."""

from __future__ import annotations

from pathlib import Path

from ..errors import INSTALL_FROM_FILE, IngestError, WarehouseLockedError, command
from .consoles import Exit, fail, say
from .run import fail_on_warehouse_fault, progress_bar, reports_option, warehouse_option


def translate(
    warehouse_path: Path = warehouse_option("The DuckDB warehouse whose waiting segments to translate."),
    reports: Path = reports_option("Directory to rewrite consistency.md and consistency.html in."),
) -> None:
    """Translate every segment that waits for a translation (cache first), then rewrite the report.

    Runs left them waiting with `ingest run --translate evidence` or `none`. A second call finds
    nothing to do. Exit status: 0 done, 1 failed, 2 no such warehouse, 3 the warehouse is locked.
    """
    from ..run.fill import translate_warehouse

    try:
        with progress_bar() as progress:
            result, paths = translate_warehouse(warehouse_path, reports, progress=progress)
    except FileNotFoundError as error:
        fail(str(error), Exit.USAGE)
    except WarehouseLockedError as error:
        fail(str(error), Exit.LOCKED)
    except IngestError as error:
        fail(str(error))
    except Exception as error:
        fail_on_warehouse_fault(warehouse_path, error)
    if not result.filled and not result.still_waiting:
        say("nothing waits for a translation")
    else:
        say(f"{result.filled} segment(s) translated ({result.cached} from the cache), {result.still_waiting} still waiting")
    if result.still_waiting:
        say(
            f"  the rest has no installed package: `{command('models install LANG')}` or `{INSTALL_FROM_FILE}`, "
            f"then `{command('translate')}` again"
        )
    if result.untranslated:
        counts = ", ".join(f"{lang} {n:,}" for lang, n in result.untranslated.items())
        languages = " ".join(result.untranslated)
        say(
            f"{sum(result.untranslated.values()):,} segment(s) have no translation ({counts}): no package for "
            f"{', '.join(f'{lang}->en' for lang in result.untranslated)} was installed when they were ingested; "
            f"`{command('models install ' + languages)}` (or `{INSTALL_FROM_FILE}`), then `{command('run')}` "
            "on the same inputs translates them"
        )
    for path in paths:
        say(f"  report: {path}")
