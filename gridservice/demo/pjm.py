"""A second market offline: fictional PJM records in northern Virginia.

The demo's ERCOT and SPP records are drawn from seeded streams over the Texas-region counties
(`DEMO_STATES`); these are a fixed handful, loaded after them on the counties of Virginia,
Maryland, the District and West Virginia, so every earlier figure stays as it was. Two utility
territories by county listing (overlapping in Loudoun and Fauquier), six queue records (market PJM) in Loudoun, Prince William and
Fauquier, and three plants with the plant file's own MW (no generator records).
"""

from __future__ import annotations

import sqlite3

from gridservice.catalogue.queue_status import counts_as_active
from gridservice.demo.common import DemoContext, DemoSource, asset_hash
from gridservice.demo.queue import flag_and_cite
from gridservice.geography import geo
from gridservice.store import writer

PJM_STATES = ("VA", "MD", "DC", "WV")
OBSERVED_AT = "2025-09-26T15:00:00Z"
QUEUE_SOURCE = DemoSource(
    "demo-pjm-queue",
    "PJM_queue_2025-09_demo.xlsx",
    OBSERVED_AT,
    "officially_sponsored_synthesis",
    "normalized_records_only",
    "PJM interconnection queue, September 2025 (demo)",
)
QUEUE_SHEET = "Queue"
PLANT_SOURCE = DemoSource(
    "demo-eia-plants-va",
    "power_plants_va_demo.csv",
    OBSERVED_AT,
    "federal_aggregated_dataset",
    "public_redistribution",
    "Power plants in Virginia (demo)",
)
# (utility id, name, company type, counties): the demo territory polygons use the same ids.
UTILITIES = (
    (
        "demo-util-dvec",
        "Dominion Valley Electric (demo)",
        "investor_owned_utility",
        ("Loudoun", "Prince William", "Fauquier"),
    ),
    (
        "demo-util-brvc",
        "Blue Ridge Valley Electric Cooperative (demo)",
        "electric_cooperative",
        ("Loudoun", "Fauquier", "Clarke"),
    ),
)
PLANT_OWNER = UTILITIES[0][1]
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


def _record(
    ctx: DemoContext, fips: dict[str, str], row: int, entry: tuple[str, str, str, float, str]
) -> tuple[dict, dict, dict]:
    """Return a PJM queue record, its details and its spreadsheet row's evidence."""
    key, county, technology, mw, status = entry
    locator = f"{QUEUE_SOURCE.file_name}#'{QUEUE_SHEET}'!A{row}"
    source_row = {
        "Queue Number": key,
        "Name": f"{county} {technology} (demo)",
        "County": county,
        "State": "VA",
        "Fuel": technology,
        "MW Energy": f"{mw:g}",
        "Status": status.title(),
        "Transmission Owner": "Dominion",
    }
    record = {
        "id": f"demo-q-pjm-{key.lower()}",
        "sourceId": QUEUE_SOURCE.source_id,
        "assetHash": asset_hash(QUEUE_SOURCE, ctx.seed, ctx.scale),
        "recordKey": key,
        "market": "PJM",
        "projectName": source_row["Name"],
        "pointOfInterconnection": "Brambleton 230 kV Substation",
        "state": "VA",
        "county": county,
        "proposedDate": None,
        "observedAt": QUEUE_SOURCE.observed_at,
        "sourceLocator": locator,
        "evidenceUrl": QUEUE_SOURCE.url,
        "status": status,
        "requestedCapacityMw": mw,
        "qualityFlags": [],
    }
    details = {
        "recordId": record["id"],
        **dict.fromkeys(("queueDate", "onlineDate", "withdrawnDate")),
        **dict.fromkeys(("interconnectionAgreementDate", "studyPhaseOriginal")),
        "studyPhaseNormalized": None,
        "countyFips": fips[county],
        "regionOriginal": None,
        "utilityName": None,
        "transmissionEntity": source_row["Transmission Owner"],
        "developer": None,
        "cluster": None,
        "serviceType": None,
        "projectType": "generation",
        "technology": technology,
        "capacityComponentsMw": [mw],
        "evidence": {
            "assertionType": "observed",
            "authority": QUEUE_SOURCE.authority,
            "sourceLocator": locator,
            "originalRecord": source_row,
        },
        "qualityFlags": [],
    }
    record["statusNow"] = {
        "status": status,
        "date": None,
        "reportedAt": None,
        "sourceId": QUEUE_SOURCE.source_id,
        "sourceLocator": locator,
        "recordId": record["id"],
        "basis": "own_record",
        "countsAsActive": counts_as_active(record),
    }
    evidence = flag_and_cite(
        record,
        details,
        QUEUE_SOURCE,
        (QUEUE_SHEET, row),
        source_row,
        "operator_terms_normalized_use",
    )
    return record, details, evidence


def _territory(
    utility_id: str, name: str, company_type: str, counties: tuple[str, ...], fips: dict
) -> dict:
    """Return a county-listed territory's candidate template."""
    return {
        "utilityId": utility_id,
        "utility": name,
        "companyType": company_type,
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
            "countyFips": [fips[n] for n in counties],
            "note": "Fictional demo utility: the union of the listed real Census counties.",
        },
    }


def load_records(conn: sqlite3.Connection, ctx: DemoContext) -> None:
    """Insert the PJM territories, queue records and plants (geography loaded first)."""
    index = geo.CountyIndex.from_conn(conn)
    fips = {c["name"]: c["county_fips"] for c in index.counties("VA")}
    for utility_id, name, company_type, counties in UTILITIES:
        candidate = _territory(utility_id, name, company_type, counties, fips)
        writer.insert_territory(
            conn, f"{utility_id}-territory", candidate, [fips[n] for n in counties]
        )
    for row, entry in enumerate(QUEUE, 2):
        writer.insert_queue_record(conn, *_record(ctx, fips, row, entry))
    writer.insert_plants(conn, [_plant(ctx, *p) for p in PLANTS])


def _plant(
    ctx: DemoContext, code: int, name: str, county: str, lat: float, lon: float, mw: float
) -> dict:
    return {
        "id": f"demo-plant-{code}",
        "plantName": name,
        "utilityName": PLANT_OWNER,
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
            "sourceId": PLANT_SOURCE.source_id,
            "assetHash": asset_hash(PLANT_SOURCE, ctx.seed, ctx.scale),
            "sourceLocator": f"{PLANT_SOURCE.file_name}#R{code - 78999}",
            "observedAt": PLANT_SOURCE.observed_at,
        },
        "qualityFlags": [],
    }
