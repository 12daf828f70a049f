"""Sites, assessments, packets and exports: creation, idempotency, bounds, tenant isolation."""

from __future__ import annotations

import threading
import uuid

import pytest
import service_calls
import service_records as rec
from service_calls import key
from service_support import ALPHA, BETA

from gridservice.routers import sites as sites_router

SITE = {
    "requestedPeakLoadMw": 150.0,
    "location": {"latitude": rec.ALPHA_POINT[0], "longitude": rec.ALPHA_POINT[1]},
}


def create_site(client, headers=ALPHA, body=None) -> dict:
    return service_calls.create_site(client, headers, body or SITE)


def count_sites(client, headers=ALPHA) -> int:
    return len(client.get("/v1/sites", params={"limit": 500}, headers=headers).json()["data"])


def test_a_created_site_has_every_field_and_reads_back(client):
    full = {
        **SITE,
        "averageLoadMw": 100,
        "curtailableMw": 0,
        "serviceVoltageKv": 345,
        "targetInServiceDate": "2029-06-01",
        "loadProfile": "flat",
        "redundancy": "n_plus_1",
        "rampProfile": [{"month": 1, "mw": 50}],
        "onSiteGeneration": [],
        "energyStorage": {"mw": 10},
        "address": {"addressLine1": "1 Main St", "countryCode": "US"},
        "customerReference": "CR-1",
        "metadata": {"project": "alpha"},
    }
    site = create_site(client, body=full)
    assert site["id"].startswith("site_") and site["tenantId"] == "tenant-alpha"
    # `degradedFields` is present only on a site stored before the bounds that breaks them.
    assert set(site) == set(sites_router.Site.model_fields) - {"degradedFields"}
    assert site["address"]["addressLine2"] is None and site["address"]["countryCode"] == "US"
    read = client.get(f"/v1/sites/{site['id']}", headers=ALPHA)
    assert read.status_code == 200 and read.json()["data"] == site


def test_same_key_same_body_replays_the_stored_response(client):
    headers = {**ALPHA, **key()}
    first = client.post("/v1/sites", json=SITE, headers=headers)
    before = count_sites(client)
    again = client.post("/v1/sites", json=SITE, headers=headers)
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert again.json() == first.json()
    assert count_sites(client) == before


def test_same_key_other_body_is_422_and_stores_nothing(client):
    headers = {**ALPHA, **key()}
    client.post("/v1/sites", json=SITE, headers=headers)
    before = count_sites(client)
    other = client.post("/v1/sites", json={**SITE, "requestedPeakLoadMw": 151}, headers=headers)
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"
    assert count_sites(client) == before


def test_keys_are_scoped_per_tenant(client):
    shared = key()
    a = client.post("/v1/sites", json=SITE, headers={**ALPHA, **shared})
    b = client.post("/v1/sites", json=SITE, headers={**BETA, **shared})
    assert a.status_code == b.status_code == 201
    assert a.json()["data"]["id"] != b.json()["data"]["id"]
    assert "Idempotent-Replayed" not in b.headers


def test_a_concurrent_duplicate_gets_409(client, monkeypatch):
    started, release = threading.Event(), threading.Event()
    real_record = sites_router.site_record

    def slow_record(*args, **kwargs):
        started.set()
        release.wait(10)
        return real_record(*args, **kwargs)

    monkeypatch.setattr(sites_router, "site_record", slow_record)
    headers = {**ALPHA, **key()}
    results = {}
    first = threading.Thread(
        target=lambda: results.setdefault(
            "first", client.post("/v1/sites", json=SITE, headers=headers)
        )
    )
    first.start()
    assert started.wait(10)
    second = client.post("/v1/sites", json=SITE, headers=headers)
    release.set()
    first.join(10)
    assert second.status_code == 409
    assert second.json()["code"] == "idempotency_key_in_flight"
    assert results["first"].status_code == 201
    third = client.post("/v1/sites", json=SITE, headers=headers)
    assert third.headers.get("Idempotent-Replayed") == "true"


def test_a_failed_creation_stores_nothing_and_frees_the_key(client, monkeypatch):
    headers = {**ALPHA, **key()}
    before = count_sites(client)

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(sites_router, "site_record", broken)
    failed = client.post("/v1/sites", json=SITE, headers=headers)
    assert failed.status_code == 500
    assert "disk on fire" not in failed.text and "Traceback" not in failed.text
    monkeypatch.undo()
    assert count_sites(client) == before
    retried = client.post("/v1/sites", json=SITE, headers=headers)
    assert retried.status_code == 201 and "Idempotent-Replayed" not in retried.headers


@pytest.mark.parametrize(
    ("headers", "code"),
    [
        ({}, "missing_idempotency_key"),
        ({"Idempotency-Key": "1234567"}, "invalid_idempotency_key"),
        ({"Idempotency-Key": "k" * 256}, "invalid_idempotency_key"),
    ],
)
def test_idempotency_key_bounds(client, headers, code):
    before = count_sites(client)
    response = client.post("/v1/sites", json=SITE, headers={**ALPHA, **headers})
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert count_sites(client) == before


@pytest.mark.parametrize("length", [8, 255])
def test_idempotency_key_at_its_edges(client, length):
    response = client.post(
        "/v1/sites",
        json=SITE,
        headers={**ALPHA, "Idempotency-Key": uuid.uuid4().hex[:8] + "k" * (length - 8)},
    )
    assert response.status_code == 201


BAD_SITES = [
    {"location": SITE["location"]},
    {**SITE, "requestedPeakLoadMw": 0},
    {**SITE, "requestedPeakLoadMw": 5000.01},
    {**SITE, "requestedPeakLoadMw": "100"},
    {**SITE, "location": {"latitude": 90.5, "longitude": 0}},
    {**SITE, "location": {"latitude": 0, "longitude": -180.5}},
    {**SITE, "averageLoadMw": 150.5},
    {**SITE, "averageLoadMw": -1},
    {**SITE, "curtailableMw": 151},
    {**SITE, "serviceVoltageKv": 0},
    {**SITE, "serviceVoltageKv": 1000.5},
    {**SITE, "targetInServiceDate": "1999-12-31"},
    {**SITE, "targetInServiceDate": "2101-01-01"},
    {**SITE, "targetInServiceDate": "2030-02-30"},
    {**SITE, "loadProfile": "spiky"},
    {**SITE, "redundancy": "3n"},
    {**SITE, "rampProfile": [{}] * 101},
    {**SITE, "onSiteGeneration": [{}] * 51},
    {**SITE, "energyStorage": [1]},
    {**SITE, "address": {"countryCode": "us"}},
    {**SITE, "address": {"locality": "x" * 201}},
    {**SITE, "address": {"street": "x"}},
    {**SITE, "customerReference": "x" * 201},
    {**SITE, "metadata": {f"k{i}": "v" for i in range(51)}},
    {**SITE, "metadata": {"k" * 65: "v"}},
    {**SITE, "metadata": {"k": "v" * 501}},
    {**SITE, "metadata": {"k": 1}},
    {**SITE, "id": "site_mine"},
    {**SITE, "tenantId": "tenant-beta"},
    {**SITE, "createdAt": "2025-01-01T00:00:00Z"},
    {**SITE, "colour": "blue"},
]


@pytest.mark.parametrize("body", BAD_SITES)
def test_invalid_site_definitions_are_422(client, body):
    before = count_sites(client)
    response = client.post("/v1/sites", json=body, headers={**ALPHA, **key()})
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == "validation_failed" and problem["errors"]
    assert count_sites(client) == before


GOOD_EDGES = [
    {**SITE, "requestedPeakLoadMw": 5000, "averageLoadMw": 5000, "curtailableMw": 0},
    {**SITE, "requestedPeakLoadMw": 0.001},
    {**SITE, "location": {"latitude": -90, "longitude": 180}},
    {**SITE, "serviceVoltageKv": 1000, "targetInServiceDate": "2000-01-01"},
    {
        **SITE,
        "targetInServiceDate": "2100-12-31",
        "rampProfile": [{}] * 100,
        "onSiteGeneration": [{}] * 50,
    },
    {
        **SITE,
        "metadata": {f"{i:064d}": "v" * 500 for i in range(50)},
        "customerReference": "x" * 200,
    },
]


@pytest.mark.parametrize("body", GOOD_EDGES)
def test_site_bounds_at_their_edges_are_accepted(client, body):
    create_site(client, body=body)


def test_malformed_json_and_non_json_bodies(client):
    malformed = client.post(
        "/v1/sites",
        content=b'{"requestedPeakLoadMw": ',
        headers={**ALPHA, **key(), "Content-Type": "application/json"},
    )
    assert malformed.status_code == 400 and malformed.json()["code"] == "malformed_json"
    text = client.post(
        "/v1/sites", content=b"peak=5", headers={**ALPHA, **key(), "Content-Type": "text/plain"}
    )
    assert text.status_code == 415 and text.json()["code"] == "unsupported_media_type"


def test_tenant_isolation_of_sites_assessments_packets_and_exports(client):
    site = create_site(client)
    assessment = client.post(
        f"/v1/sites/{site['id']}/assessments", headers={**ALPHA, **key()}
    ).json()["data"]
    export = client.post(
        f"/v1/assessments/{assessment['id']}/exports",
        json={"format": "csv"},
        headers={**ALPHA, **key()},
    ).json()["data"]
    paths = [
        f"/v1/sites/{site['id']}",
        f"/v1/sites/{site['id']}/assessments",
        f"/v1/assessments/{assessment['id']}",
        f"/v1/assessments/{assessment['id']}/expert-review.json",
        f"/v1/assessments/exports/{export['id']}",
    ]
    for path in paths:
        assert client.get(path, headers=ALPHA).status_code == 200, path
        foreign = client.get(path, headers=BETA)
        assert foreign.status_code == 404, path
        assert "tenant-alpha" not in foreign.text and foreign.json()["code"].endswith("_not_found")
    posts = [
        (f"/v1/sites/{site['id']}/assessments", None),
        (f"/v1/assessments/{assessment['id']}/exports", {"format": "csv"}),
    ]
    for path, body in posts:
        assert client.post(path, json=body, headers={**BETA, **key()}).status_code == 404
    beta_sites = client.get("/v1/sites", params={"limit": 500}, headers=BETA).json()["data"]
    assert site["id"] not in {s["id"] for s in beta_sites}
    assert all(s["tenantId"] == "tenant-beta" for s in beta_sites)


def test_assessment_lifecycle(client):
    site = create_site(client)
    created = client.post(f"/v1/sites/{site['id']}/assessments", headers={**ALPHA, **key()})
    assert created.status_code == 201
    assessment = created.json()["data"]
    assert assessment["id"].startswith("asm_") and assessment["siteId"] == site["id"]
    assert assessment["county"]["fips"] == "48001"
    assert assessment["serviceTerritoryCandidates"][0]["utility"] == "Test Grid Co (demo)"
    assert (
        client.get(f"/v1/assessments/{assessment['id']}", headers=ALPHA).json()["data"]
        == assessment
    )
    listed = client.get(f"/v1/sites/{site['id']}/assessments", headers=ALPHA).json()
    assert [a["id"] for a in listed["data"]] == [assessment["id"]]

    packet = client.get(
        f"/v1/assessments/{assessment['id']}/expert-review.json", headers=ALPHA
    ).json()
    assert packet["data"]["reviewStatus"] == "unreviewed" and isinstance(packet["meta"], dict)
    for secret in (assessment["id"], "tenant-alpha"):
        assert secret not in str(packet)

    export = client.post(
        f"/v1/assessments/{assessment['id']}/exports",
        json={"format": "csv"},
        headers={**ALPHA, **key()},
    )
    assert export.status_code == 201
    record = export.json()["data"]
    assert record["id"].startswith("exp_") and record["contentType"] == "text/csv; charset=utf-8"
    assert record["format"] == "csv" and record["content"].startswith("section,")
    assert (
        client.get(f"/v1/assessments/exports/{record['id']}", headers=ALPHA).json()["data"]
        == record
    )
    bad = client.post(
        f"/v1/assessments/{assessment['id']}/exports",
        json={"format": "xlsx"},
        headers={**ALPHA, **key()},
    )
    assert bad.status_code == 422


def test_unknown_ids_are_404_problems(client):
    for path in [
        "/v1/sites/site_x",
        "/v1/assessments/asm_x",
        "/v1/assessments/asm_x/expert-review.json",
        "/v1/assessments/exports/exp_x",
        "/v1/sites/site_x/assessments",
    ]:
        response = client.get(path, headers=ALPHA)
        assert (
            response.status_code == 404
            and response.headers["content-type"] == "application/problem+json"
        )
    assert (
        client.post("/v1/sites/site_x/assessments", headers={**ALPHA, **key()}).status_code == 404
    )


@pytest.mark.parametrize(
    ("coordinates", "hint"),
    [
        ([30.5, -97.5], "swapped"),
        ([-97.5, 91], "out of range"),
        ([200, 10], "out of range"),
        ([1], None),
        (["a", 1], None),
    ],
)
def test_invalid_coordinates_are_422(client, coordinates, hint):
    response = client.post(
        "/v1/service-territory-resolutions",
        json={"location": {"type": "Point", "coordinates": coordinates}},
        headers=ALPHA,
    )
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_coordinates"
    if hint:
        assert hint in response.json()["detail"]


def test_territory_resolution(client):
    served = client.post(
        "/v1/service-territory-resolutions",
        json={
            "location": {"type": "Point", "coordinates": [rec.ALPHA_POINT[1], rec.ALPHA_POINT[0]]}
        },
        headers=ALPHA,
    ).json()
    unserved = client.post(
        "/v1/service-territory-resolutions",
        json={
            "location": {"type": "Point", "coordinates": [rec.BRAVO_POINT[1], rec.BRAVO_POINT[0]]}
        },
        headers=ALPHA,
    ).json()
    assert [c["utilityId"] for c in served["data"]["candidates"]] == ["util-test"]
    assert served["data"]["candidates"][0]["resolutionMethod"] == "regulator_polygon"
    assert unserved["data"]["candidates"] == []
    assert isinstance(served["meta"], dict)
    other = client.post(
        "/v1/service-territory-resolutions",
        json={"location": {"type": "Polygon", "coordinates": [0, 0]}},
        headers=ALPHA,
    )
    assert other.status_code == 422


def test_site_list_pages_by_id(client):
    for _ in range(3):
        create_site(client, headers=BETA)
    first = client.get("/v1/sites", params={"limit": 1}, headers=BETA).json()
    second = client.get(
        "/v1/sites", params={"limit": 1, "cursor": first["meta"]["nextCursor"]}, headers=BETA
    ).json()
    assert first["data"][0]["id"] < second["data"][0]["id"]
    # a cursor issued to one tenant does not page another tenant's sites
    foreign = client.get("/v1/sites", params={"cursor": first["meta"]["nextCursor"]}, headers=ALPHA)
    assert foreign.status_code == 400


def test_sites_list_with_each_sites_latest_assessment(client):
    unassessed, assessed = create_site(client, headers=BETA), create_site(client, headers=BETA)
    made = [
        client.post(f"/v1/sites/{assessed['id']}/assessments", headers={**BETA, **key()}).json()[
            "data"
        ]["id"]
        for _ in range(2)
    ]
    listed = client.get(
        "/v1/sites", params={"include": "latest_assessment", "limit": 500}, headers=BETA
    ).json()["data"]
    by_id = {site["id"]: site for site in listed}
    assert by_id[assessed["id"]]["latestAssessment"]["id"] == made[-1]
    assert by_id[unassessed["id"]]["latestAssessment"] is None
    listed_members = ("latestAssessment", "newerDataSinceAssessment")
    assert {k: v for k, v in by_id[assessed["id"]].items() if k not in listed_members} == assessed
    assert by_id[assessed["id"]]["newerDataSinceAssessment"]["changed"] is False
    assert by_id[unassessed["id"]]["newerDataSinceAssessment"] is None
    plain = client.get("/v1/sites", params={"limit": 500}, headers=BETA).json()["data"]
    assert all("latestAssessment" not in site for site in plain)
    # another tenant's assessments never appear, and the parameter is an extension
    alpha = client.get("/v1/sites", params={"include": "latest_assessment"}, headers=ALPHA)
    assert assessed["id"] not in {site["id"] for site in alpha.json()["data"]}
    parameter = next(
        p
        for p in client.get("/v1/openapi.json").json()["paths"]["/v1/sites"]["get"]["parameters"]
        if p["name"] == "include"
    )
    assert parameter["schema"]["x-extension"] is True
