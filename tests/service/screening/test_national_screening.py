"""A 300 MW site screened through the HTTP API in each of the issue's eight counties, on a
store harvested from the real files (`national_store`): its market from HIFLD's ISO
boundaries, its territory candidates by polygon, the queue records around it and the
datasets it lacks, each said.

What each answer should hold is read here from the published GeoJSON (with shapely) and from
the store's own queue records, not from the service's code.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from published_shapes import features_holding

from bench.bench_surroundings import NATIONAL_SITES as POINTS
from gridservice.app import create_app
from gridservice.settings import Settings
from gridservice.store import db, writer

pytestmark = pytest.mark.slow  # harvests the national store (about a minute)

DATA = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"
HIFLD = DATA / "hifld_territories"
HEADERS = {"Authorization": "Bearer gds_national_screening"}
PARTIAL = {"reserve_margins", "queue_history", "balancing_authority_operations"}


def holding(name: str, point: tuple[float, float]) -> list[dict]:
    """Return the properties of every feature of a HIFLD file holding the point (each file
    read and its shapes made once per module, not once per county)."""
    return features_holding(HIFLD / name, *point)


@pytest.fixture(scope="module")
def client(national_store, tmp_path_factory):
    path = tmp_path_factory.mktemp("screening") / "national.db"
    shutil.copyfile(national_store, path)
    conn = db.connect(path)
    with conn:
        writer.add_token(conn, HEADERS["Authorization"][7:], "tenant-n", "2026-01-01T00:00:00Z")
    conn.close()
    settings = Settings(db_path=path, rate_limit_burst=10**6)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def screened(client) -> dict[str, tuple[dict, dict]]:
    """Each county's (assessment, surroundings) of a 300 MW site, through the API."""
    answers = {}
    for name, (latitude, longitude) in POINTS.items():
        site = {"requestedPeakLoadMw": 300.0, "customerReference": name,
                "location": {"latitude": latitude, "longitude": longitude}}  # fmt: skip
        key = {"Idempotency-Key": f"national-{name}"}
        made = client.post("/v1/sites", json=site, headers={**HEADERS, **key})
        assert made.status_code == 201, made.text
        site_id = made.json()["data"]["id"]
        key = {"Idempotency-Key": f"national-assess-{name}"}
        assessed = client.post(f"/v1/sites/{site_id}/assessments", headers={**HEADERS, **key})
        assert assessed.status_code == 201, assessed.text
        near = client.get(f"/v1/sites/{site_id}/surroundings", headers=HEADERS)
        assert near.status_code == 200, near.text
        answers[name] = assessed.json()["data"], near.json()["data"]
    return answers


@pytest.mark.parametrize("name", POINTS)
def test_each_county_has_its_market_from_the_iso_boundaries(screened, name):
    assessment, near = screened[name]
    regions = holding("hifld_independent_system_operators.geojson", POINTS[name])
    isos = {r["shortName"] for r in regions if r.get("shortName")}
    market = assessment["market"]
    if isos:
        assert market["isIso"] and market["code"] in isos
    else:
        assert not market["isIso"] and market["label"].startswith("no ISO: ")
    assert near["marketRegion"]["code"] == market["code"]
    # the boundary decides the markets the site is screened in, not its utilities' RTO
    # memberships (WAPA's named CAISO, MISO and SPP at Phoenix)
    screened_in = [j["id"] for j in assessment["jurisdictions"] if j["level"] == "iso_rto"]
    assert screened_in == ([market["code"]] if market["isIso"] else [])


@pytest.mark.parametrize("name", POINTS)
def test_each_county_has_its_territory_candidates_by_polygon(screened, name):
    assessment, _ = screened[name]
    features = holding("hifld_electric_retail_service_territories.geojson", POINTS[name])
    expected = {f"eia:{f['eiaId']}" for f in features if f.get("eiaId")}
    by_polygon = {
        c["utilityId"]
        for c in assessment["serviceTerritoryCandidates"]
        if c["resolutionMethod"] == "retail_territory_polygon"
    }
    assert expected and by_polygon == expected
    assert "ODbL" in (assessment["attribution"] or "")
    # the polygons' limitation names the county listing beside them; the county-listing-only
    # one ("not territory polygons") would contradict it
    limitations = assessment["readiness"]["limitations"]
    assert any("HIFLD retail service territory polygons" in text for text in limitations)
    assert not any("not territory polygons" in text for text in limitations)


@pytest.mark.parametrize("name", POINTS)
def test_each_county_has_the_queue_around_it_or_says_why_not(screened, name):
    assessment, near = screened[name]
    market = assessment["market"]
    site_county = next(c for c in near["counties"] if c["isSiteCounty"])
    queue = site_county["queue"]
    if market["isIso"]:
        # a county may hold a neighbouring ISO's requests too (ISO-NE lists some in New York)
        assert market["code"] in queue["markets"] and queue["basis"] == "queue_records"
        around = sum(c["queue"]["activeProjects"] or 0 for c in near["counties"])
        assert around > 0
        assert any(r["market"] == market["code"] for r in assessment["relevantQueueRecords"])
    elif queue["activeProjects"] is None:  # no ISO, and no loaded queue names the county
        assert queue["unavailable"]
    else:  # no ISO, but a neighbouring ISO's queue lists requests there (CAISO in Arizona)
        assert queue["markets"] and queue["basis"] == "queue_records"


@pytest.mark.parametrize("name", POINTS)
def test_each_county_names_the_datasets_it_lacks(screened, name):
    assessment, near = screened[name]
    lacking = {a["dataset"]: a for a in assessment["datasetAbstentions"]}
    assert set(lacking) == PARTIAL
    # missing for the markets the assessment screens the site in (its ISO/RTO jurisdictions)
    markets = sorted(j["id"] for j in assessment["jurisdictions"] if j["level"] == "iso_rto")
    assert all(a["missingForMarkets"] == markets for a in lacking.values())
    assert all(a["statement"] for a in lacking.values())
    assert {"reserve_margins", "balancing_authority_operations"} <= {
        a["dataset"] for a in near["abstentions"]
    }
    assert near["queueNow"]["activeProjects"] is None  # no monthly report: no total, no zero


def test_a_worcester_site_has_one_market_code_by_boundary_territory_and_queue(screened):
    """EIA-861 spells ISO New England "ISONE" where HIFLD and ISO-NE's queue say "ISO-NE":
    the market of the point, of its county-listed territories and of its queue agree."""
    assessment, near = screened["Worcester MA"]
    regions = holding("hifld_independent_system_operators.geojson", POINTS["Worcester MA"])
    [code] = [r["shortName"] for r in regions if r.get("shortName")]
    assert assessment["market"]["code"] == near["marketRegion"]["code"] == code
    listed = [
        c["isoRto"]
        for c in assessment["serviceTerritoryCandidates"]
        if c["resolutionMethod"] == "eia861_county_listing" and c["isoRto"]
    ]
    assert listed and all(code in markets.split("/") for markets in listed)
    assert [j["id"] for j in assessment["jurisdictions"] if j["level"] == "iso_rto"] == [code]
    site_county = next(c for c in near["counties"] if c["isSiteCounty"])
    assert site_county["queue"]["markets"] == [code]
    assert {r["market"] for r in assessment["relevantQueueRecords"]} == {code}
