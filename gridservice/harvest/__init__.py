"""Harvest real public sources into the store: one module per source, one runner.

`run_harvest(conn, source, path)` reads one file of one source and records the run;
`build_from_dir(conn, directory)` harvests every recognised file of a folder.

The names load on first use (PEP 562): the screening engine imports one small module of this
package (`harvest.poi`) at every service start, and importing the runner with it (every
reader, openpyxl, the downloader's httpx) cost each start about a second.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
_HOMES = {"Asset": "gridservice.harvest._base", "HarvestError": "gridservice.harvest._base"}


def __getattr__(name: str) -> Any:
    """Return one of `__all__`, importing its module (the runner, else `_base`) the first time."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(_HOMES.get(name, "gridservice.harvest.runner"))
    value = getattr(module, name)
    globals()[name] = value
    return value
