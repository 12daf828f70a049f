"""Screening on real harvested data, through the real service and client, and the app on it.

One store per module holds only what these checks need: Census counties, the EIA-861
service territory workbook, the ERCOT CDR (May 2025) and the ERCOT GIS report (November
2025). The assertions are what a reader of the assessment would notice: the cited queue
records are rows of the published workbook, the market signals are CDR megawatts, the
territory candidates are EIA-861 utilities listed by county, and the assessment says that
county listings are not polygons.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harvest_support import counties_store
from published_sheets import workbook_sheets

from gridclient import GridDataClient
from gridservice.harvest import run_harvest
from gridservice.runtime.server import start_in_thread
from gridservice.settings import Settings
from gridservice.store import writer
from gridservice.store.db import connect

REPO_ROOT = Path(__file__).resolve().parents[3]
DATA = REPO_ROOT / ".." / "shared" / "data"
FILES = {
    "eia861": DATA / "eia861" / "Service_Territory_2024.xlsx",
    "ercot-cdr": DATA / "ercot_cdr" / "CapacityDemandandReservesReport_May2025.xlsx",
    "ercot-gis": DATA / "ercot_gis_queue" / "GIS_Report_November2025.xlsx",
}
TOKEN = "gds_real_data_test_token"
TRAVIS = (30.2672, -97.7431)  # Austin
OKLAHOMA_CITY = (35.4676, -97.5164)


@pytest.fixture(scope="module")
def store(tmp_path_factory, census_counties_store) -> Path:
    missing = [str(p) for p in FILES.values() if not p.is_file()]
    if missing:
        pytest.skip(f"shared public data files are absent: {', '.join(missing)}")
    path = tmp_path_factory.mktemp("real") / "harvest.db"
    conn = counties_store(census_counties_store, path)
    for source, file in FILES.items():
        run_harvest(conn, source, file)
    with conn:
        writer.add_token(conn, TOKEN, "tenant-real", "2026-01-01T00:00:00Z")
    conn.close()
    return path


@pytest.fixture(scope="module")
def client(store):
    server = start_in_thread(Settings(db_path=store))
    with GridDataClient(base_url=server.base_url, token=TOKEN) as grid_client:
        yield grid_client
    server.stop()


def assess(client: GridDataClient, point: tuple[float, float]) -> dict:
    latitude, longitude = point
    site = client.sites.create(
        {
            "requestedPeakLoadMw": 200,
            "serviceVoltageKv": 138,
            "targetInServiceDate": "2029-06-01",
            "location": {"latitude": latitude, "longitude": longitude},
        }
    )
    return client.assessments.create(site.id).model_dump(mode="json", by_alias=True)


@pytest.fixture(scope="module")
def travis(client) -> dict:
    return assess(client, TRAVIS)


def by_factor(assessment: dict, kind: str) -> dict[str, dict]:
    return {item["factor"]: item for item in assessment["readiness"][kind]}


# --- queue records ---------------------------------------------------------------------------


def test_cited_queue_records_are_rows_of_the_published_gis_workbook(travis):
    records = travis["relevantQueueRecords"]
    in_travis = [r for r in records if r["county"] == "Travis"]
    assert in_travis, "Travis County has active requests in the November 2025 GIS report"
    finding = by_factor(travis, "findings")["queue_congestion"]
    assert set(finding["citations"]) == {r["id"] for r in in_travis}
    # Each cited sheet is read once (a row read on its own reads the sheet up to it).
    cited = {r["expandedEvidence"]["locator"]["worksheet"] for r in records}
    sheets = workbook_sheets(FILES["ercot-gis"], lambda name: name in cited)
    for record in records:
        locator = record["expandedEvidence"]["locator"]
        assert record["sourceId"] == "ercot_gis_report"
        assert locator["type"] == "spreadsheet_row"
        assert locator["fileName"] == "GIS_Report_November2025.xlsx"
        row = sheets[locator["worksheet"]][locator["row"] - 1]
        cells = {str(value).strip() for value in row if value is not None}
        assert record["recordKey"] in cells, (record["id"], locator)
        assert record["projectName"] in cells, (record["id"], locator)


def test_queue_totals_add_up_the_cited_records(travis):
    cited = set(by_factor(travis, "findings")["queue_congestion"]["citations"])
    total = sum(
        r["requestedCapacityMw"]
        for r in travis["relevantQueueRecords"]
        if r["id"] in cited and (r["requestedCapacityMw"] or 0) > 0
    )
    finding = by_factor(travis, "findings")["queue_congestion"]["finding"]
    assert f"totalling {total:,.0f} MW in Travis County, TX" in finding


# --- market signals --------------------------------------------------------------------------


def test_market_signals_are_cdr_megawatt_facts_and_back_the_adequacy_finding(travis):
    signals = travis["marketSignals"]
    assert signals
    assert {s["sourceId"] for s in signals} == {"ercot_cdr"}
    assert {s["unit"] for s in signals} == {"MW"}
    assert {s["market"] for s in signals} == {"ERCOT"}
    assert all(
        "CapacityDemandandReservesReport_May2025.xlsx" in s["evidence"]["sourceLocator"]
        for s in signals
    )
    finding = by_factor(travis, "findings")["market_adequacy"]
    assert set(finding["citations"]) <= {s["id"] for s in signals}
    # Growth compares one season with itself (the summer peak), never winter with summer.
    assert "(2026-summer) to" in finding["finding"] and "(2030-summer)" in finding["finding"]


# --- service territory -----------------------------------------------------------------------


def test_territory_candidates_are_eia861_county_listings_named_as_such(travis):
    candidates = travis["serviceTerritoryCandidates"]
    assert "Austin Energy" in {c["utility"] for c in candidates}
    assert {c["resolutionMethod"] for c in candidates} == {"eia861_county_listing"}
    for candidate in candidates:
        assert candidate["evidence"]["sourceId"] == "eia861_service_territory"
        assert candidate["evidence"]["geometry"] == "county_union_not_polygon"
        assert candidate["evidence"]["matchedCounty"] == "Travis, TX"
    assert travis["county"]["fips"] == "48453"
    finding = by_factor(travis, "findings")["service_territory"]
    assert "dual certification" not in finding["finding"]
    assert "county listings, not territory polygons" in finding["finding"]
    limitations = " ".join(travis["readiness"]["limitations"])
    assert "county listings" in limitations and "not territory polygons" in limitations


def test_territory_resolution_endpoint_agrees_with_the_assessment(client, travis):
    resolution = client.service_territories.resolve(latitude=TRAVIS[0], longitude=TRAVIS[1])
    resolved = resolution.model_dump(mode="json", by_alias=True)
    assert {c["utility"] for c in resolved["candidates"]} == {
        c["utility"] for c in travis["serviceTerritoryCandidates"]
    }


# --- another state: where the data cannot support a finding ---------------------------------


def test_a_point_outside_texas_abstains_where_the_loaded_data_stops(client):
    assessment = assess(client, OKLAHOMA_CITY)
    assert assessment["county"]["state"] == "OK"
    assert "Oklahoma Gas & Electric Co" in {
        c["utility"] for c in assessment["serviceTerritoryCandidates"]
    }
    abstentions = by_factor(assessment, "abstentions")
    assert "covers TX only" in abstentions["queue_congestion"]["reason"]
    assert "market_adequacy" in abstentions
    assert assessment["relevantQueueRecords"] == [] and assessment["marketSignals"] == []


def test_exports_and_review_packet_work_on_a_real_assessment(client, travis):
    export = client.exports.create(travis["id"])
    assert "Austin Energy" in export.content
    packet = client.assessments.expert_review(travis["id"])
    body = json.loads(packet.raw_bytes)
    assert "tenant-real" not in json.dumps(body)
    assert body["data"]["serviceAssessment"]["county"]["fips"] == "48453"


# --- the app, embedded, on the harvested store -----------------------------------------------


def test_the_embedded_app_runs_on_a_harvested_store_with_its_own_local_token(store, monkeypatch):
    from streamlit.testing.v1 import AppTest

    monkeypatch.delenv("GRID_API_BASE_URL", raising=False)
    monkeypatch.delenv("GRID_API_TOKEN", raising=False)
    monkeypatch.setenv("GRIDSERVICE_DB", str(store))
    monkeypatch.chdir(REPO_ROOT)
    app = AppTest.from_file(str(REPO_ROOT / "screener.py"), default_timeout=120)
    app.run()
    assert not app.exception
    assert [e.value for e in app.error] == []
    assert "Tenant: local" in [c.value for c in app.sidebar.caption]
    for page in ("queue", "market_facts", "service_territory", "data_quality"):
        app.switch_page(f"app_pages/{page}.py").run()
        assert not app.exception, page
        assert [e.value for e in app.error] == [], page
    conn = connect(store, readonly=True)
    tenants = {row[0] for row in conn.execute("SELECT tenant_id FROM tokens")}
    conn.close()
    assert "local" in tenants and not {"demo-alpha", "demo-beta"} & tenants


ABILENE, ODESSA = (32.4487, -99.7331), (31.8457, -102.3676)


def test_abilene_and_odessa_read_apart_on_their_local_factors(client):
    """Both once read the same level, decided by ERCOT's reserve margin, which every ERCOT
    site shares: the local factors now weigh more and the scores differ."""
    abilene, odessa = (assess(client, point)["readiness"] for point in (ABILENE, ODESSA))
    market = [
        next(f for f in r["findings"] if f["factor"] == "market_adequacy")
        for r in (abilene, odessa)
    ]
    # one market finding, from the same facts, saying it is the market's
    assert market[0]["citations"] == market[1]["citations"]
    assert market[0]["severity"] == market[1]["severity"]
    assert all("same for every site in ERCOT" in m["finding"] for m in market)
    assert abilene["frictionScore"] != odessa["frictionScore"]
    for readiness in (abilene, odessa):
        weights = {w["factor"]: w["weight"] for w in readiness["weights"]}
        market_weight = weights.pop("market_adequacy")
        assert all(market_weight < weight for weight in weights.values())
