"""Our service against Datasette on the same SQLite file, with the floor under both.

    uv run python -m bench.peers [--scales 1 10 100] [--duration 4] [--connections 8]
                                 [--rounds 3] [--data-dir DIR] [--out docs/benchmarks]

For each scale: builds the demo database if it is missing (`gridservice demo-data`), times
the service's SQL and JSON encoding in-process (the floor), starts our service, Datasette
and a static-bytes uvicorn (the HTTP floor) on loopback, checks that both sides page to the
same rows, then loads every scenario with wrk, alternating which side goes first in each
round, and reads the resident memory of each server; then the client's 50,000-record
traversal against bare httpx, and the app's pages in headless Chromium (through
`bench/bench_pages.py`, against our service on the same database). `--parts` runs a
subset. Results go to `<out>/peers-results.json` (merged by scale, so one scale can be
re-run alone), and the tables and chart are regenerated from that file.
Needs `wrk` on PATH (and Chromium for the app part).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.peers import app_pages, client_overhead, floor, report, scenarios, servers
from bench.peers.load import run_wrk, wrk_path
from gridservice.store.db import connect, init_schema

PARTS = ("load", "client", "app")
# The 500-row pages, each also loaded on the HTTP floor (uvicorn sending its bytes) and on
# our service with its page cache off (every page by the full path).
PAGE_SCENARIOS = ("generators_first", "generators_last", "generators_filtered")


def build_database(path: Path, scale: int) -> dict:
    """Build the demo database at `path` unless it exists; return how long it took."""
    info: dict = {"built_now": False}
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "gridservice", "demo-data", "--db", str(path), "--scale", str(scale)],
            check=True,
            cwd=servers.REPO_ROOT,
        )  # fmt: skip
        info = {"built_now": True, "build_seconds": round(time.perf_counter() - start, 1)}
    else:
        # A database kept from an earlier run gets any table a newer schema adds (as the
        # service would on opening it), before the floors read it.
        conn = connect(path)
        init_schema(conn)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
    info["file_mb"] = round(path.stat().st_size / 2**20, 1)
    return info


def _median_result(results: list[dict]) -> dict:
    keys = ("rps", "p50_ms", "p95_ms", "p99_ms")
    out = {k: round(statistics.median(r[k] for r in results), 2) for k in keys}
    out["rounds_rps"] = [r["rps"] for r in results]
    out["errors"] = sum(r["errors"] for r in results)
    out["requests"] = sum(r["requests"] for r in results)
    out["bytes_per_response"] = results[0]["bytes_per_response"]
    return out


def load_scenarios(procs: dict, todo: list[scenarios.Scenario], args: argparse.Namespace) -> dict:
    """Every scenario on every side, `rounds` times, alternating the side that goes first."""
    urls = {
        s.name: {"ours": procs["ours"].base_url + s.ours, "datasette": procs["datasette"].base_url + s.datasette}
        for s in todo
    }  # fmt: skip
    pages = [name for name in PAGE_SCENARIOS if name in urls]  # as `start_static` was given
    for index, name in enumerate(pages):
        path = urls[name]["ours"][len(procs["ours"].base_url) :]
        urls[name]["static_floor"] = procs["static"].base_url + f"/{index}"
        urls[name]["ours_full_path"] = procs["ours_full_path"].base_url + path
    raw: dict[str, dict[str, list[dict]]] = {name: {} for name in urls}
    warm = dict(connections=args.connections, duration=1, headers=scenarios.AUTH)
    for sides in urls.values():
        for url in sides.values():
            run_wrk(url, **warm)
    for round_no in range(args.rounds):
        for index, (name, sides) in enumerate(urls.items()):
            order = list(sides)
            if (round_no + index) % 2:
                order.reverse()
            for side in order:
                result = run_wrk(
                    sides[side],
                    connections=args.connections,
                    duration=args.duration,
                    headers=scenarios.AUTH,
                )
                raw[name].setdefault(side, []).append(result.as_dict())
                print(f"  round {round_no + 1} {name:22} {side:12} {result.rps:8.1f} req/s "
                      f"p50 {result.p50_ms:7.1f} p99 {result.p99_ms:7.1f} ms", flush=True)  # fmt: skip
    return {
        name: {side: _median_result(rs) for side, rs in sides.items()}
        for name, sides in raw.items()
    }


def run_scale(scale: int, args: argparse.Namespace, result: dict) -> dict:
    """Run the selected parts at one scale, updating `result` (the scale's previous entry)."""
    db = args.data_dir / f"scale{scale}.db"
    print(f"scale {scale}: {db}", flush=True)
    result["database"] = build_database(db, scale)
    procs: dict[str, servers.Process] = {}
    try:
        if "load" in args.parts:
            result["load_average_before"] = os.getloadavg()
            result["floor"] = floor.measure(db)
        procs["ours"] = servers.start_service(db)
        if "load" in args.parts:
            procs["datasette"] = servers.start_datasette(db)
            todo, result["checks"] = scenarios.discover(
                db.stem, procs["ours"].base_url, procs["datasette"].base_url
            )
            by_name = {s.name: s for s in todo}
            bodies = [
                httpx.get(procs["ours"].base_url + by_name[name].ours, headers=scenarios.AUTH)
                .raise_for_status()
                .content
                for name in PAGE_SCENARIOS
                if name in by_name
            ]
            procs["static"] = servers.start_static(bodies)
            procs["ours_full_path"] = servers.start_service(db, page_cache_mb=0)
            result["titles"] = {s.name: s.title for s in todo}
            result["load"] = load_scenarios(procs, todo, args)
            result["load_average_after"] = os.getloadavg()
            result["memory_mb"] = {
                "ours": procs["ours"].memory_mb(),
                "datasette": procs["datasette"].memory_mb(),
            }
            result["memory_mb"]["ours_full_path"] = procs["ours_full_path"].memory_mb()
            for name in ("datasette", "static", "ours_full_path"):
                procs.pop(name).stop()
        if "client" in args.parts:
            print("  client traversal ...", flush=True)
            result["client"] = client_overhead.measure(
                procs["ours"].base_url, max_items=args.client_records, repeats=args.rounds
            )
        if "app" in args.parts:
            # after Datasette has stopped: screening one site writes to the store
            print("  app pages ...", flush=True)
            result["app"] = app_pages.measure(procs["ours"].base_url, rounds=args.app_rounds)
        result["memory_mb_at_end"] = {"ours": procs["ours"].memory_mb()}
    finally:
        for proc in procs.values():
            proc.stop()
    return result


def machine() -> dict:
    cpu = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")),
        platform.processor(),
    )  # fmt: skip
    mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
    # Deferred: the servers' libraries are read for their versions only when reporting.
    import datasette
    import fastapi
    import uvicorn

    wrk_version = subprocess.run([wrk_path(), "-v"], capture_output=True, text=True).stdout
    return {
        "cpus": os.cpu_count(),
        "cpu_model": cpu,
        "memory_gb": round(mem_kb / 2**20, 1),
        "python": platform.python_version(),
        "sqlite": __import__("sqlite3").sqlite_version,
        "datasette": datasette.__version__,
        "fastapi": fastapi.__version__,
        "uvicorn": uvicorn.__version__,
        "wrk": (wrk_version.split("\n")[0] or "wrk").strip(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.peers", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--duration", type=float, default=4.0, help="seconds per wrk run")
    parser.add_argument("--connections", type=int, default=8, help="concurrent connections")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--client-records", type=int, default=50_000)
    parser.add_argument(
        "--parts", nargs="+", choices=PARTS, default=list(PARTS),
        help="load: service vs Datasette and the floors; client: gridclient vs bare httpx; "
        "app: page timings via bench/bench_pages.py (default: all)",
    )  # fmt: skip
    parser.add_argument("--app-rounds", type=int, default=2)
    parser.add_argument(
        "--data-dir", type=Path, default=Path(tempfile.gettempdir()) / "gds-peers",
        help="where the demo databases are built and kept (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=servers.REPO_ROOT / "docs" / "benchmarks")
    args = parser.parse_args(argv)
    wrk_path()
    # a terminated run still stops the servers it started (the `finally` in run_scale)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    results_path = args.out / "peers-results.json"
    results = json.loads(results_path.read_text()) if results_path.exists() else {"scales": {}}
    results["machine"] = machine()
    results["settings"] = {
        "duration_s": args.duration, "connections": args.connections, "rounds": args.rounds,
        "page_size": scenarios.PAGE, "search_limit": scenarios.SEARCH_LIMIT,
    }  # fmt: skip
    for scale in args.scales:
        previous = results["scales"].get(str(scale), {})
        results["scales"][str(scale)] = run_scale(scale, args, previous)
        if "load" in args.parts:
            results["scales"][str(scale)]["settings"] = results["settings"]
        results_path.write_text(json.dumps(results, indent=1) + "\n")
    report.write(results, args.out)
    print(f"results: {results_path}; table: {args.out / 'peers-table.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
