"""A record's source in structured fields: publisher, file, worksheet, row and edition.

A harvester names the cell a record came from in one string, `sourceLocator`
(`GIS_Report_November2025.xlsx#Project Details - Large Gen!R36`), which the interface keeps.
Beside it every evidence object carries, as an extension, the same facts as fields:

- `publisher`: the publisher's title of the source ("ERCOT GIS report"); a source this
  module does not know keeps the name the record gives, else its id in words;
- `fileName`, `worksheet`, `row`: the file, its sheet and the row (1-based) in it; null
  where the locator has none (a CSV has no worksheet, a PDF page no row);
- `edition`: the edition the file states, in the publisher's words ("November 2025",
  "6 September 2024", "December 2024 to November 2025", "through 2024").

A harvest run and an evidence chunk name only a source id; they carry `publisher` and
`edition` the same way (`with_source_name`), so no reader is left with the bare id.

They are computed once, when a record is written (`store.writer`), from the harvester's own
spreadsheet locator where it stored one and otherwise from `sourceLocator`: this module is
the one place a locator is taken apart.
"""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Mapping
from typing import Any

# The publisher's title of each source the harvest and the demo store know, by source id
# (a harvested id may carry a `-<hash>` suffix naming the asset). Demo sources say so.
PUBLISHER_NAMES = {
    "ercot_gis_report": "ERCOT GIS report",
    "ercot_gis_report_history_extract": "ERCOT GIS reports, monthly history",
    "ercot_cdr": "ERCOT CDR report",
    "ercot_large_load_status": "ERCOT large load interconnection status",
    "eia860": "EIA-860",
    "eia861_service_territory": "EIA-861 service territory",
    "eia930_demand_forecast": "EIA-930 hourly demand and forecast",
    "eia930_generation_by_fuel": "EIA-930 hourly net generation by fuel",
    "eia930_subregion_demand": "EIA-930 hourly demand by subregion",
    "eia_power_plants": "EIA power plants",
    "lbnl_queued_up": "LBNL Queued Up",
    "census_cb_2016_counties": "Census cartographic boundary files",
    "pjm_queue": "PJM New Services Queue",
    "miso_queue": "MISO GI Interactive Queue",
    "spp_queue": "SPP GI Active Requests",
    "caiso_queue": "CAISO Queue Report",
    "nyiso_queue": "NYISO Interconnection Queue",
    "isone_queue": "ISO-NE Interconnection Queue",
    "hifld_retail_service_territories": "HIFLD Electric Retail Service Territories (CommonGrid)",
    "hifld_iso_boundaries": "HIFLD Independent System Operators (CommonGrid)",
    "demo-ercot-gis": "ERCOT GIS report (demo)",
    "demo-iso-boundaries": "ISO boundaries (demo)",
    "demo-ercot-tpit": "ERCOT TPIT report (demo)",
    "demo-spp-gi-queue": "SPP generator interconnection queue (demo)",
    "demo-spp-itp": "SPP ITP (demo)",
    "demo-puct-ccn": "PUCT CCN filings (demo)",
    "demo-puct-interchange": "PUCT Interchange filings (demo)",
    "demo-market-forecasts": "Market forecasts (demo)",
    "demo-market-adequacy": "Resource adequacy report (demo)",
    "demo-eia860m": "EIA-860M (demo)",
    "demo-eia923": "EIA-923 (demo)",
    "demo-eia930": "EIA-930 (demo)",
}
FIELDS = ("publisher", "fileName", "worksheet", "row", "edition")

_HASH_SUFFIX = re.compile(r"-[0-9a-f]{8,64}$")
_DATED_ID = re.compile(r"(-\d{4})+(-\d{2})?$")
# After `#`: `Sheet!R36`, `'Sheet'!A12` or `Sheet!B12` (a cell), `R12` or `row=12` (a CSV
# line); anything else (`page=3`, a certificate number) names no row.
_FRAGMENT = re.compile(
    r"^(?:(?:'(?P<quoted>[^']*)'|(?P<sheet>[^!']+))!(?:[A-Z]{1,3})|R|row=)(?P<row>\d+)$"
)
_FILE = re.compile(r"^[^\s#]+\.[A-Za-z0-9]{2,5}$")
_MONTHS = {
    name.lower(): number
    for number in range(1, 13)
    for name in (calendar.month_name[number], calendar.month_abbr[number])
}
_MONTH_NAMES = "|".join(sorted((name for name in _MONTHS if name), key=len, reverse=True))
_MONTH_SPAN = re.compile(
    rf"(?<![a-z])({_MONTH_NAMES})[ _-]?(\d{{4}})[ _-]+({_MONTH_NAMES})[ _-]?(\d{{4}})(?!\d)",
    re.IGNORECASE,
)
_MONTH_YEAR = re.compile(rf"(?<![a-z])({_MONTH_NAMES})[ _-]?(\d{{4}})(?!\d)", re.IGNORECASE)
_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_YEAR_MONTH = re.compile(r"(?<!\d)(\d{4})[-_]?(\d{2})(?![\d-])")
_THROUGH = re.compile(r"thru[ _-]?(\d{4})(?!\d)", re.IGNORECASE)
_YEAR_SPAN = re.compile(r"(?<!\d)((?:19|20)\d{2})_((?:19|20)\d{2})(?!\d)")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})(?!\d)")


def source_fields(
    source_id: str | None,
    source_locator: str | None,
    *,
    spreadsheet: Mapping[str, Any] | None = None,
    source_name: str | None = None,
) -> dict[str, Any]:
    """Return {publisher, fileName, worksheet, row, edition} of one record's source.

    `spreadsheet` is the harvester's own locator object (fileName, worksheet, row) when it
    stored one; it wins over what `source_locator` says.
    """
    sid = str(source_id or "").strip()
    file_name, worksheet, row = locator_parts(source_locator)
    if spreadsheet:
        file_name = spreadsheet.get("fileName") or file_name
        worksheet = spreadsheet.get("worksheet") if spreadsheet.get("fileName") else worksheet
        row = spreadsheet.get("row") or row
    if worksheet == "csv":  # the harvesters' word for "no worksheet"
        worksheet = None
    return {
        "publisher": publisher(sid, source_name),
        "fileName": file_name,
        "worksheet": worksheet,
        "row": row,
        "edition": edition(file_name) or edition(_HASH_SUFFIX.sub("", sid)),
    }


@functools.lru_cache(maxsize=4096)  # a queue of 150,000 rows names a few hundred sheets
def locator_parts(source_locator: str | None) -> tuple[str | None, str | None, int | None]:
    """Return (file name, worksheet, row) a locator names; None for each it does not."""
    text = str(source_locator or "").strip()
    if "#" not in text:
        return (text if _FILE.match(text) else None), None, None
    file_name, fragment = text.split("#", 1)
    found = _FRAGMENT.match(fragment)
    if not found:
        return file_name or None, None, None
    worksheet = found["quoted"] if found["quoted"] is not None else found["sheet"]
    return file_name or None, worksheet, int(found["row"])


@functools.lru_cache(maxsize=4096)
def publisher(source_id: str, given_name: str | None = None) -> str:
    """Return the publisher's title of a source id, else the record's name, else the id in
    words."""
    for key in (source_id, _HASH_SUFFIX.sub("", source_id), _DATED_ID.sub("", source_id)):
        if key in PUBLISHER_NAMES:
            return PUBLISHER_NAMES[key]
    spelt = re.sub(r"[_-]+", " ", _HASH_SUFFIX.sub("", source_id)).strip()
    return (given_name or "").strip() or spelt or "an unnamed source"


def _month(name: str, year: str) -> str:
    return f"{calendar.month_name[_MONTHS[name.lower()]]} {year}"


@functools.lru_cache(maxsize=4096)
def edition(name: str | None) -> str | None:
    """Return the edition a file name or source id states: "November 2025", "6 September
    2024", "December 2024 to November 2025", "2015 to 2019", "through 2024", "2024"; or None."""
    if not name:
        return None
    if span := _MONTH_SPAN.search(name):
        return f"{_month(span[1], span[2])} to {_month(span[3], span[4])}"
    if found := _MONTH_YEAR.search(name):
        return _month(found[1], found[2])
    if (date := _DATE.search(name)) and 1 <= int(date[2]) <= 12:
        return f"{int(date[3])} {calendar.month_name[int(date[2])]} {date[1]}"
    if found := _THROUGH.search(name):
        return f"through {found[1]}"
    if span := _YEAR_SPAN.search(name):
        return f"{span[1]} to {span[2]}"
    found = _YEAR_MONTH.search(name)
    if found and 1 <= int(found[2]) <= 12 and found[1].startswith(("19", "20")):
        return f"{calendar.month_name[int(found[2])]} {found[1]}"
    if found := _YEAR.search(name):
        return found[1]
    return None


def with_evidence_fields(
    record: Mapping[str, Any], *, source_id: str | None = None, create: bool = False
) -> dict[str, Any]:
    """Return a copy of a wire record whose `evidence` object carries the source fields.

    The source id is the evidence's, else the record's, else `source_id`; the locator the
    evidence's, else the record's. `create` gives a record without an evidence object
    (a queue record) one holding only the fields.
    """
    evidence = record.get("evidence")
    if not isinstance(evidence, Mapping):
        if not create:
            return dict(record)
        evidence = {}
    sid = evidence.get("sourceId") or record.get("sourceId") or source_id
    locator = evidence.get("sourceLocator") or record.get("sourceLocator")
    fields = source_fields(sid, locator, source_name=record.get("sourceName"))
    return {**record, "evidence": {**evidence, **fields}}


def with_flat_fields(evidence: Mapping[str, Any]) -> dict[str, Any]:
    """Return a copy of a queue record's evidence body with the source fields beside its
    own spreadsheet locator."""
    spreadsheet = evidence.get("locator")
    fields = source_fields(
        evidence.get("sourceId"),
        evidence.get("sourceLocator"),
        spreadsheet=spreadsheet if isinstance(spreadsheet, Mapping) else None,
        source_name=evidence.get("sourceName"),
    )
    return {**evidence, **fields}


def with_source_name(body: Mapping[str, Any]) -> dict[str, Any]:
    """Return a copy of a wire body that names only a `sourceId` (a harvest run, an evidence
    chunk) with its `publisher` and `edition` beside it."""
    fields = source_fields(body.get("sourceId"), body.get("sourceLocator"))
    return {**body, "publisher": fields["publisher"], "edition": fields["edition"]}
