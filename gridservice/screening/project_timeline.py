"""One project's timeline across the harvested monthly reports: every row that lists it,
what changed from one report to the next, and how it ended, each with its cell.

A month's word on the project is its last row that month (a report's event sheets, which end
a project, come after its queued rows). The outcome is the completion figures' own
(`completion.final_word`): the newest word, a project gone from the queue without an event
sheet naming it "left, unstated".
"""

from __future__ import annotations

import sqlite3
from typing import Any

from gridservice.screening.completion import final_word
from gridservice.screening.queue_history import COLUMN, cell, firmness
from gridservice.screening.surroundings import SurroundingsInputError
from gridservice.store import surroundings_reads
from gridservice.store.project_history_reads import project_rows

Row = dict[str, Any]
# The step each outcome is read from, to cite the row that gives the final word.
_OUTCOME_STATUSES = {
    "reachedOperation": ("commissioned",),
    "droppedOut": ("inactive", "cancelled"),
    "stillQueued": ("active",),
    "leftUnstated": ("active",),
}
# The queued row's values compared from one report to the next: wire name -> how it is read.
_COMPARED = {
    "county": lambda row: row["county"],
    "capacityMw": lambda row: row["capacity_mw"],
    "studyPhase": lambda row: row["study_phase"],
    "projectedCod": lambda row: row["projected_cod"],
    "firmness": firmness,
}


def _wire_row(row: Row) -> dict[str, Any]:
    return {
        "month": row["report_month"],
        "sheet": row["sheet"],
        "status": row["status"],
        "milestone": row["milestone"] or None,
        "county": row["county"],
        "countyFips": row["county_fips"],
        "fuel": row["fuel_group"],
        "capacityMw": row["capacity_mw"],
        "studyPhase": row["study_phase"],
        "projectedCod": row["projected_cod"],
        "iaSigned": row["ia_signed"],
        "firmness": firmness(row),
        "eventDate": row["event_date"],
        "source": cell(row),
    }


def _path(rows: list[Row]) -> Row:
    """Return the months `completion.final_word` reads, from a project's rows."""

    def months(test: Any) -> list[str]:
        return [r["report_month"] for r in rows if test(r)]

    queued = months(lambda r: r["status"] == "active")
    return {
        "first_active": queued[0] if queued else rows[0]["report_month"],
        "last_active": queued[-1] if queued else None,
        "last_inactive": max(months(lambda r: r["status"] == "inactive"), default=None),
        "last_cancelled": max(months(lambda r: r["status"] == "cancelled"), default=None),
        "last_commissioned": max(
            months(
                lambda r: r["status"] == "commissioned" and r["milestone"] == "commercial_operation"
            ),
            default=None,
        ),
    }


def _changes(rows: list[Row]) -> list[dict[str, Any]]:
    """Return what changed from one report to the next: the month's word (its last row's
    status), and each compared value of the queued rows, each change with its new row's cell."""
    found: list[dict[str, Any]] = []
    last_word: dict[str, Row] = {}
    for row in rows:
        last_word[row["report_month"]] = row
    previous: Row | None = None
    for row in last_word.values():
        if previous is not None and row["status"] != previous["status"]:
            found.append(_change(row, "status", previous["status"], row["status"]))
        previous = row
    queued = [row for row in rows if row["status"] == "active"]
    for before, after in zip(queued, queued[1:], strict=False):
        if before["report_month"] == after["report_month"]:
            continue
        for field, read in _COMPARED.items():
            if read(before) != read(after):
                found.append(_change(after, field, read(before), read(after), COLUMN.get(field)))
    return sorted(found, key=lambda change: change["month"])


def _change(row: Row, field: str, before: Any, after: Any, column: str | None = None) -> Row:
    return {
        "month": row["report_month"],
        "field": field,
        "before": before,
        "after": after,
        "source": cell(row, column),
    }


def project_timeline(conn: sqlite3.Connection, project_id: str) -> dict[str, Any]:
    """Return the wire `QueueProjectTimeline` of one project (its queue id, any case); the
    problem (`SurroundingsInputError`, 404 `no_queue_history`) when no report lists it."""
    rows = project_rows(conn, project_id)
    if not rows:
        raise SurroundingsInputError(
            404, "no_queue_history", "No harvested monthly queue report lists that project."
        )
    market = rows[-1]["market"]
    reports = [r for r in surroundings_reads.queue_reports(conn) if r["market"] == market]
    newest = reports[-1]
    outcome, month = final_word(_path(rows), newest["report_month"])
    said = [
        r
        for r in rows
        if r["report_month"] == month
        and r["status"] in _OUTCOME_STATUSES[outcome]
        and (outcome != "reachedOperation" or r["milestone"] == "commercial_operation")
    ]
    named = [r for r in rows if r["project_name"]]
    return {
        "projectId": rows[-1]["project_id"],
        "projectName": named[-1]["project_name"] if named else None,
        "market": market,
        "window": {
            "firstMonth": reports[0]["report_month"],
            "lastMonth": newest["report_month"],
            "reports": len(reports),
        },
        "asOf": newest["report_date"] or newest["report_month"],
        "monthsListed": len({r["report_month"] for r in rows if r["status"] == "active"}),
        "rows": [_wire_row(row) for row in rows],
        "changes": _changes(rows),
        "outcome": {"outcome": outcome, "month": month, "source": cell(said[-1])},
    }
