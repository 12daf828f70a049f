"""The frames behind the assessment, territory and sites tables."""

from __future__ import annotations

import pandas as pd

from components import assessment_view, glossary, site_names, territory_view
from components.geography import read_counties
from components.sites_view import sites_frame
from components.text import escape_markdown
from gridclient import Assessment, Fact, QualityFlag, QueueRecord, ServiceTerritoryCandidate, Site

CANDIDATE_WIRE = {
    "utilityId": "u1",
    "utility": "Lone Star Metro Electric (demo)",
    "companyType": "investor_owned_utility",
    "ccnNumber": "30901",
    "isoRto": "ERCOT",
    "confidence": 0.425,
    "confidenceBasis": "source_authority_heuristic_not_benchmark_accuracy",
    "resolutionMethod": "county_union_polygon",
    "evidence": {
        "sourceId": "demo-puct-ccn",
        "publisher": "PUCT CCN filings (demo)",  # the service's name for the source
        "matchedCountyFips": "48209",
        "counties": ["Travis, TX", "Hays, TX"],
        "countyFips": ["48453", "48209", 48491],
    },
}


CANDIDATE = ServiceTerritoryCandidate.model_validate(CANDIDATE_WIRE)


def test_candidate_frame_labels_confidence_as_a_heuristic_and_flattens_evidence():
    frame = territory_view.candidates_frame([CANDIDATE])
    assert list(frame.columns)[:6] == [
        "Utility",
        "Utility id",
        "Company type",
        "CCN",
        "ISO/RTO",
        "Resolution method",
    ]
    row = frame.iloc[0]
    assert row["Confidence (source-authority heuristic, not accuracy)"] == 0.425
    assert "Source id: demo-puct-ccn" in row["Evidence"]
    assert "Counties: Travis, TX, Hays, TX" in row["Evidence"]


def test_candidate_provenance_says_how_it_was_found_as_text():
    text = territory_view.candidate_provenance(CANDIDATE)
    assert text.startswith(
        "Lone Star Metro Electric (demo) (investor owned utility, utility id u1)"
    )
    assert "found by county union polygon" in text
    # The source as its publisher names it (the page keeps the id in a tooltip)
    assert "Source: PUCT CCN filings (demo)." in text
    assert "_" not in text.replace("demo-puct-ccn", "")


def test_a_county_listing_is_named_as_its_form_is_mid_sentence():
    # it read "found by eia861 county listing": the sentence lowered the form's name too
    listed = CANDIDATE.model_copy(
        update={"resolution_method": "eia861_county_listing", "company_type": "cooperative"}
    )
    text = territory_view.candidate_provenance(listed)
    assert "(cooperative, utility id u1): found by EIA-861 county listing." in text
    assert glossary.in_sentence("ERCOT GIS report") == "ERCOT GIS report"
    assert glossary.in_sentence("Official operator dataset") == "official operator dataset"
    assert glossary.words("ercot_gis_report") == "ERCOT GIS report"


def test_territory_counties_are_fips_codes_with_the_matched_county_first():
    assert territory_view.territory_county_fips([CANDIDATE]) == ["48209", "48453", "48491"]
    assert territory_view.territory_county_fips([ServiceTerritoryCandidate()]) == []


def test_findings_and_flags_read_as_text():
    readiness = {
        "findings": [
            {
                "factor": "queue_congestion",
                "severity": "high",
                "finding": "Busy.",
                "citations": ["q1", "q2"],
            },
        ]
    }
    assert assessment_view.finding_lines(readiness) == [
        {
            "factor": "Queue congestion",
            "severity": "High severity",
            "colour": "red",
            "finding": "Busy.",
            "cites": "q1, q2",
        }
    ]
    assert assessment_view.finding_lines(None) == []
    uncited = {"findings": [{"factor": "load_scale", "severity": "low", "finding": "Small."}]}
    assert assessment_view.finding_lines(uncited)[0]["cites"] == "no record cited"
    flags = [QualityFlag(code="missing_county", field="county", message="No county.")]
    assert assessment_view.flags_text(flags) == "Missing county (county): No county."


def test_queue_frame_joins_details_and_row_evidence():
    record = {
        "id": "q1",
        "projectName": "Blue Sky Solar",
        "county": "Hays",
        "state": "TX",
        "status": "active",
        "requestedCapacityMw": 150.0,
        "sourceId": "s1",
        "sourceLocator": "file.xlsx#Sheet!12",
        "observedAt": "2025-09-01T00:00:00Z",
        "qualityFlags": [],
        "expandedDetails": {"technology": "solar", "queueDate": "2023-01-05"},
        "expandedEvidence": {
            "sourceName": "GIS report",
            "sourceUrl": "https://example.com/gis.xlsx",
            "locator": {"fileName": "gis.xlsx", "worksheet": "Projects", "row": 12},
            "redistributionPolicy": "public_redistribution",
        },
    }
    row = assessment_view.queue_records_frame([QueueRecord.model_validate(record)]).iloc[0]
    assert (row["Technology"], row["File"], row["Worksheet"], row["Row"]) == (
        "solar",
        "gis.xlsx",
        "Projects",
        12,
    )
    assert row["Source link"] == "https://example.com/gis.xlsx"
    assert row["Locator"] == "file.xlsx#Sheet!12"


def test_market_signal_frame_marks_parser_confidence_uncalibrated():
    fact = {
        "market": "ERCOT",
        "predicate": "summer_peak_demand_forecast",
        "period": "2030",
        "value": 110875.0,
        "unit": "MW",
        "sourceId": "s2",
        "evidence": {
            "quote": "Peak 110,875 MW",
            "page": 14,
            "parserConfidence": 0.93,
            "parserConfidenceIsCalibrated": False,
            "sourceLocator": "r.pdf#p14",
        },
    }
    row = assessment_view.market_signals_frame([Fact.model_validate(fact)]).iloc[0]
    assert row["Parser confidence (uncalibrated)"] == 0.93
    assert not row["Calibrated"]
    assert (row["Evidence quote"], row["Page"]) == ("Peak 110,875 MW", 14)


def test_nearby_counties_come_from_records_in_the_sites_state():
    counties = read_counties()
    assessment = Assessment.model_validate(
        {
            "county": {"fips": "48209", "state": "TX"},
            "relevantQueueRecords": [{"county": "Travis"}, {"county": "Hays"}],
            "relevantTransmissionProjects": [{"counties": ["Caldwell", "Comanche"]}],
        }
    )
    site, nearby = assessment_view.nearby_county_fips(assessment, counties)
    assert site == ["48209"]
    # Comanche exists in Texas and Oklahoma; only the Texas one is near a Texas site.
    assert nearby == ["48055", "48093", "48453"]


def test_sites_frame_has_a_row_per_site_with_its_latest_assessment_and_a_link():
    sites = [
        Site.model_validate(
            {
                "id": "site_1",
                "requestedPeakLoadMw": 10.0,
                "location": {"latitude": 1, "longitude": 2},
                "latestAssessmentSummary": {
                    "assessmentId": "asm_2",
                    "readiness": "high_friction",
                    "createdAt": "2026-11-20T10:00:00Z",
                },
            }
        ),
        Site.model_validate({"id": "site_2", "requestedPeakLoadMw": 5.0}),
    ]
    frame = sites_frame(sites)
    assert frame["Site"].tolist() == ["site_1", "site_2"]
    assessed = frame.iloc[0]
    assert (assessed["Assessment"], assessed["Readiness"]) == ("asm_2", "High friction")
    assert assessed["Open"] == "assessment?assessment=asm_2"
    assert (assessed["Latitude"], assessed["Longitude"]) == (1, 2)
    unassessed = frame.iloc[1]
    assert pd.isna(unassessed["Assessment"]) and pd.isna(unassessed["Open"])


def test_the_site_column_fits_short_names_and_names_the_cut_ones_in_its_tooltip():
    short = ["Abilene campus", "Odessa yard"]
    column = site_names.site_column(short)
    # as wide as the longest name needs: the other key columns keep the room
    assert column["width"] < site_names.SITE_PX_MAX
    assert column["help"] == site_names.SITE_HELP

    long_name = "Demo: Hays County campus (screened on the June 2025 queue)"
    column = site_names.site_column([*short, long_name])
    assert column["width"] == site_names.SITE_PX_MAX
    # the grid cuts it: its header's tooltip gives it whole, and only the names cut
    assert escape_markdown(long_name) in column["help"]
    assert not any(escape_markdown(name) in column["help"] for name in short)
