"""Writing queue history: reports, their rows, and the interconnection points they name."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

Row = dict[str, Any]

REPORT_COLUMNS = ("report_id", "market", "report_month", "report_date", "file_name", "sha256",
                  "run_id")  # fmt: skip
HISTORY_COLUMNS = (
    "report_id", "project_id", "sheet", "status", "file_name", "worksheet", "row",
    "project_name", "county", "county_fips", "fuel", "technology", "capacity_mw", "study_phase",
    "projected_cod", "ia_signed", "security_ntp", "event_date", "poi_location",
)  # fmt: skip
POINT_COLUMNS = (
    "point_id", "kind", "kv", "bus_number", "bus_name", "from_bus_number", "from_bus_name",
    "to_bus_number", "to_bus_name", "circuit", "raw",
)  # fmt: skip
POINT_PROJECT_COLUMNS = ("point_id", "project_id", "county_fips", "report_id", "file_name",
                         "worksheet", "row")  # fmt: skip


def _insert(conn: sqlite3.Connection, table: str, columns: tuple[str, ...], rows: Iterable[Row]):
    conn.executemany(
        f"INSERT OR REPLACE INTO {table}({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)})",
        [tuple(row.get(c) for c in columns) for row in rows],
    )


def insert_queue_reports(conn: sqlite3.Connection, reports: Iterable[Row]) -> None:
    _insert(conn, "queue_reports", REPORT_COLUMNS, reports)


def insert_queue_history(conn: sqlite3.Connection, rows: Iterable[Row]) -> None:
    _insert(conn, "queue_history", HISTORY_COLUMNS, rows)


def insert_interconnection_points(
    conn: sqlite3.Connection, points: Iterable[Row], namings: Iterable[Row]
) -> None:
    """Insert points, then the (point, project, report) rows that name them."""
    _insert(conn, "interconnection_points", POINT_COLUMNS, points)
    _insert(conn, "interconnection_point_projects", POINT_PROJECT_COLUMNS, namings)
