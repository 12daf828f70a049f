"""The summary band's numbers: the service's key figures and counts of what the assessment lists."""

from __future__ import annotations

from components import assessment_summary as summary
from components import glossary
from gridclient import Assessment, QueueRecord


def test_seasons_sort_in_time_order_not_as_text():
    periods = ["2027-spring", "2026-2027-winter", "2026-fall", "2026-summer", "2026"]
    assert sorted(periods, key=glossary.season_key) == [
        "2026",
        "2026-summer",
        "2026-fall",
        "2026-2027-winter",
        "2027-spring",
    ]
    assert glossary.season_text("2026-2027-winter") == "winter 2026–2027"


def test_the_margin_figure_is_the_services_in_mw_and_share_of_peak_named_by_its_facts():
    figures = {
        "tightestReserveMargin": {
            "market": "ERCOT", "period": "2026-2027-winter", "marginMw": 2801.0,
            "shareOfPeak": 0.0253, "peakPredicate": "firm_peak_load_mw",
            "supplyPredicate": "total_capacity_mw",
        }
    }  # fmt: skip
    shown = summary.headlines(Assessment.model_validate({"keyFigures": figures}))[2]
    assert (shown.label, shown.value) == (
        "Reserve margin, tightest season",
        "2,801 MW",
    )
    # the share of peak leads the line under it; total capacity is not called firm capacity
    assert shown.detail.startswith(
        "2.5% of peak. ERCOT winter 2026–2027: Total capacity less firm peak load"
    )
    missing = summary.headlines(Assessment.model_validate({"keyFigures": {}}))[2]
    assert missing.value == "Not in the data"


def test_active_queue_mw_and_its_firm_share():
    records = [
        QueueRecord.model_validate(
            {"id": "a", "status": "active", "requestedCapacityMw": 100.0,
             "expandedDetails": {"interconnectionAgreementDate": "2024-01-01"}}
        ),
        QueueRecord(id="b", status="active", requested_capacity_mw=300.0),
        QueueRecord(id="c", status="withdrawn", requested_capacity_mw=900.0),
    ]  # fmt: skip
    active, total, firm = summary.active_queue(records)
    assert [r.id for r in active] == ["a", "b"]
    assert (total, firm) == (400.0, 100.0)


def test_the_nearest_plant_is_the_one_the_service_found():
    plant = {"plantName": "Decker Creek", "distanceKm": 12.46, "capacityMw": 958.0}
    shown = summary.headlines(Assessment.model_validate({"keyFigures": {"nearestPlant": plant}}))
    assert (shown[-1].value, shown[-1].detail) == ("12 km", "Decker Creek, 958 MW")
    assert summary.headlines(Assessment.model_validate({}))[-1].value == "None in the data"


def test_the_timeline_shows_the_first_projects_by_date_and_one_colour_per_status():
    import json

    import pandas as pd

    from components import transmission_view

    timeline = pd.DataFrame(
        {
            "label": [f"P{i}" for i in range(30)],
            "date": pd.date_range("2026-01-01", periods=30, freq="90D")[::-1],
            "which": "projected in service",
            "status": ["Planned", "Cancelled", "Engineering"] * 10,
            "kV": 138.0,
        }
    )
    first = transmission_view.timeline_rows(timeline)
    assert first["label"].nunique() == transmission_view.TIMELINE_ROWS
    assert set(first["label"]) == {f"P{i}" for i in range(5, 30)}  # the earliest dates
    assert len(transmission_view.timeline_rows(timeline, None)) == 30
    spec = json.loads(transmission_view.timeline_chart(first).to_json())
    colour = spec["layer"][1]["encoding"]["color"]["scale"]
    assert colour["domain"] == ["Planned", "Engineering", "Cancelled"]
    assert len(set(colour["range"])) == 3
    # dates read by month and year, a tick every six months (a yearly tick left one to read by)
    axis = spec["layer"][1]["encoding"]["x"]["axis"]
    assert (axis["format"], axis["tickCount"]) == ("%b %Y", {"interval": "month", "step": 6})


def test_the_queue_figure_is_the_countys_whole_queue_when_the_assessment_has_it():
    from gridclient import Assessment

    records = [
        QueueRecord(id=f"q{n}", status="active", requested_capacity_mw=100.0) for n in range(3)
    ]
    history = {
        "countyFips": "48209",
        "report": {"reportMonth": "2025-09"},
        "activeProjects": 40,
        "activeMw": 4_250.0,
        "byFirmness": [{"firmness": "ia_signed", "mw": 850.0}, {"firmness": "none", "mw": 3400}],
        "firmMw": 850.0,
    }
    whole = summary.county_queue(Assessment(relevant_queue_records=records, queue_history=history))
    assert (whole.label, whole.value, whole.section) == (
        "Active queue in the site's county",
        "4,250 MW",
        "surroundings",
    )
    assert whole.detail.startswith("40 active projects in the 2025-09 queue report; 850 MW (20%)")
    # without queue history (no harvested reports), the band counts the records it lists
    listed = summary.headlines(Assessment(relevant_queue_records=records))[1]
    assert (listed.label, listed.value) == ("Active queue near the site", "300 MW")
    assert listed.detail.startswith("3 active of the 3 relevant requests listed")


NO_LIST = (
    "No transmission project list (such as ERCOT's TPIT or RPG lists) is loaded in this "
    "store: planned lines and upgrades near the site are unknown."
)


def test_no_project_listed_shows_the_services_reason_not_a_bare_zero():
    # On the store harvested from the public files no project list is loaded: "0, 0
    # cancelled" read as a county without planned lines.
    abstained = Assessment.model_validate(
        {
            "relevantTransmissionProjects": [],
            "readiness": {"abstentions": [{"factor": "transmission", "reason": NO_LIST}]},
        }
    )
    shown = summary.transmission_headline(abstained)
    assert (shown.value, shown.detail) == ("None listed", NO_LIST)
    listed = Assessment.model_validate(
        {
            "relevantTransmissionProjects": [
                {"id": "tp-1", "status": "Planned"},
                {"id": "tp-2", "status": "Cancelled"},
            ],
            "readiness": {"abstentions": []},
        }
    )
    shown = summary.transmission_headline(listed)
    assert (shown.value, shown.detail) == ("2", "1 cancelled")


def test_a_market_without_reserve_margins_or_firmness_is_said_not_shown_as_zero():
    missing = [
        {"dataset": "reserve_margins", "coversMarkets": ["ERCOT"], "missingForMarkets": ["PJM"]},
        {"dataset": "queue_history", "coversMarkets": ["ERCOT"], "missingForMarkets": ["PJM"]},
    ]
    record = {"id": "p", "status": "active", "requestedCapacityMw": 300.0}
    assessment = Assessment.model_validate(
        {"datasetAbstentions": missing, "relevantQueueRecords": [record]}
    )
    shown = summary.headlines(assessment)
    assert (shown[2].value, shown[2].detail) == ("Not loaded", "Loaded for ERCOT only, not for PJM")
    assert "0 MW" not in shown[1].detail and "firmness not stated" in shown[1].detail


def test_the_margin_says_its_source_date_and_when_it_is_dated():
    margin = {"market": "ERCOT", "period": "2026", "marginMw": 10.0, "shareOfPeak": 0.1,
              "asOf": "2023-05-15", "dated": True}  # fmt: skip
    shown = summary.headlines(
        Assessment.model_validate({"keyFigures": {"tightestReserveMargin": margin}})
    )
    assert shown[2].detail.endswith("; as of 2023-05-15, over a year older than the newest data")


def test_a_utility_found_by_two_methods_is_one_candidate_utility():
    """A utility whose polygon holds the site and whose county listing names the county is
    one utility, both methods named; another utility of the listing is a second."""

    def candidate(utility_id, name, method):
        return {"utilityId": utility_id, "utility": name, "resolutionMethod": method}

    shown = summary.territory_headline(
        [
            candidate("eia:19876", "VIRGINIA ELECTRIC & POWER CO", "retail_territory_polygon"),
            candidate("eia:19876", "Virginia Electric & Power Co", "eia861_county_listing"),
            candidate("eia:13640", "Northern Virginia Elec Coop", "eia861_county_listing"),
        ]
    )
    assert shown.value == "2"
    assert shown.detail == (
        "VIRGINIA ELECTRIC & POWER CO (retail territory polygon and EIA-861 county listing); "
        "Northern Virginia Elec Coop (EIA-861 county listing)"
    )
    assert summary.territory_headline([]).detail == "No service territory found for the site"


def test_a_site_outside_every_iso_names_its_region_not_its_utilities_markets():
    """The band names the market of the point by the ISO boundaries: at Phoenix "no ISO:
    West", not the RTOs its utilities trade in, nor a blank."""
    assessment = Assessment.model_validate(
        {
            "market": {"code": "West", "label": "no ISO: West", "isIso": False},
            "jurisdictions": [{"level": "state", "id": "AZ", "name": "Arizona"}],
        }
    )
    assert summary.site_facts(assessment, None)["Market"] == "no ISO: West"


def test_the_band_names_the_first_utilities_and_counts_the_rest():
    candidates = [
        {"utilityId": f"eia:{n}", "utility": f"Utility {n}", "resolutionMethod": "county_listing"}
        for n in range(summary.NAMED_UTILITIES + 3)
    ]
    shown = summary.territory_headline(candidates)
    assert shown.value == str(len(candidates))
    assert shown.detail.count("Utility ") == summary.NAMED_UTILITIES
    assert shown.detail.endswith("; and 3 more in the section")
