"""EIA-861 service territories: which utilities report serving each county.

The form lists counties, not boundaries, so each (utility, state) becomes a territory
made of the Census counties it lists, with `resolutionMethod` "eia861_county_listing".
A point resolves to every utility listing its county: candidates, not an answer.
Ownership type and RTO membership come from the `Utility_Data_<year>.xlsx` file beside
the territory file when it is there.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

from gridservice.geography.markets import market_code
from gridservice.harvest._base import (
    Asset,
    Harvest,
    HarvestError,
    open_workbook,
    rejection,
    require_columns,
    worksheet,
)
from gridservice.store import harvest_store, writer

SOURCE_ID = "eia861_service_territory"
SOURCE_URL = "https://www.eia.gov/electricity/data/eia861/"
AUTHORITY = "federal_aggregated_dataset"
RESOLUTION_METHOD = "eia861_county_listing"
CONFIDENCE_BASIS = "source_authority_heuristic_not_benchmark_accuracy"
EXPECTED = "an EIA-861 Service_Territory_<year>.xlsx workbook"
SHEETS = ("Counties_States", "Counties_Territories")
COLUMNS = ["Data Year", "Utility Number", "Utility Name", "State", "County"]
UTILITY_SHEETS = ("States", "Territories")
RTO_COLUMNS = ("CAISO", "ERCOT", "PJM", "NYISO", "SPP", "MISO", "ISONE")

# The confidence heuristic (documented in docs/HARVEST.md): a federal, utility-reported
# county list says a utility serves *some* part of a county. A utility with a
# distribution business is the likelier retail server; one that shares its county with
# others is less certain. Never an accuracy figure.
CONFIDENCE_DISTRIBUTION = 0.5
CONFIDENCE_OTHER = 0.3

_SUFFIX = re.compile(
    r"\s+(county|parish|borough|census area|city and borough|municipality|municipio)$"
)


def county_key(name: str) -> str:
    """Return a comparable form of a county name ('De Kalb' ~ 'DeKalb', 'St.' ~ 'Saint')."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower().strip()
    text = _SUFFIX.sub("", text)
    text = re.sub(r"^saint\b|^st\b\.?|^ste\b\.?", "st", text)
    return re.sub(r"[^a-z0-9]", "", text)


def parse(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    """Read the county listings; rows naming a county Census does not have are rejected."""
    counties = _census_counties(conn, asset)
    workbook = open_workbook(asset, EXPECTED)
    try:
        listings, input_records, rejections = _listings(workbook, asset, counties)
    finally:
        workbook.close()
    utilities = _utility_data(asset.path)
    territories = [
        _territory(asset, key, rows, utilities.get(key[1]))
        for key, rows in sorted(listings.items())
    ]
    accepted = sum(len(rows) for rows in listings.values())

    def store(conn: sqlite3.Connection) -> None:
        harvest_store.delete_territories(conn, SOURCE_ID)
        for territory_id, candidate, fips in territories:
            writer.insert_territory(conn, territory_id, candidate, fips)

    return Harvest(
        source_id=SOURCE_ID,
        input_records=input_records,
        accepted_records=accepted,
        rejections=rejections,
        store=store,
        notes={"territories": len(territories)},
    )


class CensusCounties:
    """Census counties of the store, found by (state, county name) as EIA-861 spells it.

    Independent cities (county code 500 and up: Virginia's cities, Baltimore, St. Louis)
    share their name with a county; EIA writes them "Richmond City", Census "Richmond".
    """

    def __init__(self, by_name: dict[tuple[str, str], str]) -> None:
        self.counties: dict[tuple[str, str], str] = {}
        self.cities: dict[tuple[str, str], str] = {}
        for (state, name), fips in sorted(by_name.items(), key=lambda item: item[1], reverse=True):
            table = self.cities if int(fips[2:]) >= 500 else self.counties
            table[(state, county_key(name))] = fips
            self.counties.setdefault((state, county_key(name)), fips)

    def fips(self, state: str, county: str) -> str | None:
        key = (state.upper(), county_key(county))
        found = self.counties.get(key)
        if found is None and county.lower().endswith(" city"):
            found = self.cities.get((state.upper(), county_key(county[: -len(" city")])))
        return found


def _census_counties(conn: sqlite3.Connection, asset: Asset) -> CensusCounties:
    by_name = harvest_store.county_names_by_state(conn)
    if not by_name:
        raise HarvestError(
            f"{asset.file_name}: no Census counties in the database to place its county "
            "listings; harvest census-counties first"
        )
    return CensusCounties(by_name)


def _listings(workbook, asset: Asset, counties: CensusCounties):
    listings: dict[tuple[str, str, str], list[tuple[int, str, str]]] = defaultdict(list)
    rejections: list[dict[str, Any]] = []
    input_records = 0
    for sheet_name in SHEETS:
        rows = worksheet(workbook, sheet_name, asset, EXPECTED).iter_rows(values_only=True)
        header = [str(v).strip() if v is not None else "" for v in next(rows, ())]
        col = require_columns(header, COLUMNS, asset, f"worksheet {sheet_name!r}")
        for number, row in enumerate(rows, 2):
            if not row or all(v in (None, "") for v in row):
                continue
            input_records += 1
            locator = _row_locator(asset, sheet_name, number)["sourceLocator"]
            utility, state, county = (
                row[col["Utility Number"]],
                row[col["State"]],
                row[col["County"]],
            )
            if not isinstance(utility, int | float) or not state or not county:
                rejections.append(rejection(locator, "missing utility number, state or county"))
                continue
            fips = counties.fips(str(state), str(county))
            if fips is None:
                rejections.append(
                    rejection(locator, f"county {county!r} is not a Census county of {state}")
                )
                continue
            key = (str(row[col["Data Year"]]), str(int(utility)), str(state).upper())
            listings[key].append((number, sheet_name, fips, str(row[col["Utility Name"]]).strip()))
    return listings, input_records, rejections


def _utility_data(territory_path: Path) -> dict[str, dict[str, Any]]:
    """Return utility number -> ownership, RTOs, distribution flag from Utility_Data_<year>."""
    year = re.search(r"(\d{4})", territory_path.stem)
    sibling = territory_path.with_name(f"Utility_Data_{year.group(1)}.xlsx") if year else None
    if sibling is None or not sibling.is_file():
        return {}
    data: dict[str, dict[str, Any]] = {}
    workbook = open_workbook(Asset.from_path(sibling), "an EIA-861 Utility_Data workbook")
    try:
        for sheet_name in UTILITY_SHEETS:
            if sheet_name not in workbook.sheetnames:
                continue
            rows = workbook[sheet_name].iter_rows(values_only=True)
            next(rows, None)  # group row: 'Utility Characteristics', 'Operating in these RTOs'
            header = [str(v).strip() if v is not None else "" for v in next(rows, ())]
            # Two columns are named 'SPP' (NERC region, then RTO); the RTO block comes last.
            rto_at = {
                name: max(i for i, h in enumerate(header) if h == name)
                for name in RTO_COLUMNS
                if name in header
            }
            number_at, owner_at = header.index("Utility Number"), header.index("Ownership Type")
            dist_at = header.index("Distribution") if "Distribution" in header else None
            for row in rows:
                if not row or not isinstance(row[number_at], int | float):
                    continue
                data[str(int(row[number_at]))] = {
                    "ownership": row[owner_at] or None,
                    "rtos": [name for name, i in rto_at.items() if row[i] == "Y"],
                    "distribution": dist_at is not None and row[dist_at] == "Y",
                }
    finally:
        workbook.close()
    return data


def _territory(asset: Asset, key, rows, utility: dict[str, Any] | None):
    year, number, state = key
    territory_id = f"eia861-{year}-{number}-{state}"
    first_row, first_sheet = rows[0][0], rows[0][1]
    # A point resolves through one county: its candidate cites that county's own line
    # (the first, when a utility lists a county twice), not the utility's first row.
    county_rows: dict[str, dict[str, Any]] = {}
    for row, sheet, fips, _ in rows:
        county_rows.setdefault(fips, _row_locator(asset, sheet, row))
    distribution = bool(utility and utility["distribution"])
    candidate = {
        "utilityId": f"eia:{number}",
        "utility": rows[0][3],
        "companyType": utility["ownership"] if utility else None,
        "ccnNumber": None,
        # one market code per RTO column, as the ISO boundaries and queues spell it
        "isoRto": "/".join(market_code(r) for r in utility["rtos"])
        if utility and utility["rtos"]
        else None,
        "confidence": CONFIDENCE_DISTRIBUTION if distribution else CONFIDENCE_OTHER,
        "confidenceBasis": CONFIDENCE_BASIS,
        "resolutionMethod": RESOLUTION_METHOD,
        "evidence": {
            "sourceId": SOURCE_ID,
            "assetHash": asset.sha256,
            "sourceLocator": _row_locator(asset, first_sheet, first_row)["sourceLocator"],
            "sourceUrl": SOURCE_URL,
            "authority": AUTHORITY,
            "fileName": asset.file_name,
            "worksheet": first_sheet,
            "rows": [r[0] for r in rows],
            "dataYear": year,
            "state": state,
            "eiaUtilityNumber": number,
            "countyCount": len(county_rows),
            "countyRows": county_rows,
            "geometry": "county_union_not_polygon",
            "note": (
                "EIA-861 lists the counties a utility reports serving, not its boundary: "
                "the utility serves some part of each listed county."
            ),
        },
    }
    return territory_id, candidate, sorted(county_rows)


def _row_locator(asset: Asset, sheet: str, number: int) -> dict[str, Any]:
    """Return the worksheet, row and source locator of one line of the county listing."""
    return {
        "worksheet": sheet,
        "row": number,
        "sourceLocator": f"{asset.file_name}#{sheet}!R{number}",
    }
