"""A bounded load test of the service over loopback (a script, not a test).

    uv run python bench/load_test.py --scale 10 --clients 32 --duration 60 [--workers N] [--db PATH]

Builds (or reuses) a demo store at `--scale`, starts `gridservice serve` on 127.0.0.1 in its
own process (rate limit off; `--workers N` worker processes), and runs `--clients` concurrent clients for `--duration`
seconds. Each client repeats: page a collection with `limit=500` following `nextCursor`
(up to `--pages` pages), then run an evidence search. A separate probe calls `/v1/health`
every 0.5 s. The first `--warmup` seconds (default 5) run the same load unrecorded, so that
every worker process is up and caches are warm. Reports throughput, p50/p99 per kind of request, errors, and the probe's worst
answer; writes the figures as JSON beside the printed table. Loopback only, bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.peers.servers import start_gridservice

HEADERS = {"Authorization": "Bearer gds_demo_alpha"}
COLLECTIONS = [
    "/v1/generators",
    "/v1/queue-records",
    "/v1/generation-plants",
    "/v1/transmission-projects",
    "/v1/balancing-authority-operations",
    "/v1/generator-operations",
]
QUERIES = [
    "queue",
    "transmission line",
    "load forecast",
    "solar",
    "interconnection request",
    "substation",
    "reserve margin",
    "wind",
    "battery storage",
    "docket",
]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def machine() -> dict:
    cpu = "unknown"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as info:
        memory_kb = int(info.readline().split()[1])
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory_gb": round(memory_kb / 1024**2, 1),
        "python": platform.python_version(),
        "load_average_at_start": os.getloadavg(),
    }


def ensure_store(db: Path, scale: int) -> None:
    if db.exists():
        return
    subprocess.run(
        [sys.executable, "-m", "gridservice", "demo-data", "--db", str(db), "--scale", str(scale)],
        check=True,
    )


class Recorder:
    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = {"page": [], "search": [], "health": []}
        self.errors: list[str] = []

    async def timed(self, http: httpx.AsyncClient, kind: str, path: str, params: dict) -> dict:
        """Send one GET; return its `meta` (only the tail is parsed: the load generator shares
        the machine's cores with the service, so it reads no more than it needs)."""
        start = time.perf_counter()
        try:
            response = await http.get(path, params=params, headers=HEADERS)
        except httpx.HTTPError as exc:
            self.errors.append(f"{kind} {path}: {type(exc).__name__}")
            return {}
        self.latencies[kind].append((time.perf_counter() - start) * 1000)
        if response.status_code != 200:
            self.errors.append(f"{kind} {path}: {response.status_code}")
            return {}
        content = response.content
        tail = content.rfind(b'"meta":')
        return {"meta": json.loads(content[tail + 7 : -1])} if tail > 0 else {}


async def client_loop(
    http: httpx.AsyncClient, recorder: Recorder, stop: float, pages: int, seed: int
) -> None:
    rng = random.Random(seed)
    while time.monotonic() < stop:
        path = rng.choice(COLLECTIONS)
        params: dict = {"limit": 500}
        for _ in range(pages):
            body = await recorder.timed(http, "page", path, params)
            cursor = body.get("meta", {}).get("nextCursor")
            if not cursor or time.monotonic() >= stop:
                break
            params = {"limit": 500, "cursor": cursor}
        if time.monotonic() < stop:
            query = {"q": rng.choice(QUERIES), "limit": 20}
            await recorder.timed(http, "search", "/v1/evidence-search", query)


async def health_probe(http: httpx.AsyncClient, recorder: Recorder, stop: float) -> None:
    while time.monotonic() < stop:
        await recorder.timed(http, "health", "/v1/health", {})
        await asyncio.sleep(0.5)


async def run(
    base: str, clients: int, duration: float, pages: int, warmup: float = 0.0
) -> tuple[Recorder, float]:
    # Every client is made before any request and kept for the whole run: making one builds
    # a TLS context (~20 ms of CPU even for plain HTTP), and 32 made at once would stall the
    # generator's event loop and show up as the service's latency.
    https = [httpx.AsyncClient(base_url=base, timeout=30) for _ in range(clients)]
    probe = httpx.AsyncClient(base_url=base, timeout=10)
    try:
        if warmup > 0:
            # Same load, not recorded: every worker process up, connections open, caches warm.
            stop = time.monotonic() + warmup
            await asyncio.gather(
                health_probe(probe, Recorder(), stop),
                *(
                    client_loop(http, Recorder(), stop, pages, clients + seed)
                    for seed, http in enumerate(https)
                ),
            )
        recorder = Recorder()
        started = time.monotonic()
        stop = started + duration
        await asyncio.gather(
            health_probe(probe, recorder, stop),
            *(client_loop(http, recorder, stop, pages, seed) for seed, http in enumerate(https)),
        )
        return recorder, time.monotonic() - started
    finally:
        for http in [*https, probe]:
            await http.aclose()


def summary(recorder: Recorder, elapsed: float) -> dict:
    def stats(values: list[float]) -> dict:
        return {
            "count": len(values),
            "p50_ms": round(percentile(values, 0.50), 1),
            "p99_ms": round(percentile(values, 0.99), 1),
            "max_ms": round(max(values), 1) if values else None,
        }

    work = recorder.latencies["page"] + recorder.latencies["search"]
    return {
        "elapsed_s": round(elapsed, 1),
        "requests": len(work),
        "throughput_rps": round(len(work) / elapsed, 1),
        "page_500": stats(recorder.latencies["page"]),
        "search": stats(recorder.latencies["search"]),
        "all": stats(work),
        "health_probe": stats(recorder.latencies["health"]),
        "errors": len(recorder.errors),
        "error_samples": recorder.errors[:10],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--pages", type=int, default=5, help="pages per traversal (limit 500)")
    parser.add_argument("--workers", type=int, default=1, help="service worker processes")
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="seconds of the same load before recording"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    if not 1 <= args.duration <= 600 or not 1 <= args.clients <= 256:
        parser.error("keep it bounded: 1-600 s and 1-256 clients")
    db = args.db or Path(tempfile.gettempdir()) / f"gridservice-bench-scale{args.scale}.db"
    ensure_store(db, args.scale)
    service = start_gridservice(["--db", str(db), "--workers", str(args.workers)], timeout=120)
    base = service.base_url
    try:
        recorder, elapsed = asyncio.run(
            run(base, args.clients, args.duration, args.pages, args.warmup)
        )
    finally:
        service.stop()
    result = {
        "machine": machine(),
        "settings": {
            "scale": args.scale,
            "clients": args.clients,
            "duration_s": args.duration,
            "pages_per_traversal": args.pages,
            "workers": args.workers,
            "warmup_s": args.warmup,
        },
        **summary(recorder, elapsed),
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
