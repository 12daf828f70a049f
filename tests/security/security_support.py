"""Helpers shared by the security tests (a uniquely named module: several test folders have a
conftest.py, so tests never import `conftest` by name)."""

from __future__ import annotations

import shutil
import socket
import uuid
from pathlib import Path

from fastapi.testclient import TestClient

from gridservice.demo import DEMO_POINTS

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


def copy_store(template: Path, directory: Path) -> Path:
    """Copy the demo store into `directory` (as store.db) and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / "store.db"
    shutil.copyfile(template, target)
    return target


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


def free_port() -> int:
    """Return a loopback port free now, for a server a test starts and restarts on it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
