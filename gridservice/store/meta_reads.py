"""SQL for the store's meta values, harvest runs and the data snapshot hash."""

from __future__ import annotations

import hashlib
import sqlite3

# Public data tables, in the order the snapshot hash reads them.
DATA_TABLES = (
    ("states", "state_fips", "state_fips || state || name || geojson"),
    ("counties", "county_fips", "county_fips || state_fips || name || geojson"),
    ("service_territories", "territory_id", "territory_id || body"),
    ("territory_counties", "territory_id, county_fips", "territory_id || county_fips"),
    ("facts", "id", "id || body"),
    ("generators", "id", "id || source_id || is_current || body"),
    ("generation_plants", "id", "id || body"),
    ("generator_operations", "id", "id || body"),
    ("ba_operations", "id", "id || body"),
    ("transmission_projects", "id", "id || body"),
    ("queue_records", "id", "id || body"),
    ("queue_record_details", "record_id", "record_id || body"),
    ("queue_record_evidence", "record_id", "record_id || body"),
    ("docket_filings", "id", "id || body"),
    ("evidence_chunks", "chunk_id", "chunk_id || authority || redistribution_policy || body"),
    ("harvest_runs", "run_id", "run_id || body"),
)


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def set_meta_if_absent(conn: sqlite3.Connection, key: str, value: str) -> str:
    """Store `value` under `key` unless one is there; return the value that is stored."""
    with conn:
        conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)", (key, value))
    return get_meta(conn, key) or value


def has_public_data(conn: sqlite3.Connection) -> bool:
    return any(
        conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()
        for table in ("generators", "queue_records", "counties", "tokens")
    )


def harvest_run_bodies(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT body FROM harvest_runs ORDER BY run_id")]


def data_snapshot_sha256(conn: sqlite3.Connection) -> str:
    """Return the SHA-256 of every public data table's rows, table by table in key order."""
    digest = hashlib.sha256()
    for table, order, expr in DATA_TABLES:
        digest.update(f"\x1e{table}\x1e".encode())
        for (row,) in conn.execute(f"SELECT {expr} FROM {table} ORDER BY {order}"):
            digest.update(str(row).encode("utf-8"))
            digest.update(b"\x1f")
    return digest.hexdigest()
