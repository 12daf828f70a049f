"""A second market offline: fictional PJM records in northern Virginia.

The demo's ERCOT and SPP records are drawn from seeded streams over the Texas-region counties
(`DEMO_STATES`); these are a fixed handful, loaded after them on the counties of Virginia,
Maryland, the District and West Virginia, so every earlier figure stays as it was. A utility
territory by county listing, six queue records (market PJM) in Loudoun, Prince William and
Fauquier, and three plants with the plant file's own MW (no generator records).
"""

from __future__ import annotations

import sqlite3

from gridservice import geo
from gridservice.demo.common import DEMO_URL
from gridservice.queue_status import counts_as_active
from gridservice.store import writer

PJM_STATES = ("VA", "MD", "DC", "WV")
QUEUE_SOURCE = "demo-pjm-queue"
QUEUE_FILE = "PJM_queue_2025-09_demo.xlsx"
OBSERVED_AT = "2025-09-26T15:00:00Z"
PLANT_SOURCE = "demo-eia-plants-va"
UTILITY = (
    "demo-util-dvec",
    "Dominion Valley Electric (demo)",
    ("Loudoun", "Prince William", "Fauquier"),
)
# (queue id, county, technology, MW, status)
QUEUE = (
    ("AF1-101", "Loudoun", "Battery", 150.0, "active"),
    ("AF1-102", "Loudoun", "Gas", 480.0, "active"),
    ("AF2-210", "Prince William", "Solar", 120.0, "active"),
    ("AF2-211", "Prince William", "Solar + Battery", 200.0, "withdrawn"),
    ("AG1-330", "Fauquier", "Solar", 95.0, "active"),
    ("AG1-331", "Fauquier", "Wind", 60.0, "suspended"),
)
# (plant code, name, county, latitude, longitude, total MW)
PLANTS = (
    (79001, "Goose Creek Peaking Station (demo)", "Loudoun", 39.05, -77.55, 340.0),
    (79002, "Bull Run Solar (demo)", "Prince William", 38.80, -77.55, 80.0),
    (79003, "Warrenton Landfill Gas (demo)", "Fauquier", 38.72, -77.80, 4.8),
)


def load_geography(conn: sqlite3.Connection) -> None:
    """Insert the counties and states around the PJM records."""
    writer.insert_states(conn, geo.load_states(PJM_STATES))
    writer.insert_counties(conn, geo.load_counties(PJM_STATES))


def _record(row: int, key: str, county: str, technology: str, mw: float, status: str) -> dict:
    locator = f"{QUEUE_FILE}#'Queue'!A{row}"
    record = {
        "id": f"demo-q-pjm-{key.lower()}",
        "sourceId": QUEUE_SOURCE,
        "recordKey": key,
        "market": "PJM",
        "projectName": f"{county} {technology} (demo)",
        "pointOfInterconnection": "Brambleton 230 kV Substation",
        "state": "VA",
        "county": county,
        "technology": technology,
        "observedAt": OBSERVED_AT,
        "sourceLocator": locator,
        "evidenceUrl": f"{DEMO_URL}/{QUEUE_SOURCE}/{QUEUE_FILE}",
        "status": status,
        "requestedCapacityMw": mw,
        "qualityFlags": [],
    }
    record["statusNow"] = {
        "status": status,
        "date": None,
        "reportedAt": None,
        "sourceId": QUEUE_SOURCE,
        "sourceLocator": locator,
        "recordId": record["id"],
        "basis": "own_record",
        "countsAsActive": counts_as_active(record),
    }
    return record


def load_records(conn: sqlite3.Connection) -> None:
    """Insert the PJM territory, queue records and plants (geography loaded first)."""
    index = geo.CountyIndex.from_conn(conn)
    utility_id, name, counties = UTILITY
    fips = [
        next(c for c in index.counties("VA") if c["name"] == n)["county_fips"] for n in counties
    ]
    candidate = {
        "utilityId": utility_id,
        "utility": name,
        "companyType": "investor_owned_utility",
        "ccnNumber": None,
        "isoRto": "PJM",
        "confidence": 0.6,
        "confidenceBasis": "source_authority_heuristic_not_benchmark_accuracy",
        "resolutionMethod": "county_union_polygon",
        "evidence": {
            "sourceId": "demo-va-territories",
            "sourceLocator": f"va_territories_demo.csv#{utility_id}",
            "observedAt": OBSERVED_AT,
            "assertionType": "observed",
            "authority": "other_public_source",
            "counties": [f"{n}, VA" for n in counties],
            "countyFips": fips,
            "note": "Fictional demo utility: the union of the listed real Census counties.",
        },
    }
    writer.insert_territory(conn, f"{utility_id}-territory", candidate, fips)
    for row, entry in enumerate(QUEUE, 2):
        record = _record(row, *entry)
        evidence = {"sourceLocator": record["sourceLocator"], "kind": "spreadsheet_row"}
        writer.insert_queue_record(conn, record, {"recordId": record["id"]}, evidence)
    writer.insert_plants(conn, [_plant(*p) for p in PLANTS])


def _plant(code: int, name: str, county: str, lat: float, lon: float, mw: float) -> dict:
    return {
        "id": f"demo-plant-{code}",
        "plantName": name,
        "utilityName": UTILITY[1],
        "state": "VA",
        "county": county,
        "balancingAuthorityCode": "PJM",
        "nercRegion": "RFC",
        "sectorName": "Electric Utility",
        "agencyPlantId": code,
        "utilityId": None,
        "latitude": lat,
        "longitude": lon,
        "installedMw": mw,
        "totalMw": mw,
        "preliminary": False,
        "evidence": {
            "sourceId": PLANT_SOURCE,
            "sourceLocator": f"power_plants_va_demo.csv#R{code - 78999}",
            "observedAt": OBSERVED_AT,
        },
        "qualityFlags": [],
    }
