"""ERCOT Capacity, Demand and Reserves (CDR) workbook: load-forecast and adequacy facts.

From the "Seasonal Summary" sheet: firm peak load and total seasonal load (load
forecasts) and total capacity (resource adequacy), for every season and year at the
peak-load and peak-net-load hours. Each fact cites its cell and a table chunk holding
the whole sheet row; the prose of the report's text sheets becomes evidence chunks.
A newer CDR closes the older facts (`knownTo`) instead of deleting them.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
import sqlite3
from typing import Any

from gridservice.harvest._base import (
    ASSERTION_OBSERVED,
    Asset,
    Harvest,
    HarvestError,
    column_letter,
    open_workbook,
    rejection,
    uncalibrated_parser,
    worksheet,
)
from gridservice.store import harvest_store, writer

SOURCE_ID = "ercot_cdr"
AUTHORITY = "official_planning_report"
REDISTRIBUTION = "review_before_redistribution"
EXPECTED = "an ERCOT CDR workbook (CapacityDemandandReservesReport_<Month><Year>.xlsx)"
SUMMARY = "Seasonal Summary"
PROSE_SHEETS = ("Findings & Discussion", "Background", "Definitions")
MIN_PROSE_CHARS = 40

# Row label on the sheet -> (fact kind, predicate). Labels are matched after trimming.
LINES = {
    "Total Seasonal Load based on normal weather conditions*": ("load_forecast", "total_seasonal_load_mw"),
    "Firm Peak Load, MW": ("load_forecast", "firm_peak_load_mw"),
    "Total Capacity": ("resource_adequacy", "total_capacity_mw"),
}  # fmt: skip
# Reserve margin is kept as a table chunk, not a fact: it is a ratio, and facts are MW.
CHUNK_ONLY_LINES = ("Reserve Margin",)
HOUR_BASIS = {"Peak Load Hour:": "peak_load_hour", "Peak Net Load Hour:": "peak_net_load_hour"}
# Parser confidence (uncalibrated): a numeric cached value under a matched label and a
# matched season/year/hour header.
PARSER_CONFIDENCE = 0.9
SEASON_MONTHS = {"Summer": (6, 9), "Fall": (10, 11), "Winter": (12, 2), "Spring": (3, 5)}


def parse(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    workbook = open_workbook(asset, EXPECTED)
    try:
        sheet_names = list(workbook.sheetnames)
        summary = worksheet(workbook, SUMMARY, asset, EXPECTED)
        rows = list(summary.iter_rows(values_only=True))
        prose = {
            name: list(workbook[name].iter_rows(values_only=True))
            for name in PROSE_SHEETS
            if name in sheet_names
        }
        known_from = _known_from(workbook)
    finally:
        workbook.close()
    release = f"{known_from[:10]}-{asset.sha256[:8]}"
    page = sheet_names.index(SUMMARY) + 1
    columns = _season_columns(rows, asset)
    label_rows = _label_rows(rows, asset)
    facts: dict[str, list[dict]] = {"load_forecast": [], "resource_adequacy": []}
    chunks: list[dict] = []
    rejections: list[dict[str, Any]] = []
    input_records = 0
    for label, row_number in label_rows.items():
        row = rows[row_number - 1]
        chunk = _table_chunk(asset, release, page, label, row_number, row, columns)
        chunks.append(chunk)
        if label not in LINES:
            continue
        kind, predicate = LINES[label]
        for col, (season, year, basis) in columns.items():
            input_records += 1
            cell = f"{column_letter(col)}{row_number}"
            value = row[col] if col < len(row) else None
            if not isinstance(value, int | float) or isinstance(value, bool):
                rejections.append(
                    rejection(f"{asset.file_name}#{SUMMARY}!{cell}", f"{label}: no numeric value")
                )
                continue
            facts[kind].append(
                _fact(
                    asset,
                    release,
                    known_from,
                    page,
                    chunk,
                    predicate,
                    label,
                    cell,
                    row_number,
                    season,
                    year,
                    basis,
                    float(value),
                )  # fmt: skip
            )
    for name, sheet_rows in prose.items():
        chunks += _prose_chunks(asset, release, sheet_names.index(name) + 1, name, sheet_rows)

    def store(conn: sqlite3.Connection) -> None:
        harvest_store.close_facts(conn, SOURCE_ID, known_from)
        harvest_store.close_evidence_chunks(conn, SOURCE_ID, known_from)
        for kind, kind_facts in facts.items():
            writer.insert_facts(conn, kind, kind_facts)
        writer.insert_evidence_chunks(
            conn, chunks, authority=AUTHORITY, redistribution_policy=REDISTRIBUTION,
            known_from=known_from,
        )  # fmt: skip

    accepted = sum(len(v) for v in facts.values())
    return Harvest(SOURCE_ID, input_records, accepted, rejections, store, observed_at=known_from,
                   notes={"chunks": len(chunks)})  # fmt: skip


def _known_from(workbook) -> str:
    """When ERCOT published the workbook: its saved-at time (UTC)."""
    modified = workbook.properties.modified or workbook.properties.created
    if modified is None:
        return "1970-01-01T00:00:00Z"
    return modified.replace(tzinfo=None).strftime("%Y-%m-%dT%H:%M:%SZ")


def _season_columns(rows: list[tuple], asset: Asset) -> dict[int, tuple[str, str, str]]:
    """Return column -> (season, season year, hour basis) from the three header rows."""
    header = next((i for i, r in enumerate(rows[:10]) if any(v in SEASON_MONTHS for v in r)), None)
    if header is None:
        raise HarvestError(
            f"{asset.file_name}: sheet {SUMMARY!r} has no season header row "
            f"(Summer/Winter/Spring/Fall) (expected {EXPECTED})"
        )
    seasons, years, bases = rows[header], rows[header + 1], rows[header + 2]
    columns: dict[int, tuple[str, str, str]] = {}
    season = year = None
    for col in range(len(seasons)):
        if seasons[col] in SEASON_MONTHS:
            season = seasons[col]
        if col < len(years) and years[col] not in (None, ""):
            year = str(years[col])
        basis = HOUR_BASIS.get(str(bases[col]).strip()) if col < len(bases) else None
        if season and year and basis:
            columns[col] = (season, year, basis)
    if not columns:
        raise HarvestError(
            f"{asset.file_name}: sheet {SUMMARY!r} has no 'Peak Load Hour:' columns "
            f"(expected {EXPECTED})"
        )
    return columns


def _label_rows(rows: list[tuple], asset: Asset) -> dict[str, int]:
    """Return row label -> Excel row number for the lines this harvester reads."""
    wanted = [*LINES, *CHUNK_ONLY_LINES]
    found: dict[str, int] = {}
    for number, row in enumerate(rows, 1):
        for value in row[:4]:
            if isinstance(value, str) and value.strip() in wanted:
                found.setdefault(value.strip(), number)
    missing = [label for label in wanted if label not in found]
    if missing:
        raise HarvestError(
            f"{asset.file_name}: sheet {SUMMARY!r} has no row "
            f"{', '.join(repr(m) for m in missing)} (expected {EXPECTED})"
        )
    return found


def _period(season: str, year: str) -> tuple[str, str, str]:
    """Return (period, validFrom, validTo) of a CDR season such as ('Winter', '2026/2027')."""
    first_year = int(year.split("/")[0])
    start_month, end_month = SEASON_MONTHS[season]
    end_year = first_year + 1 if end_month < start_month else first_year
    last_day = calendar.monthrange(end_year, end_month)[1]
    label = year.replace("/", "-")
    return (
        f"{label}-{season.lower()}",
        dt.date(first_year, start_month, 1).isoformat(),
        dt.date(end_year, end_month, last_day).isoformat(),
    )


def _fact(asset, release, known_from, page, chunk, predicate, label, cell, row_number,
          season, year, basis, value) -> dict:  # fmt: skip
    period, valid_from, valid_to = _period(season, year)
    locator = f"{asset.file_name}#{SUMMARY}!{cell}"
    return {
        "id": f"ercot-cdr-{release}-{predicate}-{period}-{basis}",
        "factKey": f"ERCOT|{predicate}|{period}|{basis}",
        "factVersion": release,
        "sourceId": SOURCE_ID,
        "assetHash": asset.sha256,
        "subjectId": "market:ERCOT",
        "market": "ERCOT",
        "predicate": predicate,
        "period": period,
        "scenario": basis,
        "value": value,
        "unit": "MW",
        "assertionType": ASSERTION_OBSERVED,
        "validFrom": valid_from,
        "validTo": valid_to,
        "knownFrom": known_from,
        "knownTo": None,
        "evidence": {
            "chunkId": chunk["chunkId"],
            "tableId": chunk["tableId"],
            "quote": f"{label} | {season} {year} | {basis.replace('_', ' ')} | {value:,.1f}",
            "sourceLocator": locator,
            "blockId": f"{SUMMARY}!R{row_number}",
            "sourceText": label,
            "page": page,
            "boundingBox": None,
            "pageWidth": None,
            "pageHeight": None,
            "readingOrder": float(row_number),
            **uncalibrated_parser(PARSER_CONFIDENCE),
        },
        "qualityFlags": [],
    }


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _table_chunk(asset, release, page, label, row_number, row, columns) -> dict:
    cells = []
    for col, (season, year, basis) in columns.items():
        value = row[col] if col < len(row) else None
        if isinstance(value, int | float):
            shown = f"{value:.4f}" if abs(value) < 10 else f"{value:,.1f}"
            cells.append(f"{season} {year} {basis.replace('_', ' ')}: {shown}")
    return {
        "chunkId": f"ercot-cdr-{release}-summary-r{row_number}",
        "sourceId": SOURCE_ID,
        "assetHash": asset.sha256,
        "tableId": f"ercot-cdr-{release}-seasonal-summary",
        "content": f"ERCOT CDR {SUMMARY}: {label}\n" + "\n".join(cells),
        "sourceLocator": f"{asset.file_name}#{SUMMARY}!R{row_number}",
        "kind": "table",
        "page": page,
        "sectionPath": [SUMMARY, label],
    }


def _prose_chunks(asset, release, page, sheet, rows) -> list[dict]:
    chunks, heading = [], sheet
    for number, row in enumerate(rows, 1):
        for col, value in enumerate(row):
            if not isinstance(value, str) or not value.strip():
                continue
            text = " ".join(value.split())
            if len(text) < MIN_PROSE_CHARS:
                if len(text) > 3 and col <= 2:
                    heading = text
                continue
            chunks.append(
                {
                    "chunkId": f"ercot-cdr-{release}-{_slug(sheet)}-{column_letter(col)}{number}",
                    "sourceId": SOURCE_ID,
                    "assetHash": asset.sha256,
                    "tableId": None,
                    "content": text,
                    "sourceLocator": f"{asset.file_name}#{sheet}!{column_letter(col)}{number}",
                    "kind": "prose",
                    "page": page,
                    "sectionPath": [sheet, heading],
                }
            )
    return chunks
