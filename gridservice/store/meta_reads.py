"""SQL for the store's meta values, harvest runs and the data snapshot hash."""

from __future__ import annotations

import hashlib
import sqlite3

from gridservice.store.pg import is_postgres

# Public data tables, in the order the snapshot hash reads them.
DATA_TABLES = (
    ("states", "state_fips", "state_fips || state || name || geojson"),
    ("counties", "county_fips", "county_fips || state_fips || name || geojson"),
    ("service_territories", "territory_id", "territory_id || body"),
    ("territory_counties", "territory_id, county_fips", "territory_id || county_fips"),
    ("retail_territory_polygons", "region_id", "region_id || geojson || body"),
    ("market_regions", "region_id", "region_id || geojson || body"),
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
    (
        "evidence_chunks",
        "chunk_id",
        # known_from/known_to are not in the wire record but say what is known when.
        "chunk_id || authority || redistribution_policy || known_from || '|' || "
        "coalesce(known_to, '') || body",
    ),
    ("harvest_runs", "run_id", "run_id || body"),
    # The queue's monthly history (json_array keeps NULLs apart from empty text).
    (
        "queue_reports",
        "report_id",
        "json_array(report_id, market, report_month, report_date, file_name, sha256, run_id, "
        "sheets)",
    ),
    (
        "queue_history",
        "report_id, project_id, sheet, milestone",
        "json_array(report_id, project_id, sheet, milestone, status, file_name, worksheet, row, "
        "project_name, county, county_fips, fuel, technology, capacity_mw, study_phase, "
        "projected_cod, ia_signed, security_ntp, event_date, poi_location, upstream_locator)",
    ),
    (
        "interconnection_points",
        "point_id",
        "json_array(point_id, kind, kv, bus_number, bus_name, from_bus_number, from_bus_name, "
        "to_bus_number, to_bus_name, circuit, raw, quality_flags)",
    ),
    (
        "interconnection_point_projects",
        "point_id, project_id, report_id",
        "json_array(point_id, project_id, county_fips, report_id, file_name, worksheet, row)",
    ),
)


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def set_meta_if_absent(conn: sqlite3.Connection, key: str, value: str) -> str:
    """Store `value` under `key` unless one is there; return the value that is stored."""
    with conn:
        conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)", (key, value))
    return get_meta(conn, key) or value


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    """Store `value` under `key`, replacing what was there."""
    with conn:
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))


def has_public_data(conn: sqlite3.Connection) -> bool:
    return any(
        conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()
        for table in ("generators", "queue_records", "counties", "tokens")
    )


def harvest_run_bodies(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT body FROM harvest_runs ORDER BY run_id")]


# The snapshot hash, once computed, is kept in `meta` under this key; triggers on every
# public data table (`db.init_schema`) delete it on any insert, update or delete.
SNAPSHOT_KEY = "data_snapshot_sha256"


def _compute_data_snapshot_sha256(conn: sqlite3.Connection) -> str:
    digest = hashlib.sha256()
    for table, order, expr in DATA_TABLES:
        digest.update(f"\x1e{table}\x1e".encode())
        for (row,) in conn.execute(f"SELECT {expr} FROM {table} ORDER BY {order}"):
            digest.update(str(row).encode("utf-8"))
            digest.update(b"\x1f")
    return digest.hexdigest()


def data_snapshot_sha256(conn: sqlite3.Connection) -> str:
    """Return the SHA-256 of every public data table's rows, table by table in key order.

    Reading a large store takes seconds, so the hash is kept in `meta` and read from there
    until a change to the public data deletes it. It is computed and kept in one
    transaction: on SQLite, if another connection writes meanwhile, the value is returned
    but not kept (the next call computes it again); on PostgreSQL, where each statement reads
    what is committed when it starts, the transaction takes the store's write lock first
    (`BEGIN IMMEDIATE`, which public data writers take too), so no write lands between the
    tables it reads. A read-only connection keeps nothing.
    """
    cached = get_meta(conn, SNAPSHOT_KEY)
    if cached:
        return cached
    in_transaction = conn.in_transaction
    if not in_transaction:
        conn.execute("BEGIN IMMEDIATE" if is_postgres(conn) else "BEGIN")
    try:
        digest = _compute_data_snapshot_sha256(conn)
        try:
            conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (SNAPSHOT_KEY, digest)
            )
        except sqlite3.OperationalError:
            # The data changed since this transaction began (or the store is read-only):
            # the hash is still that of what was read, but it is not kept.
            if not in_transaction:
                conn.rollback()
            return digest
    except BaseException:
        if not in_transaction:
            conn.rollback()
        raise
    if not in_transaction:
        conn.commit()
    return digest


def snapshot_invalidation_sql() -> str:
    """Triggers that forget the kept snapshot hash when any public data table changes."""
    statements = []
    for table, _order, _expr in DATA_TABLES:
        for event, suffix in (("INSERT", "ai"), ("UPDATE", "au"), ("DELETE", "ad")):
            statements.append(
                f"CREATE TRIGGER IF NOT EXISTS {table}_snapshot_{suffix} AFTER {event} ON "
                f"{table} BEGIN DELETE FROM meta WHERE key = '{SNAPSHOT_KEY}'; END;"
            )
    return "\n".join(statements)
