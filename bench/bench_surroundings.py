"""Benchmark a site's surroundings over loopback HTTP (a script, not a test).

    uv run gridservice build --from ../shared/data --db harvest.db      # once
    uv run python bench/bench_surroundings.py --db harvest.db [--rounds 40] [--radius 40]
    uv run python bench/bench_surroundings.py --demo [--rounds 40]      # the demo store
    uv run python bench/bench_surroundings.py --db harvest.db --national [--rounds 20]

Issues a bench token (revoked at the end), creates a 200 MW site at each of the three points
of issue 15 (Abilene, Odessa, downtown Houston; the demo's named points with --demo), then
asks `GET /v1/sites/{id}/surroundings` round-robin with the default window and reports p50
and p95 per site and overall (target: p50 < 150 ms on the harvested store).

With --national the sites are a point in each of the eight counties of issue 50 (Loudoun VA,
Franklin OH, Polk IA, Potter TX, Kern CA, Albany NY, Worcester MA, Maricopa AZ), and each
round also screens each site into a new assessment (`POST /v1/sites/{id}/assessments`),
timed apart (target: p50 < 300 ms for each).
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
}
NATIONAL_SITES = {
    "Loudoun VA": (39.08, -77.65),
    "Franklin OH": (39.96, -83.00),
    "Polk IA": (41.59, -93.62),
    "Potter TX": (35.20, -101.83),
    "Kern CA": (35.37, -119.02),
    "Albany NY": (42.65, -73.75),
    "Worcester MA": (42.26, -71.80),
    "Maricopa AZ": (33.45, -112.07),
}
DEMO_SITES = {
    name: DEMO_POINTS[name] for name in ("dual_certified", "single_territory", "unserved")
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def create_site(client: httpx.Client, headers: dict, name: str, point: tuple[float, float]) -> str:
    body = {
        "requestedPeakLoadMw": 200.0,
        "location": {"latitude": point[0], "longitude": point[1]},
        "customerReference": f"bench {name}",
    }
    key = {"Idempotency-Key": f"bench-surroundings-{name}-{time.time_ns()}"}
    response = client.post("/v1/sites", json=body, headers={**headers, **key})
    response.raise_for_status()
    return response.json()["data"]["id"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None, help="a harvested store")
    parser.add_argument("--demo", action="store_true", help="use (or build) a demo store")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--radius", type=float, default=40.0)
    parser.add_argument(
        "--national", action="store_true", help="issue 50's eight counties, and assessments"
    )
    args = parser.parse_args()
    if args.db is None and not args.demo:
        parser.error("give --db PATH (a harvested store) or --demo")
    db_path = args.db or Path(tempfile.gettempdir()) / "gridservice-bench-surroundings-demo.db"
    sites = NATIONAL_SITES if args.national else DEMO_SITES if args.demo else HARVEST_SITES
    assessing: dict[str, list[float]] = {name: [] for name in sites} if args.national else {}

    server = start_in_thread(Settings(db_path=db_path, demo=args.demo, rate_limit_burst=10**9))
    token = issue_token(db_path, "bench-surroundings")
    headers = {"Authorization": f"Bearer {token}"}
    timings: dict[str, list[float]] = {name: [] for name in sites}
    try:
        with httpx.Client(base_url=server.base_url, timeout=60) as client:
            ids = {name: create_site(client, headers, name, p) for name, p in sites.items()}
            params = {"radius_km": args.radius}
            for name, site_id in ids.items():  # first asking: county index, page cache
                started = time.perf_counter()
                body = client.get(
                    f"/v1/sites/{site_id}/surroundings", params=params, headers=headers
                )
                body.raise_for_status()
                data = body.json()["data"]
                print(
                    f"{name:10s} first {1000 * (time.perf_counter() - started):7.1f} ms  "
                    f"{len(data['counties'])} counties, {sum(c['queue']['activeProjects'] or 0 for c in data['counties'])} "
                    f"queued projects, {len(body.content) / 1024:.0f} KiB"
                )
            for _ in range(args.rounds):
                for name, site_id in ids.items():
                    started = time.perf_counter()
                    response = client.get(
                        f"/v1/sites/{site_id}/surroundings", params=params, headers=headers
                    )
                    timings[name].append(1000 * (time.perf_counter() - started))
                    response.raise_for_status()
                    if name in assessing:
                        assessing[name].append(assess(client, headers, site_id))
    finally:
        server.stop()
        revoke_token(db_path, token)
    report("surroundings", timings, "300" if args.national else "150")
    if assessing:
        report("assessment", assessing, "300")


def assess(client: httpx.Client, headers: dict, site_id: str) -> float:
    """Screen the site into a new assessment; return the milliseconds it took."""
    key = {"Idempotency-Key": f"bench-assess-{site_id}-{time.time_ns()}"}
    started = time.perf_counter()
    response = client.post(f"/v1/sites/{site_id}/assessments", headers={**headers, **key})
    elapsed = 1000 * (time.perf_counter() - started)
    response.raise_for_status()
    return elapsed


def report(what: str, timings: dict[str, list[float]], target_ms: str) -> None:
    """Print p50 and p95 per site and over all of them."""
    print(what)
    every = [t for values in timings.values() for t in values]
    for name, values in timings.items():
        print(
            f"{name:12s} p50 {statistics.median(values):7.1f} ms  "
            f"p95 {percentile(values, 0.95):7.1f} ms"
        )
    print(
        f"{'all':12s} p50 {statistics.median(every):7.1f} ms  p95 {percentile(every, 0.95):7.1f} ms"
        f"  (target p50 < {target_ms} ms)"
    )


if __name__ == "__main__":
    main()
