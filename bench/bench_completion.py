"""Benchmark queue completion for a county and a radius over loopback HTTP (a script, not a test).

    uv run gridservice build --from ../shared/data --db harvest.db      # once
    uv run python bench/bench_completion.py --db harvest.db [--rounds 30] [--radius 40 100]
    uv run python bench/bench_completion.py --demo [--rounds 30]        # the demo store

Issues a bench token (revoked at the end), then asks `GET /v1/queue-history/completion`
round-robin for each site's county (by the point, radius 0) and for the counties within
each `--radius` (km) of it, at the sites of issue 51 (Abilene, Odessa, Houston, Temple; the demo's
named points with --demo), and reports p50 and p95 of each kind (target: p50 < 300 ms).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from gridservice.demo import DEMO_POINTS
from gridservice.runtime.server import start_in_thread
from gridservice.security.tokens import issue_token, revoke_token
from gridservice.settings import Settings

HARVEST_SITES = {
    "Abilene": (32.45, -99.73),
    "Odessa": (31.85, -102.37),
    "Houston": (29.76, -95.37),
    "Temple": (31.10, -97.34),
}
DEMO_SITES = {
    name: DEMO_POINTS[name] for name in ("dual_certified", "single_territory", "unserved")
}
PATH = "/v1/queue-history/completion"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None, help="a harvested store")
    parser.add_argument("--demo", action="store_true", help="use (or build) a demo store")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--radius", type=float, nargs="+", default=[40.0, 100.0])
    args = parser.parse_args()
    if args.db is None and not args.demo:
        parser.error("give --db PATH (a harvested store) or --demo")
    db_path = args.db or Path(tempfile.gettempdir()) / "gridservice-bench-completion-demo.db"
    sites = DEMO_SITES if args.demo else HARVEST_SITES

    server = start_in_thread(Settings(db_path=db_path, demo=args.demo, rate_limit_burst=10**9))
    token = issue_token(db_path, "bench-completion")
    headers = {"Authorization": f"Bearer {token}"}
    kinds = {"county": 0.0, **{f"{radius:g} km": radius for radius in args.radius}}
    timings: dict[str, list[float]] = {kind: [] for kind in kinds}
    try:
        with httpx.Client(base_url=server.base_url, timeout=60) as client:
            for round_ in range(args.rounds + 1):
                for name, (latitude, longitude) in sites.items():
                    for kind, radius in kinds.items():
                        params = {"latitude": latitude, "longitude": longitude, "radius_km": radius}
                        started = time.perf_counter()
                        response = client.get(PATH, params=params, headers=headers)
                        elapsed = 1000 * (time.perf_counter() - started)
                        if response.status_code == 404:
                            continue  # no harvested report covers the place
                        response.raise_for_status()
                        if round_ == 0:  # the first asking: county index, caches
                            data = response.json()["data"]
                            print(
                                f"{name:10s} {kind:6s} first {elapsed:7.1f} ms  "
                                f"{len(data['place']['countyFips'])} counties, "
                                f"{data['all']['projects']} projects, "
                                f"{len(response.content) / 1024:.0f} KiB"
                            )
                        else:
                            timings[kind].append(elapsed)
    finally:
        server.stop()
        revoke_token(db_path, token)
    for kind, values in timings.items():
        if values:
            print(
                f"{kind:10s} p50 {statistics.median(values):7.1f} ms  "
                f"p95 {percentile(values, 0.95):7.1f} ms  (target p50 < 300 ms)"
            )


if __name__ == "__main__":
    main()
