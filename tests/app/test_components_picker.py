"""The point picker's pure parts: reading a click, the surroundings box, the deck, the labels."""

from __future__ import annotations

import json
import math

import h3
import pytest
from shapely.geometry import Point

from components import click_map, geography, maps, picker

HAYS = (29.8833, -97.9414)


@pytest.fixture(scope="module")
def counties():
    return geography.read_counties()


def shown_box(opened: dict, width_px: int, height_px: int) -> tuple[float, float, float, float]:
    """Return (south, west, north, east) a map of that size shows at a deck's view."""
    world = 512 * 2 ** opened["zoom"]
    y = math.log(math.tan(math.pi / 4 + math.radians(opened["latitude"]) / 2))

    def latitude(dy: float) -> float:
        return math.degrees(2 * math.atan(math.exp(y + dy / world * 2 * math.pi)) - math.pi / 2)

    half_lng = width_px / 2 / world * 360
    return (
        latitude(-height_px / 2),
        opened["longitude"] - half_lng,
        latitude(height_px / 2),
        opened["longitude"] + half_lng,
    )


def corners_of_view(latitude: float, longitude: float, width_px: int, height_px: int):
    """Return the corners of a map of that size at the surroundings zoom (web mercator)."""
    opened = {"latitude": latitude, "longitude": longitude, "zoom": picker.NEAR_ZOOM}
    south, west, north, east = shown_box(opened, width_px, height_px)
    return [(south, west), (south, east), (north, west), (north, east)]


@pytest.mark.parametrize("where", [HAYS, (35.1, -106.6), (25.9, -97.5)])
def test_the_surroundings_box_holds_the_whole_map_on_a_wide_screen(where):
    # a 1920-wide window gives the picker a map about 870 px wide: a click anywhere on it,
    # corners included, moves the pin and leaves the view (a click outside the box moves it)
    centre = h3.latlng_to_cell(*where, picker.NEAR_RES)
    for corner in corners_of_view(*h3.cell_to_latlng(centre), 1300, 700):
        assert picker.in_view(corner, centre), corner
    latitude, longitude = h3.cell_to_latlng(centre)
    assert not picker.in_view((latitude + 1.0, longitude), centre)
    assert not picker.in_view((latitude, longitude - 2.0), centre)
    assert not picker.in_view(where, None)  # the region view: every click moves the view


def test_a_click_is_read_as_its_point_and_id_and_a_malformed_value_as_no_click():
    click = click_map.read_click({"latitude": 29.883312345, "longitude": -97.94141, "click": "a:1"})
    assert (click.latitude, click.longitude, click.click) == (29.88331, -97.94141, "a:1")
    assert click_map.read_click(None) is None
    assert click_map.read_click({"latitude": 29.9, "longitude": -97.9}) is None
    assert click_map.read_click({"latitude": "north", "longitude": 1, "click": "a:2"}) is None
    assert click_map.read_click([29.9, -97.9]) is None


def test_the_counties_around_a_point_include_its_neighbours_not_far_ones(counties):
    names = {county.name for county in picker.counties_near(counties, *HAYS)}
    assert {"Hays", "Travis", "Caldwell", "Comal"} <= names
    assert "Dallas" not in names and "Harris" not in names


def test_the_deck_holds_its_view_and_layers_and_no_double_click_zoom():
    layer = picker.county_names_layer([])
    spec = picker.deck_spec([layer], picker.view(*HAYS, picker.NEAR_ZOOM))
    assert spec["initialViewState"]["zoom"] == picker.NEAR_ZOOM
    assert spec["layers"][0]["@@type"] == "TextLayer"
    # a double click would zoom as well as place the pin twice
    assert spec["views"][0]["controller"]["doubleClickZoom"] is False
    # the country view when no view is given
    assert picker.deck_spec([], None)["initialViewState"]["zoom"] == picker.country_view().zoom


def test_the_map_page_loads_deck_gl_from_the_component_that_serves_it():
    # the map's script names the bundle's component where it loads it: a rename must follow it
    script = (click_map.FRONTEND / "click_map.js").read_text()
    assert f'"../{click_map.BUNDLE_COMPONENT}/{click_map.BUNDLE_FILE}"' in script
    assert (click_map.DECK_BUNDLE / click_map.BUNDLE_FILE).stat().st_size > 1_000_000
    assert '<script src="click_map.js">' in (click_map.FRONTEND / "index.html").read_text()


def test_county_names_sit_inside_their_county_in_one_small_text_layer(counties):
    near = picker.counties_near(counties, *HAYS)
    layer = picker.county_names_layer(near)
    assert layer["@@type"] == "TextLayer"
    rows = {row["text"]: row["position"] for row in layer["data"]}
    for county in near:
        lng, lat = rows[county.name]
        assert county.shape.covers(Point(lng, lat)), county.label
    # the font atlas holds only the characters drawn
    assert set(layer["characterSet"]) == set("".join(rows))


def test_a_layer_is_written_as_pydeck_writes_it_in_a_deck():
    layer = maps.pin_layer(*HAYS)
    in_deck = json.loads(maps.CompactDeck(layers=[layer]).to_json())["layers"][0]
    assert picker.layer_spec(layer) == in_deck


def test_a_views_grid_layers_are_kept_for_its_next_click_and_never_shown_for_another():
    from components import grid_context

    def marker(name, latitude, longitude, mw):
        return grid_context.PlantMarker(name, latitude, longitude, mw)

    near = [geography.region_counties()["48209"]]  # Hays
    context = grid_context.GridContext(
        (marker("North", 30.5, -97.9, 100.0), marker("South", 29.5, -97.9, 200.0)), {}
    )
    north_box, south_box = (30.0, -98.5, 31.0, -97.5), (29.0, -98.5, 30.0, -97.5)

    def drawn(box):
        specs, labels = picker.grid_layers(context, near, box)
        rows = maps.layer_rows(specs[0])
        return [row["position"] for row in rows], [row["text"] for row in labels]

    north = drawn(north_box)
    assert north[0] == [[-97.9, 30.5]] and "North · 100 MW" in north[1]
    assert drawn(north_box) == north, "the same view draws the same grid"
    south = drawn(south_box)
    assert south[0] == [[-97.9, 29.5]] and "South · 200 MW" in south[1]
    # kept: the second asking returns the layer built the first time, not a new one
    assert (
        picker.grid_layers(context, near, south_box)[0][0]
        is (picker.grid_layers(context, near, south_box)[0][0])
    )
    other = grid_context.GridContext((marker("Other", 29.6, -97.8, 50.0),), {})
    specs, _ = picker.grid_layers(other, near, south_box)
    assert [row["position"] for row in maps.layer_rows(specs[0])] == [[-97.8, 29.6]], (
        "another connection's grid is its own"
    )
    for index in range(picker.GRID_VIEWS_KEPT + 1):  # a bounded memo
        picker.grid_layers(context, near, (29.0, -98.5, 30.0 + index / 1000, -97.5))
    assert len(context.drawn) <= picker.GRID_VIEWS_KEPT


def test_the_map_opens_on_the_lower_48_with_every_state_outline_in_view():
    spec = picker.deck_spec([picker.state_outlines()], None)
    edges = maps.layer_rows(spec["layers"][0])
    points = [point for edge in edges for point in (edge["from"], edge["to"])]
    drawn = (
        min(lat for _, lat in points),
        min(lng for lng, _ in points),
        max(lat for _, lat in points),
        max(lng for lng, _ in points),
    )
    # the outlines drawn reach the four corners of the lower 48
    for city, (lat, lng) in {
        "Seattle": (47.61, -122.33),
        "San Diego": (32.72, -117.16),
        "Miami": (25.76, -80.19),
        "Bangor": (44.80, -68.77),
    }.items():
        assert drawn[0] < lat < drawn[2] and drawn[1] < lng < drawn[3], city
    # the view opened on shows them all on the narrowest map, and fills it along one side
    south, west, north, east = shown_box(spec["initialViewState"], *picker.COUNTRY_FIT_PX)
    assert south <= drawn[0] and west <= drawn[1] and north >= drawn[2] and east >= drawn[3]
    assert (drawn[3] - drawn[1]) / (east - west) > 0.9 or (drawn[2] - drawn[0]) / (
        north - south
    ) > 0.8


def test_the_counties_around_a_point_are_read_wherever_in_the_lower_48_it_is():
    for lat, lng, county in ((40.27, -76.88, "Dauphin"), (47.61, -122.33, "King")):
        near = picker.country_counties_near(lat, lng)
        here = geography.county_at({c.fips: c for c in near}, lat, lng)
        assert here is not None and here.name == county
