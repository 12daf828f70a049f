"""Time `gridservice build` into a fresh store: the 84-month GIS workbook archive alone, and
every file of the shared data folder (the full build).

Usage:
    uv run python bench/bench_build.py [--data ../shared/data] [--only archive|full]

Each build runs as its own `gridservice build` process into a new database in a temporary
folder. The clock is the build's wall time; the processor seconds are the build's and
every process it started (the workbook readers), read from the reaped children's rusage,
because on a shared machine the wall time mostly says how long the build waited for a
core. Prints a Markdown table with the machine's core count and load average before and
after each build. Never a pass/fail timing: tests do not time anything.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
# The folders of the 84 monthly workbooks (ERCOT re-issues included), as the archive test.
ARCHIVE_FOLDERS = (
    "ercot_gis_queue",
    "ercot_gis_queue_monthly_2024",
    "ercot_gis_queue_monthly_archive",
)


def build(source: Path, database: Path) -> tuple[float, float]:
    """Return (wall seconds, processor seconds) of one `gridservice build` of `source`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "gridservice",
            "build",
            "--from",
            str(source),
            "--db",
            str(database),
        ],
        cwd=REPO_ROOT,
        check=True,
        stderr=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def archive_folder(data: Path, into: Path) -> Path:
    """Return a folder of symlinks to the monthly GIS workbooks alone."""
    for folder in ARCHIVE_FOLDERS:
        for path in (data / folder).glob("GIS_Report_*.xlsx"):
            (into / path.name).symlink_to(path.resolve())
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO_ROOT / ".." / "shared" / "data")
    parser.add_argument("--only", choices=("archive", "full"))
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "archive").mkdir()
        builds = {"archive": archive_folder(args.data, work / "archive"), "full": args.data}
        for name, source in builds.items():
            if args.only and name != args.only:
                continue
            load_before = os.getloadavg()[0]
            wall, cpu = build(source, work / f"{name}.db")
            rows.append((name, wall, cpu, load_before, os.getloadavg()[0]))
    print(f"{os.cpu_count()} cores\n")
    print("| build | wall s | processor s | load before | load after |")
    print("|---|---:|---:|---:|---:|")
    for name, wall, cpu, before, after in rows:
        print(f"| {name} | {wall:.1f} | {cpu:.1f} | {before:.1f} | {after:.1f} |")


if __name__ == "__main__":
    main()
