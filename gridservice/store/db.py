"""Opening the SQLite store: WAL mode, the schema, one connection per thread."""

from __future__ import annotations

import sqlite3
from importlib import resources
from pathlib import Path

from gridservice.store import backend, meta_reads, migrations, surroundings_summary
from gridservice.store.pg import is_postgres

SCHEMA_VERSION = "1"


def connect(path: str | Path, *, readonly: bool = False) -> sqlite3.Connection:
    """Return a connection to the store at `path` in WAL mode, rows as `sqlite3.Row`.

    A `postgresql://` URL instead of a path opens that database (`store.backend`).
    """
    if backend.is_database_url(path):
        return backend.connect_postgres(str(path))
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
    """Create every table of the store if it is missing (idempotent).

    On PostgreSQL: apply the pending migrations (`store.migrations`).
    """
    if is_postgres(conn):
        migrations.upgrade(conn)
        return
    sql = resources.files("gridservice.store").joinpath("schema.sql").read_text("utf-8")
    _upgrade_history_tables(conn)
    _upgrade_tokens_table(conn)
    conn.executescript(sql)
    conn.executescript(meta_reads.snapshot_invalidation_sql())
    conn.executescript(surroundings_summary.invalidation_sql())
    conn.execute(
        "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (SCHEMA_VERSION,)
    )
    conn.commit()
    _fill_evidence_ranking_tables(conn)


# Columns the queue-history tables gained after their first version: table -> column -> DDL.
_HISTORY_COLUMNS = {
    "queue_reports": {"sheets": "sheets TEXT NOT NULL DEFAULT ''"},
    "queue_history": {
        "milestone": "milestone TEXT NOT NULL DEFAULT ''",
        "upstream_locator": "upstream_locator TEXT",
    },
    "interconnection_points": {"quality_flags": "quality_flags TEXT NOT NULL DEFAULT '[]'"},
}
_HISTORY_TABLES = ("interconnection_point_projects", "interconnection_points", "queue_history",
                   "queue_reports")  # fmt: skip


def _upgrade_history_tables(conn: sqlite3.Connection) -> None:
    """Bring queue-history tables of their first version up to the current schema.

    Empty ones are dropped and created anew (the commissioning key now includes the
    milestone); filled ones gain the missing columns with their defaults.
    """
    columns = {
        table: {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        for table in _HISTORY_COLUMNS
    }
    missing = {
        table: [
            ddl for name, ddl in wanted.items() if columns[table] and name not in columns[table]
        ]
        for table, wanted in _HISTORY_COLUMNS.items()
    }
    if not any(missing.values()):
        return
    filled = any(
        conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()
        for table in _HISTORY_TABLES
        if columns.get(table, True)
    )
    with conn:
        if not filled:
            for table in _HISTORY_TABLES:
                conn.execute(f"DROP TABLE IF EXISTS {table}")
            return
        for table, ddls in missing.items():
            for ddl in ddls:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {ddl}")


# Columns the tokens table gained when reviewers got their own tokens: column -> DDL.
_TOKEN_COLUMNS = {
    "role": "role TEXT NOT NULL DEFAULT 'tenant' CHECK (role IN ('tenant', 'reviewer'))",
    "reviewer": "reviewer TEXT",
}


def _upgrade_tokens_table(conn: sqlite3.Connection) -> None:
    """Give the tokens table of an older store its role columns (every old token a tenant's)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(tokens)")}
    if not columns:
        return
    with conn:
        for name, ddl in _TOKEN_COLUMNS.items():
            if name not in columns:
                conn.execute(f"ALTER TABLE tokens ADD COLUMN {ddl}")


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
