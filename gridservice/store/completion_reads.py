"""Reading each project's path through the harvested monthly reports, for completion figures.

Two queries per answer, both computed by the database: one row per project queued in some
counties with the months its rows say it entered, signed its IA, posted security, left and
reached operation (from its rows in every county, so a project that moved county did not
leave); and its newest queued row in those counties (fuel, technology, MW, county, cell).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
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
    "project_key", "project_id", "project_name", "county_fips", "county", "fuel",
    "technology", "capacity_mw", "projected_cod", "report_id", "file_name", "worksheet", "row",
]  # fmt: skip


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" for _ in values)


def _dicts(cursor: sqlite3.Cursor, names: list[str]) -> list[Row]:
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def project_paths(conn: sqlite3.Connection, market: str, county_fips: Sequence[str]) -> list[Row]:
    """Return, per project a report of `market` queues in some counties (by upper-case id),
    its first and last queued month, IA date, first month with security posted, the newest
    month each event sheet lists it, its COD approval's date, and its newest queued row in
    those counties (fuel as grouped by `FUEL_GROUP_SQL`, technology, MW, county and that
    row's cell)."""
    if not county_fips:
        return []
    queued_here = (
        "SELECT project_id FROM queue_history WHERE status = 'active' "
        f"AND county_fips IN ({_marks(county_fips)})"
    )
    paths = _dicts(
        tuples(
            conn,
            f"SELECT {', '.join(_PATH_COLUMNS.values())} FROM queue_history h "
            "JOIN queue_reports r ON r.report_id = h.report_id "
            f"WHERE upper(r.market) = ? AND h.project_id IN ({queued_here}) "
            "GROUP BY upper(h.project_id)",
            [market.upper(), *county_fips],
        ),
        list(_PATH_COLUMNS),
    )
    place_select = ", ".join(
        f"{FUEL_GROUP_SQL} AS fuel" if c == "fuel" else f"h.{c}" for c in _PLACE_COLUMNS[1:]
    )
    ranked = (
        f"SELECT upper(h.project_id) AS project_key, {place_select}, row_number() OVER "
        "(PARTITION BY upper(h.project_id) ORDER BY r.report_month DESC, "
        "CASE WHEN h.sheet = 'large_gen' THEN 0 ELSE 1 END) AS place FROM queue_history h "
        "JOIN queue_reports r ON r.report_id = h.report_id WHERE upper(r.market) = ? "
        f"AND h.status = 'active' AND h.county_fips IN ({_marks(county_fips)})"
    )
    places = _dicts(
        tuples(
            conn,
            f"SELECT {', '.join(_PLACE_COLUMNS)} FROM ({ranked}) AS ranked WHERE place = 1",
            [market.upper(), *county_fips],
        ),
        _PLACE_COLUMNS,
    )
    by_key = {p["project_key"]: p for p in places}
    return sorted(
        (
            {**path, **by_key[path["project_key"]]}
            for path in paths
            if path["project_key"] in by_key
        ),
        key=lambda p: p["project_key"],
    )
