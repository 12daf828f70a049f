"""Opening the SQLite store: WAL mode, the schema, one connection per thread."""

from __future__ import annotations

import sqlite3
from importlib import resources
from pathlib import Path

SCHEMA_VERSION = "1"


def connect(path: str | Path, *, readonly: bool = False) -> sqlite3.Connection:
    """Return a connection to the store at `path` in WAL mode, rows as `sqlite3.Row`."""
    if readonly:
        conn = sqlite3.connect(
            f"file:{Path(path)}?mode=ro", uri=True, check_same_thread=False, timeout=30
        )
    else:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA synchronous=NORMAL")
    return conn


def init_schema(conn: sqlite3.Connection) -> None:
    """Create every table of the store if it is missing (idempotent)."""
    sql = resources.files("gridservice.store").joinpath("schema.sql").read_text("utf-8")
    conn.executescript(sql)
    conn.execute(
        "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (SCHEMA_VERSION,)
    )
    conn.commit()
