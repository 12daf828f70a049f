"""A small store for the screening tests: square counties, territories, queue, projects, facts.

Geography (lon/lat degrees, each county a 1 x 1 square):

    Charlie 48005 (-98..-97, 31..32)
    Alpha   48001 (-98..-97, 30..31)   Bravo 48003 (-97..-96, 30..31)    Delta 48007 (-95..-94, 30..31)
    Echo    40001 (-98..-97, 34..35), in OK

Territories: Demo Grid Co (ERCOT) covers Alpha, Bravo, Charlie; Demo Rural Co-op (ERCOT)
covers Alpha only (dual certification there); Demo Plains Power (SPP) covers Echo. Delta has
queue records nowhere and no territory. The Gulf point (25, -90) is in no county.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from gridservice.store import writer
from gridservice.store.db import connect, init_schema

POINTS = {
    "dual": (30.5, -97.5),
    "single": (30.5, -96.5),
    "unserved": (30.5, -94.5),
    "outside": (25.0, -90.0),
    "spp": (34.5, -97.5),
}
SITE_ID = "site_7f3a9c2e1b"
TENANT_ID = "tenant-acme-datacenters"


def _square(min_lon: float, min_lat: float) -> dict:
    ring = [
        [min_lon, min_lat],
        [min_lon + 1, min_lat],
        [min_lon + 1, min_lat + 1],
        [min_lon, min_lat + 1],
        [min_lon, min_lat],
    ]
    return {"type": "Polygon", "coordinates": [ring]}


COUNTIES = [
    ("48001", "48", "TX", "Alpha", -98.0, 30.0),
    ("48003", "48", "TX", "Bravo", -97.0, 30.0),
    ("48005", "48", "TX", "Charlie", -98.0, 31.0),
    ("48007", "48", "TX", "Delta", -95.0, 30.0),
    ("40001", "40", "OK", "Echo", -98.0, 34.0),
]


def _counties() -> list[dict]:
    return [
        {
            "county_fips": fips,
            "state_fips": sfips,
            "state": state,
            "name": name,
            "min_lon": lon,
            "min_lat": lat,
            "max_lon": lon + 1,
            "max_lat": lat + 1,
            "geojson": json.dumps(_square(lon, lat)),
        }
        for fips, sfips, state, name, lon, lat in COUNTIES
    ]


def _states() -> list[dict]:
    return [
        {
            "state_fips": "48",
            "state": "TX",
            "name": "Texas",
            "geojson": json.dumps(_square(-99, 29)),
        },
        {
            "state_fips": "40",
            "state": "OK",
            "name": "Oklahoma",
            "geojson": json.dumps(_square(-99, 34)),
        },
    ]


def territory(utility_id: str, utility: str, iso: str, confidence: float) -> dict:
    return {
        "utilityId": utility_id,
        "utility": utility,
        "companyType": "investor_owned",
        "ccnNumber": f"CCN-{utility_id}",
        "isoRto": iso,
        "confidence": confidence,
        "confidenceBasis": "source_authority_heuristic_not_benchmark_accuracy",
        "resolutionMethod": "regulator_polygon",
        "evidence": {"sourceId": "demo-territories", "authority": "regulatory_order"},
    }


def queue_entry(
    record_id: str,
    county: str | None,
    mw: float,
    status: str = "active",
    *,
    state: str = "TX",
    market: str = "ERCOT",
    queue_date: str = "2021-01-15",
    online_date: str | None = None,
) -> tuple[dict, dict, dict]:
    record = {
        "id": record_id,
        "sourceId": "demo-queue",
        "assetHash": "sha256:00",
        "recordKey": record_id,
        "market": market,
        "projectName": f"Demo Project {record_id}",
        "pointOfInterconnection": "Demo 345 kV bus",
        "state": state,
        "county": county,
        "proposedDate": "2027-06-01",
        "observedAt": "2025-06-01T00:00:00Z",
        "sourceLocator": f"queue.xlsx#row={record_id}",
        "evidenceUrl": "https://example.org/queue",
        "status": status,
        "requestedCapacityMw": mw,
        "qualityFlags": [],
    }
    details = {
        "recordId": record_id,
        "queueDate": queue_date,
        "onlineDate": online_date,
        "withdrawnDate": None,
        "interconnectionAgreementDate": None,
        "studyPhaseOriginal": "FIS",
        "studyPhaseNormalized": "facility_study",
        "countyFips": None,
        "regionOriginal": None,
        "utilityName": "Demo Grid Co",
        "transmissionEntity": None,
        "developer": "Demo Developer",
        "cluster": None,
        "serviceType": None,
        "projectType": "generation",
        "technology": "solar",
        "capacityComponentsMw": [mw],
        "evidence": {
            "assertionType": "observed",
            "authority": "officially_sponsored_synthesis",
            "sourceLocator": "x",
            "originalRecord": {},
        },
        "qualityFlags": [],
    }
    evidence = {
        "recordId": record_id,
        "sourceId": "demo-queue",
        "assetHash": "sha256:00",
        "sourceLocator": "x",
        "sourceName": "Demo queue",
        "termsClassification": "public",
        "sourceUrl": "https://example.org/q",
        "locator": {
            "type": "spreadsheet_row",
            "fileName": "queue.xlsx",
            "worksheet": "Queue",
            "row": 2,
        },
        "sourceRow": {"INR": record_id},
        "redistributionPolicy": "public_redistribution",
    }
    return record, details, evidence


def project(project_id: str, counties: list[str], kv: float, status: str, projected: str) -> dict:
    return {
        "id": project_id,
        "sourceId": "demo-tx",
        "assetHash": "sha256:11",
        "projectNumber": project_id,
        "title": f"Demo line {project_id}",
        "description": "Demo transmission project",
        "status": status,
        "transmissionOwner": "Demo Grid Co",
        "projectedInServiceDate": projected,
        "actualInServiceDate": None,
        "fromLocation": "A",
        "toLocation": "B",
        "serviceLevelKv": kv,
        "counties": counties,
        "qualityFlags": [],
        "observedAt": "2025-06-01T00:00:00Z",
        "evidence": {
            "assertionType": "observed",
            "authority": "official_operator_dataset",
            "sourceUrl": "https://example.org/tx",
            "sourceLocator": "x",
        },
    }


def fact(
    fact_id: str,
    market: str,
    predicate: str,
    period: str,
    value: float,
    *,
    known_from: str = "2025-06-01T00:00:00Z",
    known_to: str | None = None,
) -> dict:
    return {
        "id": fact_id,
        "factKey": f"{market}:{predicate}:{period}",
        "factVersion": known_from[:10],
        "sourceId": "demo-facts",
        "assetHash": "sha256:22",
        "subjectId": market,
        "market": market,
        "predicate": predicate,
        "period": period,
        "scenario": "base",
        "value": value,
        "unit": "MW",
        "assertionType": "observed",
        "validFrom": f"{period}-01-01",
        "validTo": f"{period}-12-31",
        "knownFrom": known_from,
        "knownTo": known_to,
        "evidence": None,
        "qualityFlags": [],
    }


def build_world(path: Path, *, with_facts: bool = True) -> sqlite3.Connection:
    """Create and fill the small store at `path`; return an open connection."""
    conn = connect(path)
    init_schema(conn)
    writer.insert_states(conn, _states())
    writer.insert_counties(conn, _counties())
    writer.insert_territory(
        conn, "t-grid", territory("U100", "Demo Grid Co", "ERCOT", 0.9), ["48001", "48003", "48005"]
    )
    writer.insert_territory(
        conn, "t-coop", territory("U200", "Demo Rural Co-op", "ERCOT", 0.8), ["48001"]
    )
    writer.insert_territory(
        conn, "t-plains", territory("U300", "Demo Plains Power", "SPP", 0.9), ["40001"]
    )
    entries = [
        queue_entry("q-a1", "Alpha", 900.0),
        queue_entry("q-a2", "ALPHA", 1200.0, online_date="2024-01-15"),
        queue_entry("q-a3", "Alpha County", 400.0),
        queue_entry("q-a4", "Alpha", 300.0, status="withdrawn"),
        queue_entry("q-a5", "Alpha", 0.0),
        queue_entry("q-b1", "Bravo", 150.0),
        queue_entry("q-c1", "Charlie", 75.0, queue_date="2020-01-01", online_date="2022-01-01"),
        queue_entry("q-x1", "Faraway", 50.0),
        queue_entry("q-x2", None, 60.0),
        queue_entry("q-e1", "Echo", 250.0, state="OK", market="SPP"),
    ]
    for record, details, evidence in entries:
        writer.insert_queue_record(conn, record, details, evidence)
    writer.insert_transmission_projects(
        conn,
        [
            project("tp-1", ["Alpha", "Bravo"], 345.0, "Planned", "2030-01-01"),
            project("tp-2", ["Charlie"], 138.0, "Completed", "2020-01-01"),
            project("tp-3", ["Alpha"], 138.0, "Cancelled", "2026-01-01"),
        ],
    )
    if with_facts:
        writer.insert_facts(
            conn,
            "load_forecast",
            [
                fact("lf-2026", "ERCOT", "summer_peak_demand", "2026", 80_000.0),
                fact("lf-2027", "ERCOT", "summer_peak_demand", "2027", 85_000.0),
                fact(
                    "lf-2027-old",
                    "ERCOT",
                    "summer_peak_demand",
                    "2027",
                    83_000.0,
                    known_from="2024-06-01T00:00:00Z",
                    known_to="2025-06-01T00:00:00Z",
                ),
            ],
        )
        writer.insert_facts(
            conn,
            "resource_adequacy",
            [
                fact("ra-2026", "ERCOT", "firm_capacity", "2026", 92_000.0),
                fact("ra-2027", "ERCOT", "firm_capacity", "2027", 88_000.0),
            ],
        )
    conn.commit()
    return conn


def site(point: str, **fields) -> dict:
    latitude, longitude = POINTS[point]
    base = {
        "id": SITE_ID,
        "tenantId": TENANT_ID,
        "customerReference": "ACME-DEAL-4471",
        "createdAt": "2025-07-01T12:00:00Z",
        "metadata": {"projectCode": "Project Bluebonnet", "owner": "jane.doe@acme.example"},
        "requestedPeakLoadMw": 500.0,
        "averageLoadMw": 400.0,
        "serviceVoltageKv": 34.5,
        "curtailableMw": None,
        "targetInServiceDate": "2026-06-01",
        "loadProfile": "flat",
        "redundancy": "n_plus_1",
        "rampProfile": [{"year": 2026, "mw": 200}, {"year": 2027, "mw": 500}],
        "onSiteGeneration": [],
        "energyStorage": None,
        "location": {"latitude": latitude, "longitude": longitude},
        "address": {
            "addressLine1": "4471 Bluebonnet Industrial Parkway",
            "addressLine2": "Building 7",
            "locality": "Demoville",
            "region": "TX",
            "postalCode": "78999",
            "countryCode": "US",
        },
    }
    base.update(fields)
    return base


def grouped_fuel(fuel: str | None, technology: str | None) -> str | None:
    """Return a queue row's fuel as the figures by fuel group it: 'BAT' for a battery by any
    of ERCOT's codes (fuel OTH with technology BA, fuel BAT, the word Battery), else the
    fuel as written."""
    code, tech = (fuel or "").strip().upper(), (technology or "").strip().upper()
    return "BAT" if code in ("BAT", "BATTERY") or (code, tech) == ("OTH", "BA") else fuel
