"""Sources named the way their publishers name them: "ERCOT GIS report, November 2025".

The service identifies a source by a stable id (`ercot_gis_report`, `eia860-833c8478243c`,
`demo-ercot-gis`) and a record by a locator inside one file of it
(`GIS_Report_November2025.xlsx#Project Details - Large Gen!R36`). An analyst knows the
publisher's title and its edition, so `source_name(source_id, locator)` gives those, and the
pages keep the id itself in a tooltip or a details column for whoever needs to quote it.

An id this module does not know keeps the name the record gives (`sourceName`) when it has
one, else the id spelt out in words; the edition is read from the locator's file name
whatever the source.
"""

from __future__ import annotations

import calendar
import functools
import re

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
    "demo-ercot-gis": "ERCOT GIS report (demo)",
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

SOURCE_NAME_HELP = (
    "The source as its publisher names it, with the edition its file states; "
    "its id is in the Source id column"
)

_HASH_SUFFIX = re.compile(r"-[0-9a-f]{8,64}$")
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


def _known(source_id: str) -> str | None:
    """The publisher's title of a source id, with or without its asset suffix."""
    for key in (source_id, _HASH_SUFFIX.sub("", source_id)):
        if key in PUBLISHER_NAMES:
            return PUBLISHER_NAMES[key]
    # A dated demo id: `demo-eia860m-2025-06` is EIA-860M, June 2025 (demo).
    undated = re.sub(r"(-\d{4})+(-\d{2})?$", "", source_id)
    return PUBLISHER_NAMES.get(undated)


def _month(name: str, year: str) -> str:
    return f"{calendar.month_name[_MONTHS[name.lower()]]} {year}"


def edition(text: str | None) -> str | None:
    """The edition a file name or source id states: "November 2025", "6 September 2024",
    "December 2024 to November 2025", "2015 to 2019", "through 2024", "2024"; or None."""
    name = (text or "").split("#", 1)[0]
    if not name:
        return None
    if span := _MONTH_SPAN.search(name):
        return f"{_month(span[1], span[2])} to {_month(span[3], span[4])}"
    if found := _MONTH_YEAR.search(name):
        return _month(found[1], found[2])
    if date := _DATE.search(name):
        month = int(date[2])
        if 1 <= month <= 12:
            return f"{int(date[3])} {calendar.month_name[month]} {date[1]}"
    if found := _THROUGH.search(name):
        return f"through {found[1]}"
    if span := _YEAR_SPAN.search(name):
        return f"{span[1]} to {span[2]}"
    if found := _YEAR_MONTH.search(name):
        month = int(found[2])
        if 1 <= month <= 12 and found[1].startswith(("19", "20")):
            return f"{calendar.month_name[month]} {found[1]}"
    if found := _YEAR.search(name):
        return found[1]
    return None


def source_name(
    source_id: str | None, locator: str | None = None, given_name: str | None = None
) -> str:
    """The source as its publisher names it, with the edition its file states.

    `source_name("ercot_gis_report", "GIS_Report_November2025.xlsx#...!R36")` is
    "ERCOT GIS report, November 2025". A demo title keeps its "(demo)" after the edition.
    """
    # The edition is read from the locator's file name (before `#`): the cell or row after it
    # is left out of the cache's key, so the queue's 150,000 records name ~100 sources.
    file_name = None if locator is None else str(locator).split("#", 1)[0]
    return _source_name(str(source_id or "").strip(), file_name, given_name)


@functools.lru_cache(maxsize=4096)
def _source_name(sid: str, locator: str | None, given_name: str | None) -> str:
    title = _known(sid) if sid else None
    if title is None:
        title = (given_name or "").strip() or (
            re.sub(r"[_-]+", " ", _HASH_SUFFIX.sub("", sid)).strip() or "an unnamed source"
        )
    when = edition(locator) or edition(_HASH_SUFFIX.sub("", sid))
    if not when:
        return title
    if title.endswith(" (demo)"):
        return f"{title.removesuffix(' (demo)')}, {when} (demo)"
    return f"{title}, {when}"


def source_tooltip(source_id: str | None, locator: str | None = None) -> str:
    """The ids behind a source name, for its tooltip: source id and locator."""
    parts = [f"Source id: {source_id or 'not given'}"]
    if locator:
        parts.append(f"Locator: {locator}")
    return "  \n".join(parts)
