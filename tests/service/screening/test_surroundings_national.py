"""Surroundings beyond ERCOT on the demo store: a Loudoun County, Virginia site gets the
fictional PJM records, the Virginia counties and abstentions naming the ERCOT-only queue
history; a Texas site keeps its report-based figures."""

from __future__ import annotations

import pytest
from demo_store import build_demo_store

from gridservice.demo.pjm import PLANTS, QUEUE
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
    assert elsewhere and all(c["queue"]["activeProjects"] is None for c in elsewhere)
    assert all(c["queue"]["unavailable"] for c in elsewhere)
    (abstention,) = answer["abstentions"]
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
