"""Reading one project's rows across every harvested monthly report, for its timeline."""

from __future__ import annotations

import sqlite3
from typing import Any

from gridservice.store.surroundings_reads import FUEL_GROUP_SQL

Row = dict[str, Any]

_COLUMNS = [
    "report_id", "report_month", "report_date", "market", "sheet", "status", "file_name",
    "worksheet", "row", "project_id", "project_name", "county", "county_fips", "fuel",
    "technology", "capacity_mw", "study_phase", "projected_cod", "ia_signed", "security_ntp",
    "event_date", "milestone", "fuel_group",
]  # fmt: skip
_REPORT_COLUMNS = {"report_month", "report_date", "market"}
# Within a month, the queued rows come before the event sheets that end a project.
_SHEET_ORDER = (
    "CASE h.sheet WHEN 'large_gen' THEN 0 WHEN 'small_gen' THEN 1 WHEN 'inactive' THEN 2 "
    "WHEN 'cancellation' THEN 3 ELSE 4 END"
)


def project_rows(conn: sqlite3.Connection, project_id: str) -> list[Row]:
    """Return every row the harvested reports hold for a project (its id in any case), oldest
    month first, the queued rows of a month before its event rows; each with its report's
    month, date and market, and its fuel as the completion figures group it."""
    select = (
        ", ".join(f"r.{c}" if c in _REPORT_COLUMNS else f"h.{c}" for c in _COLUMNS[:-1])
        + f", {FUEL_GROUP_SQL}"
    )  # fuel_group: the one grouping of fuels (batteries as one)
    cursor = conn.execute(
        f"SELECT {select} FROM queue_history h JOIN queue_reports r ON r.report_id = h.report_id "
        # the id's column ignores case (NOCASE, CITEXT), so its index finds every spelling
        f"WHERE h.project_id = ? ORDER BY r.report_month, {_SHEET_ORDER}, h.row",
        [project_id],
    )
    return [dict(zip(_COLUMNS, row, strict=True)) for row in cursor.fetchall()]
