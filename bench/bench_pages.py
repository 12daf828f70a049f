"""Open each page of the app in headless Chromium and time it until its content shows.

Usage:
    uv run python bench/bench_pages.py [--rounds 5] [--url http://localhost:8501]

Without --url, starts the reference service on a fresh demo database (in a temporary
folder), screens one site there as demo-alpha, and runs `streamlit run app.py` against it
(GRID_API_BASE_URL / GRID_API_TOKEN), so the assessment page is timed with a real
assessment; everything is stopped at the end.
"Content shows" means the page's own title is drawn and no spinner or "Running" status is
left; the first, cold load of the whole app is reported apart. Prints a Markdown table
with p50 and max per page; the target is p50 under 2 s a page.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# (url path, the title the page draws when its content is there)
PAGES = [
    ("", "Screen a site"),  # the default page lives at the root
    ("service_territory", "Service territory"),
    ("assessment", "Assessment"),
    ("queue", "Interconnection queue"),
    ("transmission", "Transmission"),
    ("generation", "Generation"),
    ("grid_operations", "Grid operations"),
    ("market_facts", "Market facts"),
    ("evidence_search", "Evidence search"),
    ("dockets", "Dockets"),
    ("data_quality", "Data quality"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_service(db_path: Path):
    """Start the reference service and screen one site; return (server, assessment id)."""
    sys.path.insert(0, str(REPO))
    from gridclient import GridDataClient
    from gridservice.demo import DEMO_POINTS
    from gridservice.server import start_in_thread
    from gridservice.settings import Settings

    server = start_in_thread(Settings(db_path=db_path, demo=True))
    latitude, longitude = DEMO_POINTS["dual_certified"]
    with GridDataClient(base_url=server.base_url, token="gds_demo_alpha") as client:
        site = client.sites.create(
            {
                "requestedPeakLoadMw": 300.0,
                "location": {"latitude": latitude, "longitude": longitude},
            }
        )
        assessment = client.assessments.create(site.id)
    return server, assessment.id


def start_app(port: int, service_url: str) -> subprocess.Popen:
    env = dict(os.environ)
    env.update({"GRID_API_BASE_URL": service_url, "GRID_API_TOKEN": "gds_demo_alpha"})
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(REPO / "app.py"),
        "--server.port",
        str(port),
        "--server.headless",
        "true",
    ]
    process = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError("streamlit did not start")


def wait_for_content(page, title: str, timeout_ms: int = 60_000) -> None:
    """Wait until the page's title shows and the script has finished running."""
    page.get_by_role("heading", name=title).first.wait_for(timeout=timeout_ms)
    page.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"]')
              && !document.querySelector('[data-testid="stSpinner"]')""",
        timeout=timeout_ms,
    )


def time_page(context, url: str, title: str) -> float:
    """Open the url in a new tab (a new Streamlit session) and time it until content shows."""
    page = context.new_page()
    started = time.perf_counter()
    page.goto(url)
    wait_for_content(page, title)
    elapsed = time.perf_counter() - started
    page.close()
    return elapsed


def new_context(browser):
    return browser.new_context(viewport={"width": 1280, "height": 800})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--url", help="an app already running (default: start one)")
    parser.add_argument("--only", nargs="*", help="url paths to time (default: every page)")
    parser.add_argument("--assessment", help="with --url: an assessment id to open")
    parser.add_argument(
        "--empty-cache",
        action="store_true",
        help="open every page in a new browser context (no cached JS), as a first visit",
    )
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    workdir = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    process = server = None
    base_url, assessment_id = args.url, args.assessment
    if base_url is None:
        port = free_port()
        server, assessment_id = start_service(workdir / "demo.db")
        process = start_app(port, server.base_url)
        base_url = f"http://127.0.0.1:{port}"
    query = {"assessment": f"?assessment={assessment_id}"} if assessment_id else {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            warm_context = new_context(browser)
            cold = time_page(warm_context, f"{base_url}/", "Screen a site")
            pages = [(p, t) for p, t in PAGES if not args.only or p in args.only]
            timings: dict[str, list[float]] = {path: [] for path, _ in pages}
            for _ in range(args.rounds):
                for path, title in pages:
                    url = f"{base_url}/{path}{query.get(path, '')}"
                    # a fresh context has an empty HTTP cache: a first-time visitor
                    context = new_context(browser) if args.empty_cache else warm_context
                    timings[path].append(time_page(context, url, title))
                    if args.empty_cache:
                        context.close()
            browser.close()
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=20)
        if server is not None:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"cold first load (service start, demo build if needed, caches): {cold:.2f} s\n")
    cache = "empty browser cache" if args.empty_cache else "browser cache warm"
    print(f"each visit: a new tab and a new Streamlit session, {cache}\n")
    print("| page | p50 (s) | max (s) | rounds |")
    print("|---|---:|---:|---:|")
    for path, values in timings.items():
        print(f"| /{path} | {statistics.median(values):.2f} | {max(values):.2f} | {len(values)} |")


if __name__ == "__main__":
    main()
