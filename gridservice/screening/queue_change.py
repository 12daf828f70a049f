"""How the queue near a site moved: changes between two reports, and dropout rates.

A project is in the queue of a report when it has a row on the report's large- or
small-generation sheet. It *entered* between two reports when it is there in the later
one only; it *left* when it is there in the earlier one only and the later report lists
it in no other county either (a project that moved county did not leave), and the
inactive, cancellation or commissioning sheets of the reports between say why (or nothing
does).
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from operator import itemgetter
from typing import Any

from gridservice.screening.queue_history import (
    COLUMN,
    active_by_project,
    cell,
    firmness,
    others_by_project,
    project_summary,
)
from gridservice.store import surroundings_reads, surroundings_summary

Row = dict[str, Any]
OUTCOME_ORDER = ("inactive", "cancelled", "commissioned")
COMPARED = (
    ("capacityMw", "capacity_mw"),
    ("projectedCod", "projected_cod"),
    ("studyPhase", "study_phase"),
)
# Every column a change is read from: the compared ones and those firmness is read from.
_VALUE_COLUMNS = (*(column for _, column in COMPARED), "security_ntp", "ia_signed")
_values = itemgetter(*_VALUE_COLUMNS)  # a row's values of those columns, as a tuple


def _why_left(later_rows: list[Row], to_report_id: str) -> Row | None:
    """Return the row that says why a project left: the later report's own word first,
    then the newest inactive / cancellation / commissioning row between the two reports."""
    if not later_rows:
        return None
    in_to = [r for r in later_rows if r["report_id"] == to_report_id]
    pool = in_to or later_rows
    return max(pool, key=lambda r: (r["report_id"], OUTCOME_ORDER.index(r["status"])))


def _differs(before: Row, after: Row) -> bool:
    """Return whether `_value_changes` would list a change (without building it)."""
    if _values(before) == _values(after):
        return False  # most projects: nothing compared (firmness included) differs
    return any(before[c] != after[c] for _, c in COMPARED) or firmness(before) != firmness(after)


def _value_changes(before: Row, after: Row) -> list[dict[str, Any]]:
    if not _differs(before, after):
        return []
    changes = []
    for wire, column in COMPARED:
        if before[column] != after[column]:
            changes.append({"field": wire, "from": before[column], "to": after[column]})
    if firmness(before) != firmness(after):
        changes.append({"field": "firmness", "from": firmness(before), "to": firmness(after)})
    for change in changes:
        change["fromCell"] = cell(before, COLUMN[change["field"]])
        change["toCell"] = cell(after, COLUMN[change["field"]])
    return changes


def queue_changes(
    conn: sqlite3.Connection,
    reports: list[Row],
    from_report: Row,
    to_report: Row,
    fips: list[str],
    rows: list[Row] | None = None,
    summaries: int | None = None,
) -> dict[str, Any]:
    """Return the projects in `fips` that entered, left and changed between two reports.

    `rows`: the two reports' rows in `fips` when the caller has read them already (in any
    order; rows of other reports are ignored). `summaries`: how many of each
    list to describe in full (None: all); the others carry their queue id (and a left one
    its outcome) alone, enough to count them and to page past the described ones.
    """
    from_id, to_id = from_report["report_id"], to_report["report_id"]
    if from_id == to_id:
        rows = []  # a report compared with itself: nothing entered, left or changed
    elif rows is None:
        rows = surroundings_reads.history_rows(conn, [from_id, to_id], fips)
    before = active_by_project([r for r in rows if r["report_id"] == from_id])
    after = active_by_project([r for r in rows if r["report_id"] == to_id])
    earlier_other = others_by_project([r for r in rows if r["report_id"] == from_id])
    between = [
        r["report_id"]
        for r in reports
        if from_report["report_month"] < r["report_month"] <= to_report["report_month"]
        and r["market"] == to_report["market"]
    ]
    gone = sorted(set(before) - set(after))
    # A project queued in another county of the later report moved: it did not leave.
    moved_away = surroundings_reads.still_queued(
        conn, to_id, [before[key]["project_id"] for key in gone]
    )
    gone = [key for key in gone if key not in moved_away]
    later = others_by_project(surroundings_reads.project_event_rows(conn, between, gone))
    came = sorted(set(after) - set(before))
    # Counted and paged past unless among the first `summaries`: a changed project's
    # changes are built, and a row's names and source cell read, for the described only.
    moved = [key for key in sorted(set(before) & set(after)) if _differs(before[key], after[key])]
    shown = len(came) + len(gone) + len(moved) if summaries is None else summaries
    surroundings_reads.describe_rows(
        conn,
        [
            *(after[key] for key in came[:shown]),
            *(earlier_other[key][0] for key in came[:shown] if key in earlier_other),
            *(before[key] for key in gone[:shown]),
            *(row for key in moved[:shown] for row in (before[key], after[key])),
        ],
    )
    entered: list[dict[str, Any]] = [
        {
            **project_summary(after[key]),
            "enteredAs": "reactivated" if key in earlier_other else "new",
            "fromCell": cell(earlier_other[key][0]) if key in earlier_other else None,
            "toCell": cell(after[key]),
        }
        if i < shown
        else {"projectId": after[key]["project_id"]}
        for i, key in enumerate(came)
    ]
    left: list[dict[str, Any]] = []
    for i, key in enumerate(gone):
        why = _why_left(later.get(key, []), to_id)
        outcome = why["status"] if why else "unstated"
        if i >= shown:
            left.append({"projectId": before[key]["project_id"], "outcome": outcome})
            continue
        left.append(
            {
                **project_summary(before[key]),
                "outcome": outcome,
                "eventDate": why["event_date"] if why else None,
                "fromCell": cell(before[key]),
                "toCell": cell(why) if why else None,
            }
        )
    changed: list[dict[str, Any]] = [
        {**project_summary(after[key]), "changes": _value_changes(before[key], after[key])}
        if i < shown
        else {"projectId": after[key]["project_id"]}
        for i, key in enumerate(moved)
    ]
    outcomes = {o: sum(1 for p in left if p["outcome"] == o) for o in (*OUTCOME_ORDER, "unstated")}
    return {
        "locationBasis": "county",
        "from": report_wire(from_report),
        "to": report_wire(to_report),
        "counts": {
            "entered": len(entered),
            "left": len(left),
            "leftBy": outcomes,
            "changed": len(changed),
        },
        "entered": entered,
        "left": left,
        "changed": changed,
    }


def report_wire(report: Row) -> dict[str, Any]:
    """Return a harvested report as the wire shows it (id, month, file and its SHA-256)."""
    return {
        "reportId": report["report_id"],
        "market": report["market"],
        "reportMonth": report["report_month"],
        "reportDate": report["report_date"],
        "fileName": report["file_name"],
        "sha256": report["sha256"],
        "sheets": [sheet for sheet in (report.get("sheets") or "").split(",") if sheet],
    }


def _rate_entry(counts: list[int]) -> dict[str, Any]:
    """Return a rate's wire entry from its counts: projects, went inactive, cancelled,
    dropped out (either) and commissioned."""
    projects, inactive, cancelled, dropped, commissioned = counts
    return {
        "projects": projects,
        "wentInactive": inactive,
        "cancelled": cancelled,
        "droppedOut": dropped,
        "commissioned": commissioned,
        "rate": round(dropped / projects, 4) if projects else None,
    }


def dropout_rates(
    conn: sqlite3.Connection, reports: list[Row], fips: list[str], county_names: dict[str, str]
) -> dict[str, Any]:
    """Return how often projects in `fips` went inactive or were cancelled, by fuel and county.

    The cohort is every project on a large- or small-generation sheet of any harvested
    report; a project drops out when a later (or the same) report lists it as inactive or
    cancelled. Fuel and county are those of its last active row.
    """
    report_ids = [r["report_id"] for r in reports]
    # Projects alike in fuel, county and outcome are counted together, then added up.
    alike = surroundings_summary.outcome_counts(conn, report_ids, fips)
    every = [0] * 5
    by_fuel: dict[str, list[int]] = defaultdict(lambda: [0] * 5)
    by_county: dict[str, list[int]] = defaultdict(lambda: [0] * 5)
    for (fuel, county, inactive, cancelled, commissioned), n in alike.items():
        counts = (n, n * inactive, n * cancelled, n * (inactive or cancelled), n * commissioned)
        for total in (every, by_fuel[fuel], by_county[county]):
            for i, count in enumerate(counts):
                total[i] += count
    first, last = (
        (reports[0]["report_month"], reports[-1]["report_month"]) if reports else (None, None)
    )
    return {
        "locationBasis": "county",
        "window": {"firstMonth": first, "lastMonth": last, "reports": len(reports)},
        "all": _rate_entry(every),
        "byFuel": [{"fuel": f, **_rate_entry(g)} for f, g in sorted(by_fuel.items())],
        "byCounty": [
            {"countyFips": f, "county": county_names.get(f), **_rate_entry(g)}
            for f, g in sorted(by_county.items())
        ],
        "statement": (
            f"Rates count the projects listed in the queue in at least one of the {len(reports)} "
            f"harvested monthly reports ({first} to {last}) and how many of them a report in that "
            "window lists as inactive or cancelled. A window this short under-counts eventual "
            "withdrawals: a project that entered late has had little time to drop out, and an "
            "inactive project may be cancelled after the window ends."
        ),
    }
