"""County and state outlines drawn offline from the Census cartographic boundaries in
`plotly-geo` (the same files the service's store reads its counties and states from).

The interface has no geometry endpoint, so the app draws the outlines itself. They are
simplified once per process (`st.cache_resource`) and handed to pydeck as GeoJSON features
whose properties carry the county's FIPS code, name and state. Their points are read with
numpy (`gridservice.geography.shapefile_polygons`, the geometries pyshp gives: the country's
state outlines took 1.1 processor-seconds of every start's first page with pyshp's reading,
0.26 with it). The country's counties are
read a state at a time, when a view first reaches that state: all 3,108 of the lower 48
took 17 s to read and simplify, Texas's 254 under a second.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from pathlib import Path

import _plotly_geo
import shapefile
import streamlit as st
from shapely.geometry import Point, mapping, shape

from gridservice.geography.shapefile_polygons import read_polygons

# Texas and its neighbours: the region the demo data covers, drawn at one sensible zoom.
REGION_STATE_FIPS: dict[str, str] = {
    "48": "TX",
    "35": "NM",
    "40": "OK",
    "05": "AR",
    "22": "LA",
}
# Alaska, Hawaii and the territories: the country's map is the lower 48 (and DC)
OUTSIDE_LOWER_48 = frozenset({"02", "15", "60", "66", "69", "72", "78"})
# About 1 km: outlines stay recognisable while the payload to the browser stays small.
SIMPLIFY_TOLERANCE_DEGREES = 0.01
COUNTRY_TOLERANCE_DEGREES = 0.05


@dataclass(frozen=True)
class County:
    """One county outline: its 5-digit FIPS code, name, state and simplified geometry."""

    fips: str
    name: str
    state: str
    geometry: dict

    @cached_property
    def shape(self):
        return shape(self.geometry)

    @property
    def label(self) -> str:
        return f"{self.name} County, {self.state}"

    @cached_property
    def edges(self) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
        """The outline's straight edges, each (from, to) in (longitude, latitude): every
        ring of every polygon, holes too."""
        polygons = self.geometry["coordinates"]
        if self.geometry["type"] == "Polygon":
            polygons = [polygons]
        return tuple(
            (tuple(start), tuple(end))
            for polygon in polygons
            for ring in polygon
            for start, end in pairwise(ring)
            if start != end
        )

    def feature(self, **extra_properties) -> dict:
        """Return the county as a GeoJSON feature for a pydeck GeoJsonLayer."""
        properties = {"fips": self.fips, "name": self.name, "state": self.state}
        properties["label"] = self.label
        properties.update(extra_properties)
        return {"type": "Feature", "geometry": self.geometry, "properties": properties}


def _shapefile(name: str) -> str:
    return os.path.join(os.path.dirname(_plotly_geo.__file__), "package_data", name)


def _county_shapefile() -> str:
    return _shapefile("cb_2016_us_county_500k")


@functools.cache
def _county_records_by_state() -> dict[str, dict[int, dict[str, str]]]:
    """Return the county file's records (FIPS code and name) by state FIPS and record number
    (attributes only, no shapes: a state's counties are then read without the country's)."""
    by_state: dict[str, dict[int, dict[str, str]]] = {}
    with shapefile.Reader(_county_shapefile()) as reader:
        fields = ["STATEFP", "GEOID", "NAME"]
        for number, record in enumerate(reader.iterRecords(fields=fields)):
            by_state.setdefault(record["STATEFP"], {})[number] = record.as_dict()
    return by_state


@functools.cache
def lower48_state_fips() -> dict[str, str]:
    """Return the postal code of each state of the lower 48 and DC, keyed by state FIPS."""
    with shapefile.Reader(_shapefile("cb_2016_us_state_500k")) as reader:
        records = [record.as_dict() for record in reader.iterRecords()]
    return {
        record["STATEFP"]: record["STUSPS"]
        for record in sorted(records, key=lambda record: record["STUSPS"])
        if record["STATEFP"] not in OUTSIDE_LOWER_48
    }


def read_states(
    state_fips: dict[str, str] = REGION_STATE_FIPS,
    tolerance: float = 2 * SIMPLIFY_TOLERANCE_DEGREES,
) -> dict[str, County]:
    """Return the given states' outlines keyed by postal code (as `County`-shaped records)."""
    states: dict[str, County] = {}
    base = _shapefile("cb_2016_us_state_500k")
    with shapefile.Reader(base) as reader:
        records = {
            number: record.as_dict()
            for number, record in enumerate(reader.iterRecords(fields=["STATEFP", "NAME"]))
            if record["STATEFP"] in state_fips
        }
    outlines = read_polygons(Path(base), records)
    for number, record in records.items():
        code = state_fips[record["STATEFP"]]
        simplified = outlines[number].simplify(tolerance, preserve_topology=True)
        states[code] = County(
            record["STATEFP"], record["NAME"], code, _rounded(mapping(simplified))
        )
    return states


@st.cache_resource(show_spinner=False)
def region_states() -> dict[str, County]:
    """Return the region's state outlines, read once per process."""
    return read_states()


def read_counties(
    state_fips: dict[str, str] = REGION_STATE_FIPS,
    tolerance: float = SIMPLIFY_TOLERANCE_DEGREES,
) -> dict[str, County]:
    """Return the counties of the given states keyed by FIPS, outlines simplified."""
    counties: dict[str, County] = {}
    records_by_state = _county_records_by_state()
    for state_code, state in state_fips.items():
        records = records_by_state.get(state_code, {})
        outlines = read_polygons(Path(_county_shapefile()), records)
        for number, record in records.items():
            simplified = outlines[number].simplify(tolerance, preserve_topology=True)
            counties[record["GEOID"]] = County(
                fips=record["GEOID"],
                name=record["NAME"],
                state=state,
                geometry=_rounded(mapping(simplified)),
            )
    return counties


def _rounded(geometry: dict, digits: int = 3) -> dict:
    """Return GeoJSON geometry with coordinates rounded (about 100 m), lists not tuples."""

    def walk(value):
        if isinstance(value, list | tuple):
            if value and isinstance(value[0], float | int):
                return [round(float(v), digits) for v in value]
            return [walk(v) for v in value]
        return value

    return {"type": geometry["type"], "coordinates": walk(geometry["coordinates"])}


@st.cache_resource(show_spinner=False)
def region_counties() -> dict[str, County]:
    """Return the region's county outlines, read and simplified once per process."""
    return read_counties()


@st.cache_resource(show_spinner=False)
def country_states() -> dict[str, County]:
    """Return the state outlines of the lower 48 and DC by postal code, read once per
    process (simplified to about 5 km: the country's view shows a state a few pixels wide)."""
    return read_states(lower48_state_fips(), tolerance=COUNTRY_TOLERANCE_DEGREES)


@st.cache_resource(show_spinner=False)
def state_counties(state_fips: str, state: str) -> dict[str, County]:
    """Return one state's county outlines, read and simplified once per process."""
    return read_counties({state_fips: state})


def outline_bounds(outlines: Iterable[County]) -> tuple[float, float, float, float]:
    """Return the box around the outlines: (south, west, north, east) in degrees."""
    boxes = [outline.shape.bounds for outline in outlines]
    return (
        min(box[1] for box in boxes),
        min(box[0] for box in boxes),
        max(box[3] for box in boxes),
        max(box[2] for box in boxes),
    )


def country_counties_in_box(south: float, west: float, north: float, east: float) -> list[County]:
    """Return the lower 48's counties whose outline box meets the box, reading only the
    counties of the states it meets."""
    found = []
    for state in country_states().values():
        minx, miny, maxx, maxy = state.shape.bounds
        if minx <= east and maxx >= west and miny <= north and maxy >= south:
            counties = state_counties(state.fips, state.state)
            found += counties_in_box(counties, south, west, north, east)
    return found


def county_at(counties: dict[str, County], latitude: float, longitude: float) -> County | None:
    """Return the county whose outline contains the point, or None."""
    point = Point(longitude, latitude)
    for county in counties.values():
        minx, miny, maxx, maxy = county.shape.bounds
        if minx <= longitude <= maxx and miny <= latitude <= maxy and county.shape.covers(point):
            return county
    return None


def counties_in_box(
    counties: Mapping[str, County], south: float, west: float, north: float, east: float
) -> list[County]:
    """Return the counties whose outline's bounding box meets the box (degrees)."""
    found = []
    for county in counties.values():
        minx, miny, maxx, maxy = county.shape.bounds
        if minx <= east and maxx >= west and miny <= north and maxy >= south:
            found.append(county)
    return found


def outline_edges(
    counties: Iterable[County],
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Return the counties' outline edges, a border two counties share once (the outlines
    are simplified county by county, so a shared border whose vertices differ is kept twice)."""
    seen: set[tuple[tuple[float, float], tuple[float, float]]] = set()
    edges = []
    for county in counties:
        for start, end in county.edges:
            key = (start, end) if start <= end else (end, start)
            if key not in seen:
                seen.add(key)
                edges.append((start, end))
    return edges


def name_key(name: str) -> str:
    """Return how a county's name is compared: "Travis County " and "travis" alike."""
    return str(name).strip().lower().removesuffix(" county").strip()


def counties_by_name(counties: dict[str, County], names: list[str]) -> list[County]:
    """Return the counties named: a FIPS code, "Travis", "Travis County" or "Travis, TX"."""
    wanted: set[tuple[str, str | None]] = set()
    for name in names:
        text, _, state = str(name).partition(",")
        wanted.add((name_key(text), state.strip().upper() or None))
    found = []
    for county in counties.values():
        name = county.name.lower()
        if county.fips in names or (name, county.state) in wanted or (name, None) in wanted:
            found.append(county)
    return found
