"""ERCOT Generator Interconnection Status (GIS) report: queue records from the raw workbook.

Each row of the sheets "Project Details - Large Gen" and "Project Details - Small Gen"
becomes a queue record (market ERCOT, state TX, status active: the report excludes
inactive projects), its details and its spreadsheet-row evidence. The multi-row Excel
header is joined into one name per column, and the source row is kept as published.
The report's other word on projects (its Inactive, Cancellation and Commissioning sheets)
is kept as status listings (`ercot_gis_status`), replaced with the records.
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from gridservice.catalogue.quality import queue_quality_flags
from gridservice.harvest import ercot_gis_history as history
from gridservice.harvest import ercot_gis_layout as layout
from gridservice.harvest._base import (
    Asset,
    Harvest,
    HarvestError,
    QueueSource,
    SheetRow,
    cell_text,
    column_letter,
    open_workbook,
    queue_record_parts,
    rejection,
    require_columns,
)
from gridservice.harvest.ercot_gis_status import status_listings
from gridservice.store import harvest_store, writer

SOURCE_ID = "ercot_gis_report"
SOURCE_NAME = "ERCOT Generator Interconnection Status Report"
SOURCE_URL = "https://www.ercot.com/mp/data-products/data-product-details?id=PG7-200-ER"
AUTHORITY = "official_operator_dataset"
# ERCOT publishes the report with a planning-purposes, no-warranty disclaimer and no
# open-data licence, so redistribution of the rows waits for a terms review.
TERMS = "public_report_no_license_stated"
REDISTRIBUTION = "review_before_redistribution"
SOURCE = QueueSource(SOURCE_ID, SOURCE_NAME, SOURCE_URL, AUTHORITY, TERMS, REDISTRIBUTION)
EXPECTED = "an ERCOT GIS report workbook (GIS_Report_<Month><Year>.xlsx)"

SHEETS = {
    "Project Details - Large Gen": "large",
    "Project Details - Small Gen": "small",
}
COMMON_COLUMNS = [
    "INR", "Project Name", "Interconnecting Entity", "POI Location", "County",
    "CDR Reporting Zone", "Projected COD", "Fuel", "Technology", "Capacity (MW)",
]  # fmt: skip
SHEET_COLUMNS = {
    "large": [*COMMON_COLUMNS, "GIM Study Phase", "IA Signed", history.SECURITY_NTP],
    "small": [*COMMON_COLUMNS, "Model Ready Date", "IA Signed"],
}
HEADER_MARKS = ("INR", "Project Name")
REPORT_RUN = re.compile(r"Time of Report Run:\s*(.+)$")
REPORT_TZ = ZoneInfo("America/Chicago")


@dataclass(frozen=True)
class Reading:
    """What one workbook says, read without the store (so a worker process can read it)."""

    month: str
    observed_at: str
    kinds: tuple[str, ...]
    records: list[tuple[dict, dict, dict]]
    history_rows: list[dict[str, Any]]
    events: list[dict[str, Any]]
    event_sheets: list[str]
    listings: list[dict[str, Any]]
    rejections: list[dict[str, Any]]
    input_records: int


def parse(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    """Read the workbook and return its queue records (nothing is written yet)."""
    return harvest_from(read(asset), asset, conn)


def read(asset: Asset) -> Reading:
    """Return what the workbook says: its queue records, the month's history rows, its
    status listings and its rejected rows (a HarvestError when it cannot be read)."""
    workbook = open_workbook(asset, EXPECTED)
    try:
        sheets = _project_sheets(workbook, asset)
        observed_at = _report_run_time(workbook, asset)
        month = history.report_month(workbook, asset, EXPECTED)
        rows: list[tuple[dict, dict, dict]] = []
        history_rows: list[dict[str, Any]] = []
        rejections: list[dict[str, Any]] = []
        seen: dict[str, str] = {}
        input_records = 0
        for kind, (name, sheet) in sheets.items():
            for row_number, published in _sheet_rows(sheet, name, kind, asset):
                input_records += 1
                locator = f"{asset.file_name}#{name}!R{row_number}"
                problems = _problems(published, seen)
                if problems:
                    rejections.append(rejection(locator, *problems))
                    continue
                seen[published["INR"]] = locator
                rows.append(_records(asset, observed_at, name, kind, row_number, published))
                history_rows.append(
                    history.project_row(asset, month, kind, name, row_number, published)
                )
        events, event_rejections, event_count, event_sheets = history.event_rows(
            workbook, asset, month, EXPECTED
        )
        listings = status_listings(workbook, asset, source_id=SOURCE_ID, observed_at=observed_at)
    finally:
        workbook.close()
    return Reading(
        month=month,
        observed_at=observed_at,
        kinds=tuple(sheets),
        records=rows,
        history_rows=history_rows,
        events=events,
        event_sheets=event_sheets,
        listings=listings,
        rejections=rejections + event_rejections,
        input_records=input_records + event_count,
    )


def harvest_from(reading: Reading, asset: Asset, conn: sqlite3.Connection) -> Harvest:
    """Return the harvest of a workbook already read (nothing is written yet)."""
    fips = harvest_store.county_fips_by_name(conn, "TX")
    sheets = ",".join([*(history.PROJECT_SHEETS[k] for k in reading.kinds), *reading.event_sheets])

    def store_records(conn: sqlite3.Connection) -> None:
        harvest_store.delete_queue_records(conn, SOURCE_ID)
        for record, details, evidence in reading.records:
            details["countyFips"] = fips.get((record["county"] or "").lower())
            record["qualityFlags"] = queue_quality_flags(record, details)
            details["qualityFlags"] = record["qualityFlags"]
            writer.insert_queue_record(conn, record, details, evidence)

    def store_rest(conn: sqlite3.Connection) -> None:
        history.store_month(
            conn,
            asset,
            reading.month,
            history.central_date(reading.observed_at),
            [*reading.history_rows, *reading.events],
            fips,
            sheets=sheets,
        )
        harvest_store.replace_queue_status_listings(conn, SOURCE_ID, reading.listings)

    def store(conn: sqlite3.Connection) -> None:
        store_records(conn)
        store_rest(conn)

    return Harvest(
        source_id=SOURCE_ID,
        input_records=reading.input_records,
        accepted_records=len(reading.records) + len(reading.events),
        rejections=reading.rejections,
        store=store,
        observed_at=reading.observed_at,
        store_queue_records=store_records,
        store_rest=store_rest,
    )


def _project_sheets(workbook, asset: Asset) -> dict[str, tuple[str, Any]]:
    """Return kind -> (worksheet name, worksheet) of the project sheets this workbook has:
    always the large-generation one (the single "Project Details" before 2022), the
    small-generation one when the report has it."""
    found = {}
    for sheet, kind in SHEETS.items():
        name = (
            layout.require_sheet(workbook, sheet, asset, EXPECTED)
            if kind == "large"
            else layout.sheet_name(workbook, sheet)
        )
        if name is not None:
            found[kind] = (name, workbook[name])
    return found


def _report_run_time(workbook, asset: Asset) -> str:
    """Return the report's "Time of Report Run" (Central time) as UTC ISO date-time."""
    if "Contents" in workbook.sheetnames:
        for row in workbook["Contents"].iter_rows(max_row=40, values_only=True):
            for value in row:
                match = REPORT_RUN.search(value) if isinstance(value, str) else None
                if match:
                    local = dt.datetime.strptime(match.group(1).strip(), "%b %d, %Y %I:%M:%S %p")
                    utc = local.replace(tzinfo=REPORT_TZ).astimezone(dt.UTC)
                    return utc.strftime("%Y-%m-%dT%H:%M:%SZ")
    raise HarvestError(
        f"{asset.file_name}: no 'Time of Report Run' on the 'Contents' sheet (expected {EXPECTED})"
    )


def _sheet_rows(sheet, name: str, kind: str, asset: Asset):
    """Yield (Excel row number, {header: value}) for every non-blank data row.

    The header is the first row naming INR and Project Name, wherever it sits; its names run over several rows, and the data starts at the first row below it
    with a value in the INR column."""
    rows = list(enumerate(sheet.iter_rows(values_only=True), 1))
    header_at = layout.header_row([row for _, row in rows], HEADER_MARKS)
    if header_at is None:
        raise HarvestError(
            f"{asset.file_name}: worksheet {name!r} has no header row naming "
            f"{', '.join(repr(m) for m in HEADER_MARKS)} (expected {EXPECTED})"
        )
    first = rows[header_at][1]
    inr_at = next(i for i, v in enumerate(first) if layout.cell_name(v) == "INR")
    data_at = next(
        (
            i
            for i in range(header_at + 1, len(rows))
            if len(rows[i][1]) > inr_at and rows[i][1][inr_at] not in (None, "")
        ),
        len(rows),
    )
    header = [layout.canonical(n) for n in _joined_header([r for _, r in rows[header_at:data_at]])]
    index = require_columns(header, SHEET_COLUMNS[kind], asset, f"worksheet {name!r}")
    for number, row in rows[data_at:]:
        if row is None or all(v in (None, "") for v in row):
            continue
        yield number, {h: row[i] if i < len(row) else None for h, i in index.items()}


def _joined_header(header_rows: list[tuple]) -> list[str]:
    """Join the multi-row header into one name per column (first row is the main name)."""
    width = max(len(r) for r in header_rows)
    names = []
    for col in range(width):
        parts = [
            " ".join(str(r[col]).split())
            for r in header_rows
            if col < len(r) and r[col] not in (None, "") and str(r[col]).strip()
        ]
        names.append(" ".join(parts) if parts else f"column {column_letter(col)}")
    return names


def _problems(published: dict[str, Any], seen: dict[str, str]) -> list[str]:
    inr = published.get("INR")
    problems = []
    if not isinstance(inr, str) or not inr.strip():
        problems.append("missing INR (the queue record key)")
    elif inr in seen:
        problems.append(f"duplicate INR {inr} (first at {seen[inr]})")
    capacity = published.get("Capacity (MW)")
    if not isinstance(capacity, int | float) or isinstance(capacity, bool):
        problems.append(f"Capacity (MW) is not a number: {cell_text(capacity)!r}")
    return problems


# One reading of ERCOT's cells for the current records and the month's history.
_date = history.iso_date
_text = history.text


def _study_phase_normalized(phase: str | None, kind: str) -> str | None:
    """A coarse stage from ERCOT's GIM study phase text (documented in HARVEST.md)."""
    if kind == "small":
        return "small_generator"
    if not phase:
        return None
    if re.search(r"(^|,\s*)IA\b", phase):
        return "interconnection_agreement"
    if "FIS" in phase:
        return "full_interconnection_study"
    if "SS" in phase:
        return "screening_study"
    return None


def _records(
    asset: Asset,
    observed_at: str,
    sheet: str,
    kind: str,
    row_number: int,
    published: dict[str, Any],
) -> tuple[dict, dict, dict]:
    inr = published["INR"].strip()
    record = {
        "recordKey": inr,
        "market": "ERCOT",
        "projectName": _text(published["Project Name"]),
        "pointOfInterconnection": _text(published["POI Location"]),
        "state": "TX",
        "county": _text(published["County"]),
        "proposedDate": _date(published["Projected COD"]),
        "observedAt": observed_at,
        "status": "active",
        "requestedCapacityMw": float(published["Capacity (MW)"]),
    }
    phase = _text(published.get("GIM Study Phase"))
    details = {
        **dict.fromkeys(("queueDate", "onlineDate", "withdrawnDate")),
        "interconnectionAgreementDate": _date(published["IA Signed"]),
        "studyPhaseOriginal": phase,
        "studyPhaseNormalized": _study_phase_normalized(phase, kind),
        "countyFips": None,
        "regionOriginal": _text(published["CDR Reporting Zone"]),
        "utilityName": None,
        "transmissionEntity": None,
        "developer": _text(published["Interconnecting Entity"]),
        "cluster": None,
        "serviceType": None,
        "projectType": f"{kind}_generator",
        "technology": _join_codes(published["Fuel"], published["Technology"]),
        "capacityComponentsMw": [float(published["Capacity (MW)"])],
    }
    at = SheetRow(asset, sheet, row_number, published)
    return queue_record_parts(SOURCE, at, f"ercot-gis-{inr}", record, details)


def _join_codes(fuel: Any, technology: Any) -> str | None:
    """ERCOT's fuel and technology codes (see the report's Acronyms sheet), e.g. 'SOL/PV'."""
    parts = [p for p in (_text(fuel), _text(technology)) if p]
    return "/".join(parts) or None
