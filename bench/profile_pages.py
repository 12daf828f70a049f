"""Time each page's own script run with warm caches, in-process, and count what it sends.

Usage:
    uv run python bench/profile_pages.py --db scale10.db [--rounds 5] [--profile queue]

Starts the reference service on the database in its own process, screens one site as
demo-alpha (for the assessment page), then runs the app with Streamlit's AppTest against it
(`GRID_API_BASE_URL` / `GRID_API_TOKEN`, as `bench_pages.py` does). Each page is opened in a
new session: the first page run once (AppTest opens a page only after a first run), then the
page; a first visit of every page fills the caches and is not counted. For each page it
prints the p50 and max seconds of the script run (app.py's frame, the sidebar and the page,
measured around Streamlit's script run, not AppTest's wait), the number of messages it sent
and their bytes as serialised for the browser. `--profile PAGE` also prints the top of a
cProfile of one warm run of that page (cumulative time, the script's thread only).

The browser's share (a new tab, Streamlit's bundle, the websocket) is not in these figures:
`bench_pages.py --floor` times that.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.peers.servers import start_service  # noqa: E402

# (page script stem, the title it draws)
PAGES = [
    ("screen_site", "Screen a site"),
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


class RunMeter:
    """Times Streamlit's script runs and sums the messages they send (patched in once)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.messages = 0
        self.bytes = 0
        self.profile: cProfile.Profile | None = None

    def install(self) -> None:
        # Deferred: Streamlit loads only when pages are profiled.
        from streamlit.runtime.scriptrunner.script_runner import ScriptRunner

        run_script, enqueue = ScriptRunner._run_script, ScriptRunner._enqueue_forward_msg
        meter = self

        def timed_run(runner, rerun_data):
            started = time.perf_counter()
            if meter.profile is not None:
                meter.profile.enable()
            try:
                run_script(runner, rerun_data)
            finally:
                if meter.profile is not None:
                    meter.profile.disable()
                meter.seconds.append(time.perf_counter() - started)

        def counted_enqueue(runner, msg):
            meter.messages += 1
            meter.bytes += msg.ByteSize()
            enqueue(runner, msg)

        ScriptRunner._run_script = timed_run
        ScriptRunner._enqueue_forward_msg = counted_enqueue

    def reset(self) -> None:
        self.seconds.clear()
        self.messages = self.bytes = 0


def visit(meter: RunMeter, stem: str, title: str, query: dict[str, str]) -> tuple[float, int, int]:
    """Open the page in a new session; return (script seconds, messages, bytes) of its run."""
    from streamlit.testing.v1 import AppTest  # deferred: Streamlit loads only for a run

    at = AppTest.from_file(str(REPO / "screener.py"), default_timeout=300)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    meter.reset()
    at.switch_page(f"app_pages/{stem}.py").run()
    if at.exception:
        raise RuntimeError(f"{stem}: {at.exception[0].message}")
    if not any(title in heading.value for heading in at.title):
        raise RuntimeError(f"{stem}: no title {title!r}")
    return meter.seconds[-1], meter.messages, meter.bytes


def print_profile(profile: cProfile.Profile, top: int) -> None:
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="a demo store (demo-data --scale)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="*", help="page stems to time (default: every page)")
    parser.add_argument("--profile", nargs="*", default=[], help="page stems to profile")
    parser.add_argument("--top", type=int, default=45, help="profile lines to print")
    args = parser.parse_args()

    # Deferred: the service's store (openpyxl, shapely) loads only for a run.
    from bench.peers.app_pages import _screen_one_site

    service = start_service(args.db.resolve())
    try:
        assessment_id = _screen_one_site(service.base_url)
        os.environ.update(GRID_API_BASE_URL=service.base_url, GRID_API_TOKEN="gds_demo_alpha")
        os.chdir(REPO)
        meter = RunMeter()
        meter.install()
        print(f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())} (before)\n")
        print("| page | script p50 (s) | max (s) | messages | KB sent |")
        print("|---|---:|---:|---:|---:|")
        for stem, title in PAGES:
            if args.only and stem not in args.only:
                continue
            query = {"assessment": assessment_id} if stem == "assessment" else {}
            visit(meter, stem, title, query)  # fills the caches
            runs = [visit(meter, stem, title, query) for _ in range(args.rounds)]
            seconds = [r[0] for r in runs]
            print(
                f"| {stem} | {statistics.median(seconds):.3f} | {max(seconds):.3f} "
                f"| {runs[-1][1]} | {runs[-1][2] / 1024:,.0f} |",
                flush=True,
            )
            if stem in args.profile:
                meter.profile = cProfile.Profile()
                visit(meter, stem, title, query)
                profile, meter.profile = meter.profile, None
                print_profile(profile, args.top)
        print(f"\nload average {', '.join(f'{x:.1f}' for x in os.getloadavg())} (after)")
    finally:
        service.stop()


if __name__ == "__main__":
    main()
