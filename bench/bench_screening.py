"""Benchmark screening a site over loopback HTTP, store by store (a script, not a test).

    uv run gridservice demo-data --scale 100 --db scale100.db         # once per scale
    uv run gridservice build --from ../shared/data --db harvest.db    # once
    uv run python bench/bench_screening.py scale1.db scale10.db scale100.db harvest.db \
        [--rounds 10] [--max-seconds 120]

For each store (a demo store at some scale, or the harvested store: told apart by its
`data_kind`), issues a bench token (revoked at the end), creates a 200 MW site at three
points (issue 15's Abilene, Odessa and downtown Houston on the harvested store; the demo's
dual-certified, single-territory and unserved points on a demo store) and times, round-robin
over the sites:

- `POST /v1/sites/{id}/assessments` (screening: a new assessment each time),
- `GET /v1/sites/{id}/surroundings` (40 km, the default window),
- `GET /v1/sites/{id}/changes` (since the site's first assessment).

Each store is served by `gridservice serve` in a process of its own, as a team runs it
(`--in-process`: in a thread of this process, as before 27 Nov 2026: the client and the
service then share one interpreter, which added about a fifth to the scale-100 figures).
Each request is timed to the last byte of its body. The first asking per site is left out
(county index, page cache) and printed apart. A store stops early after `--max-seconds` of
timed rounds (the scale-100 answers take seconds each), saying so. Then, as an analyst
screening sites one after another does, `--new-sites` (12) sites are created at points
scattered within about 30 km of the three (the same points on every run) and each of the
three requests is asked once per new site (`..., new site` rows; a point whose counties no
harvested report covers has no surroundings, a 404, and is left out of that row). Prints
one row per store and endpoint: p50, p95, the answer's median size, and the requests timed. Target: p50 < 300 ms at
scale 100 for all three; the harvested store's surroundings p50 < 150 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx

from bench.peers.servers import start_gridservice
from gridservice.demo import DEMO_POINTS
from gridservice.runtime.server import start_in_thread
from gridservice.security.tokens import issue_token, revoke_token
from gridservice.settings import Settings

HARVEST_SITES = {
    "Abilene": (32.45, -99.73),
    "Odessa": (31.85, -102.37),
    "Houston": (29.76, -95.37),
}
DEMO_SITES = {
    name: DEMO_POINTS[name] for name in ("dual_certified", "single_territory", "unserved")
}
ENDPOINTS = ("assessment", "surroundings", "changes")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def store_kind(db_path: Path) -> tuple[str, str]:
    """Return (label, kind): the demo scale or 'harvested', from the store's meta table."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    finally:
        conn.close()
    kind = meta.get("data_kind") or "harvested"
    label = f"scale {meta.get('demo_scale', '?')}" if kind == "demo" else "harvested"
    return label, kind


class Timed:
    """One client, one token: issues the three requests and records each one's time."""

    def __init__(self, client: httpx.Client, token: str) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"}
        self.sizes: dict[str, list[int]] = {}  # each answer's size, by endpoint

    def _send(self, label: str, method: str, path: str, **kwargs) -> tuple[float, dict]:
        started = time.perf_counter()
        response = self.client.request(method, path, **kwargs)
        elapsed = 1000 * (time.perf_counter() - started)
        response.raise_for_status()
        self.sizes.setdefault(label, []).append(len(response.content))
        return elapsed, response.json()["data"]

    def _key(self, name: str) -> dict[str, str]:
        return {**self.headers, "Idempotency-Key": f"bench-screening-{name}-{time.time_ns()}"}

    def create_site(self, name: str, point: tuple[float, float]) -> str:
        body = {
            "requestedPeakLoadMw": 200.0,
            "location": {"latitude": point[0], "longitude": point[1]},
            "customerReference": f"bench screening {name}",
        }
        return self._send("site", "POST", "/v1/sites", json=body, headers=self._key(name))[1]["id"]

    def ask(
        self, endpoint: str, site_id: str, since: str | None, label: str | None = None
    ) -> tuple[float, dict]:
        """Ask one endpoint of a site; return (ms, data). `label`: the row its size is
        counted in (default the endpoint's)."""
        if endpoint == "assessment":
            path, method, headers = f"/v1/sites/{site_id}/assessments", "POST", self._key(site_id)
        else:
            path, method, headers = f"/v1/sites/{site_id}/{endpoint}", "GET", self.headers
        params = {"since": since} if endpoint == "changes" and since else None
        return self._send(label or endpoint, method, path, headers=headers, params=params)


def serve(db_path: Path, in_process: bool) -> tuple[str, Callable[[], None]]:
    """Serve the store on loopback; return its base URL and what stops it."""
    if in_process:
        server = start_in_thread(Settings(db_path=db_path, rate_limit_burst=10**9))
        return server.base_url, server.stop
    process = start_gridservice(["--db", str(db_path)])
    return process.base_url, process.stop


def new_site_points(sites: dict[str, tuple[float, float]], count: int) -> list[tuple[float, float]]:
    """Return `count` points scattered within about 30 km of the store's sites, the same
    points on every run (a fixed seed)."""
    scatter = random.Random(20261127)
    centres = list(sites.values())
    return [
        (lat + scatter.uniform(-0.3, 0.3), lon + scatter.uniform(-0.3, 0.3))
        for lat, lon in (centres[i % len(centres)] for i in range(count))
    ]


def screen_new_sites(
    timed: Timed, sites: dict[str, tuple[float, float]], count: int
) -> Iterator[tuple[str, float]]:
    """Create `count` sites near the store's sites and ask each of the three once, as an
    analyst screening a new site does; yield (endpoint, ms). A site whose counties no
    harvested report covers has no surroundings (404): its other two are still timed."""
    for i, point in enumerate(new_site_points(sites, count)):
        site_id = timed.create_site(f"new-{i}", point)
        since = None
        for endpoint in ENDPOINTS:
            try:
                elapsed, data = timed.ask(endpoint, site_id, since, f"{endpoint}, new site")
            except httpx.HTTPStatusError as error:
                if error.response.status_code != 404:
                    raise
                continue
            since = data["id"] if endpoint == "assessment" else since
            yield endpoint, elapsed


def bench_store(
    db_path: Path,
    rounds: int,
    max_seconds: float,
    in_process: bool = False,
    new_sites: int = 0,
) -> list[dict]:
    label, kind = store_kind(db_path)
    sites = DEMO_SITES if kind == "demo" else HARVEST_SITES
    base_url, stop = serve(db_path, in_process)
    token = issue_token(db_path, "bench-screening")
    timings: dict[str, list[float]] = {e: [] for e in ENDPOINTS}
    timings.update({f"{e}, new site": [] for e in ENDPOINTS})
    done = 0
    try:
        with httpx.Client(base_url=base_url, timeout=600) as client:
            timed = Timed(client, token)
            ids = {name: timed.create_site(name, p) for name, p in sites.items()}
            first_assessment = {}
            for name, site_id in ids.items():  # first asking, not counted
                line = []
                for endpoint in ENDPOINTS:
                    since = first_assessment.get(site_id)
                    elapsed, data = timed.ask(endpoint, site_id, since)
                    if endpoint == "assessment":
                        first_assessment[site_id] = data["id"]
                    line.append(f"{endpoint} {elapsed:,.0f} ms")
                print(f"  {label:10s} {name:17s} first: " + ", ".join(line), flush=True)
            started = time.perf_counter()
            while done < rounds and time.perf_counter() - started < max_seconds:
                for site_id in ids.values():
                    for endpoint in ENDPOINTS:
                        since = first_assessment[site_id]
                        timings[endpoint].append(timed.ask(endpoint, site_id, since)[0])
                done += 1
            if done < rounds:
                print(f"  {label}: stopped after {done} rounds ({max_seconds:g} s)", flush=True)
            for endpoint, elapsed in screen_new_sites(timed, sites, new_sites):
                timings[f"{endpoint}, new site"].append(elapsed)
    finally:
        stop()
        revoke_token(db_path, token)
    return [
        {
            "store": label,
            "endpoint": endpoint,
            "p50": statistics.median(values),
            "p95": percentile(values, 0.95),
            "kib": statistics.median(timed.sizes[endpoint]) / 1024,
            "n": len(values),
        }
        for endpoint, values in timings.items()
        if values
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stores", type=Path, nargs="+", help="store files (demo or harvested)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds over the three sites")
    parser.add_argument("--max-seconds", type=float, default=120.0, help="per store")
    parser.add_argument(
        "--new-sites",
        type=int,
        default=12,
        help="then screen this many new sites near them, each asked once (0: none)",
    )
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="serve in a thread of this process (the figures before 27 Nov 2026)",
    )
    args = parser.parse_args()
    print(f"load average at start: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    rows = []
    for db_path in args.stores:
        rows += bench_store(db_path, args.rounds, args.max_seconds, args.in_process, args.new_sites)
    print(f"load average at end: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    print("| store | endpoint | p50 ms | p95 ms | answer KiB | requests |")
    print("|---|---|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['store']} | {r['endpoint']} | {r['p50']:,.0f} | {r['p95']:,.0f} | "
            f"{r['kib']:,.0f} | {r['n']} |"
        )


if __name__ == "__main__":
    main()
