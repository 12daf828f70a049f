"""Benchmark a service's start and its first quality report, store by store (a script, not a
test).

    uv run gridservice demo-data --scale 100 --db scale100.db         # once per scale
    uv run python bench/bench_quality.py scale10.db scale100.db [--rounds 3]

For each store, `--rounds` times: starts `gridservice serve` on it in a process of its own
(as a team runs it), times the start until its health probe answers, then `GET /v1/quality`
once (the first request of the process, with the demo token), then stops it. The service
counts the quality report when it starts (the release's identity hashes it); the first
`/v1/quality` used to count it again. Prints one row per store: the start and the first
report, each p50 and max over the rounds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.peers.servers import start_gridservice  # noqa: E402

DEMO_TOKEN = "gds_demo_alpha"


def time_once(store: Path) -> tuple[float, float, int]:
    """Return (seconds to start, seconds of the first /v1/quality, its bytes)."""
    started = time.perf_counter()
    service = start_gridservice(["--db", str(store)])
    start_s = time.perf_counter() - started
    try:
        headers = {"Authorization": f"Bearer {DEMO_TOKEN}"}
        with httpx.Client(base_url=service.base_url, headers=headers, timeout=300) as client:
            asked = time.perf_counter()
            response = client.get("/v1/quality")
            quality_s = time.perf_counter() - asked
            response.raise_for_status()
            return start_s, quality_s, len(response.content)
    finally:
        service.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stores", nargs="+", type=Path, help="demo store files")
    parser.add_argument("--rounds", type=int, default=3, help="starts per store")
    args = parser.parse_args()
    print("| store | start p50 (s) | start max (s) | first /v1/quality p50 (s) | max (s) | bytes |")
    print("|---|---:|---:|---:|---:|---:|")
    for store in args.stores:
        timings = [time_once(store) for _ in range(args.rounds)]
        starts = [t[0] for t in timings]
        reports = [t[1] for t in timings]
        print(
            f"| {store.name} | {statistics.median(starts):.2f} | {max(starts):.2f} "
            f"| {statistics.median(reports):.3f} | {max(reports):.3f} | {timings[-1][2]:,} |"
        )


if __name__ == "__main__":
    main()
