"""Census geometry from plotly-geo and the point -> county index."""

from __future__ import annotations

import json
import random

import pytest
from shapely.geometry import Point, shape

from gridservice.geography import geo
from gridservice.store import db, writer

STATES = ["TX", "OK"]


@pytest.fixture(scope="module")
def conn(tmp_path_factory):
    connection = db.connect(tmp_path_factory.mktemp("geo") / "geo.sqlite")
    db.init_schema(connection)
    writer.insert_states(connection, geo.load_states(STATES))
    writer.insert_counties(connection, geo.load_counties(STATES))
    connection.commit()
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def index(conn):
    return geo.CountyIndex.from_conn(conn)


def test_loads_every_county_of_the_requested_states(conn):
    counts = dict(conn.execute("SELECT state, count(*) FROM counties GROUP BY state").fetchall())
    # Texas has 254 counties, Oklahoma 77 (Census 2016).
    assert counts == {"TX": 254, "OK": 77}
    names = {r[0] for r in conn.execute("SELECT state FROM states")}
    assert names == {"TX", "OK"}


@pytest.mark.parametrize(
    ("latitude", "longitude", "fips", "name", "state"),
    [
        (30.2672, -97.7431, "48453", "Travis", "TX"),  # Austin
        (29.7604, -95.3698, "48201", "Harris", "TX"),  # Houston
        (31.7619, -106.4850, "48141", "El Paso", "TX"),
        (35.4676, -97.5164, "40109", "Oklahoma", "OK"),  # Oklahoma City
    ],
)
def test_known_points_resolve_to_their_county(index, latitude, longitude, fips, name, state):
    county = index.county_at(latitude, longitude)
    assert county == {
        "county_fips": fips,
        "name": name,
        "state": state,
        "state_fips": fips[:2],
    }


@pytest.mark.parametrize(
    ("latitude", "longitude"),
    [(27.0, -94.0), (32.3199, -106.7637), (0.0, 0.0)],  # Gulf, Las Cruces NM (not loaded)
)
def test_points_outside_loaded_counties_resolve_to_none(index, latitude, longitude):
    assert index.county_at(latitude, longitude) is None


def test_stored_geometry_is_simplified_valid_geojson(conn):
    row = conn.execute("SELECT geojson, min_lon, max_lon FROM counties WHERE county_fips='48453'")
    text, min_lon, max_lon = row.fetchone()
    geometry = shape(json.loads(text))
    assert geometry.is_valid
    assert geometry.geom_type in {"Polygon", "MultiPolygon"}
    assert geometry.bounds[0] == pytest.approx(min_lon)
    assert geometry.bounds[2] == pytest.approx(max_lon)
    assert geometry.contains(Point(-97.7431, 30.2672))


def test_random_point_in_is_deterministic_and_inside(index):
    travis = index.geometry("48453")
    first = [geo.random_point_in(travis, random.Random(7)) for _ in range(3)]
    again = [geo.random_point_in(travis, random.Random(7)) for _ in range(3)]
    assert first == again
    rng = random.Random(11)
    for _ in range(50):
        latitude, longitude = geo.random_point_in(travis, rng)
        assert index.county_at(latitude, longitude)["county_fips"] == "48453"


def test_unknown_state_abbreviation_is_refused():
    with pytest.raises(ValueError, match="ZZ"):
        geo.load_counties(["ZZ"])


def test_counties_listing_filters_by_state(index):
    oklahoma = index.counties("ok")
    assert len(oklahoma) == 77
    assert all(c["state"] == "OK" for c in oklahoma)
    assert len(index) == 254 + 77
