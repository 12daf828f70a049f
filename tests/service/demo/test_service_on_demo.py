"""The service over the demo database (scale 1): every collection traverses, sites screen."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from demo_store import demo_store_copy
from fastapi.testclient import TestClient

from gridservice.app import create_app
from gridservice.demo import DEMO_POINTS
from gridservice.settings import Settings

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}
BETA = {"Authorization": "Bearer gds_demo_beta"}
COLLECTIONS = [
    ("/v1/generators", {}),
    ("/v1/generation-plants", {}),
    ("/v1/generator-operations", {"state": "TX"}),
    ("/v1/balancing-authority-operations", {}),
    ("/v1/transmission-projects", {}),
    ("/v1/queue-records", {}),
    ("/v1/load-forecasts", {}),
    ("/v1/resource-adequacy", {}),
    ("/v1/evidence-search", {"q": "queue"}),
]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    db_path = demo_store_copy(tmp_path_factory.mktemp("demo") / "demo.db")
    app = create_app(Settings(db_path=db_path, demo=True, rate_limit_burst=10**6))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def traverse(client, path, params, limit):
    ids, cursor = [], None
    while True:
        query = {**params, "limit": limit, **({"cursor": cursor} if cursor else {})}
        body = client.get(path, params=query, headers=ALPHA).json()
        ids += [r.get("id") or r.get("chunkId") for r in body["data"]]
        if not body["meta"]["hasMore"]:
            return ids
        cursor = body["meta"]["nextCursor"]


@pytest.mark.parametrize(("path", "params"), COLLECTIONS)
def test_demo_collections_traverse_completely(demo, path, params):
    big = 100 if "evidence" in path else 500
    whole = traverse(demo, path, params, big)
    small = traverse(demo, path, params, 37)
    assert whole and small == whole and len(set(small)) == len(small)
    if "evidence" not in path:
        assert whole == sorted(whole)


def test_demo_release_says_demo(demo):
    assert "demo" in demo.get("/v1/release").json()["data"]["releaseId"]


def test_a_demo_release_is_valid_while_it_is_served(demo):
    # Fictional data has no shelf life: a sales demo must never show its release expired.
    release = demo.get("/v1/release").json()["data"]
    valid_until = datetime.fromisoformat(release["validUntil"].replace("Z", "+00:00"))
    assert valid_until > datetime.now(UTC)


def test_demo_docket_filings_and_queue_details(demo):
    queue = demo.get("/v1/queue-records", params={"limit": 1}, headers=ALPHA).json()["data"][0]
    details = demo.get(f"/v1/queue-records/{queue['id']}/details", headers=ALPHA)
    evidence = demo.get(f"/v1/queue-records/{queue['id']}/evidence", headers=ALPHA)
    assert details.status_code == evidence.status_code == 200
    chunks = demo.get("/v1/evidence-search", params={"q": "docket"}, headers=ALPHA).json()["data"]
    assert chunks


@pytest.mark.parametrize("point", sorted(DEMO_POINTS))
def test_demo_points_screen_into_assessments(demo, point):
    latitude, longitude = DEMO_POINTS[point]
    site = demo.post(
        "/v1/sites",
        json={
            "requestedPeakLoadMw": 300,
            "location": {"latitude": latitude, "longitude": longitude},
        },
        headers={**ALPHA, "Idempotency-Key": uuid.uuid4().hex},
    ).json()["data"]
    created = demo.post(
        f"/v1/sites/{site['id']}/assessments",
        headers={**ALPHA, "Idempotency-Key": uuid.uuid4().hex},
    )
    assert created.status_code == 201, created.text
    assessment = created.json()["data"]
    resolution = demo.post(
        "/v1/service-territory-resolutions",
        json={"location": {"type": "Point", "coordinates": [longitude, latitude]}},
        headers=ALPHA,
    ).json()["data"]
    candidates = {c["utilityId"] for c in resolution["candidates"]}
    assert {c["utilityId"] for c in assessment["serviceTerritoryCandidates"]} == candidates
    if point == "dual_certified":
        assert len(candidates) >= 2
    if point in {"unserved", "outside_coverage"}:
        assert candidates == set()
    packet = demo.get(f"/v1/assessments/{assessment['id']}/expert-review.json", headers=ALPHA)
    assert packet.status_code == 200 and assessment["id"] not in packet.text
    assert demo.get(f"/v1/assessments/{assessment['id']}", headers=BETA).status_code == 404
