"""ERCOT GIS report: one report month of the queue's history, from the workbook.

Every "Project Details" row becomes a history row (status active), and every row of the
month's "Inactive Projects", "Cancellation Update" and "Commissioning Update" sheets one
with status inactive, cancelled or commissioned. Each keeps its file, worksheet and Excel
row; the file's SHA-256 is on the report. `gridservice.harvest.ercot_gis` calls this while
it reads the workbook, so the file is opened once.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from typing import Any
from zoneinfo import ZoneInfo

from gridservice.harvest import ercot_gis_layout as layout
from gridservice.harvest import poi
from gridservice.harvest._base import Asset, HarvestError, rejection, require_columns
from gridservice.harvest.fuels import FUEL_CODES
from gridservice.store import history_store

MARKET = "ERCOT"
WORKBOOK_SHEETS = "large_gen,small_gen,inactive,cancellation,commissioning"
PROJECT_SHEETS = {"large": "large_gen", "small": "small_gen"}
# worksheet -> (sheet code, status, the date column, its meaning)
EVENT_SHEETS = {
    "Inactive Projects": ("inactive", "inactive", "Inactive Date"),
    "Cancellation Update": ("cancellation", "cancelled", "Cancel Date"),
    "Commissioning Update": ("commissioning", "commissioned", "Approval Date *"),
}
# "Size Category" came in 2022 with the large/small split; before, it is not there.
EVENT_COLUMNS = ["INR", "Project Name", "Fuel", "County", "MW **"]
MILESTONES = {
    "energization approved by ercot": "energization",
    "synchronization approved by ercot": "synchronization",
    "commercial operation approved by ercot": "commercial_operation",
}
SECURITY_NTP = "Financial Security and Notice to Proceed Provided"
INR = re.compile(r"^\d{2}INR\d{4}", re.IGNORECASE)
# "GINR Activity" until 2022, "GIM Activity" since.
ACTIVITY = re.compile(r"GI(?:M|NR) Activity:\s*(\w{3}) \d{2}, (\d{4}) to")
# Per the report's notes, 1-1-1900 means "date not available".
NOT_AVAILABLE = dt.date(1900, 1, 1)
REPORT_TZ = ZoneInfo("America/Chicago")


def report_id(report_month: str) -> str:
    return f"ercot-gis-{report_month}"


def report_month(workbook, asset: Asset, expected: str) -> str:
    """Return the month of GIM activity the workbook reports ('YYYY-MM', from 'Contents')."""
    if "Contents" in workbook.sheetnames:
        for row in workbook["Contents"].iter_rows(max_row=40, values_only=True):
            for value in row:
                match = ACTIVITY.search(value) if isinstance(value, str) else None
                if match:
                    month = dt.datetime.strptime(f"{match[1]} {match[2]}", "%b %Y")
                    return month.strftime("%Y-%m")
    raise HarvestError(
        f"{asset.file_name}: no 'GIM Activity: <Mon> <dd>, <yyyy> to ...' on the 'Contents' "
        f"sheet (expected {expected})"
    )


def iso_date(value: Any) -> str | None:
    """Return a cell's date as ISO, None for a blank, a text or ERCOT's 1-1-1900."""
    if isinstance(value, dt.datetime):
        value = value.date()
    if isinstance(value, dt.date) and value != NOT_AVAILABLE:
        return value.isoformat()
    return None


def security_provided(value: Any) -> str | None:
    """Return the "Financial Security and Notice to Proceed Provided" cell: 'Yes' as
    published (the report gives no date), or an ISO date should a report give one; None
    for 'No', a blank or 1-1-1900."""
    if isinstance(value, str):
        return "Yes" if value.strip().lower() == "yes" else None
    return iso_date(value)


def text(value: Any) -> str | None:
    if value is None:
        return None
    joined = " ".join(str(value).split())
    return joined or None


def number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def project_row(
    asset: Asset, month: str, kind: str, worksheet: str, row: int, published: dict[str, Any]
) -> dict[str, Any]:
    """Return the history row of one accepted 'Project Details' row (status active)."""
    return {
        "report_id": report_id(month),
        "project_id": published["INR"].strip(),
        "sheet": PROJECT_SHEETS[kind],
        "status": "active",
        "file_name": asset.file_name,
        "worksheet": worksheet,
        "row": row,
        "project_name": text(published.get("Project Name")),
        "county": text(published.get("County")),
        "county_fips": None,
        "fuel": text(published.get("Fuel")),
        "technology": text(published.get("Technology")),
        "capacity_mw": number(published.get("Capacity (MW)")),
        "study_phase": text(published.get("GIM Study Phase")),
        "projected_cod": iso_date(published.get("Projected COD")),
        "ia_signed": iso_date(published.get("IA Signed")),
        # Small generators have no such column ("Financial Security for Dist Upgrades" is
        # another milestone), so theirs stays NULL.
        "security_ntp": security_provided(published.get(SECURITY_NTP)),
        "event_date": None,
        "poi_location": text(published.get("POI Location")),
        "milestone": "",
        "upstream_locator": None,
    }


def event_rows(
    workbook, asset: Asset, month: str, expected: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int, list[str]]:
    """Return (history rows, rejections, rows read, sheet codes read) of the month's event
    sheets: the cancellation and commissioning sheets every report has, the inactive one
    when it has it (reports before mid-2019 list no inactive projects)."""
    rows: list[dict[str, Any]] = []
    rejections: list[dict[str, Any]] = []
    read = 0
    sheets_read = []
    for today, (sheet, status, date_column) in EVENT_SHEETS.items():
        if sheet == "inactive":
            worksheet = layout.sheet_name(workbook, today)
            if worksheet is None:
                continue
        else:
            worksheet = layout.require_sheet(workbook, today, asset, expected)
        sheets_read.append(sheet)
        columns = [*EVENT_COLUMNS, date_column]
        if sheet == "commissioning":
            columns.append("Commissioning Category")
        seen: dict[tuple[str, str], int] = {}
        for number_, published in _event_sheet(workbook[worksheet], worksheet, columns, asset):
            read += 1
            locator = f"{asset.file_name}#{worksheet}!R{number_}"
            history = _event_row(asset, month, sheet, status, date_column, worksheet, number_,
                                 published)  # fmt: skip
            problems = _event_problems(published, history, seen)
            if problems:
                rejections.append(rejection(locator, *problems))
                continue
            seen[(history["project_id"].lower(), history["milestone"])] = number_
            rows.append(history)
    return rows, rejections, read, sheets_read


def _event_sheet(sheet, name: str, columns: list[str], asset: Asset):
    """Yield (Excel row, {header: value}) of every row whose INR cell is filled in."""
    rows = list(enumerate(sheet.iter_rows(values_only=True), 1))
    header_at = layout.header_row([row for _, row in rows], ("INR", "Project Name"))
    if header_at is None:
        # A month without events prints "No cancelled projects during the month" instead.
        if any(layout.says_none(row) for _, row in rows[: layout.HEADER_SEARCH_ROWS]):
            return
        raise HarvestError(
            f"{asset.file_name}: worksheet {name!r} has no header row naming 'INR' and "
            "'Project Name'"
        )
    header = [layout.canonical(layout.cell_name(v)) for v in rows[header_at][1]]
    index = require_columns(header, columns, asset, f"worksheet {name!r}")
    iterator = iter(rows[header_at + 1 :])
    inr_at = index["INR"]
    for number_, row in iterator:
        value = row[inr_at] if row and inr_at < len(row) else None
        # Below the table the sheet carries footnotes in column A; they have no INR.
        if isinstance(value, str) and (INR.match(value.strip()) or _has_figures(row)):
            yield number_, {h: row[i] if i < len(row) else None for h, i in index.items()}


def _has_figures(row: tuple) -> bool:
    return any(isinstance(v, int | float | dt.date) and not isinstance(v, bool) for v in row)


def _event_row(
    asset: Asset,
    month: str,
    sheet: str,
    status: str,
    date_column: str,
    worksheet: str,
    row: int,
    published: dict[str, Any],
) -> dict[str, Any]:
    fuel = text(published.get("Fuel"))
    category = (text(published.get("Commissioning Category")) or "").rstrip("*").strip().lower()
    return {
        "report_id": report_id(month),
        "project_id": str(published["INR"]).strip(),
        "sheet": sheet,
        "status": status,
        "file_name": asset.file_name,
        "worksheet": worksheet,
        "row": row,
        "project_name": text(published.get("Project Name")),
        "county": text(published.get("County")),
        "county_fips": None,
        "fuel": FUEL_CODES.get((fuel or "").lower(), fuel),
        "technology": None,
        "capacity_mw": number(published.get("MW **")),
        "study_phase": None,
        "projected_cod": None,
        "ia_signed": None,
        "security_ntp": None,
        "event_date": iso_date(published.get(date_column)),
        "poi_location": None,
        "milestone": MILESTONES.get(category, category) if sheet == "commissioning" else "",
        "upstream_locator": None,
    }


def _event_problems(
    published: dict[str, Any], history: dict[str, Any], seen: dict[tuple[str, str], int]
) -> list[str]:
    problems = []
    if not INR.match(history["project_id"]):
        problems.append(f"INR {history['project_id']!r} is not an ERCOT INR")
    first = seen.get((history["project_id"].lower(), history["milestone"]))
    if first is not None:
        problems.append(
            f"duplicate INR {history['project_id']} on the sheet (first at row {first})"
        )
    if history["capacity_mw"] is None:
        problems.append(f"MW is not a number: {published.get('MW **')!r}")
    return problems


def with_counties(rows: Iterable[dict[str, Any]], fips: dict[str, str]) -> list[dict[str, Any]]:
    """Fill `county_fips` from the report's county name where it resolves."""
    out = []
    for row in rows:
        row["county_fips"] = fips.get((row["county"] or "").lower())
        out.append(row)
    return out


def point_links(
    rows: Iterable[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return (interconnection points, point-project links) of the active rows' POI text."""
    points: dict[str, dict[str, Any]] = {}
    links = []
    for row in rows:
        if row["status"] != "active" or not row["poi_location"]:
            continue
        point = poi.parse_poi(row["poi_location"])
        points.setdefault(point["point_id"], point)
        links.append(
            {
                "point_id": point["point_id"],
                "project_id": row["project_id"],
                "county_fips": row["county_fips"],
                "report_id": row["report_id"],
                "file_name": row["file_name"],
                "worksheet": row["worksheet"],
                "row": row["row"],
            }
        )
    return list(points.values()), links


def store_month(
    conn,
    asset: Asset,
    month: str,
    report_date: str | None,
    rows: list[dict[str, Any]],
    fips: dict[str, str],
    *,
    sheets: str = WORKBOOK_SHEETS,
) -> None:
    """Replace the stored report month with these rows and the points their POIs name."""
    rows = with_counties(rows, fips)
    points, links = point_links(rows)
    report = {
        "report_id": report_id(month),
        "market": MARKET,
        "report_month": month,
        "report_date": report_date,
        "file_name": asset.file_name,
        "sha256": asset.sha256,
        "sheets": sheets,
    }
    history_store.replace_report(conn, report, rows, points, links)
    history_store.drop_unlinked_points(conn)


def central_date(observed_at: str) -> str:
    """The date in Central time (ERCOT runs the report early on the 1st of the next month)."""
    instant = dt.datetime.fromisoformat(observed_at.replace("Z", "+00:00"))
    return instant.astimezone(REPORT_TZ).date().isoformat()
