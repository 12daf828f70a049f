"""The seeded demo database: fictional records on real Census geography (TX and neighbours).

`build_demo_database(conn)` fills an initialised, empty store; the same seed and scale
give byte-identical records. See docs/DEMO_DATA.md.
"""

from __future__ import annotations

from gridservice.demo.builder import build_demo_database
from gridservice.demo.territories import DEMO_POINTS

__all__ = ["DEMO_POINTS", "build_demo_database"]
