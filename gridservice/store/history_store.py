"""Writing and counting the queue's monthly history: reports, per-project rows, the points
of interconnection they name.

A harvested report month is replaced whole: its history rows and point links are deleted
and written again, so re-reading a month never leaves rows of an older reading behind.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

HISTORY_COLUMNS = (
    "report_id", "project_id", "sheet", "status", "file_name", "worksheet", "row",
    "project_name", "county", "county_fips", "fuel", "technology", "capacity_mw",
    "study_phase", "projected_cod", "ia_signed", "security_ntp", "event_date",
    "poi_location", "milestone", "upstream_locator",
)  # fmt: skip
POINT_COLUMNS = (
    "point_id", "kind", "kv", "bus_number", "bus_name", "from_bus_number", "from_bus_name",
    "to_bus_number", "to_bus_name", "circuit", "raw", "quality_flags",
)  # fmt: skip
POINT_PROJECT_COLUMNS = (
    "point_id", "project_id", "county_fips", "report_id", "file_name", "worksheet", "row",
)  # fmt: skip


def _insert_sql(table: str, columns: tuple[str, ...], verb: str = "INSERT") -> str:
    names = ", ".join(columns)
    marks = ", ".join(f":{c}" for c in columns)
    return f"{verb} INTO {table}({names}) VALUES ({marks})"


def stored_order(history: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Return a report's rows in the order they are written: by county, and within a county
    the inactive, cancellation and commissioning rows before the queued ones (otherwise as
    given).

    A site's surroundings read a report's rows a few counties at a time, and why a project
    left from those sheets' rows. Written in report order, one county's rows lay scattered
    over the whole report, about a page of the file each; written together they fill few
    pages (SQLite keeps a table in the order rows were inserted, and so does a fresh
    PostgreSQL heap).
    """
    return sorted(
        history, key=lambda row: (row.get("county_fips") or "", row["status"] == "active")
    )


def report_file(conn: sqlite3.Connection, market: str, report_month: str) -> str | None:
    """Return the file a stored report month was read from, or None."""
    row = conn.execute(
        "SELECT file_name FROM queue_reports WHERE market = ? AND report_month = ?",
        (market, report_month),
    ).fetchone()
    return row[0] if row else None


def replace_report(
    conn: sqlite3.Connection,
    report: Mapping[str, Any],
    history: Iterable[Mapping[str, Any]],
    points: Iterable[Mapping[str, Any]] = (),
    point_projects: Iterable[Mapping[str, Any]] = (),
) -> None:
    """Store one report month: the report, its history rows and its point links.

    report: report_id, market, report_month, report_date, file_name, sha256, sheets.
    Whatever an earlier harvest stored for the same market and month is removed first.
    The rows are written county by county (`stored_order`).
    """
    old = conn.execute(
        "SELECT report_id FROM queue_reports WHERE market = ? AND report_month = ?",
        (report["market"], report["report_month"]),
    ).fetchall()
    for (report_id,) in old:
        conn.execute("DELETE FROM interconnection_point_projects WHERE report_id = ?", (report_id,))
        conn.execute("DELETE FROM queue_history WHERE report_id = ?", (report_id,))
        conn.execute("DELETE FROM queue_reports WHERE report_id = ?", (report_id,))
    conn.execute(
        "INSERT INTO queue_reports(report_id, market, report_month, report_date, file_name, "
        "sha256, run_id, sheets) VALUES (:report_id, :market, :report_month, :report_date, "
        ":file_name, :sha256, NULL, :sheets)",
        report,
    )
    conn.executemany(_insert_sql("queue_history", HISTORY_COLUMNS), stored_order(history))
    conn.executemany(
        _insert_sql("interconnection_points", POINT_COLUMNS, "INSERT OR IGNORE"), points
    )
    conn.executemany(
        _insert_sql("interconnection_point_projects", POINT_PROJECT_COLUMNS, "INSERT OR IGNORE"),
        point_projects,
    )


def link_reports_to_run(conn: sqlite3.Connection, sha256: str, run_id: str) -> None:
    """Record which harvest run stored the report months read from a file."""
    conn.execute("UPDATE queue_reports SET run_id = ? WHERE sha256 = ?", (run_id, sha256))


def drop_unlinked_points(conn: sqlite3.Connection) -> None:
    """Delete interconnection points no stored report names any more."""
    conn.execute(
        "DELETE FROM interconnection_points WHERE point_id NOT IN "
        "(SELECT point_id FROM interconnection_point_projects)"
    )
