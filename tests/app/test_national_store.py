"""The app on a store of the whole country: a point abroad refused with the service's words,
and each point's market region shown.

The service refuses a point abroad only when its store holds the whole country's state
outlines; the demo store holds a few states, so this module serves a copy of it with every
Census state outline added (from the package the service reads them from) and a market
region (a box) and two overlapping territory polygons around San Marcos.
"""

from __future__ import annotations

import pytest
from conftest import ALPHA_TOKEN, app_path, drawn_map, page_path, point_app_at, unescape
from demo_store import demo_store_copy
from polygon_layers import ATTRIBUTION, around, market_row, territory_row, write_layer
from streamlit.testing.v1 import AppTest

from gridclient import GridDataClient, UnprocessableEntityError
from gridservice.demo import DEMO_POINTS
from gridservice.geography import geo
from gridservice.runtime.server import start_in_thread
from gridservice.settings import Settings
from gridservice.store import db, writer

LONDON = (51.5074, -0.1278)
SAN_MARCOS = DEMO_POINTS["dual_certified"]
# two territory polygons (boxes) overlapping at San Marcos
TERRITORIES = (
    ("eia:test-wide", "Wide Co-op (test)", 0.3),
    ("eia:test-town", "Town Power (test)", 0.1),
)


@pytest.fixture(scope="module")
def national_service(tmp_path_factory):
    """A demo service whose store holds every state outline; yield its base URL."""
    path = demo_store_copy(tmp_path_factory.mktemp("national") / "demo.db")
    conn = db.connect(path)
    with conn:
        writer.insert_states(conn, geo.load_states(geo._state_table()))  # noqa: SLF001 - all
    write_layer(conn, "market_regions", [market_row("ERCOT", around(*SAN_MARCOS))])
    write_layer(conn, "retail_territory_polygons", [
        territory_row(utility_id, name, around(*SAN_MARCOS, half))
        for utility_id, name, half in TERRITORIES
    ])  # fmt: skip
    conn.close()
    server = start_in_thread(Settings(db_path=path, demo=True))
    yield server.base_url
    server.stop()


@pytest.fixture
def national_env(national_service, monkeypatch):
    point_app_at(monkeypatch, national_service, ALPHA_TOKEN)
    with GridDataClient(base_url=national_service, token=ALPHA_TOKEN) as client:
        yield client


def refusal_of(
    client: GridDataClient, latitude: float, longitude: float
) -> UnprocessableEntityError:
    """Return what the service answers when asked to create a site at the point."""
    location = {"latitude": latitude, "longitude": longitude}
    with pytest.raises(UnprocessableEntityError) as refused:
        client.sites.create({"requestedPeakLoadMw": 10.0, "location": location})
    return refused.value


def territory_page_at(point: tuple[float, float]) -> AppTest:
    """Return the Service territory page run with `point` typed in, drawn without error."""
    at = AppTest.from_file(page_path("service_territory"), default_timeout=90)
    at.run()
    at.number_input(key="territory.latitude").set_value(point[0])
    at.number_input(key="territory.longitude").set_value(point[1])
    at.run()
    assert not at.exception
    return at


def test_a_point_abroad_is_refused_with_the_services_message(national_env):
    before = [site.id for site in national_env.sites.list()]
    service_says = refusal_of(national_env, *LONDON)
    at = AppTest.from_file(app_path(), default_timeout=90)
    at.run()
    at.number_input(key="screen.latitude").set_value(LONDON[0])
    at.number_input(key="screen.longitude").set_value(LONDON[1])
    at.run()
    next(n for n in at.number_input if n.label == "Requested peak load (MW) *").set_value(300.0)
    next(b for b in at.button if b.label == "Create site and screen it").click()
    at.run()
    assert not at.exception
    [refusal] = [unescape(e.value) for e in at.error]
    # Why it was refused and what to check, in the service's words, not only the fields'.
    assert service_says.detail in refusal
    under_fields = [unescape(c.value) for c in at.caption if "outside the United States" in c.value]
    assert len(under_fields) == 1
    assert [site.id for site in national_env.sites.list()] == before


def test_the_service_territory_page_and_the_site_list_show_the_market(national_env):
    at = territory_page_at(SAN_MARCOS)
    market = national_env.service_territories.resolve(
        latitude=SAN_MARCOS[0], longitude=SAN_MARCOS[1]
    ).market
    assert f"Market: {market.name}" in [t.value for t in at.text]

    location = {"latitude": SAN_MARCOS[0], "longitude": SAN_MARCOS[1]}
    site = national_env.sites.create({"requestedPeakLoadMw": 20.0, "location": location})
    at = AppTest.from_file(app_path(), default_timeout=90)
    at.run()
    frame = next(f.value for f in at.dataframe if "Customer reference" in f.value.columns)
    assert frame.loc[frame["Site"] == site.id, "Market"].tolist() == [market.label]


def test_the_territory_page_draws_the_overlapping_polygons_with_their_attribution(national_env):
    at = territory_page_at(SAN_MARCOS)
    outlines = national_env.service_territories.resolve(
        latitude=SAN_MARCOS[0], longitude=SAN_MARCOS[1]
    ).polygons
    assert {o.utility for o in outlines} == {name for _, name, _ in TERRITORIES}
    layer = next(
        layer for layer in drawn_map(at)["layers"] if layer.get("id") == "territory_polygons"
    )
    assert [f["geometry"] for f in layer["data"]] == [o.geometry for o in outlines]
    captions = [unescape(c.value) for c in at.caption]
    [legend] = [c for c in captions if c.startswith("Territory polygons holding the point")]
    assert all(name in legend for _, name, _ in TERRITORIES) and "overlap" in legend
    assert ATTRIBUTION in captions
