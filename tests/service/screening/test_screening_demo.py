"""Screening against the demo store (scale 1) at its named points."""

from __future__ import annotations

import csv
import io
import json

import pytest
from demo_store import demo_store_copy

from gridservice.demo import DEMO_POINTS
from gridservice.screening import (
    assessment_csv,
    build_expert_review_packet,
    resolve_service_territory,
    screen_site,
)
from gridservice.store.db import connect

SITE = {
    "id": "site_demo_0042",
    "tenantId": "demo-alpha",
    "customerReference": "ALPHA-PIPELINE-0042",
    "metadata": {"crm": "opp-778812"},
    "address": {"addressLine1": "1200 Riverside Ridge Road", "postalCode": "78666"},
    "requestedPeakLoadMw": 300.0,
    "serviceVoltageKv": 138.0,
    "targetInServiceDate": "2028-01-01",
}


def build(path):
    return connect(demo_store_copy(path))


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = build(tmp_path_factory.mktemp("demo") / "demo.db")
    yield connection
    connection.close()


def screen(conn, point: str, assessment_id: str = "asm_demo_1") -> dict:
    latitude, longitude = DEMO_POINTS[point]
    site = {**SITE, "location": {"latitude": latitude, "longitude": longitude}}
    return screen_site(
        conn,
        site,
        assessment_id=assessment_id,
        tenant_id="demo-alpha",
        created_at="2025-11-01T00:00:00Z",
    )


def abstained(assessment: dict) -> set[str]:
    return {a["factor"] for a in assessment["readiness"]["abstentions"]}


def test_named_points_resolve_as_their_names_say(conn):
    dual = resolve_service_territory(conn, *DEMO_POINTS["dual_certified"])["candidates"]
    assert len(dual) >= 2
    for candidate in dual:
        source = candidate["evidence"]["sourceAuthorityConfidence"]
        assert candidate["confidence"] == pytest.approx(source / len(dual), abs=1e-3)
    single = resolve_service_territory(conn, *DEMO_POINTS["single_territory"])["candidates"]
    assert len(single) == 1
    unserved = resolve_service_territory(conn, *DEMO_POINTS["unserved"])
    assert unserved["location"]["county"] is not None and unserved["candidates"] == []
    outside = resolve_service_territory(conn, *DEMO_POINTS["outside_coverage"])
    assert outside["location"]["county"] is None and outside["candidates"] == []


def test_demo_assessments_find_data_and_cite_it(conn):
    for point in ("dual_certified", "single_territory"):
        assessment = screen(conn, point)
        assert abstained(assessment) == set(), point
        assert assessment["relevantQueueRecords"] and assessment["marketSignals"]
        known = (
            {q["id"] for q in assessment["relevantQueueRecords"]}
            | {p["id"] for p in assessment["relevantTransmissionProjects"]}
            | {f["id"] for f in assessment["marketSignals"]}
            | {c["evidence"]["territoryId"] for c in assessment["serviceTerritoryCandidates"]}
        )
        for finding in assessment["readiness"]["findings"]:
            assert set(finding["citations"]) <= known, finding
        assert any("demo data" in text for text in assessment["readiness"]["limitations"])
        assert all(
            q["expandedDetails"] and q["expandedEvidence"]
            for q in assessment["relevantQueueRecords"]
        )
        assert all(f["knownTo"] is None for f in assessment["marketSignals"])


def test_demo_unserved_and_outside_points_abstain(conn):
    unserved = screen(conn, "unserved")
    assert "service_territory" in abstained(unserved)
    assert unserved["readiness"]["level"] != "insufficient_data"
    outside = screen(conn, "outside_coverage")
    assert outside["county"] is None
    assert outside["readiness"]["level"] == "insufficient_data"
    assert {"service_territory", "queue_congestion", "transmission"} <= abstained(outside)


def test_demo_assessment_exports_and_blinds(conn):
    assessment = screen(conn, "dual_certified")
    rows = list(csv.reader(io.StringIO(assessment_csv(assessment), newline="")))
    assert rows[0] == ["section", "item", "field", "value"]
    assert len([r for r in rows if r[0] == "queue_record"]) >= len(
        assessment["relevantQueueRecords"]
    )
    site = {**SITE, "location": {"latitude": 29.8833, "longitude": -97.9414}}
    packet = build_expert_review_packet(
        assessment, site, secret=b"k", submitted_at="2025-11-02T00:00:00Z"
    )
    text = json.dumps(packet)
    for value in (
        "site_demo_0042",
        "demo-alpha",
        "asm_demo_1",
        "ALPHA-PIPELINE-0042",
        "opp-778812",
        "Riverside",
    ):
        assert value not in text


def test_same_seed_same_site_same_assessment(conn, tmp_path):
    other = build(tmp_path / "again.db")
    first = screen(conn, "dual_certified", "asm_x")
    second = screen(other, "dual_certified", "asm_y")
    other.close()
    first.pop("id")
    second.pop("id")
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def test_a_site_in_the_demo_polygons_is_screened_without_naming_hifld(conn):
    """The demo's territory polygons are fictional: the assessment built on them names no
    HIFLD polygon, in its findings, its utilities or its limitations."""
    assessment = screen(conn, "polygon_overlap", "asm_polygons")
    methods = {c["resolutionMethod"] for c in assessment["serviceTerritoryCandidates"]}
    assert "retail_territory_polygon" in methods
    assert "HIFLD" not in json.dumps(assessment)
