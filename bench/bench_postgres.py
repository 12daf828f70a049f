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
the second figure measures the machine as much as the design.

Where the CPU goes (`bench.cpu_accounting`, from /proc): over each wrk run, the cores used
(CPU-seconds per second) by each instance, by wrk, by the PostgreSQL server (postmaster and
backends, when it runs on this machine) and by the machine as a whole (busy and idle, and
softirq within busy; "other" is busy less all of these: anything else running, its busiest
processes named, and kernel time charged to none of them). Per run it prints those and the requests per
instance-CPU-second; the summary adds the
instances' CPU-seconds per 1,000 requests with one and with two instances, and the machine's
idle share while two served. If two instances cost no more per request than one and the
machine is nearly never idle, a ratio below 2 is the machine's limit, not the design's; if
they cost more per request, something shared (a lock, the database) slows them.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg

from bench import cpu_accounting
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


def find_postmaster(admin_url: str) -> int | None:
    """Return the pid of the PostgreSQL server behind `admin_url` when it runs on this
    machine (the parent of this connection's backend), else None."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        (backend,) = conn.execute("SELECT pg_backend_pid()").fetchone()
        return cpu_accounting.postmaster_of(cpu_accounting.read_processes(), backend)


def load(bases: list[str], path: str, connections: int, duration: float, roots: dict) -> dict:
    """Load `path` on every base at once, connections shared out; requests summed, and the
    cores each process group in `roots` (and wrk, and the machine) used meanwhile."""
    share = max(1, connections // len(bases))
    before = cpu_accounting.snapshot(roots)
    with ThreadPoolExecutor(len(bases)) as pool:
        results = list(
            pool.map(
                lambda base: run_wrk(
                    base + path, connections=share, duration=duration, headers=scenarios.AUTH
                ),
                bases,
            )
        )
    cpu = cpu_accounting.cpu_used(
        before, cpu_accounting.snapshot(roots), cpu_accounting.clock_ticks()
    )
    requests = sum(r.requests for r in results)
    return {
        "rps": round(sum(r.rps for r in results), 1),
        "requests": requests,
        "p50_ms": max(r.p50_ms for r in results),
        "p99_ms": max(r.p99_ms for r in results),
        "errors": sum(r.errors for r in results),
        "cpu": cpu_summary(cpu, requests),
    }


def cpu_summary(cpu: dict, requests: int) -> dict:
    """Add the instances' sum and their CPU cost per request to `cpu_accounting.cpu_used`'s
    figures (cores, over `cpu["seconds"]`)."""
    groups = cpu["groups"]
    each = [cores for name, cores in sorted(groups.items()) if name.startswith("instance")]
    instance_cpu_seconds = sum(each) * cpu["seconds"]
    return {
        **cpu,
        "instances": round(sum(each), 3),
        "instances_each": each,
        "instance_cpu_seconds_per_1000_requests": (
            round(1000 * instance_cpu_seconds / requests, 3) if requests else None
        ),
        "requests_per_instance_cpu_second": (
            round(requests / instance_cpu_seconds) if instance_cpu_seconds else None
        ),
    }


def cpu_line(cpu: dict) -> str:
    """One run's CPU use as printed: cores per group, the machine's busy and idle cores."""
    each = "+".join(f"{c:.2f}" for c in cpu["instances_each"])
    postgres = cpu["groups"].get("postgres")
    postgres_text = "n/a" if postgres is None else f"{postgres:.2f}"
    others = ", ".join(f"{name} {cores:.2f}" for name, cores in cpu["busiest_others"])
    return (
        f"cores: instances {cpu['instances']:.2f} ({each}) wrk {cpu['groups']['wrk']:.2f} "
        f"postgres {postgres_text} other {cpu['other']:.2f} (softirq {cpu['softirq']:.2f}"
        f"{'; ' + others if others else ''}); "
        f"machine busy {cpu['machine_busy']:.2f} idle {cpu['machine_idle']:.2f}; "
        f"{cpu['requests_per_instance_cpu_second']} req per instance-CPU-s"
    )


def run_scale(scale: int, args: argparse.Namespace) -> dict:
    sqlite_path = Path(tempfile.gettempdir()) / f"gridservice-bench-scale{scale}.db"
    pg_url = postgres_database(args.admin_url, scale)
    print(f"scale {scale}: SQLite {sqlite_path}, PostgreSQL gds_bench_scale{scale}", flush=True)
    ensure_demo(sqlite_path, scale)
    ensure_demo(pg_url, scale)
    postmaster = find_postmaster(args.admin_url)
    if postmaster is None:
        print("  PostgreSQL runs elsewhere: its CPU is not measured (only 'other')", flush=True)
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
            roots = {f"instance_{i}": [server.pid] for i, server in enumerate(servers, 1)}
            if postmaster is not None:
                roots["postgres"] = [postmaster]
            for scenario in scenarios.base_scenarios("unused"):
                result = load(bases, scenario.ours, args.connections, args.duration, roots)
                out.setdefault(scenario.name, {})[setup] = result
                print(
                    f"  {setup:13} {scenario.name:22} {result['rps']:8.1f} req/s  "
                    + cpu_line(result["cpu"]),
                    flush=True,
                )
        finally:
            for server in servers:
                server.stop()
    for figures in out.values():
        sqlite, one, two = (figures[k]["rps"] for k in setups)
        figures["postgresql_vs_sqlite"] = round(one / sqlite, 2) if sqlite else None
        figures["two_vs_one"] = round(two / one, 2) if one else None
        for setup in ("postgresql_1", "postgresql_2"):
            cost = figures[setup]["cpu"]["instance_cpu_seconds_per_1000_requests"]
            figures[f"{setup}_instance_cpu_s_per_1000"] = cost
        two_cpu = figures["postgresql_2"]["cpu"]
        machine = two_cpu["machine_busy"] + two_cpu["machine_idle"]
        figures["postgresql_2_machine_idle_share"] = (
            round(two_cpu["machine_idle"] / machine, 3) if machine else None
        )
    return out


def print_summary(results: dict) -> None:
    """The 500-row pages' ratios, the instances' CPU cost per 1,000 requests with one and
    with two instances, and how idle the machine was while two served."""
    print(
        f"\n{'scale':8} {'scenario':22} {'PG/SQLite':>10} {'2 PG/1 PG':>10} "
        f"{'CPU-s/1k, 1 PG':>15} {'CPU-s/1k, 2 PG':>15} {'idle, 2 PG':>11}"
    )
    for scale, figures in results.items():
        for name in PAGE_SCENARIOS:
            row = figures.get(name, {})
            idle = row.get("postgresql_2_machine_idle_share")
            idle_text = "n/a" if idle is None else f"{100 * idle:.0f}%"
            print(
                f"{scale:8} {name:22} {row.get('postgresql_vs_sqlite')!s:>10} "
                f"{row.get('two_vs_one')!s:>10} "
                f"{row.get('postgresql_1_instance_cpu_s_per_1000')!s:>15} "
                f"{row.get('postgresql_2_instance_cpu_s_per_1000')!s:>15} {idle_text:>11}"
            )
    print("targets: PG/SQLite >= 0.7 on 500-row pages; 2 PG/1 PG >= 1.6")
    print(
        "CPU-s/1k: the instances' CPU-seconds per 1,000 requests; about equal with one and two\n"
        "instances means a second instance costs nothing extra per request, so a ratio below\n"
        "2 with the machine nearly never idle is the machine's limit, not the design's"
    )


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
    print_summary(results)
    print(f"figures written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
