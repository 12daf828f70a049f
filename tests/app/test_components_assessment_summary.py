"""The summary band's numbers, computed from what the assessment lists."""

from __future__ import annotations

from components import assessment_summary as summary
from components import glossary
from gridclient import Assessment, Fact, GenerationPlant, QueueRecord


def fact(predicate: str, period: str, value: float, scenario: str = "base") -> Fact:
    return Fact(market="ERCOT", predicate=predicate, period=period, value=value, scenario=scenario)


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


def test_the_tightest_reserve_margin_is_the_smallest_over_seasons_with_both_numbers():
    signals = [
        fact("summer_firm_capacity", "2026", 110.0),
        fact("summer_peak_demand_forecast", "2026", 100.0),
        fact("summer_firm_capacity", "2027", 104.0),
        fact("summer_peak_demand_forecast", "2027", 100.0),
        fact("summer_peak_demand_forecast", "2027", 130.0, scenario="high"),  # not the base case
        fact("summer_firm_capacity", "2028", 90.0),  # no demand for 2028
    ]
    margin, where = summary.tightest_reserve_margin(signals)
    assert round(margin, 4) == 0.04
    assert where == "ERCOT 2027"
    assert summary.tightest_reserve_margin(signals[:1]) is None


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


def test_nearest_plants_by_great_circle_distance():
    plants = [
        GenerationPlant(plant_name="far", latitude=32.0, longitude=-97.0),
        GenerationPlant(plant_name="near", latitude=30.0, longitude=-97.9),
        GenerationPlant(plant_name="nowhere"),
    ]
    near = summary.nearest_plants(plants, (29.9, -97.9))
    assert [p.plant_name for p, _ in near] == ["near", "far"]
    assert 11 < near[0][1] < 11.2  # 0.1 degree of latitude is about 11.1 km


def test_plants_within_a_reach_are_every_plant_that_close_and_no_other():
    import random

    rng = random.Random(7)
    point = (29.9, -97.9)
    plants = [
        GenerationPlant(
            plant_name=f"p{i}",
            latitude=point[0] + rng.uniform(-1.5, 1.5),
            longitude=point[1] + rng.uniform(-1.5, 1.5),
        )
        for i in range(2_000)
    ]
    # on the edge: due east and due north, 50 km away as the distance is computed
    east = GenerationPlant(plant_name="east", latitude=point[0], longitude=point[1] + 0.5189)
    north = GenerationPlant(
        plant_name="north", latitude=point[0] + 50 / 111.19493, longitude=point[1]
    )
    plants += [east, north]
    every = [(p, summary.distance_km(point, (p.latitude, p.longitude))) for p in plants]
    expected = sorted((pair for pair in every if pair[1] <= 50.0), key=lambda pair: pair[1])
    around = summary.plants_by_distance(plants, point, 50.0)
    assert [p.plant_name for p, _ in around] == [p.plant_name for p, _ in expected]
    assert 100 < len(around) < len(plants)
    headline = summary.headlines(Assessment.model_validate({}), plants, point)[-1]
    assert headline.value == f"{expected[0][1]:,.0f} km"
    assert headline.detail == f"{expected[0][0].plant_name}; {len(expected)} plants within 50 km"


def test_the_nearest_plant_is_found_when_none_is_within_reach():
    plants = [GenerationPlant(plant_name="far", latitude=33.0, longitude=-97.9)]
    headline = summary.headlines(Assessment.model_validate({}), plants, (29.9, -97.9))[-1]
    assert headline.value == "345 km"
    assert headline.detail == "far; 0 plants within 50 km"


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
    assert spec["layer"][1]["encoding"]["x"]["axis"]["format"] == "%Y"


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
    }
    whole = summary.county_queue(Assessment(relevant_queue_records=records, queue_history=history))
    assert (whole.label, whole.value, whole.section) == (
        "Active queue in the site's county",
        "4,250 MW",
        "surroundings",
    )
    assert whole.detail.startswith("40 active projects in the 2025-09 queue report; 850 MW (20%)")
    # without queue history (no harvested reports), the band counts the records it lists
    listed = summary.headlines(Assessment(relevant_queue_records=records), None, None)[1]
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
