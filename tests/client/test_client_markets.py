"""The client reads the market region, the polygons' attribution and how the two territory
methods agree, as typed records, from the reference service over loopback HTTP.

A copy of the demo store with a market box and a territory polygon around San Marcos: one
polygon for a utility the county listing names too, one for a utility it does not.
"""

from __future__ import annotations

import pytest
from demo_store import demo_store_copy
from polygon_layers import ATTRIBUTION, around, market_row, territory_row, write_layer
from shapely.geometry import Point, shape

import gridclient as gc
from gridservice.demo import DEMO_POINTS
from gridservice.runtime.server import start_in_thread
from gridservice.screening.territory import county_at, territory_candidates
from gridservice.settings import Settings
from gridservice.store import db

POINT = DEMO_POINTS["dual_certified"]
UNLISTED = "eia:test-unlisted"


@pytest.fixture(scope="module")
def listed_utility(tmp_path_factory) -> tuple[str, object]:
    """The store's path and a utility the county listing names at the point."""
    path = demo_store_copy(tmp_path_factory.mktemp("markets") / "demo.db")
    conn = db.connect(path)
    try:
        listed = territory_candidates(conn, county_at(conn, *POINT))[0]
        write_layer(conn, "market_regions", [market_row("ERCOT", around(*POINT))])
        write_layer(
            conn,
            "retail_territory_polygons",
            [
                territory_row(listed["utilityId"], listed["utility"], around(*POINT, 0.2)),
                territory_row(UNLISTED, "Unlisted Co-op (test)", around(*POINT, 0.1)),
            ],
        )
    finally:
        conn.close()
    return listed["utilityId"], path


@pytest.fixture(scope="module")
def client(listed_utility):
    _, path = listed_utility
    server = start_in_thread(
        Settings(db_path=path, demo=True, rate_limit_per_second=1e6, rate_limit_burst=10**6)
    )
    with gc.GridDataClient(base_url=server.base_url, token="gds_demo_alpha") as client:
        yield client
    server.stop()


@pytest.fixture(scope="module")
def site(client) -> gc.Site:
    location = gc.SiteLocation(latitude=POINT[0], longitude=POINT[1])
    return client.sites.create(gc.SiteDefinition(requested_peak_load_mw=50, location=location))


def test_a_territory_answer_has_its_market_attribution_and_method_agreement(client, listed_utility):
    answer = client.service_territories.resolve(latitude=POINT[0], longitude=POINT[1])
    assert isinstance(answer.market, gc.Market)
    assert (answer.market.code, answer.market.is_iso) == ("ERCOT", True)
    assert answer.attribution == ATTRIBUTION
    by_method = {(c.resolution_method, c.utility_id): c.method_agreement for c in answer.candidates}
    listed, _ = listed_utility
    agreeing = by_method[("retail_territory_polygon", listed)]
    assert isinstance(agreeing, gc.MethodAgreement)
    listing = [c for c in answer.candidates if c.resolution_method != "retail_territory_polygon"]
    # the other method named is the listing's own (the demo's county listing, not EIA-861's)
    (other,) = {c.resolution_method for c in listing if c.utility_id == listed}
    assert (agreeing.agrees, agreeing.other_method) == (True, other)
    disagreeing = by_method[("retail_territory_polygon", UNLISTED)]
    assert disagreeing.agrees is False and "Disagreement" in disagreeing.note
    assert [c.method_agreement.agrees for c in listing if c.utility_id == listed] == [True]


def test_a_site_and_its_assessment_name_the_market(client, site):
    assert isinstance(site.market, gc.Market) and site.market.code == "ERCOT"
    assert client.sites.get(site.id).market.label == "ERCOT"
    assessment = client.assessments.create(site.id)
    assert isinstance(assessment.market, gc.Market) and assessment.market.code == "ERCOT"
    assert assessment.attribution == ATTRIBUTION


def test_surroundings_name_the_market_region_beside_the_queue_market(client, site):
    surroundings = client.sites.surroundings(site.id)
    assert isinstance(surroundings.market_region, gc.Market)
    assert surroundings.market_region.code == "ERCOT"
    assert surroundings.market_region.attribution == ATTRIBUTION


def test_a_territory_answer_carries_the_polygons_holding_the_point_for_a_map(
    client, listed_utility
):
    answer = client.service_territories.resolve(latitude=POINT[0], longitude=POINT[1])
    listed, _ = listed_utility
    outlines = {o.utility_id: o for o in answer.polygons}
    assert set(outlines) == {listed, UNLISTED}
    shapes = {u: shape(o.geometry) for u, o in outlines.items()}
    for utility, drawn in shapes.items():
        assert drawn.contains(Point(POINT[1], POINT[0])), utility
        assert outlines[utility].simplified_to_degrees > 0
    # drawn as written: the 0.1-degree box lies inside the 0.2-degree one, overlapping it
    assert shapes[UNLISTED].area == pytest.approx(0.04, abs=1e-3)
    assert shapes[listed].contains(shapes[UNLISTED])
