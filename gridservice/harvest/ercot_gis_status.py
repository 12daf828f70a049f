"""The ERCOT GIS report's word on projects off its active sheets: inactive, cancelled, commissioned.

The sheets "Inactive Projects", "Cancellation Update" and "Commissioning Update" list projects
by INR with the date of the event. Each row becomes a status listing (one per INR and status;
a project approved twice in a month, energization then synchronization, keeps its latest
approval). `gridservice.catalogue.queue_status` reads them to say what a queue record's status is now.
A workbook without one of these sheets gives no listings from it; the active sheets decide
on their own.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from gridservice.harvest._base import Asset, cell_text

# worksheet -> (status, the column holding the event's date)
STATUS_SHEETS = {
    "Inactive Projects": ("inactive", "Inactive Date"),
    "Cancellation Update": ("cancelled", "Cancel Date"),
    "Commissioning Update": ("commissioned", "Approval Date *"),
}
HEADER_START = ("INR", "Commissioning Category")
# An INR ('26INR0279', '13INR0010a'); the footnotes below each table are skipped.
INR = re.compile(r"^\d{2}INR\d{4}", re.IGNORECASE)


def status_listings(
    workbook, asset: Asset, *, source_id: str, observed_at: str
) -> list[dict[str, Any]]:
    """Return the report's status listings, one per (INR, status), by sheet then row."""
    listings: dict[tuple[str, str], dict[str, Any]] = {}
    for sheet, (status, date_column) in STATUS_SHEETS.items():
        if sheet not in workbook.sheetnames:
            continue
        for row_number, published in _rows(workbook[sheet]):
            inr = published.get("INR")
            if not isinstance(inr, str) or not INR.match(inr.strip()):
                continue
            listing = {
                "recordKey": inr.strip(),
                "market": "ERCOT",
                "status": status,
                "statusDate": _iso_date(published.get(date_column)),
                "category": _text(published.get("Commissioning Category")),
                "projectName": _text(published.get("Project Name")),
                "county": _text(published.get("County")),
                "capacityMw": _number(published.get("MW **")),
                "sourceId": source_id,
                "assetHash": asset.sha256,
                "sourceLocator": f"{asset.file_name}#{sheet}!R{row_number}",
                "reportedAt": observed_at,
                "sourceRow": {k: cell_text(v) for k, v in published.items()},
            }
            key = (listing["recordKey"].upper(), status)
            earlier = listings.get(key)
            if earlier is None or (listing["statusDate"] or "") >= (earlier["statusDate"] or ""):
                listings[key] = listing
    return list(listings.values())


def _rows(sheet):
    """Yield (Excel row number, {header: value}) below the header row ('INR' or 'Commissioning
    Category' in column A)."""
    header: list[str] | None = None
    for number, row in enumerate(sheet.iter_rows(values_only=True), 1):
        if not row:
            continue
        if header is None:
            if isinstance(row[0], str) and row[0].strip() in HEADER_START:
                header = [" ".join(str(v).split()) if v is not None else "" for v in row]
            continue
        if all(v in (None, "") for v in row):
            continue
        yield number, {h: row[i] if i < len(row) else None for i, h in enumerate(header) if h}


def _iso_date(value: Any) -> str | None:
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return None


def _text(value: Any) -> str | None:
    text = " ".join(str(value).split()) if value is not None else ""
    return text or None


def _number(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None
