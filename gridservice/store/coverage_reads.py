"""Reads for the datasets that cover only some markets: which markets each holds rows for,
and as of when (the date its source spoke)."""

from __future__ import annotations

import sqlite3


def _newest_by(
    conn: sqlite3.Connection, table: str, key: str, newest: str, where: str = "1 = 1"
) -> list[tuple[str, str | None]]:
    """Return (upper-cased `key`, max of `newest`) of a table's rows, one per key, by key.
    The names are this module's own constants, never a caller's input."""
    rows = conn.execute(
        f"SELECT upper({key}), max({newest}) FROM {table} WHERE {where} "
        f"GROUP BY upper({key}) ORDER BY upper({key})"
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


def fact_markets(conn: sqlite3.Connection) -> list[tuple[str, str | None]]:
    """Return (market, newest knownFrom) of the current load-forecast and adequacy facts."""
    return _newest_by(conn, "facts", "market", "known_from", "known_to IS NULL")


def report_markets(conn: sqlite3.Connection) -> list[tuple[str, str | None]]:
    """Return (market, newest report date or month) of the harvested monthly queue reports."""
    return _newest_by(conn, "queue_reports", "market", "coalesce(report_date, report_month)")


def operations_areas(conn: sqlite3.Connection) -> list[tuple[str, str | None]]:
    """Return (balancing-authority code, newest hour) of the hourly operations."""
    # One seek in the (ba_code, utc_time) index per code, from the least upward, and one for
    # its newest hour: grouping by upper(ba_code) walked every hour of the harvested EIA-930
    # files (about 3 s of each surroundings answer on the full build, under load).
    rows = conn.execute(
        "WITH RECURSIVE found(code) AS ("
        "SELECT min(ba_code) FROM ba_operations "
        "UNION ALL SELECT (SELECT min(o.ba_code) FROM ba_operations o WHERE o.ba_code > found.code) "
        "FROM found WHERE found.code IS NOT NULL"
        ") SELECT upper(code), "
        "(SELECT max(o.utc_time) FROM ba_operations o WHERE o.ba_code = found.code) "
        "FROM found WHERE code IS NOT NULL ORDER BY 1"
    ).fetchall()
    return [(r[0], r[1]) for r in rows]
