"""The seeded demo database: fictional records on real Census geography (TX and neighbours).

`build_demo_database(conn)` fills an initialised, empty store; the same seed and scale
give byte-identical records. See docs/DEMO_DATA.md.

Both names load on first use (PEP 562): the service imports `gridservice.demo.edition` at
every start to check a store's edition, and importing the builder with it (the screening
engine, the harvesters, openpyxl) cost a start about a second while the store was present.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gridservice.demo.builder import build_demo_database
    from gridservice.demo.territories import DEMO_POINTS

__all__ = ["DEMO_POINTS", "DEMO_TOKENS", "build_demo_database"]
# The demo store's bearer tokens and their tenants. Kept here, not with the builder, so that
# the token commands (and so every `gridservice` command, `serve` among them) can name them
# without importing the builder.
DEMO_TOKENS = (("gds_demo_alpha", "demo-alpha"), ("gds_demo_beta", "demo-beta"))
_HOMES = {
    "DEMO_POINTS": "gridservice.demo.territories",
    "build_demo_database": "gridservice.demo.builder",
}


def __getattr__(name: str) -> Any:
    """Return `DEMO_POINTS` or `build_demo_database`, importing its module the first time."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value
