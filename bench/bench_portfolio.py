"""Time the Portfolio page's draw for a tenant with many screened sites (target: p50 < 2 s at 200).

Usage:
    uv run python bench/bench_portfolio.py [--sites 200] [--rounds 7] [--browser [--private]]

Builds a fresh demo database in a temporary folder, serves it over loopback HTTP, creates
`--sites` sites for demo-alpha on a grid of Texas points and screens each once (this set-up
takes minutes and is not timed). Then, per round, with every cache emptied:

- `listing`: the one request the page makes, `sites.list(include_latest_assessment_summary=True)`
  (each site with its latest assessment's summary), parsed into the client's models;
- `listing, whole assessments`: the request the page made before, `include_latest_assessment`
  (each site with its whole latest assessment), for comparison;
- `table + chart`: the portfolio table, a filter and the chart's Vega-Lite spec built from
  those models (`components.portfolio_view`);
- `page`: `app_pages/portfolio.py` run whole by Streamlit's AppTest against the service (its
  one listing request included);
- with `--browser`: `page in Chromium`, the page opened in a new tab of headless Chromium
  (a new Streamlit session of `streamlit run app.py`, 1280 px wide), timed until its title,
  table and chart show and nothing is running (what a user waits for). The browser keeps
  its profile on disk, as an analyst's does (`bench_pages.DiskProfiles`); `--private` opens
  the tabs in a private window, as the figures before 27 Nov 2026 were taken.

Prints a Markdown table with p50 and max per step, and the size of each listing's body.
Run it by hand on a quiet machine; write the result up in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.bench_pages import (  # noqa: E402
    free_port,
    new_context,
    open_browser,
    start_app,
    wait_for_content,
)
from components import portfolio_view as view  # noqa: E402
from gridclient import GridDataClient, SiteDefinition, SiteLocation  # noqa: E402
from gridservice.runtime.server import start_in_thread  # noqa: E402
from gridservice.settings import Settings  # noqa: E402

TOKEN = "gds_demo_alpha"
BROWSER_ROUNDS = 5


def texas_points(count: int) -> list[tuple[float, float]]:
    """Return `count` points on a grid over central Texas (where the demo queue lives)."""
    side = max(1, int(count**0.5) + 1)
    points = [
        (29.2 + 2.6 * (i // side) / side, -99.8 + 3.6 * (i % side) / side) for i in range(count)
    ]
    return points[:count]


def make_portfolio(client: GridDataClient, count: int) -> None:
    for n, (latitude, longitude) in enumerate(texas_points(count)):
        site = client.sites.create(
            SiteDefinition(
                requested_peak_load_mw=50 + n % 400,
                location=SiteLocation(latitude=latitude, longitude=longitude),
                customer_reference=f"Bench site {n:03d}",
            )
        )
        client.assessments.create(site.id)
        if n % 20 == 19:
            print(f"  {n + 1} of {count} sites screened", file=sys.stderr)


def timed(step) -> float:
    started = time.perf_counter()
    step()
    return time.perf_counter() - started


def run_page(base_url: str) -> None:
    # Deferred: Streamlit loads only for the script-run timings.
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    st.cache_data.clear()
    os.environ["GRID_API_BASE_URL"] = base_url
    os.environ["GRID_API_TOKEN"] = TOKEN
    at = AppTest.from_file(str(REPO / "app_pages" / "portfolio.py"), default_timeout=120).run()
    if at.exception:
        raise RuntimeError(at.exception[0].value)


def browser_page(base_url: str, private: bool = False) -> list[float]:
    """Return the seconds a new tab takes to show the Portfolio page's table and chart, in a
    browser on a profile on disk (`private`: in a private window, as before 27 Nov 2026)."""
    from playwright.sync_api import sync_playwright  # deferred: only the browser run needs it

    port = free_port()
    app = start_app(port, base_url)
    try:
        with sync_playwright() as playwright:
            browser = open_browser(playwright, private)
            context = new_context(browser)
            times = []
            for _ in range(2 + BROWSER_ROUNDS):  # two to warm the app's process up, not kept
                page = context.new_page()
                started = time.perf_counter()
                page.goto(f"http://127.0.0.1:{port}/portfolio")
                wait_for_content(page, "Portfolio")
                page.locator('[data-testid="stDataFrame"]').first.wait_for()
                page.locator('[data-testid="stVegaLiteChart"]').first.wait_for()
                times.append(time.perf_counter() - started)
                page.close()
            context.close()
            browser.close()
    finally:
        app.terminate()
        app.wait(10)
    return times[2:]


def listing_sizes(base_url: str) -> str:
    """Return the size of the listing's body with summaries and with whole assessments."""
    headers = {"Authorization": f"Bearer {TOKEN}"}
    sizes = []
    for include in ("latest_assessment_summary", "latest_assessment"):
        params = {"include": include, "limit": 200}
        body = httpx.get(f"{base_url}/v1/sites", params=params, headers=headers).content
        sizes.append(f"{include} {len(body) / 1024:,.0f} KiB")
    return ", ".join(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--browser",
        action="store_true",
        help=f"also time the page in headless Chromium ({BROWSER_ROUNDS} new tabs)",
    )
    parser.add_argument(
        "--private", action="store_true", help="with --browser: the tabs in a private window"
    )
    args = parser.parse_args()
    os.chdir(REPO)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(db_path=Path(folder) / "demo.db", demo=True, rate_limit_burst=10**6)
        server = start_in_thread(settings)
        try:
            with GridDataClient(base_url=server.base_url, token=TOKEN) as client:
                print(f"Screening {args.sites} sites (not timed)…", file=sys.stderr)
                make_portfolio(client, args.sites)
                listed: list = []

                def listing() -> None:
                    listed[:] = client.sites.list(
                        include_latest_assessment_summary=True, limit=200, max_items=200
                    )

                def whole_listing() -> None:
                    list(
                        client.sites.list(include_latest_assessment=True, limit=200, max_items=200)
                    )

                def table_and_chart() -> None:
                    frame = view.portfolio_frame(listed)
                    shown = view.filtered(frame, view.PortfolioFilter(text="bench"))
                    view.comparison_chart(shown).to_dict()

                sizes = listing_sizes(server.base_url)
                times: dict[str, list[float]] = {
                    "listing": [],
                    "listing, whole assessments": [],
                    "table + chart": [],
                    "page": [],
                }
                for _ in range(args.rounds):
                    times["listing"].append(timed(listing))
                    times["listing, whole assessments"].append(timed(whole_listing))
                    times["table + chart"].append(timed(table_and_chart))
                    times["page"].append(timed(lambda: run_page(server.base_url)))
                if args.browser:
                    times["page in Chromium"] = browser_page(server.base_url, args.private)
        finally:
            server.stop()
    print(f"\n{len(listed)} sites listed in one request; bodies: {sizes}.\n")
    print("| step | p50 (s) | max (s) |\n|---|---|---|")
    for step, values in times.items():
        print(f"| {step} | {statistics.median(values):.3f} | {max(values):.3f} |")


if __name__ == "__main__":
    main()
