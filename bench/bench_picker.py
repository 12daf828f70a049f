"""Time the map picker's click at points across the country beside the Texas one (a script,
not a test).

    uv run python bench/bench_picker.py [--rounds 3]                     # the demo store
    uv run gridservice build --from ../shared/data --db national.db      # once
    uv run python bench/bench_picker.py --db national.db [--rounds 3]    # a harvested store

Serves the store with `gridservice serve` in its own process (without --db, a fresh demo
store in a temporary folder, as the app serves by default; with --db a harvested store, read
with a token issued for the run and revoked at its end), starts `streamlit run app.py` on it
and, in headless Chromium, makes on the Screen a site page the clicks `bench_pages.py` times
in Hays County, TX, at each point of `POINTS`: a click on the country view (places the pin
and brings the view to its surroundings), then five clicks around the pin. Each round visits
every point in turn, in a new tab of one browser whose cache has seen the page (the app's
caches are those of one process, as an analyst's session finds them: the first round meets
each state's county outlines unread). A click is timed until the point is shown and the map
drawn twice; the CPU seconds the app's and the service's processes spent on it are read
from /proc, which the machine's other load does not inflate as it does wall time.

Prints, per point, p50 and p95 of each kind of click and the servers' CPU seconds a click,
p50, then the machine and its load average before and after. Compare a point with Hays
County's figures of the same run, not with another run's.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
from pathlib import Path

from bench.bench_pages import (
    CHROMIUM,
    CLICK_POINT,
    free_port,
    machine,
    new_context,
    open_browser,
    start_app,
    time_map_clicks,
    time_page,
)
from bench.bench_surroundings import NATIONAL_SITES, percentile
from bench.peers.servers import start_gridservice
from gridservice.security.tokens import issue_token, revoke_token

# The Texas click `bench_pages.py` has timed, then points of issue 50's counties, as the
# surroundings benchmark places its sites (Potter County, TX, lies north of the demo's data).
NATIONAL_POINTS = ("Loudoun VA", "Franklin OH", "Polk IA", "Potter TX", "Kern CA", "Maricopa AZ")
POINTS = {"Hays TX": CLICK_POINT, **{name: NATIONAL_SITES[name] for name in NATIONAL_POINTS}}
DEMO_TOKEN = "gds_demo_alpha"
CLICK_KINDS = ("country view (places the pin)", "surroundings")


def measure_points(browser, base_url: str, servers: tuple[int, ...], rounds: int) -> dict:
    """Return each point's clicks, by kind: (seconds, the servers' CPU seconds, Chromium's
    CPU seconds) per click."""
    context = new_context(browser)
    time_page(context, f"{base_url}/", "Screen a site")  # the browser's caches see the page
    clicks: dict[str, dict[str, list]] = {
        name: {kind: [] for kind in CLICK_KINDS} for name in POINTS
    }
    for _ in range(rounds):
        for name, point in POINTS.items():
            first, later = time_map_clicks(context, base_url, point, servers)
            for kind, done in zip(CLICK_KINDS, ([first], later), strict=True):
                clicks[name][kind] += [
                    (click[0], click[3], sum(click[1].values())) for click in done
                ]
            print(f"{name}: first click {first[0] * 1000:.0f} ms", flush=True)
    context.close()
    return clicks


def print_clicks(clicks: dict) -> None:
    print(
        "\n| point | click | p50 (ms) | p95 (ms) | clicks "
        "| CPU-s a click, p50: app + service / Chromium |"
    )
    print("|---|---|---:|---:|---:|---:|")
    for name, kinds in clicks.items():
        for kind, done in kinds.items():
            seconds = [d[0] * 1000 for d in done]
            served = statistics.median(d[1] for d in done)
            drawn = statistics.median(d[2] for d in done)
            print(
                f"| {name} | {kind} | {statistics.median(seconds):.0f} "
                f"| {percentile(seconds, 0.95):.0f} | {len(seconds)} | {served:.2f} / {drawn:.2f} |"
            )


def run(args, db: Path, token: str) -> dict:
    """Serve `db`, start the app on it, time the clicks; stop both."""
    store_args = ["--db", str(db), *(["--demo"] if args.db is None else [])]
    service = start_gridservice(store_args)
    port = free_port()
    app = start_app(port, service.base_url, token)
    # Deferred: only a browser run needs Playwright.
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = open_browser(playwright)
            try:
                return measure_points(
                    browser, f"http://127.0.0.1:{port}", (app.pid, service.pid), args.rounds
                )
            finally:
                browser.close()
    finally:
        app.terminate()
        app.wait(timeout=20)
        service.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="a harvested store (default: a fresh demo)")
    parser.add_argument("--rounds", type=int, default=3, help="visits of every point")
    parser.add_argument("--json", type=Path, help="also write the timings to this JSON file")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing: apt-get install -y chromium")
    print(f"machine: {machine()} (before)", flush=True)
    workdir = Path(tempfile.mkdtemp(prefix="bench-picker-"))
    try:
        if args.db is None:
            clicks = run(args, workdir / "demo.db", DEMO_TOKEN)
        else:
            token = issue_token(args.db, "bench-picker")
            try:
                clicks = run(args, args.db, token)
            finally:
                revoke_token(args.db, token)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"\nstore: {args.db or 'a fresh demo store'}")
    print_clicks(clicks)
    print(f"\nmachine: {machine()} (after)")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "clicks": clicks}, indent=1))


if __name__ == "__main__":
    main()
