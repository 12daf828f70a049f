"""Reading harvested queue reports: firmness, source cells, and each project's row in a report.

A report row is one project on one worksheet of one monthly report (`queue_history`).
Every figure built from rows cites them by file, worksheet, row and (for a compared
value) the column header the report uses.
"""

from __future__ import annotations

from typing import Any

Row = dict[str, Any]

# Furthest step first: a project counts once, at the furthest step its row shows.
FIRMNESS = (
    ("security_ntp", "Financial security and notice to proceed provided"),
    ("ia_signed", "IA signed"),
    ("neither", "Neither IA signed nor financial security provided"),
)
# The grades that count as firm: an interconnection agreement signed or security posted.
FIRM = ("security_ntp", "ia_signed")
# The report's column header behind each compared value.
COLUMN = {
    "capacityMw": "Capacity (MW)",
    "projectedCod": "Projected COD",
    "studyPhase": "GIM Study Phase",
    "firmness": "IA Signed / Financial Security and Notice to Proceed Provided",
}


def firmness(row: Row) -> str:
    """Return how far a project's row says it has committed: security_ntp, ia_signed, neither."""
    if row.get("security_ntp"):
        return "security_ntp"
    if row.get("ia_signed"):
        return "ia_signed"
    return "neither"


def firm_mw(by_firmness: list[dict[str, Any]]) -> float:
    """Return the MW of the firm grades (`FIRM`) of a `byFirmness` list."""
    return sum(g.get("mw") or 0.0 for g in by_firmness if g.get("firmness") in FIRM)


def cell(row: Row, column: str | None = None) -> dict[str, Any]:
    """Return the source locator of a row (and of one column of it)."""
    locator = f"{row['file_name']}#'{row['worksheet']}'!A{row['row']}"
    found = {
        "reportId": row["report_id"],
        "fileName": row["file_name"],
        "worksheet": row["worksheet"],
        "row": row["row"],
        "sourceLocator": locator,
    }
    if column is not None:
        found["column"] = column
    return found


def positive_mw(row: Row) -> float | None:
    value = row.get("capacity_mw")
    return float(value) if isinstance(value, int | float) and value > 0 else None


def active_by_project(rows: list[Row]) -> dict[str, Row]:
    """Return each project's active row (large-gen sheet preferred), keyed by upper-case id,
    in the order of the keys. Of two active rows on one sheet the first given is kept."""
    found: dict[str, Row] = {}
    for row in rows:
        if row["status"] != "active":
            continue
        key = row["project_id"].upper()
        kept = found.get(key)
        if kept is None or row["sheet"] < kept["sheet"]:
            found[key] = row
    return {key: found[key] for key in sorted(found)}


def others_by_project(rows: list[Row]) -> dict[str, list[Row]]:
    """Return each project's rows on the inactive, cancellation and commissioning sheets, by
    report, sheet and row (the same order on every store, whatever order they came in)."""
    found: dict[str, list[Row]] = {}
    for row in rows:
        if row["status"] != "active":
            found.setdefault(row["project_id"].upper(), []).append(row)
    for listed in found.values():
        if len(listed) > 1:
            listed.sort(key=lambda r: (r["report_id"], r["sheet"], r["row"]))
    return found


def project_summary(row: Row) -> dict[str, Any]:
    """Return the wire summary of a project's row, with its source cell."""
    grade = firmness(row)
    return {
        "projectId": row["project_id"],
        "projectName": row["project_name"],
        "countyFips": row["county_fips"],
        "county": row["county"],
        "fuel": row["fuel"],
        "technology": row["technology"],
        "capacityMw": row["capacity_mw"],
        "studyPhase": row["study_phase"],
        "projectedCod": row["projected_cod"],
        "iaSigned": row["ia_signed"],
        "securityNtp": row["security_ntp"],
        "firmness": grade,
        "status": row["status"],
        "source": cell(row),
    }


def month_shift(month: str, months: int) -> str:
    """Return 'YYYY-MM' shifted by a number of months."""
    year, number = int(month[:4]), int(month[5:7])
    index = year * 12 + number - 1 + months
    return f"{index // 12:04d}-{index % 12 + 1:02d}"
