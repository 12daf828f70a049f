"""Benchmark making the whole lists into the pages' frames, store by store (a script, not a
test): the app's own work in a page's first visit, after the lists are read.

    uv run gridservice demo-data --scale 100 --db scale100.db         # once per scale
    uv run python bench/bench_frames.py scale10.db scale100.db [--rounds 3]

For each store: starts `gridservice serve` on it in a process of its own, reads every
generator, plant, transmission project and queue record through `gridclient` (as the app's
whole lists are read), stops it, and then times, `--rounds` times each, what a page makes of
them once per list: Generation's frames (`generation_view.generation_frames`: the generators,
their table, the plants with their capacity), Transmission's (`transmission_view.project_list`)
and the queue's frame and table (`queue_view.queue_frame`, `tables.shown_table`). Prints one
row per store and list: the records, p50 and min seconds.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.peers.servers import start_gridservice  # noqa: E402
from gridclient import GridDataClient  # noqa: E402

DEMO_TOKEN = "gds_demo_alpha"
LISTS = ("generators", "generation_plants", "transmission_projects", "queue_records")


def read_lists(store: Path) -> dict[str, list[Any]]:
    """Return every record of the whole lists the app reads, from a service on `store`."""

    service = start_gridservice(["--db", str(store)])
    try:
        with GridDataClient(base_url=service.base_url, token=DEMO_TOKEN, timeout=300) as client:
            return {name: getattr(client, name).list(limit=500).to_list() for name in LISTS}
    finally:
        service.stop()


def cases(lists: dict[str, list[Any]]) -> dict[str, tuple[int, Callable[[], Any]]]:
    """Return each page's work by name: (records it reads, the work)."""
    # Deferred: the app's views load Streamlit, pandas and Altair; listing pages needs none.
    from components import generation_view, queue_view, transmission_view
    from components.tables import shown_table

    def queue() -> Any:
        frame = queue_view.queue_frame(lists["queue_records"])
        return shown_table(frame, queue_view.table_config())

    return {
        "Generation (generators and plants)": (
            len(lists["generators"]) + len(lists["generation_plants"]),
            lambda: generation_view.generation_frames(
                lists["generators"], lists["generation_plants"]
            ),
        ),
        "Transmission (projects)": (
            len(lists["transmission_projects"]),
            lambda: transmission_view.project_list(lists["transmission_projects"]),
        ),
        "Interconnection queue (records)": (len(lists["queue_records"]), queue),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stores", nargs="+", type=Path, help="demo store files")
    parser.add_argument("--rounds", type=int, default=3, help="timings per list")
    args = parser.parse_args()
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"machine: {os.cpu_count()} cores, Python {platform.python_version()}, load {load}\n")
    print("| store | frames of | records | p50 (s) | min (s) |")
    print("|---|---|---:|---:|---:|")
    for store in args.stores:
        lists = read_lists(store)
        for name, (records, work) in cases(lists).items():
            timings = []
            for _ in range(args.rounds):
                started = time.perf_counter()
                work()
                timings.append(time.perf_counter() - started)
            print(
                f"| {store.name} | {name} | {records:,} | {statistics.median(timings):.2f} | "
                f"{min(timings):.2f} |",
                flush=True,
            )
        del lists


if __name__ == "__main__":
    main()
