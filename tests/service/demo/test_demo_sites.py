"""The demo's seeded sites, read through the service as an analyst's own sites are."""

from __future__ import annotations

import uuid

import pytest

from gridservice.demo.portfolio import SEEDED_SITE_ID, SEEDED_TENANT

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}


@pytest.fixture(scope="module")
def seeded_site(demo_with_db) -> dict:
    client, _ = demo_with_db
    listed = client.get("/v1/sites", headers=ALPHA).json()["data"]
    return next(site for site in listed if site["id"] == SEEDED_SITE_ID)


@pytest.fixture(scope="module")
def market_there(demo_with_db, seeded_site) -> dict:
    """The market the service gives a site it creates at the seeded site's point."""
    client, _ = demo_with_db
    created = client.post(
        "/v1/sites",
        json={"requestedPeakLoadMw": 10.0, "location": seeded_site["location"]},
        headers={**ALPHA, "Idempotency-Key": f"seeded-market-{uuid.uuid4()}"},
    )
    assert created.status_code == 201, created.text
    market = created.json()["data"]["market"]
    assert market is not None, "the demo store names no market at the seeded site's point"
    return market


def test_the_seeded_site_names_the_market_a_site_created_there_gets(seeded_site, market_there):
    # the sites table's Market column reads this field: the seeded site's showed empty
    assert seeded_site["tenantId"] == SEEDED_TENANT
    assert seeded_site.get("market") == market_there


def test_the_seeded_assessment_names_the_same_market(demo_with_db, market_there):
    client, _ = demo_with_db
    assessments = client.get(f"/v1/sites/{SEEDED_SITE_ID}/assessments", headers=ALPHA).json()
    assert assessments["data"], "the seeded site has no assessment"
    assert [a.get("market") for a in assessments["data"]] == [market_there]
