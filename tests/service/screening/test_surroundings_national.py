"""Surroundings beyond ERCOT on the demo store: a Loudoun County, Virginia site gets the
fictional PJM records, the Virginia counties and abstentions naming the ERCOT-only queue
history; a Texas site keeps its report-based figures."""

from __future__ import annotations

import pytest
from demo_store import build_demo_store

from gridservice.demo.pjm import PLANTS, QUEUE
from gridservice.screening.assessment import screen_site
from gridservice.screening.key_figures import NEAREST_PLANT_MIN_MW, nearest_plant
from gridservice.screening.surroundings import site_surroundings
from gridservice.store import db

LOUDOUN = (39.08, -77.65)


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    path = build_demo_store(tmp_path_factory.mktemp("national") / "demo.db")
    connection = db.connect(path)
    yield connection
    connection.close()


def around(conn, point: tuple[float, float]) -> dict:
    site = {"id": None, "location": {"latitude": point[0], "longitude": point[1]}}
    return site_surroundings(conn, site)


def test_a_loudoun_site_gets_the_pjm_records_and_the_virginia_counties(conn):
    answer = around(conn, LOUDOUN)
    assert answer["market"] == "PJM"
    counties = {c["name"]: c for c in answer["counties"] if c["state"] == "VA"}
    assert {"Loudoun", "Fauquier", "Prince William"} <= set(counties)
    for name in ("Loudoun", "Fauquier", "Prince William"):
        active = [q for q in QUEUE if q[1] == name and q[4] == "active"]
        queue = counties[name]["queue"]
        assert queue["markets"] == ["PJM"] and queue["basis"] == "queue_records"
        assert queue["activeProjects"] == len(active)
        assert queue["activeMw"] == round(sum(q[3] for q in active), 1)
        assert queue["asOf"] is not None
    elsewhere = [c for c in answer["counties"] if not c["queue"]["markets"]]
    assert all(c["queue"]["activeProjects"] is None for c in elsewhere)
    assert all(c["queue"]["unavailable"] for c in elsewhere)
    (abstention,) = [a for a in answer["abstentions"] if a["dataset"] == "queue_history"]
    assert abstention["coversMarkets"] == ["ERCOT"] and "PJM" in abstention["missingForMarkets"]
    assert "ERCOT only" in abstention["statement"]
    assert answer["dropout"] is None and answer["changes"] is None


def test_the_nearest_plant_is_one_of_at_least_ten_mw(conn):
    small = next(p for p in PLANTS if p[5] < NEAREST_PLANT_MIN_MW)
    plant = nearest_plant(conn, small[3], small[4])
    assert plant["plantId"] != small[0]
    assert plant["capacityMw"] >= NEAREST_PLANT_MIN_MW


def test_a_texas_site_keeps_its_report_figures(conn):
    answer = around(conn, (29.8833, -97.9414))
    assert answer["market"] == "ERCOT" and answer["abstentions"] == []
    assert answer["queueNow"]["report"]["market"] == "ERCOT"
    for county in answer["counties"]:
        assert county["queue"]["basis"] == "queue_history"
        assert county["queue"]["activeProjects"] == len(county["queue"]["projects"])


def test_a_loudoun_site_says_which_datasets_cover_other_markets_never_a_zero(conn):
    answer = around(conn, LOUDOUN)
    totals = answer["queueNow"]
    assert totals["report"] is None
    assert totals["activeProjects"] is None and totals["activeMw"] is None
    by_dataset = {a["dataset"]: a for a in answer["abstentions"]}
    assert {"queue_history", "reserve_margins", "balancing_authority_operations"} <= set(by_dataset)
    fact_markets = {r[0].upper() for r in conn.execute("SELECT market FROM facts")}
    margins = by_dataset["reserve_margins"]
    assert set(margins["coversMarkets"]) == fact_markets and "PJM" not in fact_markets
    assert margins["missingForMarkets"] == ["PJM"] and margins["asOf"]
    for abstention in by_dataset.values():
        assert "PJM" in abstention["statement"]


def test_a_loudoun_assessment_names_each_dataset_it_lacks_with_its_markets(conn):
    site = {"id": "s", "location": {"latitude": LOUDOUN[0], "longitude": LOUDOUN[1]},
            "requestedPeakLoadMw": 300}  # fmt: skip
    made = {"assessment_id": "a", "tenant_id": "t", "created_at": "2026-01-01T00:00:00Z"}
    assessment = screen_site(conn, site, **made)
    assert assessment["keyFigures"]["tightestReserveMargin"] is None
    by_dataset = {a["dataset"]: a for a in assessment["datasetAbstentions"]}
    assert set(by_dataset) == {"reserve_margins", "queue_history", "balancing_authority_operations"}
    assert by_dataset["queue_history"]["coversMarkets"] == ["ERCOT"]
    assert all(a["missingForMarkets"] == ["PJM"] and a["asOf"] for a in by_dataset.values())
    texas = screen_site(conn, {**site, "location": {"latitude": 29.8833, "longitude": -97.9414}},
                        **made)  # fmt: skip
    assert texas["datasetAbstentions"] == []
    margin = texas["keyFigures"]["tightestReserveMargin"]
    assert margin["asOf"] and margin["dated"] is False


def test_a_county_no_record_names_takes_the_market_of_the_iso_boundary_holding_it(conn):
    named = {q[1] for q in QUEUE}
    answer = around(conn, LOUDOUN)
    # Maryland and West Virginia lie in the demo's PJM boundary, and no PJM record names them
    across = [c for c in answer["counties"] if c["state"] in ("MD", "WV")]
    assert across and not {c["name"] for c in across} & named
    for county in across:
        queue = county["queue"]
        assert queue["markets"] == ["PJM"] and queue["basis"] == "queue_records"
        assert queue["activeProjects"] == 0 and queue["unavailable"] is None


def test_a_county_in_an_iso_whose_queue_is_not_loaded_says_which(conn):
    loaded = {r[0].upper() for r in conn.execute("SELECT DISTINCT market FROM queue_records")}
    assert "MISO" not in loaded
    answer = around(conn, (30.22, -93.22))  # Lake Charles: Louisiana lies in the demo's MISO
    parishes = [c for c in answer["counties"] if c["state"] == "LA"]
    assert parishes
    for parish in parishes:
        assert parish["queue"]["activeProjects"] is None
        assert "MISO's queue is not loaded" in parish["queue"]["unavailable"]
