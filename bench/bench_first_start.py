"""Time the app's first start, from `streamlit run app.py` to the first page showing content
in Chromium: on a fresh state (no demo database yet: the first start builds it) and with the
database already built (every later start).

Usage:
    uv run python bench/bench_first_start.py [--rounds 2]

Each round starts a new Streamlit process on a demo database path and a cache folder of its
own (`GRIDSERVICE_DB`, `XDG_CACHE_HOME` in a temporary folder: a fresh start finds neither),
opens the app's root in a new Chromium page as soon as the server answers its health check,
and stops the clock when Screen a site has its title and the form's button (the page's
content, after the demo database is built and the service started). It reads then the
processor seconds the app's process (and any it started) has used, and those of the app's
process alone: on a shared machine the wall-clock seconds grow with the load, the processor
seconds far less. A fresh start builds the demo database in a process of its own beside the
app's: on a quiet 2-core machine the two run side by side, so the longer of the app's own
seconds and the build's (the difference), not their sum, bounds the start. Prints a
Markdown table of these and the machine. Needs Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT / "tests" / "e2e"), str(REPO_ROOT)]

from e2e_browser import CHROMIUM, CHROMIUM_ARGS, start_streamlit  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from bench.cpu_accounting import clock_ticks, read_processes, tree_ticks  # noqa: E402

CONTENT = "Create site and screen it"


def first_content_seconds(browser, db_path: Path, log_path: Path) -> tuple[float, float, float]:
    """Return the seconds from starting the app to Screen a site's content in the browser, the
    processor seconds the app's processes used until then (a build process it started and
    waited for included), and those of the app's own process alone."""
    started = time.monotonic()
    env = {"GRIDSERVICE_DB": str(db_path), "XDG_CACHE_HOME": str(db_path.parent / "cache")}
    app = start_streamlit(env, log_path, timeout_s=180)
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(app.url, wait_until="domcontentloaded")
        page.get_by_role("button", name=CONTENT).wait_for(timeout=240_000)
        elapsed = time.monotonic() - started
        processes = read_processes()
        processor = tree_ticks(processes, app.process.pid) / clock_ticks()
        own = processes[app.process.pid].own_ticks / clock_ticks()
        page.close()
        return elapsed, processor, own
    finally:
        app.stop()


def machine() -> str:
    """Return the machine in a line: processor count, system and Python."""
    return f"{os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    fresh: list[tuple[float, float, float]] = []
    built: list[tuple[float, float, float]] = []
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for round_number in range(args.rounds):
            db_path = Path(folder) / f"round{round_number}" / "demo.db"
            log = Path(folder) / f"round{round_number}.log"
            fresh.append(first_content_seconds(browser, db_path, log))
            built.append(first_content_seconds(browser, db_path, log))
        browser.close()
    print(
        "| Start | Seconds to content (each round) | Median | Processor seconds (each round) "
        "| of which the app's own process |"
    )
    print("|---|---|---|---|---|")
    for name, times in (("fresh (demo database built)", fresh), ("database present", built)):
        rounds = ", ".join(f"{wall:.1f}" for wall, _, _ in times)
        processor = ", ".join(f"{cpu:.1f}" for _, cpu, _ in times)
        own = ", ".join(f"{cpu:.1f}" for _, _, cpu in times)
        median = statistics.median(wall for wall, _, _ in times)
        print(f"| {name} | {rounds} | {median:.1f} | {processor} | {own} |")
    print(f"\nMachine: {machine()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
