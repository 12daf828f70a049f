"""A small store shaped like a harvested one, served for a page's tests: plants whose file
names no balancing authority, two generators, hourly operations of the test's choosing, and
nothing else (no queue, transmission projects, dockets, facts or evidence)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from record_shapes import whole

from gridclient.models import BalancingAuthorityOperation, GenerationPlant, Generator

REPO_ROOT = Path(__file__).resolve().parents[2]
TOKEN = "tok_ops_test"
SOURCE = {
    "sourceId": "eia930-test",
    "assetHash": "b" * 64,
    "sourceLocator": "test.csv",
    "observedAt": "2025-03-11T00:00:00Z",
}


def hourly(code: str, region: str | None, hour: dt.datetime, demand: float) -> dict:
    stamp = hour.strftime("%Y-%m-%dT%H:%M:%SZ")
    return whole(
        BalancingAuthorityOperation,
        id=f"ops-{code}-{region or 'BA'}-{stamp}",
        balancingAuthorityCode=code,
        utcTime=stamp,
        localTime=stamp,
        region=region,
        demandMw=demand,
        evidence=SOURCE,
    )


def plant(i: int) -> dict:
    # no balancing authority, NERC region or sector: the file names none for these plants
    return whole(
        GenerationPlant,
        id=f"plant-{i}",
        plantName=f"Plant {i}",
        utilityName="Utility",
        state="TX",
        county="Travis",
        agencyPlantId=i,
        utilityId=1,
        latitude=30.3,
        longitude=-97.7,
        evidence=SOURCE,
    )


def generator(i: int, code: str) -> dict:
    return whole(
        Generator,
        id=f"gen-{i}",
        generatorId=f"G{i}",
        plantName=f"Plant {i}",
        utilityName="Utility",
        state="TX",
        county="Travis",
        balancingAuthorityCode=code,
        status="OP",
        technology="Solar Photovoltaic",
        energySourceCode="SUN",
        primeMoverCode="PV",
        agencyPlantId=i,
        utilityId=1,
        nameplateCapacityMw=50.0,
        operatingDate="2020-01",
        evidence=SOURCE,
    )


def serve_store(db_path: Path, operations: list[dict]):
    """Start a service on a store holding plants, two generators and `operations`."""
    from gridservice.runtime.server import start_in_thread
    from gridservice.settings import Settings
    from gridservice.store import writer
    from gridservice.store.db import connect, init_schema

    conn = connect(db_path)
    init_schema(conn)
    with conn:
        writer.add_token(conn, TOKEN, "tenant-ops", "2025-01-01T00:00:00Z")
        writer.insert_plants(conn, [plant(i) for i in range(1, 4)])
        writer.insert_generators(
            conn,
            [generator(1, "ERCO"), generator(2, "swpp")],
            source_id="eia860-test",
            is_current=True,
        )
        writer.insert_ba_operations(conn, operations)
    conn.close()
    return start_in_thread(Settings(db_path=db_path, rate_limit_enabled=False))


def point_the_app_at(base_url: str, monkeypatch) -> None:
    """Have the page's connection reach the service at `base_url` as the store's tenant."""
    monkeypatch.setenv("GRID_API_BASE_URL", base_url)
    monkeypatch.setenv("GRID_API_TOKEN", TOKEN)
    monkeypatch.chdir(REPO_ROOT)
