"""Security and reliability fixtures: one demo store built per session, copied where written.

The demo store (scale 1) holds two tenants, `demo-alpha` and `demo-beta`, with the tokens
`gds_demo_alpha` and `gds_demo_beta`. Modules that write get their own copy of the file.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from gridservice.app import create_app
from gridservice.demo import DEMO_POINTS, build_demo_database
from gridservice.settings import Settings
from gridservice.store.db import connect, init_schema

ALPHA_TOKEN = "gds_demo_alpha"
BETA_TOKEN = "gds_demo_beta"
ALPHA = {"Authorization": f"Bearer {ALPHA_TOKEN}"}
BETA = {"Authorization": f"Bearer {BETA_TOKEN}"}


def site_body(point: str = "dual_certified", **fields) -> dict:
    """Return a valid site definition at one of the demo's named points."""
    latitude, longitude = DEMO_POINTS[point]
    return {
        "requestedPeakLoadMw": 120.0,
        "location": {"latitude": latitude, "longitude": longitude},
        **fields,
    }


def key() -> dict[str, str]:
    """Return a fresh Idempotency-Key header."""
    return {"Idempotency-Key": "sec-" + uuid.uuid4().hex}


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store, built once and checkpointed into one file (copy it before writing)."""
    path = tmp_path_factory.mktemp("demo-template") / "demo.db"
    conn = connect(path)
    init_schema(conn)
    build_demo_database(conn)
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path


def copy_store(template: Path, directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / "store.db"
    shutil.copyfile(template, target)
    return target


@pytest.fixture(scope="module")
def store_copy(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A module's own copy of the demo store."""
    return copy_store(demo_template, tmp_path_factory.mktemp("store"))


@pytest.fixture(scope="module")
def service(store_copy: Path) -> Iterator[TestClient]:
    """The service in-process over the module's store (demo: no rate limit)."""
    app = create_app(Settings(db_path=store_copy, demo=True, secret_key=b"s" * 32))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def create_site(client: TestClient, headers: dict, **fields) -> dict:
    response = client.post("/v1/sites", json=site_body(**fields), headers={**headers, **key()})
    assert response.status_code == 201, response.text
    return response.json()["data"]


def create_assessment(client: TestClient, headers: dict, site_id: str) -> dict:
    response = client.post(f"/v1/sites/{site_id}/assessments", headers={**headers, **key()})
    assert response.status_code == 201, response.text
    return response.json()["data"]


def create_export(client: TestClient, headers: dict, assessment_id: str) -> dict:
    response = client.post(
        f"/v1/assessments/{assessment_id}/exports",
        json={"format": "csv"},
        headers={**headers, **key()},
    )
    assert response.status_code == 201, response.text
    return response.json()["data"]
