"""The Census outlines read with numpy are the geometries pyshp's reading gives shapely: every
county and state of the files the store and the demo read, ring for ring, to the bit."""

from __future__ import annotations

import pytest
import shapefile
from shapely.geometry import shape

from gridservice.geography import geo
from gridservice.geography.shapefile_polygons import read_polygons

# Both kinds of shape the numpy reading groups itself are in the files: holes inside one
# exterior (Virginia's independent cities, in the county file) and several exteriors (islands)
HOLES, ISLANDS = ("Polygon", True), ("MultiPolygon", False)


@pytest.mark.parametrize(
    ("name", "kinds"), [(geo.COUNTY_FILE, {HOLES, ISLANDS}), (geo.STATE_FILE, {ISLANDS})]
)
def test_every_outline_is_the_one_pyshp_gives(name, kinds):
    base = geo.package_data_dir() / name
    with shapefile.Reader(str(base)) as reader:
        expected = {
            number: shape(reader.shape(number).__geo_interface__) for number in range(len(reader))
        }
    read = read_polygons(base, expected)
    assert read.keys() == expected.keys()
    differing = [number for number, outline in expected.items() if read[number].wkb != outline.wkb]
    assert differing == []
    read_kinds = {(o.geom_type, bool(getattr(o, "interiors", ()))) for o in read.values()}
    assert kinds <= read_kinds


def test_a_subset_is_read_by_record_number():
    base = geo.package_data_dir() / geo.STATE_FILE
    with shapefile.Reader(str(base)) as reader:
        texas = next(n for n, rec in enumerate(reader.iterRecords()) if rec["STUSPS"] == "TX")
        expected = shape(reader.shape(texas).__geo_interface__)
    read = read_polygons(base, [texas, texas])
    assert list(read) == [texas]
    assert read[texas].wkb == expected.wkb
