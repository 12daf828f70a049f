"""A demo store (SQLite) for a test that writes to it or serves it on its own terms."""

from __future__ import annotations

from pathlib import Path

from gridservice.demo import build_demo_database
from gridservice.store import db


def build_demo_store(path: Path) -> Path:
    """Build the demo store (scale 1) at `path`; return the path."""
    conn = db.connect(path)
    try:
        db.init_schema(conn)
        build_demo_database(conn)
        conn.commit()
    finally:
        conn.close()
    return path
