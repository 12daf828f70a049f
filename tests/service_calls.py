"""The service calls many tests make through a `TestClient`: a site created, an assessment
made, each with a fresh Idempotency-Key and a check that it was accepted."""

from __future__ import annotations

import uuid

from fastapi.testclient import TestClient

from gridservice.demo import DEMO_POINTS


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
    return {"Idempotency-Key": "test-" + uuid.uuid4().hex}


def create_site(client: TestClient, headers: dict, body: dict | None = None, **fields) -> dict:
    """Create a site (`body`, else the demo's dual-certified point with `fields`); return it."""
    response = client.post(
        "/v1/sites",
        json=body if body is not None else site_body(**fields),
        headers={**headers, **key()},
    )
    assert response.status_code == 201, response.text
    return response.json()["data"]


def create_assessment(
    client: TestClient, headers: dict, site_id: str, idempotency_key: str | None = None
) -> dict:
    """Screen a site into a new assessment (with the given Idempotency-Key, if any); return it."""
    sent = {"Idempotency-Key": idempotency_key} if idempotency_key else key()
    response = client.post(f"/v1/sites/{site_id}/assessments", headers={**headers, **sent})
    assert response.status_code == 201, response.text
    return response.json()["data"]


def without_nul(value):
    """Return a JSON value with NUL taken out of every string, keys included: the service
    refuses NUL in any text (SECURITY.md section 5), which JSON Schema cannot say of every key
    at every depth, so property-based tests take it out of requests meant to be valid."""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, dict):
        return {without_nul(k): without_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_nul(v) for v in value]
    return value
