"""The point picker's pure parts: the clickable surfaces, reading a pick, the compact deck."""

from __future__ import annotations

import json

import h3
import pytest
from shapely.geometry import Point

from components import geography, picker

HAYS = (29.8833, -97.9414)


@pytest.fixture(scope="module")
def counties():
    return geography.read_counties()


def test_the_region_surface_covers_every_county_so_any_click_there_places_a_point(counties):
    cells = {row["hex"] for row in picker.region_surface.__wrapped__()["data"]}
    assert all(h3.get_resolution(cell) == picker.REGION_RES for cell in cells)
    for county in (counties["48209"], counties["48453"], counties["35001"], counties["22071"]):
        inside = county.shape.representative_point()
        assert h3.latlng_to_cell(inside.y, inside.x, picker.REGION_RES) in cells, county.label


def corners_of_view(latitude: float, longitude: float, width_px: int, height_px: int):
    """Return the corners of a map of that size at the surroundings zoom (web mercator)."""
    import math

    world = 512 * 2**picker.NEAR_ZOOM
    half_lng = width_px / 2 / world * 360
    y = math.log(math.tan(math.pi / 4 + math.radians(latitude) / 2))
    corners = []
    for dy in (-height_px / 2, height_px / 2):
        lat = math.degrees(2 * math.atan(math.exp(y + dy / world * 2 * math.pi)) - math.pi / 2)
        corners += [(lat, longitude - half_lng), (lat, longitude + half_lng)]
    return corners


@pytest.mark.parametrize("where", [HAYS, (35.1, -106.6), (25.9, -97.5)])
def test_the_fine_cells_cover_the_whole_surroundings_map_on_a_wide_screen(where):
    # a 1920-wide window gives the picker a map about 870 px wide; a click anywhere on it,
    # corners included, must land on a fine cell (it used to fall off a 35 km hexagon)
    centre = h3.latlng_to_cell(*where, picker.NEAR_RES)
    cells = {row["hex"] for row in picker.near_surface.__wrapped__(centre)["data"]}
    assert centre in cells and {h3.get_resolution(cell) for cell in cells} == {picker.NEAR_RES}
    for latitude, longitude in corners_of_view(*h3.cell_to_latlng(centre), 1300, 700):
        assert h3.latlng_to_cell(latitude, longitude, picker.NEAR_RES) in cells


def test_a_pick_is_the_centre_of_the_picked_cell_and_only_a_region_pick_moves_the_view():
    coarse = h3.latlng_to_cell(*HAYS, picker.REGION_RES)
    event = {"selection": {"objects": {picker.CLICK_LAYER_ID: [{"hex": coarse}]}}}
    pick = picker.read_pick(event)
    assert (pick.latitude, pick.longitude) == pytest.approx(h3.cell_to_latlng(coarse), abs=1e-5)
    assert pick.moves_view
    fine = h3.latlng_to_cell(*HAYS, picker.NEAR_RES)
    event = {"selection": {"objects": {picker.CLICK_LAYER_ID: [{"hex": fine}]}}}
    pick = picker.read_pick(event)
    assert pick.cell == fine and not pick.moves_view


def test_no_selection_another_layer_or_a_bad_cell_picks_nothing():
    assert picker.read_pick({"selection": {"indices": {}, "objects": {}}}) is None
    assert picker.read_pick(None) is None
    other = {"selection": {"objects": {"counties": [{"properties": {"fips": "48209"}}]}}}
    assert picker.read_pick(other) is None
    bad = {"selection": {"objects": {picker.CLICK_LAYER_ID: [{"hex": "not-a-cell"}]}}}
    assert picker.read_pick(bad) is None


def test_the_counties_around_a_point_include_its_neighbours_not_far_ones(counties):
    names = {county.name for county in picker.counties_near(counties, *HAYS)}
    assert {"Hays", "Travis", "Caldwell", "Comal"} <= names
    assert "Dallas" not in names and "Harris" not in names


def test_the_deck_is_written_compactly_with_its_view_and_offline(monkeypatch):
    monkeypatch.delenv("GRID_APP_BASEMAP_STYLE", raising=False)
    layer = picker.county_names_layer([])
    deck = picker.deck_spec([layer], picker.view(*HAYS, picker.NEAR_ZOOM))
    text = deck.to_json()
    assert "\n" not in text and ": " not in text
    spec = json.loads(text)
    assert spec["initialViewState"]["zoom"] == picker.NEAR_ZOOM
    assert spec["layers"][0]["@@type"] == "TextLayer"
    # no basemap style at all: Streamlit would otherwise fetch Carto's (failing offline)
    assert spec["mapStyle"] == picker.NO_BASEMAP and "mapProvider" not in spec


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
