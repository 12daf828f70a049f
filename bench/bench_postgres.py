"""PostgreSQL against SQLite on the peers' scenarios, one and two instances (a script).

    uv run python bench/bench_postgres.py --admin-url postgresql://user:pw@host/postgres \
        [--scales 1 10 100] [--duration 20] [--connections 16] [--out results.json]

For each scale it builds (or reuses) the demo store as a SQLite file and as a PostgreSQL
database (`gds_bench_scale<N>`, created through the admin URL), then loads every scenario of
`bench.peers.scenarios` with wrk against: one `gridservice serve` on the SQLite file, one on
the PostgreSQL database, and two on the PostgreSQL database (two wrk runs at once, half the
connections each, requests summed). Rate limits are off, as in the peer benchmark.

Targets (issue: several instances on one database): per instance, the PostgreSQL backend
serves at least 0.7x the SQLite backend's 500-row pages per second; two instances serve at
least 1.6x one. Both instances and wrk share the machine with the database, so on two cores
the second figure measures the machine as much as the design: say so in the write-up.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

from bench.peers import scenarios
from bench.peers.load import run_wrk
from bench.peers.servers import start_gridservice
from gridservice.demo import build_demo_database
from gridservice.store import meta_reads
from gridservice.store.db import connect, init_schema

PAGE_SCENARIOS = ("generators_first", "generators_filtered")


def ensure_demo(location: str | Path, scale: int) -> None:
    conn = connect(location)
    try:
        init_schema(conn)
        if not meta_reads.has_public_data(conn):
            started = time.perf_counter()
            build_demo_database(conn, scale=scale)
            conn.commit()
            print(f"  built scale {scale} in {time.perf_counter() - started:.0f} s", flush=True)
    finally:
        conn.close()


def postgres_database(admin_url: str, scale: int) -> str:
    name = f"gds_bench_scale{scale}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    return admin_url.rsplit("/", 1)[0] + "/" + name


def load(bases: list[str], path: str, connections: int, duration: float) -> dict:
    """Load `path` on every base at once, connections shared out; requests summed."""
    share = max(1, connections // len(bases))
    with ThreadPoolExecutor(len(bases)) as pool:
        results = list(
            pool.map(
                lambda base: run_wrk(
                    base + path, connections=share, duration=duration, headers=scenarios.AUTH
                ),
                bases,
            )
        )
    return {
        "rps": round(sum(r.rps for r in results), 1),
        "p50_ms": max(r.p50_ms for r in results),
        "p99_ms": max(r.p99_ms for r in results),
        "errors": sum(r.errors for r in results),
    }


def run_scale(scale: int, args: argparse.Namespace) -> dict:
    sqlite_path = Path(tempfile.gettempdir()) / f"gridservice-bench-scale{scale}.db"
    pg_url = postgres_database(args.admin_url, scale)
    print(f"scale {scale}: SQLite {sqlite_path}, PostgreSQL gds_bench_scale{scale}", flush=True)
    ensure_demo(sqlite_path, scale)
    ensure_demo(pg_url, scale)
    setups = {
        "sqlite": [["--db", str(sqlite_path)]],
        "postgresql_1": [["--database-url", pg_url]],
        "postgresql_2": [["--database-url", pg_url], ["--database-url", pg_url]],
    }
    out: dict = {}
    for setup, stores in setups.items():
        servers = [start_gridservice(store) for store in stores]
        try:
            bases = [server.base_url for server in servers]
            for scenario in scenarios.base_scenarios("unused"):
                result = load(bases, scenario.ours, args.connections, args.duration)
                out.setdefault(scenario.name, {})[setup] = result
                print(f"  {setup:13} {scenario.name:22} {result['rps']:8.1f} req/s", flush=True)
        finally:
            for server in servers:
                server.stop()
    for figures in out.values():
        sqlite, one, two = (figures[k]["rps"] for k in setups)
        figures["postgresql_vs_sqlite"] = round(one / sqlite, 2) if sqlite else None
        figures["two_vs_one"] = round(two / one, 2) if one else None
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--admin-url", required=True, help="a PostgreSQL URL allowed to CREATE DATABASE"
    )
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--duration", type=float, default=20)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--out", type=Path, default=Path("bench-postgres.json"))
    args = parser.parse_args(argv)
    results = {f"scale_{scale}": run_scale(scale, args) for scale in args.scales}
    args.out.write_text(json.dumps(results, indent=2))
    print(f"\n{'scale':8} {'scenario':22} {'PG/SQLite':>10} {'2 PG/1 PG':>10}")
    for scale, figures in results.items():
        for name in PAGE_SCENARIOS:
            row = figures.get(name, {})
            print(
                f"{scale:8} {name:22} {row.get('postgresql_vs_sqlite')!s:>10} "
                f"{row.get('two_vs_one')!s:>10}"
            )
    print("targets: PG/SQLite >= 0.7 on 500-row pages; 2 PG/1 PG >= 1.6")
    print(f"figures written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
