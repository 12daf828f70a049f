"""Benchmark the reference service over loopback HTTP (a script, not a test).

    uv run python bench/bench_service.py --scale 10 [--db PATH] [--rounds 60]

Builds (or reuses) a demo store at the given scale, starts the service in a thread and
measures: a 500-record page of generators (p50, target < 25 ms); the last page of a full
traversal against the first (ratio, target <= 1.5); evidence search (p95, target < 50 ms).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from gridservice.runtime.server import start_in_thread
from gridservice.settings import Settings

HEADERS = {"Authorization": "Bearer gds_demo_alpha"}
QUERIES = [
    "queue",
    "transmission line",
    "load forecast",
    "solar",
    "interconnection request",
    "substation",
    "docket filing",
    "reserve margin",
    "wind",
    "battery storage",
]


def timed(client: httpx.Client, path: str, params: dict) -> tuple[float, dict]:
    start = time.perf_counter()
    response = client.get(path, params=params, headers=HEADERS)
    elapsed = (time.perf_counter() - start) * 1000
    response.raise_for_status()
    return elapsed, response.json()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    db_path = args.db or Path(tempfile.gettempdir()) / f"gridservice-bench-scale{args.scale}.db"

    started = time.perf_counter()
    settings = Settings(db_path=db_path, demo=True, demo_scale=args.scale, rate_limit_burst=10**9)
    server = start_in_thread(settings)
    print(f"store {db_path} ready and serving in {time.perf_counter() - started:.1f} s")
    try:
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            timed(client, "/v1/generators", {"limit": 500})  # warm the page cache
            first = [timed(client, "/v1/generators", {"limit": 500})[0] for _ in range(args.rounds)]

            cursors, cursor, total = [], None, 0
            while True:
                params = {"limit": 500, **({"cursor": cursor} if cursor else {})}
                _, body = timed(client, "/v1/generators", params)
                total += len(body["data"])
                cursors.append(cursor)
                if not body["meta"]["hasMore"]:
                    break
                cursor = body["meta"]["nextCursor"]
            last_cursor = cursors[-1]
            last = (
                [
                    timed(client, "/v1/generators", {"limit": 500, "cursor": last_cursor})[0]
                    for _ in range(args.rounds)
                ]
                if last_cursor
                else first
            )

            search = []
            for i in range(args.rounds * 2):
                search.append(
                    timed(
                        client, "/v1/evidence-search", {"q": QUERIES[i % len(QUERIES)], "limit": 20}
                    )[0]
                )
    finally:
        server.stop()

    p50_first, p50_last = statistics.median(first), statistics.median(last)
    print(f"generators: {total} current records in {len(cursors)} pages of 500")
    print(
        f"first page of 500 generators  p50 {p50_first:6.2f} ms  p95 {percentile(first, 0.95):6.2f} ms  (target p50 < 25)"
    )
    print(
        f"last page of the traversal    p50 {p50_last:6.2f} ms  ratio last/first {p50_last / p50_first:4.2f}  (target <= 1.5)"
    )
    print(
        f"evidence search (limit 20)    p50 {statistics.median(search):6.2f} ms  p95 {percentile(search, 0.95):6.2f} ms  (target p95 < 50)"
    )


if __name__ == "__main__":
    main()
