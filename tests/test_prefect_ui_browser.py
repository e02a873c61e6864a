"""The Prefect UI of `make serve` in a real browser: headless Chromium opens the flow-run page of a
deployment run (the link Prefect prints, and the same page in Prefect's newer UI), finds the
report artifact, and no page says "Can't connect to Server API".

It runs against the session's `make serve` (prefect_fixtures.served). Requests that leave
127.0.0.1 are aborted: no test reaches the internet (Prefect's V2 UI asks amplitude.com for a
configuration even with analytics off). Without Chromium at /usr/bin/chromium (Debian package
`chromium`, which `make browser` installs) the test skips and says so. Screenshots go to the
test's folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from ingest.flow import artifact_key
from prefect_fixtures import UV, api_get, api_post

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]

CHROMIUM = "/usr/bin/chromium"
# Headless, and nothing of Chromium's own that would reach the network or wait for a profile.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NO_API = "Can't connect to Server API"


def _chromium() -> str:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(
            f"headless Chromium is not installed at {CHROMIUM} (Debian package chromium); `make browser` "
            "installs it with apt-get when run as root or with passwordless sudo"
        )
    return CHROMIUM


def open_flow_run(url: str, server: str, expect: str | re.Pattern, screenshot: Path) -> dict:
    """Open a flow-run page, go to its Artifacts tab and open the report artifact (waiting until it
    shows `expect`): what was shown, and the UI's requests that failed or left the server."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 900})
            external: list[str] = []

            def local_only(route) -> None:
                if urlsplit(route.request.url).netloc == server:
                    route.continue_()
                else:
                    external.append(route.request.url)
                    route.abort()

            context.route("**/*", local_only)
            page = context.new_page()
            api_failures: list[str] = []
            page.on(
                "requestfailed",
                lambda r: api_failures.append(f"{r.url}: {r.failure}") if urlsplit(r.url).netloc == server else None,
            )
            page.on(
                "response",
                lambda r: api_failures.append(f"{r.url}: HTTP {r.status}") if "/api/" in r.url and r.status >= 400 else None,
            )
            shown: dict = {
                "key": None,
                "artifact_page": "",
                "artifact_url": None,
                "api_failures": api_failures,
                "external": external,
            }
            page.goto(url, wait_until="networkidle")
            try:
                # V1 marks its tabs <li class="p-tab">, V2 <button role="tab">
                page.locator("[role=tab]:text-is('Artifacts'), .p-tab:text-is('Artifacts')").first.click(timeout=60_000)
                card = page.get_by_text(re.compile(r"^consistency-report-")).first
                card.wait_for(timeout=60_000)
            except PlaywrightTimeout:  # a UI that cannot reach the API shows no tabs or no artifacts
                shown.update(flow_run_page=page.inner_text("body"), text=page.inner_text("body"))
                page.screenshot(path=str(screenshot))
                return shown
            shown.update(key=card.inner_text().strip(), flow_run_page=page.inner_text("body"))
            page.screenshot(path=str(screenshot))
            card.click()
            page.wait_for_url(re.compile(r"/artifacts/"), timeout=60_000)
            page.wait_for_load_state("networkidle")
            with contextlib.suppress(PlaywrightTimeout):  # if it never shows, the test's assertion says so
                page.get_by_text(expect).first.wait_for(timeout=120_000)
            shown.update(artifact_url=page.url, artifact_page=page.inner_text("body"), text=page.inner_text("body"))
            page.screenshot(path=str(screenshot.with_name(screenshot.stem + "-artifact.png")))
            return shown
        finally:
            browser.close()


def test_the_flow_run_page_of_a_deployment_run_shows_the_report_artifact(served, seeds_copy, tmp_path):
    _chromium()
    ui = served.api_url.removesuffix("/api")
    server = urlsplit(ui).netloc
    db = tmp_path / "w.duckdb"
    started = time.monotonic()
    result = served.run(
        UV,
        "run",
        "prefect",
        "deployment",
        "run",
        "ingest/ingest",
        "--watch",
        "-p",
        f'paths=["{seeds_copy}"]',
        "-p",
        f"warehouse_path={db}",
        "-p",
        f"reports_dir={tmp_path / 'reports'}",
        timeout=400,
    )
    run_seconds = time.monotonic() - started
    assert result.returncode == 0, result.stdout + result.stderr
    flow_run_id = re.search(r"UUID: ([0-9a-f-]{36})", result.stdout).group(1)
    # the links Prefect prints: `deployment run`'s URL, and the flow run's "View at" (printed by the
    # flow's process, so it is in the worker's log, not the API's) both lead to this server's UI
    link = f"{ui}/runs/flow-run/{flow_run_id}"
    assert f"URL: {link}" in result.stdout
    assert f"View at {link}" in (served.home / "logs" / "worker.log").read_text("utf-8", "replace")
    assert api_get(ui, "/ui-settings")["api_url"] == served.api_url
    expected_key = artifact_key("consistency-report", str(db))
    flow_run_name = api_get(served.api_url, f"/flow_runs/{flow_run_id}")["name"]
    # The V2 UI's key page shows a card per artifact of the key: the artifact id's first segment at
    # once, then "Flow run: <name>" and "Task run: <name>" when its queries of the runs return (the
    # bundled ui-v2 assets' key page). Waiting for the names, not for any short id, is what proves the
    # page found the run that made the report (a short id alone is the artifact's own).
    (artifact,) = api_post(served.api_url, "/artifacts/filter", {"artifacts": {"key": {"any_": [expected_key]}}})
    task_runs = api_post(served.api_url, "/task_runs/filter", {"flow_runs": {"id": {"any_": [flow_run_id]}}})
    made_by = re.compile(
        "|".join([f"Flow run: {re.escape(flow_run_name)}"] + [f"Task run: {re.escape(r['name'])}" for r in task_runs])
    )

    started = time.monotonic()
    # the page Prefect links to (its V1 UI), then the same page in the V2 UI, where the UI's
    # own address (what `make serve` prints) leads a new browser
    for version, url, expect in (("v1", link, "FlexAttention"), ("v2", f"{ui}/v2/runs/flow-run/{flow_run_id}", made_by)):
        shown = open_flow_run(url, server, expect, tmp_path / f"prefect-ui-{version}.png")
        for page in ("flow_run_page", "text"):
            assert NO_API not in shown[page], (version, page, shown[page][:2000])
        assert shown["api_failures"] == [], (version, shown["api_failures"])
        assert shown["key"] == expected_key, version
        assert flow_run_name in shown["flow_run_page"], version
        if version == "v1":  # V1 opens the artifact itself: the report's summary line and a finding
            assert "4 files: 4 loaded" in shown["artifact_page"] and "FlexAttention" in shown["artifact_page"]
        else:  # V2 opens the artifact's key, with the run that made it
            assert shown["artifact_url"].endswith(f"/v2/artifacts/key/{expected_key}")
            assert artifact["id"].split("-")[0] in shown["artifact_page"]
            assert made_by.search(shown["artifact_page"]), (made_by.pattern, shown["artifact_page"][-500:])
        # nothing the UI sends to the internet beyond the V2 UI's configuration request (all aborted);
        # analytics events would show up here
        assert not [u for u in shown["external"] if not u.startswith("https://sr-client-cfg.amplitude.com/")], shown["external"]
    print(json.dumps({"deployment_run_s": round(run_seconds, 1), "browser_s": round(time.monotonic() - started, 1)}))
