"""A build's run of ERCOT GIS workbooks: which file stands for each month, read ahead in
worker processes.

ERCOT re-issued some months ("_revised", "_Correction", "_CORRECTION2"): a re-issue
supersedes its month's original and the last one stands. The superseded file is not read;
its run says which file superseded it. The standing workbooks are read two at a time in
worker processes (reading the cells is most of a build's time) while the build stores the
ones already read, oldest month first.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

from gridservice.harvest import ercot_gis
from gridservice.harvest._base import Asset, Harvest

MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
# 'GIS_Report_November2025', 'GIS_Report_April_2020_revised': month, year, re-issue tail.
NAMED_MONTH = re.compile(r"([A-Za-z]+)_?(\d{4})(.*)$")
WORKERS = 2
# How many workbooks are read ahead of the one being stored (bounds the memory held).
READ_AHEAD = 4


def release_key(path: Path) -> tuple[int, int]:
    """Return the year and month a file name names ('..._November2025', '..._April_2020'),
    (0, 0) when it names none."""
    match = NAMED_MONTH.search(path.stem)
    if match and match.group(1).lower() in MONTHS:
        return int(match.group(2)), MONTHS.index(match.group(1).lower()) + 1
    return 0, 0


def superseded_by(paths: Iterable[Path]) -> dict[Path, Path]:
    """Return each superseded workbook -> the re-issue that stands for its month.

    A re-issue's name extends its original's ('April_2020' -> 'April_2020_revised',
    'July_2020_CORRECTION' -> 'July_2020_CORRECTION2'), so by name the last one stands."""
    by_month: dict[tuple[int, int], list[Path]] = defaultdict(list)
    for path in paths:
        key = release_key(path)
        if key != (0, 0):
            by_month[key].append(path)
    found = {}
    for issues in by_month.values():
        issues.sort(key=lambda p: p.stem.lower())
        for earlier in issues[:-1]:
            found[earlier] = issues[-1]
    return found


def _read(path: Path) -> ercot_gis.Reading:
    return ercot_gis.read(Asset.from_path(path))


class ReadAhead:
    """Reads the given workbooks in worker processes, a few ahead of the one asked for."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths
        self.futures: dict[Path, Future] = {}
        self.pool = ProcessPoolExecutor(max_workers=WORKERS) if paths else None
        self._submit_next()

    def _submit_next(self) -> None:
        waiting = [p for p in self.paths if p not in self.futures]
        for path in waiting[: max(0, READ_AHEAD - len(self.futures))]:
            self.futures[path] = self.pool.submit(_read, path)

    def parser(self, path: Path) -> Callable[[Asset, Any], Harvest]:
        """Return a parse function for `path` that takes the worker's reading (a worker's
        HarvestError is raised here, as the serial parse would)."""

        def parse(asset: Asset, conn: Any) -> Harvest:
            if path not in self.futures:
                self.futures[path] = self.pool.submit(_read, path)
            reading = self.futures[path].result()
            self.forget(path)
            return ercot_gis.harvest_from(reading, asset, conn)

        return parse

    def forget(self, path: Path) -> None:
        """Drop `path`'s reading (stored, or not needed: its bytes were unchanged)."""
        future = self.futures.pop(path, None)
        if future is not None:
            future.cancel()
        if path in self.paths:
            self.paths.remove(path)
        self._submit_next()

    def close(self) -> None:
        if self.pool is not None:
            for future in self.futures.values():
                future.cancel()
            self.pool.shutdown(wait=True)
