"""Reading each project's path through the harvested monthly reports, for completion figures.

Two queries per market, both computed by the database, read once per edition of the store
(`screening.completion_paths` keeps them): one row per project with the months its rows say
it entered, signed its IA, posted security, left and reached operation (from its rows in
every county, so a project that moved county did not leave); and one row per project and
county, its newest queued row there (fuel, technology, MW, county, cell).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from gridservice.store.surroundings_reads import FUEL_GROUP_SQL, tuples

Row = dict[str, Any]

# Reaching commercial operation is the commissioning sheet's COD approval only: an approval
# for energization or synchronisation is an earlier, separate milestone.
_COD = "h.status = 'commissioned' AND h.milestone = 'commercial_operation'"
_PATH_COLUMNS = {
    "project_key": "upper(h.project_id)",
    "first_active": "min(CASE WHEN h.status = 'active' THEN r.report_month END)",
    "last_active": "max(CASE WHEN h.status = 'active' THEN r.report_month END)",
    "ia_signed": "min(CASE WHEN h.status = 'active' THEN h.ia_signed END)",
    "first_security": "min(CASE WHEN h.status = 'active' AND h.security_ntp IS NOT NULL "
    "THEN r.report_month END)",
    "last_inactive": "max(CASE WHEN h.status = 'inactive' THEN r.report_month END)",
    "last_cancelled": "max(CASE WHEN h.status = 'cancelled' THEN r.report_month END)",
    "last_commissioned": f"max(CASE WHEN {_COD} THEN r.report_month END)",
    "cod_date": f"max(CASE WHEN {_COD} THEN h.event_date END)",
    "synchronised": "max(CASE WHEN h.status = 'commissioned' AND h.milestone = "
    "'synchronization' THEN r.report_month END)",
}
_PLACE_COLUMNS = [
    "project_key", "newest", "project_id", "project_name", "county_fips", "county", "fuel",
    "technology", "capacity_mw", "projected_cod", "report_id", "file_name", "worksheet", "row",
]  # fmt: skip


def _dicts(cursor: sqlite3.Cursor, names: list[str]) -> list[Row]:
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def market_paths(conn: sqlite3.Connection, market: str) -> list[Row]:
    """Return, per project a report of `market` ever queues (by upper-case id), its first and
    last queued month, IA date, first month with security posted, the newest month each
    event sheet lists it and its COD approval's date."""
    return _dicts(
        tuples(
            conn,
            f"SELECT {', '.join(_PATH_COLUMNS.values())} FROM queue_history h "
            "JOIN queue_reports r ON r.report_id = h.report_id "
            "WHERE upper(r.market) = ? GROUP BY upper(h.project_id) "
            "HAVING max(CASE WHEN h.status = 'active' THEN 1 ELSE 0 END) = 1",
            [market.upper()],
        ),
        list(_PATH_COLUMNS),
    )


def market_places(conn: sqlite3.Connection, market: str) -> list[Row]:
    """Return, per project and county a report of `market` queues it in, its newest queued
    row there: `newest` (the row's month, then '1' on the large-gen sheet, '0' else: the
    greater is the newer row), fuel as grouped by `FUEL_GROUP_SQL`, technology, MW, county
    and the row's cell."""
    place_select = ", ".join(
        f"{FUEL_GROUP_SQL} AS fuel" if c == "fuel" else f"h.{c}" for c in _PLACE_COLUMNS[2:]
    )
    newest = "r.report_month || CASE WHEN h.sheet = 'large_gen' THEN '1' ELSE '0' END"
    ranked = (
        f"SELECT upper(h.project_id) AS project_key, {newest} AS newest, {place_select}, "
        "row_number() OVER (PARTITION BY upper(h.project_id), h.county_fips ORDER BY "
        f"{newest} DESC) AS place FROM queue_history h JOIN queue_reports r "
        "ON r.report_id = h.report_id WHERE upper(r.market) = ? AND h.status = 'active' "
        "AND h.county_fips IS NOT NULL"
    )
    return _dicts(
        tuples(
            conn,
            f"SELECT {', '.join(_PLACE_COLUMNS)} FROM ({ranked}) AS ranked WHERE place = 1",
            [market.upper()],
        ),
        _PLACE_COLUMNS,
    )


def history_signature(conn: sqlite3.Connection) -> tuple[Any, ...]:
    """Return what tells one edition of the queue history from another when the store keeps
    no snapshot hash: its reports (id and file hash) and its row count."""
    reports = tuples(conn, "SELECT report_id, sha256 FROM queue_reports ORDER BY report_id")
    rows = tuples(conn, "SELECT count(*) FROM queue_history").fetchone()[0]
    return (tuple(map(tuple, reports.fetchall())), rows)
