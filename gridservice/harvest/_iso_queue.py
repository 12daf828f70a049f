"""What the six ISO queue harvesters share (PJM, MISO, SPP, CAISO, NYISO, ISO-NE).

Each ISO module declares a `QueueLayout`: its sheets, the column names it expects for
each field, the MW column chosen as `requestedCapacityMw`, its status table and its own
fuel codes. This module reads the file by that layout: it finds each sheet's header row
by the expected names (one row, or two stacked rows), resolves counties against the Census
counties of the store, maps the ISO's status through its table, and gives queue records,
details and evidence shaped exactly like ERCOT's. A sheet whose header has lost an expected
column raises `HarvestError` naming it, so the run is rejected and nothing is stored.
Rows kept with something that does not fit carry quality flags; rows that are not
projects are rejected with the reason.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from gridservice.catalogue.quality import (
    US_STATE_CODES,
    queue_harvest_flags,
    queue_quality_flags,
    synthesized_project_name,
)
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
    worksheet,
)
from gridservice.harvest._iso_counties import CountyResolver
from gridservice.harvest.fuels import technology_code
from gridservice.store import harvest_store, writer

AUTHORITY = "official_operator_dataset"
# The ISOs publish their queues as planning information without an open-data licence.
TERMS = "public_report_no_license_stated"
REDISTRIBUTION = "review_before_redistribution"
# The header must be within this many rows of the top of a sheet.
HEADER_SEARCH_ROWS = 30
# Normalised statuses; "in service" is the store's existing word `operational`.
NORMALISED_STATUSES = ("active", "suspended", "withdrawn", "operational")

# Fields of a queue record a layout maps to the ISO's column names.
FIELDS = (
    "key", "name", "state", "county", "poi", "mw", "status", "queue_date", "proposed_date",
    "online_date", "withdrawn_date", "developer", "utility", "cluster", "service_type", "ia_date",
)  # fmt: skip


@dataclass(frozen=True)
class QueueSheet:
    """One sheet of an ISO's queue file and the column names its fields are read from.

    `columns` must all be in the header (the key first); `optional` are read when there.
    `fuel` lists the columns whose words give the technology code. `status` is the status
    text of every row of the sheet when the sheet itself says it (NYISO's In Service sheet).
    """

    name: str | None  # None: a CSV file
    columns: Mapping[str, str | tuple[str, ...]]
    optional: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    fuel: tuple[str, ...] = ()
    status: str | None = None


@dataclass(frozen=True)
class QueueLayout:
    """How to read one ISO's queue file (see the ISO modules and docs/HARVEST.md)."""

    market: str
    source_id: str
    source_name: str
    source_url: str
    expected: str
    sheets: tuple[QueueSheet, ...]
    statuses: Mapping[str, str]  # the ISO's status text (lower case) -> normalised
    fuel_codes: Mapping[str, str] = field(default_factory=dict)
    # True: one request may take several rows (ISO-NE lists each unit or interconnection
    # point of a position): the second and later rows of a key get '-2', '-3'... in file order.
    repeated_keys: bool = False
    # The ISO's status text of a row, when it needs more than the status column.
    status_text: Callable[[Mapping[str, Any]], str | None] | None = None

    def parse(self, asset: Asset, conn: sqlite3.Connection) -> Harvest:
        """Read the file by this layout and return its queue records (nothing is written)."""
        return _parse(self, asset, conn)


def find_header(
    rows: list[tuple], wanted: list[str], asset: Asset, where: str
) -> tuple[int, list[str]]:
    """Return (index of the first data row, column names) of the header naming `wanted`.

    The header is the first row, or pair of stacked rows (NYISO's 'Queue' over 'Pos.'),
    within `HEADER_SEARCH_ROWS` whose names include every wanted name. Names are compared
    with runs of white space made one space. Raises HarvestError naming what is missing.
    """
    best: tuple[int, list[str]] = (-1, [])
    for start in range(min(HEADER_SEARCH_ROWS, len(rows))):
        for depth in (1, 2):
            names = _header_names(rows[start : start + depth], depth)
            missing = [w for w in wanted if w not in names]
            if not missing:
                return start + depth, names
            if depth == 1 and len(wanted) - len(missing) > len(best[1]):
                best = (start, [w for w in wanted if w in names])
    found = f"; row {best[0] + 1} has {len(best[1])} of them" if best[0] >= 0 else ""
    lacking = [w for w in wanted if w not in best[1]]
    raise HarvestError(
        f"{asset.file_name}: {where} has no header row naming "
        f"{', '.join(repr(w) for w in wanted)} in its first {HEADER_SEARCH_ROWS} rows{found}"
        f" (missing {', '.join(repr(w) for w in lacking)}); the layout changed"
    )


def _header_names(rows: list[tuple], depth: int) -> list[str]:
    """One name per column: the row's text, or for two rows 'top bottom' (either alone
    when the other is blank)."""
    if len(rows) < depth:
        return []
    width = max((len(r) for r in rows), default=0)
    names = []
    for col in range(width):
        parts = [_clean(r[col]) for r in rows if col < len(r) and _clean(r[col])]
        names.append(" ".join(parts) if parts else f"column {column_letter(col)}")
    return names


def _clean(value: Any) -> str:
    return " ".join(str(value).split()) if value is not None else ""


def _sheet_rows(
    layout: QueueLayout, sheet: QueueSheet, workbook, asset: Asset
) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """Yield (worksheet label, row number, {column name: value}) of every non-blank row."""
    label = sheet.name or "csv"
    where = f"worksheet {sheet.name!r}" if sheet.name else "the CSV file"
    rows = (
        list(worksheet(workbook, sheet.name, asset, layout.expected).iter_rows(values_only=True))
        if sheet.name
        else _csv_rows(asset)
    )
    wanted = [n for names in sheet.columns.values() for n in _names(names)]
    start, names = find_header(rows, [*wanted, *sheet.fuel], asset, where)
    for number, row in enumerate(rows[start:], start + 1):
        if row is None or all(v is None or not str(v).strip() for v in row):
            continue
        yield label, number, {n: row[i] if i < len(row) else None for i, n in enumerate(names)}


def _csv_rows(asset: Asset) -> list[tuple]:
    try:
        with asset.path.open(newline="", encoding="utf-8-sig") as handle:
            return [tuple(r) for r in csv.reader(handle)]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise HarvestError(f"{asset.file_name}: not a readable CSV file ({exc})") from exc


def _parse(layout: QueueLayout, asset: Asset, conn: sqlite3.Connection) -> Harvest:
    counties = CountyResolver(harvest_store.county_rows(conn))
    workbook = (
        None if asset.path.suffix.lower() == ".csv" else open_workbook(asset, layout.expected)
    )
    rows, rejections, seen, input_records = [], [], {}, 0
    try:
        for sheet in layout.sheets:
            for label, row_number, published in _sheet_rows(layout, sheet, workbook, asset):
                input_records += 1
                locator = f"{asset.file_name}#{label}!R{row_number}"
                values = _fields(sheet, published)
                if layout.repeated_keys and values["key"]:
                    values["key"] = _repeat_key(values["key"], seen)
                problems = _problems(layout, sheet, values, published, seen)
                if problems:
                    rejections.append(rejection(locator, *problems))
                    continue
                seen[values["key"].upper()] = locator
                rows.append(
                    _records(layout, sheet, asset, label, row_number, values, published, counties)
                )
    finally:
        if workbook is not None:
            workbook.close()

    def store(conn: sqlite3.Connection) -> None:
        harvest_store.delete_queue_records(conn, layout.source_id)
        for record, details, evidence in rows:
            flags = queue_quality_flags(record, details) + queue_harvest_flags(record, details)
            record["qualityFlags"] = details["qualityFlags"] = flags
            writer.insert_queue_record(conn, record, details, evidence)

    return Harvest(layout.source_id, input_records, len(rows), rejections, store)


def _names(columns: str | tuple[str, ...]) -> tuple[str, ...]:
    return (columns,) if isinstance(columns, str) else columns


def _fields(sheet: QueueSheet, published: Mapping[str, Any]) -> dict[str, Any]:
    """Return field -> value; a field read from several columns takes the first non-blank."""
    columns = {**sheet.optional, **sheet.columns}
    values = {
        f: next(
            (published.get(c) for c in _names(columns.get(f, ())) if text(published.get(c))), None
        )
        for f in FIELDS
    }
    values["key"] = text(values["key"])
    return values


def _status_text(layout: QueueLayout, sheet: QueueSheet, published, values) -> str | None:
    if sheet.status is not None:
        return sheet.status
    if layout.status_text is not None:
        return layout.status_text(published)
    return text(values["status"])


def _repeat_key(key: str, seen: Mapping[str, str]) -> str:
    """Return `key`, or `key-2`, `key-3`... for its second and later rows."""
    repeat, candidate = 1, key
    while candidate.upper() in seen:
        repeat += 1
        candidate = f"{key}-{repeat}"
    return candidate


def _problems(layout, sheet, values, published, seen: dict[str, str]) -> list[str]:
    """Reasons a row is not a queue request of this ISO (empty when it is one)."""
    key = values["key"]
    if not key:
        return [f"no {sheet.columns['key']!r} (the queue record key)"]
    if key.upper() in seen:
        return [f"duplicate {sheet.columns['key']!r} {key} (first at {seen[key.upper()]})"]
    state = (text(values["state"]) or "").upper()
    status = (_status_text(layout, sheet, published, values) or "").lower()
    if not (state or text(values["county"]) or text(values["mw"]) or status):
        return [f"not a project: {key!r} has no state, county, MW or status (a note line)"]
    if state and state not in US_STATE_CODES and status and status not in layout.statuses:
        # Neither a state nor a status of the ISO: a test or placeholder row, not a project.
        return [
            f"not a project: state {values['state']!r} is not a US state and status "
            f"{status!r} is not one of {layout.market}'s"
        ]
    return []


def _records(
    layout, sheet, asset, label, row_number, values, published, counties
) -> tuple[dict, dict, dict]:
    key = values["key"]
    state = text(values["state"])
    county = counties.resolve(text(values["county"]), state)
    status_original = _status_text(layout, sheet, published, values)
    status = layout.statuses.get((status_original or "").lower(), status_original)
    mw = number(values["mw"])
    record = {
        "recordKey": key,
        "market": layout.market,
        "projectName": text(values["name"]) or synthesized_project_name(key),
        "pointOfInterconnection": text(values["poi"]),
        "state": county.state or (state.upper() if state else None),
        "county": county.name,
        "proposedDate": iso_date(values["proposed_date"]),
        "observedAt": asset.harvested_at,
        "status": status,
        "requestedCapacityMw": mw,
    }
    details = {
        "queueDate": iso_date(values["queue_date"]),
        "onlineDate": iso_date(values["online_date"]),
        "withdrawnDate": iso_date(values["withdrawn_date"]),
        "interconnectionAgreementDate": iso_date(values["ia_date"]),
        "studyPhaseOriginal": status_original,
        "studyPhaseNormalized": status if status in NORMALISED_STATUSES else None,
        "countyFips": county.fips,
        "regionOriginal": layout.market,
        "utilityName": text(values["utility"]),
        "transmissionEntity": text(values["utility"]),
        "developer": text(values["developer"]),
        "cluster": text(values["cluster"]),
        "serviceType": text(values["service_type"]),
        "projectType": None,
        "technology": technology_code(
            (cell_text(published.get(c)) for c in sheet.fuel), layout.fuel_codes
        ),
        "capacityComponentsMw": [mw] if mw is not None else [],
    }
    source = QueueSource(
        layout.source_id, layout.source_name, layout.source_url, AUTHORITY, TERMS, REDISTRIBUTION
    )
    record_id = f"{re.sub(r'[^a-z]', '', layout.market.lower())}-{key}"
    at = SheetRow(asset, label, row_number, published)
    return queue_record_parts(source, at, record_id, record, details)


def text(value: Any) -> str | None:
    """Return a cell's text with runs of white space made one space, None when blank."""
    joined = " ".join(cell_text(value).split())
    return joined or None


def number(value: Any) -> float | None:
    """Return a cell's number ('1,200' and 1200 alike), None for blanks and 'N/A'."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).replace(",", "").strip()) if value is not None else None
    except ValueError:
        return None


_DATE_FORMATS = ("%m/%d/%Y", "%m/%d/%y", "%Y-%m-%d")
_MONTH_YEAR = re.compile(r"^(\d{1,2})[-/](\d{4})$")


def iso_date(value: Any) -> str | None:
    """Return an ISO date ('2025-01-23', or '2026-03' when the ISO gives only a month)."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    raw = text(value)
    if raw is None:
        return None
    month = _MONTH_YEAR.match(raw)
    if month and 1 <= int(month[1]) <= 12:
        return f"{month[2]}-{int(month[1]):02d}"
    for form in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(raw[:10] if "T" in raw else raw, form).date().isoformat()
        except ValueError:
            continue
    return None
