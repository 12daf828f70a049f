"""EIA power plants (Energy Atlas layer) and EIA-860 generators (Schedules 3.1 + 2).

Plants are replaced by a newer file, state by state (the national file and a one-state
extract both load, each plant once); each keeps the layer's installed and total MW. Generators are versioned: each file is one source
release (`eia860-<hash>`), the newest release is the current view, older releases stay
selectable with `source_id`.
"""

from __future__ import annotations

import functools
import sqlite3
from typing import Any

from gridservice.geography import geo
from gridservice.harvest._base import Asset, Harvest, rejection
from gridservice.harvest._csv import csv_rows, integer, number, text_or_none
from gridservice.store import harvest_store, writer

PLANTS_SOURCE_ID = "eia_power_plants"
GENERATORS_FAMILY = "eia860"
PLANT_COLUMNS = [
    "Plant_Code", "Plant_Name", "Utility_ID", "Utility_Name", "sector_name", "County",
    "State", "Period", "Longitude", "Latitude",
]  # fmt: skip
# Capacity columns read when present: a layer export without them still loads, its plants
# without a capacity of their own.
PLANT_CAPACITY_COLUMNS = {"installedMw": "Install_MW", "totalMw": "Total_MW"}
GENERATOR_COLUMNS = [
    "Plant Code", "Generator ID", "Technology", "Prime Mover", "Nameplate Capacity (MW)",
    "Summer Capacity (MW)", "Winter Capacity (MW)", "Status", "Operating Month",
    "Operating Year", "Planned Retirement Month", "Planned Retirement Year",
    "Energy Source 1", "Utility ID", "Utility Name", "Plant Name", "State", "County",
    "Balancing Authority Code",
]  # fmt: skip


@functools.cache
def _state_codes() -> dict[str, str]:
    """Return the state code of each Census state's code and full name, upper-cased."""
    table = geo._state_table()  # noqa: SLF001 - abbreviation -> (fips, name)
    return {**{full.upper(): abbr for abbr, (_, full) in table.items()}, **{a: a for a in table}}


def _state_code(name: str | None) -> str | None:
    """Return 'TX' for 'Texas' (or for 'TX'), using the Census state table."""
    # one lookup, not a scan of the table: the national file names 12,008 plants' states
    return _state_codes().get(name.upper()) if name else None


def _evidence(source_id: str, asset: Asset, line: int, observed_at: str) -> dict[str, str]:
    return {
        "sourceId": source_id,
        "assetHash": asset.sha256,
        "sourceLocator": f"{asset.file_name}#R{line}",
        "observedAt": observed_at,
    }


def parse_plants(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    expected = "the EIA Energy Atlas 'Power Plants' layer export (Plant_Code, Plant_Name, ...)"
    plants, rejections, seen, read = [], [], set(), 0
    for line, row in csv_rows(asset, PLANT_COLUMNS, expected):
        read += 1
        plant_id = integer(row["Plant_Code"])
        if plant_id is None or plant_id in seen:
            why = (
                "Plant_Code is not an integer"
                if plant_id is None
                else f"duplicate Plant_Code {plant_id}"
            )
            rejections.append(rejection(f"{asset.file_name}#R{line}", why))
            continue
        seen.add(plant_id)
        period = row["Period"] or ""
        observed = (
            f"{period[:4]}-{period[4:6]}-01T00:00:00Z" if len(period) == 6 else asset.harvested_at
        )
        plants.append(
            {
                "id": f"eia-plant-{plant_id}",
                "plantName": text_or_none(row["Plant_Name"]),
                "utilityName": text_or_none(row["Utility_Name"]),
                "state": _state_code(row["State"]),
                "county": text_or_none(row["County"]),
                "balancingAuthorityCode": None,
                "nercRegion": None,
                "sectorName": text_or_none(row["sector_name"]),
                "agencyPlantId": plant_id,
                "utilityId": integer(row["Utility_ID"]),
                "latitude": number(row["Latitude"]),
                "longitude": number(row["Longitude"]),
                **{key: number(row.get(column)) for key, column in PLANT_CAPACITY_COLUMNS.items()},
                "preliminary": False,
                "evidence": _evidence(PLANTS_SOURCE_ID, asset, line, observed),
                "qualityFlags": [],
            }
        )

    # A file replaces the plants of the states it lists: the national file and a one-state
    # extract load in either order, each plant once (by its EIA code).
    states = sorted({p["state"] for p in plants if p["state"]})

    def store(conn: sqlite3.Connection) -> None:
        harvest_store.delete_plants(conn, PLANTS_SOURCE_ID, states)
        writer.insert_plants(conn, plants)

    return Harvest(PLANTS_SOURCE_ID, read, len(plants), rejections, store)


def _month(year: str | None, month: str | None) -> str | None:
    y, m = integer(year), integer(month)
    if y is None:
        return None
    return f"{y:04d}-{m:02d}" if m else f"{y:04d}"


def parse_generators(asset: Asset, conn: sqlite3.Connection) -> Harvest:
    expected = "an EIA-860 generator file (Schedule 3.1 headers: Plant Code, Generator ID, ...)"
    release = f"{GENERATORS_FAMILY}-{asset.sha256[:12]}"
    generators, rejections, seen, read = [], [], set(), 0
    for line, row in csv_rows(asset, GENERATOR_COLUMNS, expected):
        read += 1
        plant_id, generator_id = integer(row["Plant Code"]), text_or_none(row["Generator ID"])
        key = (plant_id, generator_id)
        if plant_id is None or generator_id is None or key in seen:
            why = (
                "missing Plant Code or Generator ID"
                if None in key
                else f"duplicate generator {plant_id}/{generator_id}"
            )
            rejections.append(rejection(f"{asset.file_name}#R{line}", why))
            continue
        seen.add(key)
        generators.append(_generator(asset, release, line, row, plant_id, generator_id))

    def store(conn: sqlite3.Connection) -> None:
        harvest_store.delete_generators(conn, release)
        harvest_store.retire_generators(conn, GENERATORS_FAMILY + "-")
        writer.insert_generators(conn, generators, source_id=release, is_current=True)

    return Harvest(release, read, len(generators), rejections, store)


def _generator(asset, release, line, row, plant_id, generator_id) -> dict[str, Any]:
    return {
        "id": f"{release}-{plant_id}-{generator_id}",
        "generatorId": generator_id,
        "plantName": text_or_none(row["Plant Name"]),
        "utilityName": text_or_none(row["Utility Name"]),
        "state": text_or_none(row["State"]),
        "county": text_or_none(row["County"]),
        "balancingAuthorityCode": text_or_none(row["Balancing Authority Code"]),
        "status": text_or_none(row["Status"]),
        "technology": text_or_none(row["Technology"]),
        "energySourceCode": text_or_none(row["Energy Source 1"]),
        "primeMoverCode": text_or_none(row["Prime Mover"]),
        "agencyPlantId": plant_id,
        "utilityId": integer(row["Utility ID"]),
        "nameplateCapacityMw": number(row["Nameplate Capacity (MW)"]),
        "summerCapacityMw": number(row["Summer Capacity (MW)"]),
        "winterCapacityMw": number(row["Winter Capacity (MW)"]),
        "operatingDate": _month(row["Operating Year"], row["Operating Month"]),
        "plannedOperationDate": None,
        "retirementDate": _month(row["Planned Retirement Year"], row["Planned Retirement Month"]),
        "preliminary": False,
        "evidence": _evidence(release, asset, line, asset.harvested_at),
        "qualityFlags": [],
    }
