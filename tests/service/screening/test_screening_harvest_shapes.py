"""Screening on records shaped like the harvested sources: seasonal CDR periods, units,
one request listed by two queue sources, EIA-861 county listings, a state without queue data.
"""

from __future__ import annotations

import pytest
from screening_support import TENANT_ID, build_world, fact, queue_entry, site, territory

from gridservice.screening import screen_site
from gridservice.store import writer

SEASON_DATES = {
    "2026-summer": ("2026-06-01", "2026-09-30"),
    "2026-2027-winter": ("2026-12-01", "2027-02-28"),
    "2027-summer": ("2027-06-01", "2027-09-30"),
    "2027-2028-winter": ("2027-12-01", "2028-02-29"),
}


@pytest.fixture()
def world(tmp_path):
    conn = build_world(tmp_path / "shapes.db", with_facts=False)
    yield conn
    conn.close()


def screen(conn, point: str = "dual", **fields) -> dict:
    return screen_site(
        conn,
        site(point, **fields),
        assessment_id="asm_0001",
        tenant_id=TENANT_ID,
        created_at="2025-07-02T10:00:00Z",
    )


def by_factor(assessment: dict, kind: str) -> dict[str, dict]:
    return {item["factor"]: item for item in assessment["readiness"][kind]}


def seasonal_fact(fact_id: str, predicate: str, period: str, value: float, unit="MW") -> dict:
    record = fact(fact_id, "ERCOT", predicate, "2026", value)
    year = period[:4]
    valid_from, valid_to = SEASON_DATES.get(period, (f"{year}-06-01", f"{year}-09-30"))
    record.update(
        period=period,
        factKey=f"ERCOT:{predicate}:{period}",
        validFrom=valid_from,
        validTo=valid_to,
        scenario="peak_load_hour",
        unit=unit,
    )
    return record


def load_seasons(conn, peaks: dict[str, float], capacity: dict[str, float]) -> None:
    writer.insert_facts(
        conn,
        "load_forecast",
        [seasonal_fact(f"lf-{p}", "firm_peak_load_mw", p, v) for p, v in peaks.items()],
    )
    writer.insert_facts(
        conn,
        "resource_adequacy",
        [seasonal_fact(f"ra-{p}", "total_capacity_mw", p, v) for p, v in capacity.items()],
    )
    conn.commit()


# --- market adequacy on seasonal periods and units ------------------------------------------


def test_load_growth_compares_one_season_with_itself(world):
    load_seasons(
        world,
        {
            "2026-summer": 90_000.0,
            "2026-2027-winter": 78_000.0,
            "2027-summer": 99_000.0,
            "2027-2028-winter": 94_000.0,
        },
        {"2026-summer": 110_000.0, "2027-summer": 125_000.0},
    )
    finding = by_factor(screen(world), "findings")["market_adequacy"]
    # Summer to summer (+10%), never the winter 2026-2027 low against a summer peak (+27%).
    assert "from 90,000 MW (2026-summer) to 99,000 MW (2027-summer), +10%" in finding["finding"]
    assert "tightest season is 2026-summer" in finding["finding"]
    assert {"lf-2026-summer", "lf-2027-summer", "ra-2026-summer"} <= set(finding["citations"])


def test_facts_in_another_unit_never_enter_megawatt_arithmetic(world):
    load_seasons(
        world,
        {"2026-summer": 90_000.0, "2027-summer": 99_000.0},
        {"2026-summer": 110_000.0, "2027-summer": 125_000.0},
    )
    writer.insert_facts(
        world,
        "resource_adequacy",
        # A reserve margin published as a percentage: 22.2 is not 22 MW of margin.
        [seasonal_fact("rm-2026", "reserve_margin", "2026-summer", 22.2, unit="percent")],
    )
    world.commit()
    finding = by_factor(screen(world), "findings")["market_adequacy"]
    assert "rm-2026" not in finding["citations"]
    assert "total_capacity_mw leaves a 20,000 MW margin" in finding["finding"]


def test_only_non_megawatt_load_facts_make_market_adequacy_abstain_naming_the_unit(world):
    writer.insert_facts(
        world,
        "load_forecast",
        [seasonal_fact("e-2026", "peak_energy", "2026-summer", 400_000.0, unit="GWh")],
    )
    world.commit()
    abstention = by_factor(screen(world), "abstentions")["market_adequacy"]
    assert "in MW" in abstention["reason"] and "GWh" in abstention["reason"]


def test_cited_facts_are_among_the_market_signals_beyond_the_signal_limit(world):
    years = range(2026, 2056)  # 30 summers: more than the 25 signals listed per kind
    load_seasons(
        world,
        {f"{y}-summer": 80_000.0 + 1_000 * (y - 2026) for y in years},
        {f"{y}-summer": 120_000.0 for y in years},
    )
    assessment = screen(world)
    finding = by_factor(assessment, "findings")["market_adequacy"]
    assert "lf-2055-summer" in finding["citations"]  # the last summer, past the first 25 ids
    signal_ids = {s["id"] for s in assessment["marketSignals"]}
    assert set(finding["citations"]) <= signal_ids


# --- one request in two queue sources --------------------------------------------------------


def test_a_request_listed_by_two_sources_is_counted_once_from_the_operator_report(world):
    record, details, evidence = queue_entry("ercot-gis-26INR0001", "Alpha", 500.0)
    record["recordKey"] = "26INR0001"
    details["evidence"]["authority"] = "official_operator_dataset"
    writer.insert_queue_record(world, record, details, evidence)
    record, details, evidence = queue_entry("lbnl-ercot-26INR0001", "Alpha", 700.0)
    record["recordKey"] = "26inr0001"
    writer.insert_queue_record(world, record, details, evidence)
    world.commit()
    assessment = screen(world)
    listed = [r["id"] for r in assessment["relevantQueueRecords"]]
    assert "ercot-gis-26INR0001" in listed and "lbnl-ercot-26INR0001" not in listed
    finding = by_factor(assessment, "findings")["queue_congestion"]
    # Alpha's active MW before: 900 + 1,200 + 400 = 2,500; plus 500 once (not 1,200).
    assert "totalling 3,000 MW" in finding["finding"]
    assert "1 record of a second source" in finding["finding"]


# --- EIA-861 county listings -----------------------------------------------------------------


def county_listing(utility_id: str, utility: str) -> dict:
    template = territory(utility_id, utility, "ERCOT", 0.5)
    template["resolutionMethod"] = "eia861_county_listing"
    template["ccnNumber"] = None
    template["evidence"] = {
        "sourceId": "eia861_service_territory",
        "geometry": "county_union_not_polygon",
    }
    return template


def test_county_listings_are_named_as_such_and_never_called_dual_certification(world):
    writer.insert_territory(world, "eia-1", county_listing("eia:1", "Listed Muni"), ["48003"])
    writer.insert_territory(world, "eia-2", county_listing("eia:2", "Listed Coop"), ["48003"])
    world.commit()
    assessment = screen(world, "single")
    # Bravo: the polygon territory of Demo Grid Co and the two county listings.
    assert {c["resolutionMethod"] for c in assessment["serviceTerritoryCandidates"]} == {
        "regulator_polygon",
        "eia861_county_listing",
    }
    limitations = " ".join(assessment["readiness"]["limitations"])
    assert "county listings" in limitations and "not territory polygons" in limitations
    only_listings = screen_listings_only(world)
    finding = by_factor(only_listings, "findings")["service_territory"]
    assert "dual certification" not in finding["finding"]
    assert "county listings, not territory polygons" in finding["finding"]
    assert "cannot say which of them serves the point" in finding["finding"]


def screen_listings_only(conn) -> dict:
    writer.insert_territory(conn, "eia-3", county_listing("eia:3", "Delta Muni"), ["48007"])
    writer.insert_territory(conn, "eia-4", county_listing("eia:4", "Delta Coop"), ["48007"])
    conn.commit()
    return screen(conn, "unserved")


def test_polygon_territories_get_no_county_listing_limitation(world):
    limitations = " ".join(screen(world)["readiness"]["limitations"])
    assert "not territory polygons" not in limitations


# --- a state with no queue data loaded ---------------------------------------------------------


def test_queue_abstention_in_a_state_without_queue_data_says_it_is_a_data_gap(world):
    ring = [[-106.0, 34.0], [-105.0, 34.0], [-105.0, 35.0], [-106.0, 35.0], [-106.0, 34.0]]
    writer.insert_counties(
        world,
        [
            {
                "county_fips": "35001",
                "state_fips": "35",
                "state": "NM",
                "name": "Foxtrot",
                "min_lon": -106.0,
                "min_lat": 34.0,
                "max_lon": -105.0,
                "max_lat": 35.0,
                "geojson": '{"type": "Polygon", "coordinates": %s}' % [ring],
            }
        ],
    )
    world.commit()
    assessment = screen_site(
        world,
        {**site("dual"), "location": {"latitude": 34.5, "longitude": -105.5}},
        assessment_id="asm_0002",
        tenant_id=TENANT_ID,
        created_at="2025-07-02T10:00:00Z",
    )
    assert assessment["county"]["name"] == "Foxtrot"
    reason = by_factor(assessment, "abstentions")["queue_congestion"]["reason"]
    assert "covers OK, TX only" in reason and "gap in the data" in reason
