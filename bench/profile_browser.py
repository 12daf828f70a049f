"""Profile the browser's main thread while a click in the app's sidebar opens a page.

Usage:
    uv run python bench/profile_browser.py --db scale10.db --page Generation [--visits 3]

Starts the reference service on the database in its own process and the app against it (as
`bench_pages.py --scales` does), opens the first page in headless Chromium at 1280 wide, then
clicks the sidebar link `--page` (from the page before it in the sidebar), `--visits` times,
with the renderer's JavaScript sampled by the DevTools protocol's Profiler from the click until
the page's content shows (`bench_pages.wait_for_content`). Prints the seconds of each visit and,
over all visits, where the main thread's time went: by script (the bundle's chunk, which says
which library: deck.gl, the data grid, Vega) and by function, self time, top first.
`(program)` and `(garbage collector)` are the browser's own work outside JavaScript: layout,
style, paint and the rest.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.bench_pages import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    SIDEBAR,
    free_port,
    new_context,
    settle,
    start_app,
    wait_for_content,
)
from bench.peers.servers import start_service  # noqa: E402


def self_times(profile: dict) -> dict[tuple[str, str], float]:
    """Return the sampled self time (ms) of each (function, script) of a CPU profile."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    spent: dict[tuple[str, str], float] = collections.Counter()
    for node_id, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = nodes[node_id]["callFrame"]
        script = frame["url"].rsplit("/", 1)[-1] or "-"
        name = frame["functionName"] or "(anonymous)"
        if frame["url"]:
            name = f"{name} :{frame['lineNumber'] + 1}:{frame['columnNumber'] + 1}"
        spent[(name, script)] += delta / 1000
    return spent


def profile_visits(page, cdp, label: str, title: str, before: list[tuple[str, str]], visits: int):
    """Click `label` `visits` times, each after clicking through the pages `before` (label,
    title); return the seconds of each visit and the summed self times of all of them."""
    total: dict[tuple[str, str], float] = collections.Counter()
    seconds = []
    nav = page.locator('[data-testid="stSidebarNav"]')
    for _ in range(visits):
        for before_label, before_title in before:
            settle(page)
            nav.get_by_role("link", name=before_label, exact=True).click()
            wait_for_content(page, before_title)
        settle(page)
        cdp.send("Profiler.start")
        started = time.perf_counter()
        nav.get_by_role("link", name=label, exact=True).click()
        wait_for_content(page, title)
        seconds.append(time.perf_counter() - started)
        profile = cdp.send("Profiler.stop")["profile"]
        total.update(self_times(profile))
    return seconds, total


def print_top(spent: dict[tuple[str, str], float], visits: int, top: int) -> None:
    by_script: dict[str, float] = collections.Counter()
    for (_, script), ms in spent.items():
        by_script[script] += ms
    print("\n| script | self ms a visit |\n|---|---:|")
    for script, ms in sorted(by_script.items(), key=lambda item: -item[1])[:top]:
        print(f"| {script} | {ms / visits:.0f} |")
    print("\n| function | script | self ms a visit |\n|---|---|---:|")
    for (name, script), ms in sorted(spent.items(), key=lambda item: -item[1])[:top]:
        print(f"| {name} | {script} | {ms / visits:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--page", default="Generation", help="the sidebar link's label")
    parser.add_argument("--visits", type=int, default=3)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument(
        "--round",
        action="store_true",
        help="reach the page through every page before it in the sidebar, as bench_pages.py "
        "does (default: from the one page before it)",
    )
    args = parser.parse_args()
    labels = [label for label, _ in SIDEBAR]
    if args.page not in labels:
        parser.error(f"--page must be one of {', '.join(labels)}")
    index = labels.index(args.page)
    before = [SIDEBAR[index - 1] if index else SIDEBAR[1]]
    if args.round:
        before = [*SIDEBAR[index + 1 :], *SIDEBAR[:index]]

    from playwright.sync_api import sync_playwright  # deferred: only a run needs the browser

    service = start_service(args.db)
    port = free_port()
    app = start_app(port, service.base_url)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = new_context(browser)
            page = context.new_page()
            page.set_viewport_size({"width": args.width, "height": 800})
            page.goto(f"http://127.0.0.1:{port}/")
            wait_for_content(page, SIDEBAR[0][1])
            cdp = context.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            # a first visit fills the app's caches and compiles the page's scripts
            profile_visits(page, cdp, args.page, SIDEBAR[index][1], before, 1)
            seconds, spent = profile_visits(
                page, cdp, args.page, SIDEBAR[index][1], before, args.visits
            )
            browser.close()
    finally:
        app.terminate()
        app.wait(timeout=20)
        service.stop()
    print(f"{args.page} by a sidebar click: " + ", ".join(f"{s:.2f}" for s in seconds) + " s")
    print_top(spent, args.visits, args.top)


if __name__ == "__main__":
    main()
