"""Harvest real public sources into the store: one module per source, one runner.

`run_harvest(conn, source, path)` reads one file of one source and records the run;
`build_from_dir(conn, directory)` harvests every recognised file of a folder.
"""

from gridservice.harvest._base import Asset, HarvestError
from gridservice.harvest.runner import (
    SOURCES,
    HarvestResult,
    build_from_dir,
    recognise,
    run_harvest,
)

__all__ = [
    "SOURCES",
    "Asset",
    "HarvestError",
    "HarvestResult",
    "build_from_dir",
    "recognise",
    "run_harvest",
]
