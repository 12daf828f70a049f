"""Time a page's first visit after the app starts, the way an analyst comes to it.

Usage:
    uv run python bench/bench_first_visit.py --scales 10 100 [--pages queue generation]
        [--read 3] [--rounds 2] [--data-dir DIR] [--app-dir CHECKOUT]

For each scale, serves `<data-dir>/scale<N>.db` (as `bench_pages.py --scales` does, built
when missing) in its own process. For each page and round, starts a fresh
`streamlit run app.py` against it (nothing cached), opens Screen a site in a new tab (the
app's default page, which reads no whole list), leaves it `--read` seconds (an analyst
looking at the map), then opens the page in a new tab: the page's first visit, which finds
the whole lists it draws on loaded, loading, or not begun; then the page again (a later
visit). Prints a Markdown table of the seconds until content shows (title and finished
run, as `bench_pages.py` times a new tab), each round's figure, and the machine. Each round's
browser is a Chromium on a new profile folder on disk, driven with nothing listening, as
`bench_pages.py` opens a new tab (`bench/bare_tabs.py`; `--playwright-tabs`: through
Playwright, `--private`: a private window, as the figures before 28 Nov 2026, afternoon, and
27 Nov 2026, evening, were taken).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_pages as pages  # noqa: E402

from bench.peers.servers import start_service  # noqa: E402

TITLES = dict(pages.PAGES)


def first_visits(
    browser, service_url: str, path: str, read_seconds: float, playwright_tabs: bool = False
) -> tuple:
    """Return (Screen a site's first visit, the page's first visit, its second), seconds."""
    port = pages.free_port()
    app = pages.start_app(port, service_url)
    base = f"http://127.0.0.1:{port}"
    try:
        tabs = pages.new_tabs(browser, playwright_tabs)
        try:
            _, landing = tabs.time_tab(f"{base}/", "Screen a site")
            time.sleep(read_seconds)
            title = TITLES[path.partition("?")[0]]
            _, first = tabs.time_tab(f"{base}/{path}", title)
            _, again = tabs.time_tab(f"{base}/{path}", title)
        finally:
            tabs.close()
        return landing, first, again
    finally:
        app.terminate()
        app.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=int, nargs="+", default=[10])
    parser.add_argument(
        "--pages",
        nargs="+",
        default=["queue", "generation", "assessment"],
        help="url paths; the assessment is opened by the id of a site screened first",
    )
    parser.add_argument("--read", type=float, default=3.0, help="seconds on Screen a site")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--data-dir", type=Path, default=Path("/tmp/gds-app-bench"))
    parser.add_argument(
        "--app-dir",
        type=Path,
        default=pages.REPO,
        help="the checkout whose app.py runs (another commit's worktree, to compare)",
    )
    parser.add_argument(
        "--private",
        action="store_true",
        help="private windows (no code cache kept for the app's JavaScript) instead of a "
        "profile on disk",
    )
    parser.add_argument(
        "--playwright-tabs",
        action="store_true",
        help="time the tabs through Playwright (it has Chromium report every request and "
        "WebSocket frame to it), as the figures before 28 Nov 2026, afternoon, were",
    )
    args = parser.parse_args()
    pages.REPO = args.app_dir.resolve()
    unknown = [path for path in args.pages if path not in TITLES]
    if unknown:
        parser.error(f"unknown page(s) {unknown}; known: {sorted(p for p in TITLES if p)}")

    from playwright.sync_api import sync_playwright  # deferred: only a run needs the browser

    # Deferred: the service's store (openpyxl, shapely) loads only for a run.
    from bench.peers.app_pages import _screen_one_site

    with sync_playwright() as playwright:
        browser = pages.open_browser(playwright, args.private)
        where = "private windows" if args.private else "a profile on disk"
        if pages.bare_tabs(browser, args.playwright_tabs):
            where += ", driven with nothing listening"
        print(f"app: {pages.REPO}\nbrowser: {where}\nmachine: {pages.machine()}\n")
        print(
            f"| scale | page | Screen a site, first visit (s) | the page's first visit, after "
            f"{args.read:g} s on Screen a site (s) | its next visit (s) |"
        )
        print("|---|---|---|---|---|")
        for scale in args.scales:
            service = start_service(pages.scale_database(args.data_dir, scale))
            try:
                assessment = _screen_one_site(service.base_url)
                for page in args.pages:
                    # the assessment opened by its id: it draws the plants around the site
                    path = f"{page}?assessment={assessment}" if page == "assessment" else page
                    rounds = [
                        first_visits(
                            browser, service.base_url, path, args.read, args.playwright_tabs
                        )
                        for _ in range(args.rounds)
                    ]
                    cells = [" / ".join(f"{r[i]:.2f}" for r in rounds) for i in range(3)]
                    print(f"| {scale} | {TITLES[page]} | " + " | ".join(cells) + " |", flush=True)
            finally:
                service.stop()
        browser.close()
    print(f"\nafter: {pages.machine()}")


if __name__ == "__main__":
    main()
