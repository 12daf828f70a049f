"""Marks along a start of the README's command: when each step of a first start (and of a later
one) is reached, in seconds after the command.

Usage:
    uv run python bench/bench_first_start_marks.py [--rounds 1] [--revision REV]

Each round clones the commit into a temporary folder, makes its environment with the README's
one-time `uv sync --frozen --compile-bytecode` (timed apart), then runs `uv run streamlit run
app.py` on empty data and cache folders: a first start, then a later start in the same clone.
A thread notes when the demo database's build process appears and when its file is in place;
Chromium (1280 px) opens the app as soon as the server answers and the page is read every 50
ms for the notice, the sidebar's pages and Screen a site's form. `bench_first_start.py` times
the same path to the form with its processor seconds; this prints where the seconds go.
Needs Chromium at /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT / "tests" / "e2e"), str(REPO_ROOT)]

from e2e_browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from bench.bench_first_start import (  # noqa: E402
    fresh_clone,
    machine,
    start_readme_command,
    stop_readme_command,
    wait_for_health,
)

BUILD_MODULE = b"gridservice.demo.store_file"
# What the page shows, by mark: read every 50 ms until the form is there
ON_PAGE = {
    "notice": "text=First start",
    "sidebar": '[data-testid="stSidebarNav"]',
    "form": 'button:has-text("Create site and screen it")',
}


def watch_build(
    marks: dict[str, float], started: float, db_path: Path | None, done: threading.Event
) -> None:
    """Note when the build's process appears and when the demo database (`db_path`, on a
    first start) is in place."""
    while not done.is_set():
        now = time.monotonic() - started
        if db_path is not None and "database in place" not in marks and db_path.exists():
            marks["database in place"] = now
        if "build starts" not in marks and any(
            BUILD_MODULE in command for command in _command_lines()
        ):
            marks["build starts"] = now
        time.sleep(0.05)


def _command_lines() -> list[bytes]:
    lines = []
    for entry in Path("/proc").iterdir():
        try:
            lines.append((entry / "cmdline").read_bytes())
        except OSError:
            continue
    return lines


def start_marks(browser, clone: Path, home: Path, log_path: Path) -> dict[str, float]:
    """Return the marks of one start of the README's command in `clone` (data under `home`)."""
    db_path = home / "data" / "gridservice" / "demo.db"
    first_start = not db_path.exists()
    marks: dict[str, float] = {}
    started = time.monotonic()
    app = start_readme_command(clone, home, log_path)
    done = threading.Event()
    watched = db_path if first_start else None
    watcher = threading.Thread(target=watch_build, args=(marks, started, watched, done))
    watcher.start()
    try:
        wait_for_health(app)
        marks["server answers"] = time.monotonic() - started
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(app.url, wait_until="domcontentloaded")
        marks["page loaded"] = time.monotonic() - started
        while "form" not in marks and time.monotonic() - started < 240:
            for mark, selector in ON_PAGE.items():
                if mark not in marks and page.locator(selector).count():
                    marks[mark] = time.monotonic() - started
            page.wait_for_timeout(50)
        page.close()
    finally:
        done.set()
        watcher.join()
        stop_readme_command(app)
    return marks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--revision", default="HEAD", help="the commit to clone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for round_number in range(args.rounds):
            round_folder = Path(folder) / f"round{round_number}"
            round_folder.mkdir()
            clone, sync_seconds = fresh_clone(round_folder, args.revision, compiled=True)
            print(f"round {round_number + 1}: environment made in {sync_seconds:.1f} s")
            for start in ("first", "later"):
                load = os.getloadavg()[0]
                marks = start_marks(browser, clone, round_folder, round_folder / "app.log")
                shown = ", ".join(
                    f"{mark} {seconds:.1f}"
                    for mark, seconds in sorted(marks.items(), key=lambda m: m[1])
                )
                print(f"  {start} start (load average {load:.1f}): {shown}")
        browser.close()
    print(f"\nMachine: {machine()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
