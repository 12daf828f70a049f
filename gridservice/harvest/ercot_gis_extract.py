"""ERCOT GIS monthly history extract: report months for which only key columns were kept.

`ercot_gis_monthly_history_<from>_<to>.csv` holds, for consecutive monthly GIS reports,
the 'Project Details' rows with key columns only (report, worksheet, source_row, inr,
project_name, gim_study_phase, county, fuel, technology, capacity_mw, projected_cod,
ia_signed). It has no financial security / notice-to-proceed date, no POI text and none
of the Inactive, Cancellation or Commissioning sheets: those stay NULL or absent, and the
report month says so (`sheets = 'large_gen,small_gen'`).

The report month and run date come from `ercot_gis_monthly_reports_index.csv` beside it
when present ('GIM activity period', 'report_run'), else from the workbook name in
`report`. A month already held from the full workbook is not overwritten: the workbook has
every column. Its rows are counted in the run as `supersededRecords`, not as input.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any

from gridservice.harvest import ercot_gis_history as history
from gridservice.harvest._base import Asset, Harvest, HarvestError, rejection
from gridservice.harvest._csv import csv_rows, number, text_or_none
from gridservice.harvest.ercot_gis import SOURCE_ID
from gridservice.store import harvest_store, history_store

EXTRACT_SOURCE_ID = f"{SOURCE_ID}_history_extract"
EXPECTED = "the ERCOT GIS monthly history extract (ercot_gis_monthly_history_*.csv)"
INDEX_FILE = "ercot_gis_monthly_reports_index.csv"
COLUMNS = [
    "report", "worksheet", "source_row", "inr", "project_name", "gim_study_phase", "county",
    "fuel", "technology", "capacity_mw", "projected_cod", "ia_signed",
]  # fmt: skip
WORKSHEETS = {"Project Details - Large Gen": "large", "Project Details - Small Gen": "small"}
EXTRACT_SHEETS = "large_gen,small_gen"
MONTH_IN_NAME = re.compile(r"_([A-Za-z]+)_?(\d{4})\.xlsx$")


def parse(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    """Read the extract and return its report months (nothing is written yet)."""
    fips = harvest_store.county_fips_by_name(conn, "TX")
    index = _report_index(asset.path.parent / INDEX_FILE)
    months: dict[str, list[dict[str, Any]]] = defaultdict(list)
    dates: dict[str, str | None] = {}
    rejections: list[dict[str, Any]] = []
    superseded: dict[str, int] = defaultdict(int)
    seen: dict[tuple[str, str], int] = {}
    input_records = 0
    for line, published in csv_rows(asset, COLUMNS, EXPECTED):
        month, report_date = index.get(published["report"]) or (_name_month(published), None)
        if month and _held_from_workbook(conn, month):
            superseded[month] += 1
            continue
        input_records += 1
        locator = f"{asset.file_name}#R{line}"
        problems = _problems(published, month, seen, line)
        if problems:
            rejections.append(rejection(locator, *problems))
            continue
        seen[(published["report"], published["inr"].strip().lower())] = line
        months[month].append(_row(asset, month, line, published))
        dates[month] = report_date

    def store(conn: sqlite3.Connection) -> None:
        for month, rows in sorted(months.items()):
            history.store_month(conn, asset, month, dates[month], rows, fips, sheets=EXTRACT_SHEETS)

    accepted = sum(len(rows) for rows in months.values())
    harvest = Harvest(
        source_id=EXTRACT_SOURCE_ID,
        input_records=input_records,
        accepted_records=accepted,
        rejections=rejections,
        store=store,
    )
    harvest.run_fields = {
        "reportMonths": sorted(months),
        "supersededRecords": sum(superseded.values()),
        "supersededMonths": sorted(superseded),
    }
    return harvest


def _report_index(path: Path) -> dict[str, tuple[str, str | None]]:
    """Return workbook name -> (report month, run date) from the index file, if present."""
    if not path.is_file():
        return {}
    index = {}
    with path.open(newline="", encoding="utf-8-sig") as handle:
        for row in csv.DictReader(handle):
            try:
                start = dt.datetime.strptime(row["gim_activity_period"][:12], "%b %d, %Y")
                run = dt.datetime.strptime(row["report_run"].strip(), "%b %d, %Y %I:%M:%S %p")
            except (KeyError, ValueError) as exc:
                raise HarvestError(f"{path.name}: unreadable row {row!r} ({exc})") from exc
            index[row["report"]] = (start.strftime("%Y-%m"), run.date().isoformat())
    return index


def _name_month(published: dict[str, str]) -> str | None:
    match = MONTH_IN_NAME.search(published["report"] or "")
    if not match:
        return None
    try:
        return dt.datetime.strptime(f"{match[1][:3]} {match[2]}", "%b %Y").strftime("%Y-%m")
    except ValueError:
        return None


def _held_from_workbook(conn: sqlite3.Connection, month: str) -> bool:
    file_name = history_store.report_file(conn, history.MARKET, month)
    return bool(file_name and file_name.lower().endswith(".xlsx"))


def _problems(
    published: dict[str, str], month: str | None, seen: dict[tuple[str, str], int], line: int
) -> list[str]:
    problems = []
    inr = (published["inr"] or "").strip()
    if month is None:
        problems.append(f"report {published['report']!r} names no month")
    if published["worksheet"] not in WORKSHEETS:
        problems.append(f"worksheet {published['worksheet']!r} is not a 'Project Details' sheet")
    if not history.INR.match(inr):
        problems.append(f"INR {inr!r} is not an ERCOT INR")
    elif (published["report"], inr.lower()) in seen:
        first = seen[(published["report"], inr.lower())]
        problems.append(f"duplicate INR {inr} in {published['report']} (first at line {first})")
    if number(published["capacity_mw"]) is None:
        problems.append(f"capacity_mw is not a number: {published['capacity_mw']!r}")
    return problems


def _row(asset: Asset, month: str, line: int, published: dict[str, str]) -> dict[str, Any]:
    kind = WORKSHEETS[published["worksheet"]]
    return {
        "report_id": history.report_id(month),
        "project_id": published["inr"].strip(),
        "sheet": history.PROJECT_SHEETS[kind],
        "status": "active",
        "file_name": asset.file_name,
        "worksheet": "csv",
        "row": line,
        "project_name": text_or_none(published["project_name"]),
        "county": text_or_none(published["county"]),
        "county_fips": None,
        "fuel": text_or_none(published["fuel"]),
        "technology": text_or_none(published["technology"]),
        "capacity_mw": number(published["capacity_mw"]),
        "study_phase": text_or_none(published["gim_study_phase"]),
        "projected_cod": _iso(published["projected_cod"]),
        "ia_signed": _iso(published["ia_signed"]),
        "security_ntp": None,
        "event_date": None,
        "poi_location": None,
        "milestone": "",
        "upstream_locator": (
            f"{published['report']}#{published['worksheet']}!R{published['source_row']}"
        ),
    }


def _iso(text: str | None) -> str | None:
    """An ISO date from the extract; None for blanks and ERCOT's 1900-01-01 'not available'."""
    value = (text or "").strip()[:10]
    try:
        date = dt.date.fromisoformat(value)
    except ValueError:
        return None
    return None if date == history.NOT_AVAILABLE else date.isoformat()
