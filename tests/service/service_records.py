"""Small, known wire records of every resource, written straight through the store writer.

Geography: county Alpha (48001, TX) is the square lon -98..-97, lat 30..31 and is served by
one territory; county Bravo (48003, TX) is lon -97..-96, lat 30..31 and served by none.
"""

from __future__ import annotations

import json
import sqlite3

from record_shapes import whole

from gridclient.models import (
    BalancingAuthorityOperation,
    GenerationPlant,
    Generator,
    GeneratorOperation,
)
from gridservice.store import writer

ALPHA_POINT = (30.5, -97.5)  # latitude, longitude
BRAVO_POINT = (30.5, -96.5)
FLAGS = [{"code": "demo", "severity": "info", "field": "id", "message": "test record"}]
SRC = {
    "sourceId": "src-test",
    "assetHash": "a" * 64,
    "sourceLocator": "row 1",
    "observedAt": "2025-01-01T00:00:00Z",
}

N_GENERATORS = 23  # current versions; plus 3 older versions from another source release
N_PLANTS = 7
N_OPERATIONS = 15
N_BA_OPERATIONS = 12
N_PROJECTS = 5
N_QUEUE = 9
N_CHUNKS = 8


def _square(min_lon: float, min_lat: float) -> str:
    ring = [
        [min_lon, min_lat],
        [min_lon + 1, min_lat],
        [min_lon + 1, min_lat + 1],
        [min_lon, min_lat + 1],
        [min_lon, min_lat],
    ]
    return json.dumps({"type": "Polygon", "coordinates": [ring]})


def generator(i: int, *, source_id: str = "eia860-2024", version: str = "v2") -> dict:
    return whole(
        Generator,
        id=f"gen-{i:03d}-{version}",
        generatorId=f"G{i}",
        plantName=f"Plant {i % N_PLANTS}",
        utilityName="Test Utility",
        state="TX" if i % 3 else "OK",
        county="Alpha",
        balancingAuthorityCode="ERCO" if i % 2 else "SWPP",
        status="OP" if i % 4 else "SB",
        technology="Solar Photovoltaic" if i % 2 else "Natural Gas Fired Combined Cycle",
        energySourceCode="SUN",
        primeMoverCode="PV",
        agencyPlantId=1000 + i % N_PLANTS,
        utilityId=77,
        nameplateCapacityMw=float(i * 10),
        operatingDate="2020-01",
        evidence={**SRC, "sourceId": source_id},
        qualityFlags=FLAGS,
    )


def plant(i: int) -> dict:
    return whole(
        GenerationPlant,
        id=f"plant-{1000 + i}",
        plantName=f"Plant {i}",
        utilityName="Test Utility",
        state="TX",
        county="Alpha" if i % 2 else "Bravo",
        balancingAuthorityCode="ERCO",
        nercRegion="TRE",
        sectorName="IPP",
        agencyPlantId=1000 + i,
        utilityId=77,
        latitude=30.5,
        longitude=-97.5,
        evidence=SRC,
    )


def operation(i: int) -> dict:
    return whole(
        GeneratorOperation,
        id=f"op-{i:03d}",
        generatorId=f"G{i % 5}",
        primeMoverCode="PV",
        balancingAuthorityCode="ERCO",
        state="TX",
        agencyPlantId=1000 + i % 3,
        period=f"2024-{1 + i % 12:02d}",
        netGenerationMwh=100.0 + i,
        preliminary=i % 2 == 0,
        evidence=SRC,
    )


def ba_operation(i: int) -> dict:
    ba = "ERCO" if i % 2 else "SWPP"
    return whole(
        BalancingAuthorityOperation,
        id=f"ba-{ba}-{i:03d}",
        balancingAuthorityCode=ba,
        utcTime=f"2025-01-01T{i:02d}:00:00Z",
        localTime=f"2024-12-31T{i:02d}:00:00-06:00",
        region="TEX" if ba == "ERCO" else "CENT",
        demandForecastMw=40000.0,
        demandMw=41000.0,
        netGenerationMw=40500.0,
        totalInterchangeMw=-500.0,
        generationByFuelMw={"SUN": 5000.0, "NG": 20000.0},
        evidence=SRC,
    )


def fact(fact_id: str, market: str, value: float, known_from: str, known_to: str | None) -> dict:
    return {
        "id": fact_id,
        "factKey": f"{market}-peak-2026",
        "factVersion": fact_id[-2:],
        "sourceId": "src-test",
        "assetHash": "b" * 64,
        "subjectId": market,
        "market": market,
        "predicate": "peak_load_forecast",
        "period": "2026",
        "scenario": "base",
        "value": value,
        "unit": "MW",
        "assertionType": "observed",
        "validFrom": "2026-01-01",
        "validTo": "2026-12-31",
        "knownFrom": known_from,
        "knownTo": known_to,
        "evidence": {
            "chunkId": "chunk-001",
            "tableId": None,
            "quote": "peak",
            "sourceLocator": "p. 3",
            "blockId": None,
            "sourceText": None,
            "page": 3,
            "boundingBox": [1.0, 2.0, 3.0, 4.0],
            "pageWidth": 612.0,
            "pageHeight": 792.0,
            "readingOrder": 1.0,
            "parserConfidence": 0.8,
            "parserConfidenceIsCalibrated": False,
            "calibratedErrorProbability": None,
            "calibrationStatus": "unavailable_no_independent_labels",
            "route": "review_required_uncalibrated",
        },
        "qualityFlags": [],
    }


def project(i: int) -> dict:
    return {
        "id": f"tp-{i:03d}",
        "sourceId": "src-test",
        "assetHash": "c" * 64,
        "projectNumber": f"P{i}",
        "title": f"Line {i}",
        "description": "A 345 kV line",
        "status": "planned" if i % 2 else "in service",
        "transmissionOwner": "Test TO",
        "projectedInServiceDate": "2027-06-01",
        "actualInServiceDate": None,
        "fromLocation": "A",
        "toLocation": "B",
        "serviceLevelKv": 345.0,
        "counties": ["Alpha"] if i % 2 else ["Bravo", "Alpha"],
        "qualityFlags": [],
        "observedAt": "2025-01-01T00:00:00Z",
        "evidence": {
            "assertionType": "observed",
            "authority": "official_operator_dataset",
            "sourceUrl": "https://example.org/tp",
            "sourceLocator": f"row {i}",
        },
    }


def queue(i: int) -> tuple[dict, dict, dict]:
    record_id = f"q-{i:03d}"
    record = {
        "id": record_id,
        "sourceId": "src-test",
        "assetHash": "d" * 64,
        "recordKey": f"23INR{i:04d}",
        "market": "ERCOT",
        "projectName": f"Queue project {i}",
        "pointOfInterconnection": "Sub A",
        "state": "TX",
        "county": "Alpha",
        "proposedDate": "2027-01-01",
        "observedAt": "2025-01-01T00:00:00Z",
        "sourceLocator": f"row {i + 2}",
        "evidenceUrl": "https://example.org/q",
        "status": "active",
        "requestedCapacityMw": 100.0 + i,
        "qualityFlags": [],
    }
    details = {
        "recordId": record_id,
        "queueDate": "2023-01-01",
        "onlineDate": None,
        "withdrawnDate": None,
        "interconnectionAgreementDate": None,
        "studyPhaseOriginal": "FIS",
        "studyPhaseNormalized": "facility_study",
        "countyFips": "48001",
        "regionOriginal": "SOUTH",
        "utilityName": "Test Utility",
        "transmissionEntity": "Test TO",
        "developer": "Dev",
        "cluster": None,
        "serviceType": "NRIS",
        "projectType": "generation",
        "technology": "solar",
        "capacityComponentsMw": [100.0 + i],
        "evidence": {
            "assertionType": "observed",
            "authority": "officially_sponsored_synthesis",
            "sourceLocator": f"row {i + 2}",
            "originalRecord": {"INR": f"23INR{i:04d}"},
        },
        "qualityFlags": [],
    }
    evidence = {
        "recordId": record_id,
        "sourceId": "src-test",
        "assetHash": "d" * 64,
        "sourceLocator": f"row {i + 2}",
        "sourceName": "GIS report",
        "termsClassification": "public",
        "sourceUrl": "https://example.org/q",
        "locator": {
            "type": "spreadsheet_row",
            "fileName": "gis.xlsx",
            "worksheet": "Projects",
            "row": i + 2,
        },
        "sourceRow": {"INR": f"23INR{i:04d}"},
        "redistributionPolicy": "public_redistribution",
    }
    return record, details, evidence


def filing(control_number: str, item: int) -> dict:
    return {
        "id": f"df-{control_number}-{item:03d}",
        "sourceId": "src-test",
        "assetHash": "e" * 64,
        "controlNumber": control_number,
        "filingParty": "Test Utility",
        "description": f"Filing {item}",
        "sourceLocator": f"item {item}",
        "observedAt": "2025-01-01T00:00:00Z",
        "itemNumber": item,
        "filedAt": "2024-05-01",
        "documentUrl": "https://example.org/doc",
        "evidence": {
            "assertionType": "observed",
            "authority": "official_filing",
            "sourceLocator": f"item {item}",
        },
        "qualityFlags": [],
    }


CHUNK_TEXTS = [
    "Transmission congestion in the Alpha county load pocket requires a new 345 kV line.",
    "The load forecast for ERCOT shows peak demand growth from data centers.",
    "Interconnection queue requests for solar projects increased in Alpha county.",
    "Resource adequacy reserve margin table for the summer peak.",
    "Figure of transmission line routes near Bravo county substations.",
    "Data center load growth and large load interconnection studies.",
    "The transmission owner filed a certificate of convenience and necessity.",
    "Quarterly report on interconnection queue transmission congestion.",
]


def chunk(i: int) -> dict:
    return {
        "chunkId": f"chunk-{i:03d}",
        "sourceId": "src-report" if i % 2 else "src-filing",
        "assetHash": "f" * 64,
        "tableId": None,
        "content": CHUNK_TEXTS[i],
        "sourceLocator": f"p. {i + 1}",
        "kind": ("prose", "table", "figure")[i % 3],
        "page": 1 + i % 2,
        "sectionPath": ["Report", f"Section {i}"],
    }


def write_all(conn: sqlite3.Connection) -> None:
    """Write every kind of record (the caller commits)."""
    writer.insert_states(
        conn, [{"state_fips": "48", "state": "TX", "name": "Texas", "geojson": _square(-98, 30)}]
    )
    writer.insert_counties(
        conn,
        [
            {
                "county_fips": "48001",
                "state_fips": "48",
                "state": "TX",
                "name": "Alpha",
                "min_lon": -98.0,
                "min_lat": 30.0,
                "max_lon": -97.0,
                "max_lat": 31.0,
                "geojson": _square(-98, 30),
            },
            {
                "county_fips": "48003",
                "state_fips": "48",
                "state": "TX",
                "name": "Bravo",
                "min_lon": -97.0,
                "min_lat": 30.0,
                "max_lon": -96.0,
                "max_lat": 31.0,
                "geojson": _square(-97, 30),
            },
        ],
    )
    writer.insert_territory(
        conn,
        "terr-1",
        {
            "utilityId": "util-test",
            "utility": "Test Grid Co (demo)",
            "companyType": "investor_owned",
            "ccnNumber": "30000",
            "isoRto": "ERCOT",
            "confidence": 0.9,
            "confidenceBasis": "source_authority_heuristic_not_benchmark_accuracy",
            "resolutionMethod": "regulator_polygon",
            "evidence": {"sourceId": "src-test"},
        },
        ["48001"],
    )
    writer.insert_facts(
        conn,
        "load_forecast",
        [
            fact("lf-ercot-v1", "ERCOT", 80000.0, "2024-01-01T00:00:00Z", "2024-06-01T00:00:00Z"),
            fact("lf-ercot-v2", "ERCOT", 85000.0, "2024-06-01T00:00:00Z", None),
            fact("lf-spp-v1", "SPP", 55000.0, "2024-01-01T00:00:00Z", None),
        ],
    )
    writer.insert_facts(
        conn,
        "resource_adequacy",
        [
            fact("ra-ercot-v1", "ERCOT", 0.15, "2024-01-01T00:00:00Z", None),
            fact("ra-spp-v1", "SPP", 0.18, "2024-01-01T00:00:00Z", None),
        ],
    )
    writer.insert_generators(
        conn,
        [generator(i) for i in range(1, N_GENERATORS + 1)],
        source_id="eia860-2024",
        is_current=True,
    )
    writer.insert_generators(
        conn,
        [generator(i, source_id="eia860-2023", version="v1") for i in range(1, 4)],
        source_id="eia860-2023",
        is_current=False,
    )
    writer.insert_plants(conn, [plant(i) for i in range(N_PLANTS)])
    writer.insert_generator_operations(conn, [operation(i) for i in range(N_OPERATIONS)])
    writer.insert_ba_operations(conn, [ba_operation(i) for i in range(N_BA_OPERATIONS)])
    writer.insert_transmission_projects(conn, [project(i) for i in range(N_PROJECTS)])
    for i in range(N_QUEUE):
        writer.insert_queue_record(conn, *queue(i))
    writer.insert_docket_filings(
        conn, [filing("55555", i) for i in range(1, 5)] + [filing("66666", 1)]
    )
    writer.insert_evidence_chunks(
        conn,
        [chunk(i) for i in range(N_CHUNKS) if i % 2],
        authority="official_planning_report",
        redistribution_policy="public_redistribution",
        known_from="2024-01-01T00:00:00Z",
    )
    writer.insert_evidence_chunks(
        conn,
        [chunk(i) for i in range(N_CHUNKS) if not i % 2],
        authority="official_filing",
        redistribution_policy="links_only",
        known_from="2024-06-01T00:00:00Z",
    )
    writer.insert_harvest_run(
        conn,
        {
            "runId": "run-001",
            "sourceId": "src-test",
            "assetHash": "d" * 64,
            "observedAt": "2025-01-01T00:00:00Z",
            "inputRecords": 10,
            "acceptedRecords": 9,
            "rejectedRecords": 1,
            "unchangedAsset": False,
            "rejections": [{"sourceLocator": "row 12", "reasons": ["missing INR"]}],
        },
    )
