"""Territory by HIFLD polygon, the market region of a point, and sites abroad refused.

One store per module, a copy of the run's national store: the Census counties and states,
the EIA-861 county listing and the two HIFLD GeoJSON files, besides the queues and plants. What the service answers is compared with the polygons that hold each
point, found here with shapely straight from the published files.
"""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from published_shapes import features_holding

from bench.bench_surroundings import NATIONAL_SITES as POINTS
from gridservice.app import create_app
from gridservice.settings import Settings
from gridservice.store import db, writer

pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"
TERRITORIES = DATA / "hifld_territories" / "hifld_electric_retail_service_territories.geojson"
MARKETS = DATA / "hifld_territories" / "hifld_independent_system_operators.geojson"
EIA861 = DATA / "eia861" / "Service_Territory_2024.xlsx"
HEADERS = {"Authorization": "Bearer gds_polygon_test"}
ECTOR = (31.85, -102.37)
ABROAD = {"Atlantic": (35.0, -50.0), "London": (51.5074, -0.1278)}


def holding(path: Path, latitude: float, longitude: float) -> dict[str, dict]:
    """Return the properties of every feature of a GeoJSON file holding the point, by id."""
    return {
        properties.get("regionId") or properties["id"]: properties
        for properties in features_holding(path, latitude, longitude)
    }


@pytest.fixture(scope="module")
def client(tmp_path_factory, national_store) -> TestClient:
    """The service over a copy of the run's national store (it holds the EIA-861 listing
    and both HIFLD files over the Census counties, besides the queues and plants)."""
    path = tmp_path_factory.mktemp("hifld") / "s.db"
    shutil.copyfile(national_store, path)
    conn = db.connect(path)
    with conn:
        writer.add_token(conn, HEADERS["Authorization"][7:], "tenant-p", "2026-01-01T00:00:00Z")
    conn.close()
    with TestClient(create_app(Settings(db_path=path)), raise_server_exceptions=False) as c:
        yield c


def resolve(client: TestClient, point: tuple[float, float]) -> dict:
    body = {"location": {"type": "Point", "coordinates": [point[1], point[0]]}}
    response = client.post("/v1/service-territory-resolutions", json=body, headers=HEADERS)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def create_site(client: TestClient, point: tuple[float, float]):
    body = {"requestedPeakLoadMw": 100, "location": {"latitude": point[0], "longitude": point[1]}}
    headers = {**HEADERS, "Idempotency-Key": uuid.uuid4().hex}
    return client.post("/v1/sites", json=body, headers=headers)


@pytest.mark.parametrize("place", sorted(POINTS))
def test_polygon_candidates_are_the_territories_holding_the_point(client, place):
    latitude, longitude = POINTS[place]
    answer = resolve(client, POINTS[place])
    by_polygon = [
        c for c in answer["candidates"] if c["resolutionMethod"] == "retail_territory_polygon"
    ]
    expected = holding(TERRITORIES, latitude, longitude)
    assert expected, f"no HIFLD territory holds {place}"
    assert {c["evidence"]["regionId"] for c in by_polygon} == set(expected)
    for candidate in by_polygon:
        properties = expected[candidate["evidence"]["regionId"]]
        assert candidate["utilityId"] == f"eia:{properties['eiaId']}"
        assert candidate["evidence"]["fileName"] == TERRITORIES.name
        assert len(candidate["evidence"]["assetHash"]) == 64
        assert 0 < candidate["confidence"] < 1
    assert answer["attribution"].startswith("Contains HIFLD Electric Retail Service Territories")


@pytest.mark.parametrize("place", sorted(POINTS))
def test_market_is_the_iso_region_holding_the_point(client, place):
    regions = holding(MARKETS, *POINTS[place])
    market = resolve(client, POINTS[place])["market"]
    assert len(regions) == 1, f"{place} lies in {sorted(regions)}"
    (region,) = regions.values()
    assert market["isIso"] is bool(region["shortName"])
    assert market["name"] == region["name"]
    assert market["label"] == (
        market["code"] if region["shortName"] else f"no ISO: {market['code']}"
    )


def test_ector_county_leans_to_oncor_and_says_where_the_listing_disagrees(client):
    answer = resolve(client, ECTOR)
    by_polygon = [
        c for c in answer["candidates"] if c["resolutionMethod"] == "retail_territory_polygon"
    ]
    assert "ONCOR" in by_polygon[0]["utility"]
    held = {f"eia:{p['eiaId']}" for p in holding(TERRITORIES, *ECTOR).values()}
    listed = [c for c in answer["candidates"] if c["resolutionMethod"] == "eia861_county_listing"]
    assert listed, "EIA-861 lists no utility for Ector County"
    for candidate in listed:
        agreement = candidate.get("methodAgreement")
        if candidate["utilityId"] in held:
            assert agreement["agrees"] is True
        elif agreement is not None:
            assert agreement["agrees"] is False and "Disagreement" in agreement["note"]
    listed_ids = {c["utilityId"] for c in listed}
    for candidate in by_polygon:
        assert candidate["methodAgreement"]["agrees"] is (candidate["utilityId"] in listed_ids)


@pytest.mark.parametrize("place", sorted(ABROAD))
def test_a_point_abroad_is_refused_before_the_site_is_created(client, place):
    before = len(client.get("/v1/sites", headers=HEADERS).json()["data"])
    response = create_site(client, ABROAD[place])
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert "outside the United States" in problem["detail"]
    assert {e["field"] for e in problem["errors"]} == {"location.latitude", "location.longitude"}
    assert len(client.get("/v1/sites", headers=HEADERS).json()["data"]) == before


def test_a_site_carries_the_market_it_is_in(client):
    response = create_site(client, POINTS["Loudoun VA"])
    assert response.status_code == 201, response.text
    site = response.json()["data"]
    (region,) = holding(MARKETS, *POINTS["Loudoun VA"]).values()
    assert site["market"]["code"] == region["shortName"]
    read = client.get(f"/v1/sites/{site['id']}", headers=HEADERS).json()["data"]
    assert read["market"] == site["market"]
    listed = client.get("/v1/sites", headers=HEADERS).json()["data"]
    assert [s["market"] for s in listed if s["id"] == site["id"]] == [site["market"]]


def test_an_assessment_names_the_polygon_utilities_first_and_says_which_method(client):
    point = POINTS["Loudoun VA"]
    site = create_site(client, point).json()["data"]
    headers = {**HEADERS, "Idempotency-Key": uuid.uuid4().hex}
    response = client.post(f"/v1/sites/{site['id']}/assessments", headers=headers)
    assert response.status_code == 201, response.text
    assessment = response.json()["data"]
    held = {f"eia:{p['eiaId']}": p for p in holding(TERRITORIES, *point).values()}
    assert held, "no HIFLD territory holds Loudoun VA"
    candidates = assessment["serviceTerritoryCandidates"]
    methods = [c["resolutionMethod"] for c in candidates]
    polygons = methods.count("retail_territory_polygon")
    assert methods[:polygons] == ["retail_territory_polygon"] * polygons
    assert {c["utilityId"] for c in candidates[:polygons]} == set(held)
    assert "eia861_county_listing" in methods[polygons:]
    findings = assessment["readiness"]["findings"]
    finding = next(f["finding"] for f in findings if f["factor"] == "service_territory")
    assert "polygon" in finding and "county listing" in finding
    for candidate in candidates[:polygons]:
        assert candidate["utility"] in finding
    assert assessment["attribution"] == resolve(client, point)["attribution"]
