"""Opening the SQLite store: WAL mode, the schema, one connection per thread."""

from __future__ import annotations

import sqlite3
from importlib import resources
from pathlib import Path

from gridservice.store import meta_reads

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
    conn.executescript(meta_reads.snapshot_invalidation_sql())
    conn.execute(
        "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (SCHEMA_VERSION,)
    )
    conn.commit()
    _fill_evidence_ranking_tables(conn)


def _fill_evidence_ranking_tables(conn: sqlite3.Connection) -> None:
    """Fill evidence_keys and evidence_exact for a store written before they existed.

    Their triggers keep them in step from then on; a store whose key table does not hold
    one row per chunk (an older file) is filled once, in one transaction.
    """
    chunks = conn.execute("SELECT count(*) FROM evidence_chunks").fetchone()[0]
    keys = conn.execute("SELECT count(*) FROM evidence_keys").fetchone()[0]
    if chunks == keys:
        return
    with conn:
        conn.execute("DELETE FROM evidence_keys")
        conn.execute(
            "INSERT INTO evidence_keys SELECT rowid, chunk_id, source_id, authority, "
            "redistribution_policy, kind, page, known_from, known_to FROM evidence_chunks"
        )
        conn.execute("INSERT INTO evidence_exact(evidence_exact) VALUES ('rebuild')")
        conn.execute(
            "INSERT INTO meta(key, value) VALUES ('evidence_generation', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )
