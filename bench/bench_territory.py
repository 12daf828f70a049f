"""Territory resolution by polygon: the time to resolve a point anywhere in the US.

Harvests the HIFLD territories and ISO boundaries into a fresh store and takes its data
snapshot hash (as the harvest command does), builds the spatial indexes once (timed apart),
then resolves random points drawn inside random state outlines
(`resolve_service_territory`: polygons, county listing, market) and prints p50 and p95.

    uv run python bench/bench_territory.py [--points 500] [--data ../shared/data] [--no-snapshot]

`--no-snapshot` leaves the hash untaken: each lookup then checks each layer's signature.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from gridservice.geography.geo import geometry_from_geojson, random_point_in
from gridservice.geography.markets import market_at
from gridservice.harvest import census, run_harvest
from gridservice.screening import resolve_service_territory
from gridservice.store import db, geography_reads, meta_reads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=500)
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--no-snapshot", action="store_true", help="take no snapshot hash")
    args = parser.parse_args()
    folder = args.data / "hifld_territories"
    with tempfile.TemporaryDirectory() as tmp:
        conn = db.connect(Path(tmp) / "bench.db")
        db.init_schema(conn)
        run_harvest(conn, "census-counties", census.default_path())
        run_harvest(conn, "hifld-territories", next(folder.glob("*retail_service*.geojson")))
        run_harvest(conn, "hifld-iso", next(folder.glob("*system_operators*.geojson")))
        if not args.no_snapshot:
            meta_reads.data_snapshot_sha256(conn)
        started = time.perf_counter()
        resolve_service_territory(conn, 39.08, -77.65)
        market_at(conn, 39.08, -77.65)
        first = time.perf_counter() - started
        rng = random.Random(20260501)
        states = [geometry_from_geojson(r[3]) for r in geography_reads.state_rows(conn)]
        points = [random_point_in(rng.choice(states), rng) for _ in range(args.points)]
        times = []
        for latitude, longitude in points:
            started = time.perf_counter()
            resolve_service_territory(conn, latitude, longitude)
            times.append((time.perf_counter() - started) * 1000)
        conn.close()
    times.sort()
    print(f"first call (reads and indexes the layers): {first:.2f} s")
    print(
        f"{len(times)} points: p50 {statistics.median(times):.1f} ms, "
        f"p95 {times[int(len(times) * 0.95)]:.1f} ms, max {times[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
