"""Screening on a small store: territory resolution, assessments, abstentions, determinism."""

from __future__ import annotations

import json

import pytest
from screening_support import (
    POINTS,
    TENANT_ID,
    build_world,
    fact,
    queue_entry,
    site,
)

from gridservice.screening import resolve_service_territory, screen_site
from gridservice.store import writer

ASSESSMENT_FIELDS = {
    "id",
    "siteId",
    "tenantId",
    "createdAt",
    "disclaimer",
    "county",
    "jurisdictions",
    "utilityCandidates",
    "tariffCandidates",
    "serviceTerritoryCandidates",
    "marketSignals",
    "relevantQueueRecords",
    "queueHistory",
    "relevantTransmissionProjects",
    "risks",
    "nextActions",
    "readiness",
    "confidence",
    "keyFigures",
    # Extensions: the point's market region, the territory polygons' attribution and the
    # datasets loaded for other markets only.
    "market",
    "attribution",
    "datasetAbstentions",
}
FACTORS = {
    "service_territory",
    "queue_congestion",
    "transmission",
    "market_adequacy",
    "load_scale",
    "timeline",
}


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = build_world(tmp_path_factory.mktemp("screening") / "world.db")
    yield connection
    connection.close()


def screen(conn, point: str, **fields) -> dict:
    return screen_site(
        conn,
        site(point, **fields),
        assessment_id="asm_0001",
        tenant_id=TENANT_ID,
        created_at="2025-07-02T10:00:00Z",
    )


def by_factor(assessment: dict, kind: str) -> dict[str, dict]:
    return {item["factor"]: item for item in assessment["readiness"][kind]}


# --- territory resolution ---------------------------------------------------------------


def test_dual_certified_point_gets_both_utilities_with_split_confidence(conn):
    latitude, longitude = POINTS["dual"]
    result = resolve_service_territory(conn, latitude, longitude)
    assert result["location"]["type"] == "Point"
    assert result["location"]["coordinates"] == [longitude, latitude]
    assert result["location"]["county"]["fips"] == "48001"
    candidates = {c["utilityId"]: c for c in result["candidates"]}
    assert set(candidates) == {"U100", "U200"}
    # Source-authority confidence (0.9, 0.8) divided by the two overlapping candidates.
    assert candidates["U100"]["confidence"] == pytest.approx(0.45)
    assert candidates["U200"]["confidence"] == pytest.approx(0.40)
    for candidate in candidates.values():
        assert candidate["confidenceBasis"] == "source_authority_heuristic_not_benchmark_accuracy"
        assert candidate["resolutionMethod"] == "regulator_polygon"
        assert candidate["evidence"]["overlappingCandidates"] == 2
        assert set(candidate) >= {
            "utilityId",
            "utility",
            "companyType",
            "ccnNumber",
            "isoRto",
            "evidence",
        }


def test_single_territory_point_keeps_its_source_confidence(conn):
    result = resolve_service_territory(conn, *POINTS["single"])
    assert [c["utilityId"] for c in result["candidates"]] == ["U100"]
    assert result["candidates"][0]["confidence"] == pytest.approx(0.9)
    assert result["candidates"][0]["evidence"]["territoryId"] == "t-grid"


def test_unserved_county_and_outside_point_give_no_candidates(conn):
    unserved = resolve_service_territory(conn, *POINTS["unserved"])
    assert unserved["location"]["county"]["name"] == "Delta"
    assert unserved["candidates"] == []
    outside = resolve_service_territory(conn, *POINTS["outside"])
    assert outside["location"]["county"] is None
    assert outside["candidates"] == []


# --- the assessment ---------------------------------------------------------------------


def test_assessment_has_every_field_and_the_documented_shapes(conn):
    assessment = screen(conn, "dual")
    assert set(assessment) == ASSESSMENT_FIELDS
    assert assessment["id"] == "asm_0001"
    assert assessment["siteId"] == "site_7f3a9c2e1b"
    assert assessment["tenantId"] == TENANT_ID
    assert assessment["county"] == {
        "fips": "48001",
        "name": "Alpha",
        "state": "TX",
        "stateFips": "48",
        "method": "census_point_in_polygon",
        "source": assessment["county"]["source"],
    }
    levels = {j["level"] for j in assessment["jurisdictions"]}
    assert levels == {"state", "county", "iso_rto", "regulator"}
    assert "not a load-flow" in assessment["disclaimer"] and "heuristic" in assessment["disclaimer"]
    confidence = assessment["confidence"]
    assert confidence["isHeuristic"] is True
    assert confidence["basis"] == "heuristic_not_accuracy"
    assert 0 <= confidence["score"] <= 1 and confidence["label"] and confidence["note"]
    readiness = assessment["readiness"]
    assert readiness["level"] in {
        "low_friction",
        "moderate_friction",
        "high_friction",
        "insufficient_data",
    }
    factors = {f["factor"] for f in readiness["findings"]} | {
        a["factor"] for a in readiness["abstentions"]
    }
    assert factors == FACTORS
    for finding in readiness["findings"]:
        assert finding["severity"] in {"low", "medium", "high"}
        assert finding["finding"]
    assert readiness["limitations"]
    for utility in assessment["utilityCandidates"]:
        assert set(utility) == {
            "utilityId",
            "utility",
            "companyType",
            "confidence",
            "confidenceBasis",
            "basis",
        }
    for tariff in assessment["tariffCandidates"]:
        assert set(tariff) == {"utilityId", "tariffId", "name", "applicability", "basis"}
        assert "candidate" in tariff["name"] and "confirm" in tariff["name"]
    json.dumps(assessment)  # storable as JSON


def test_same_site_and_data_give_the_same_assessment(conn):
    first = screen_site(
        conn,
        site("dual"),
        assessment_id="asm_a",
        tenant_id=TENANT_ID,
        created_at="2025-07-02T10:00:00Z",
    )
    second = screen_site(
        conn,
        site("dual"),
        assessment_id="asm_b",
        tenant_id=TENANT_ID,
        created_at="2031-01-01T00:00:00Z",
    )
    for volatile in ("id", "createdAt"):
        first.pop(volatile)
        second.pop(volatile)
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


def test_every_citation_points_at_a_record_in_the_assessment(conn):
    assessment = screen(conn, "dual")
    known = (
        {q["id"] for q in assessment["relevantQueueRecords"]}
        | {p["id"] for p in assessment["relevantTransmissionProjects"]}
        | {f["id"] for f in assessment["marketSignals"]}
        | {c["evidence"]["territoryId"] for c in assessment["serviceTerritoryCandidates"]}
    )
    cited = {c for f in assessment["readiness"]["findings"] for c in f["citations"]}
    assert cited and cited <= known


def test_queue_congestion_counts_active_county_records_and_cites_them(conn):
    assessment = screen(conn, "dual")
    finding = by_factor(assessment, "findings")["queue_congestion"]
    # Active in Alpha: 900 + 1200 + 400 MW ('Alpha', 'ALPHA', 'Alpha County'); the withdrawn
    # 300 MW record is not active and the 0 MW record is left out of the total.
    assert "4 active queue requests totalling 2,500 MW in Alpha County, TX" in finding["finding"]
    assert "1 active record with no positive requested capacity" in finding["finding"]
    assert finding["severity"] == "medium"
    assert finding["citations"] == ["q-a1", "q-a2", "q-a3", "q-a5"]
    assert any("2,500 MW" in risk for risk in assessment["risks"])


def test_relevant_queue_records_are_county_first_with_details_and_evidence(conn):
    records = screen(conn, "dual")["relevantQueueRecords"]
    ids = [r["id"] for r in records]
    # Active county records, then the county's inactive one, then neighbours, then the state.
    assert ids[:5] == ["q-a1", "q-a2", "q-a3", "q-a5", "q-a4"]
    assert ids[5:7] == ["q-b1", "q-c1"]
    assert "q-x1" in ids and "q-e1" not in ids  # same state included; other state not a neighbour
    assert len(ids) == len(set(ids))
    for record in records:
        assert record["expandedDetails"]["recordId"] == record["id"]
        assert record["expandedEvidence"]["recordId"] == record["id"]
        assert record["expandedEvidence"]["locator"]["type"] == "spreadsheet_row"


def test_relevant_queue_records_are_bounded(tmp_path):
    conn = build_world(tmp_path / "busy.db")
    for n in range(40):
        writer.insert_queue_record(conn, *queue_entry(f"q-busy-{n:02d}", "Bravo", 100.0))
    conn.commit()
    assessment = screen(conn, "single")
    ids = [r["id"] for r in assessment["relevantQueueRecords"]]
    assert len(ids) == 25
    assert ids == sorted(ids) and all(i.startswith("q-b") for i in ids)
    finding = by_factor(assessment, "findings")["queue_congestion"]
    assert "41 active queue requests totalling 4,150 MW" in finding["finding"]
    assert len(finding["citations"]) == 25
    conn.close()


def test_market_signals_are_current_full_fact_records(conn):
    assessment = screen(conn, "dual")
    signals = assessment["marketSignals"]
    assert [f["id"] for f in signals] == ["lf-2026", "lf-2027", "ra-2026", "ra-2027"]
    assert all(f["knownTo"] is None and "_kind" not in f for f in signals)
    assert {"factKey", "value", "unit", "validFrom", "knownFrom", "qualityFlags"} <= set(signals[0])
    finding = by_factor(assessment, "findings")["market_adequacy"]
    # 2027: 88,000 MW firm capacity against an 85,000 MW peak is a 3.5% margin.
    assert "3.5%" in finding["finding"] and finding["severity"] == "medium"
    assert "lf-2027-old" not in finding["citations"]


def test_a_store_without_any_transmission_project_says_the_list_is_not_loaded(tmp_path):
    # The store harvested from the public files holds no project list: "none in Alpha County"
    # would read as a county without planned lines.
    conn = build_world(tmp_path / "noprojects.db")
    with conn:
        conn.execute("DELETE FROM transmission_project_counties")
        conn.execute("DELETE FROM transmission_projects")
    assessment = screen(conn, "dual")
    reason = by_factor(assessment, "abstentions")["transmission"]["reason"]
    assert reason.startswith("No transmission project list (such as ERCOT's TPIT or RPG lists)")
    assert "is loaded in this store" in reason
    assert "transmission" in assessment["readiness"]["summary"]  # named among the abstentions
    conn.close()


def test_market_without_facts_abstains(tmp_path):
    conn = build_world(tmp_path / "nofacts.db", with_facts=False)
    assessment = screen(conn, "dual")
    abstentions = by_factor(assessment, "abstentions")
    assert "ERCOT" in abstentions["market_adequacy"]["reason"]
    assert assessment["marketSignals"] == []
    conn.close()


def test_unserved_county_abstains_on_territory_queue_and_transmission(conn):
    assessment = screen(conn, "unserved")
    abstentions = by_factor(assessment, "abstentions")
    assert set(abstentions) == {"service_territory", "queue_congestion", "transmission"}
    assert "Delta County, TX" in abstentions["service_territory"]["reason"]
    assert "No interconnection queue records" in abstentions["queue_congestion"]["reason"]
    # the store holds projects, none in this county: said of the county, not of the store
    assert abstentions["transmission"]["reason"].startswith(
        "No transmission projects in the data list Delta County, TX"
    )
    assert assessment["utilityCandidates"] == [] and assessment["tariffCandidates"] == []
    assert any(
        "Delta County" in risk and "No loaded utility territory" in risk
        for risk in assessment["risks"]
    )
    assert assessment["nextActions"][0].startswith("Identify the utility serving Delta County")
    # The market still comes from the state's queue data.
    assert {"level": "iso_rto", "id": "ERCOT", "name": "ERCOT"} in assessment["jurisdictions"]


def test_point_outside_every_county_is_insufficient_data(conn):
    assessment = screen(conn, "outside")
    assert assessment["county"] is None
    assert assessment["jurisdictions"] == []
    assert assessment["readiness"]["level"] == "insufficient_data"
    abstentions = by_factor(assessment, "abstentions")
    assert set(abstentions) == {
        "service_territory",
        "queue_congestion",
        "transmission",
        "market_adequacy",
    }
    assert (
        assessment["relevantQueueRecords"] == []
        and assessment["relevantTransmissionProjects"] == []
    )
    assert assessment["confidence"]["label"] == "low"
    assert "outside every loaded county" in assessment["risks"][0]


def test_large_load_at_distribution_voltage_is_a_red_flag(conn):
    finding = by_factor(screen(conn, "single", serviceVoltageKv=34.5), "findings")["load_scale"]
    assert finding["severity"] == "high" and "red flag" in finding["finding"]
    assert "500 MW at 34.5 kV" in finding["finding"]


@pytest.mark.parametrize(
    ("peak", "voltage", "severity"),
    [
        (5.0, 12.47, "low"),
        (40.0, 69.0, "low"),
        (100.0, 138.0, "medium"),
        (40.0, 12.47, "medium"),
        (500.0, 345.0, "high"),
    ],
)
def test_load_scale_follows_size_and_voltage_class(conn, peak, voltage, severity):
    assessment = screen(
        conn, "single", requestedPeakLoadMw=peak, averageLoadMw=None, serviceVoltageKv=voltage
    )
    assert by_factor(assessment, "findings")["load_scale"]["severity"] == severity


def test_timeline_against_typical_study_times(conn):
    soon = by_factor(screen(conn, "single"), "findings")["timeline"]
    assert soon["severity"] == "high"
    assert "12 months" in soon["finding"] and "36 months" in soon["finding"]
    late = by_factor(screen(conn, "single", targetInServiceDate="2030-01-01"), "findings")[
        "timeline"
    ]
    assert late["severity"] == "low"
    past = by_factor(screen(conn, "single", targetInServiceDate="2024-01-01"), "findings")[
        "timeline"
    ]
    assert past["severity"] == "high" and "before" in past["finding"]
    missing = by_factor(screen(conn, "single", targetInServiceDate=None), "abstentions")
    assert "timeline" in missing


def test_transmission_projects_listing_the_county(conn):
    assessment = screen(conn, "dual")
    assert [p["id"] for p in assessment["relevantTransmissionProjects"]] == ["tp-1", "tp-3"]
    finding = by_factor(assessment, "findings")["transmission"]
    # tp-3 is cancelled: listed, but not counted or cited.
    assert finding["citations"] == ["tp-1"]
    assert finding["severity"] == "medium" and "after the site's target date" in finding["finding"]
    later = by_factor(screen(conn, "dual", targetInServiceDate="2031-01-01"), "findings")[
        "transmission"
    ]
    assert later["severity"] == "low"
    assert "transmission" in by_factor(screen(conn, "spp"), "abstentions")


def test_no_text_claims_capacity_is_available(conn):
    for point in POINTS:
        assessment = screen(conn, point)
        texts = [
            *assessment["risks"],
            *assessment["nextActions"],
            assessment["readiness"]["summary"],
        ]
        texts += [f["finding"] for f in assessment["readiness"]["findings"]]
        for text in texts:
            lowered = text.lower()
            assert "capacity is available" not in lowered and "has capacity" not in lowered
        assert assessment["nextActions"][-1].endswith("this screening does not assess capacity.")


def test_market_adequacy_compares_the_margin_with_the_reserve_requirement(tmp_path):
    conn = build_world(tmp_path / "requirement.db")
    writer.insert_facts(
        conn,
        "resource_adequacy",
        [
            fact("rr-2026", "ERCOT", "planning_reserve_requirement", "2026", 15_000.0),
            fact("rr-2027", "ERCOT", "planning_reserve_requirement", "2027", 2_000.0),
        ],
    )
    conn.commit()
    finding = by_factor(screen(conn, "dual"), "findings")["market_adequacy"]
    # 2026: 92,000 - 80,000 = 12,000 MW margin, short of the 15,000 MW requirement.
    assert "tightest year is 2026" in finding["finding"]
    assert "12,000 MW margin" in finding["finding"] and "15,000 MW" in finding["finding"]
    assert finding["severity"] == "medium"
    assert {"rr-2026", "ra-2026", "lf-2026"} <= set(finding["citations"])
    writer.insert_facts(
        conn, "resource_adequacy", [fact("ra-2026", "ERCOT", "firm_capacity", "2026", 79_000.0)]
    )
    conn.commit()
    short = by_factor(screen(conn, "dual"), "findings")["market_adequacy"]
    assert short["severity"] == "high" and "-1,000 MW margin" in short["finding"]
    conn.close()


def test_county_lookup_follows_a_change_of_the_loaded_counties(tmp_path):
    conn = build_world(tmp_path / "grow.db")
    assert resolve_service_territory(conn, 25.5, -89.5)["location"]["county"] is None
    square = {
        "type": "Polygon",
        "coordinates": [[[-90, 25], [-89, 25], [-89, 26], [-90, 26], [-90, 25]]],
    }
    writer.insert_counties(
        conn,
        [
            {
                "county_fips": "48999",
                "state_fips": "48",
                "state": "TX",
                "name": "Offshore",
                "min_lon": -90.0,
                "min_lat": 25.0,
                "max_lon": -89.0,
                "max_lat": 26.0,
                "geojson": json.dumps(square),
            }
        ],
    )
    conn.commit()
    assert resolve_service_territory(conn, 25.5, -89.5)["location"]["county"]["name"] == "Offshore"
    conn.close()


def test_market_finding_names_only_the_market_its_figures_come_from():
    from gridservice.screening.market import market_adequacy
    from gridservice.screening.outcomes import Context

    def fact(fact_id: str, kind: str, predicate: str, period: str, value: float) -> dict:
        return {"_kind": kind, "id": fact_id, "market": "ERCOT", "predicate": predicate,
                "scenario": "base", "period": period, "value": value, "unit": "MW",
                "validFrom": f"{period}-06-01"}  # fmt: skip

    facts = [
        fact("lf-2026", "load_forecast", "firm_peak_load_mw", "2026", 80_000.0),
        fact("lf-2027", "load_forecast", "firm_peak_load_mw", "2027", 85_000.0),
        fact("ra-2026", "resource_adequacy", "total_capacity_mw", "2026", 95_000.0),
    ]
    ctx = Context(site={}, county=None, candidates=[], markets=["ERCOT", "SPP"], facts=facts,
                  county_queue=[], nearby_queue=[], relevant_queue=[], projects=[],
                  as_of="2025-12-01")  # fmt: skip
    outcome = market_adequacy(ctx)
    assert outcome.finding.startswith("ERCOT firm_peak_load_mw")
    assert "ERCOT/SPP" not in outcome.finding
    assert "also lists SPP, whose figures are not in this finding" in outcome.finding
