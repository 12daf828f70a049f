"""The point picker's pure parts: the clickable surfaces, reading a pick, the compact deck."""

from __future__ import annotations

import json

import h3
import pytest

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


def test_the_surroundings_surface_surrounds_its_centre_with_fine_cells():
    centre = h3.latlng_to_cell(*HAYS, picker.NEAR_RES)
    cells = [row["hex"] for row in picker.near_surface.__wrapped__(centre)["data"]]
    assert centre in cells and len(cells) == 3 * picker.NEAR_RING * (picker.NEAR_RING + 1) + 1
    assert {h3.get_resolution(cell) for cell in cells} == {picker.NEAR_RES}


def test_a_pick_is_the_centre_of_the_picked_cell_and_only_a_region_pick_moves_the_view():
    coarse = h3.latlng_to_cell(*HAYS, picker.REGION_RES)
    event = {"selection": {"objects": {picker.REGION_LAYER_ID: [{"hex": coarse}]}}}
    pick = picker.read_pick(event)
    assert (pick.latitude, pick.longitude) == pytest.approx(h3.cell_to_latlng(coarse), abs=1e-5)
    assert pick.moves_view
    fine = h3.latlng_to_cell(*HAYS, picker.NEAR_RES)
    event = {"selection": {"objects": {picker.NEAR_LAYER_ID: [{"hex": fine}]}}}
    pick = picker.read_pick(event)
    assert pick.cell == fine and not pick.moves_view


def test_no_selection_another_layer_or_a_bad_cell_picks_nothing():
    assert picker.read_pick({"selection": {"indices": {}, "objects": {}}}) is None
    assert picker.read_pick(None) is None
    other = {"selection": {"objects": {"counties": [{"properties": {"fips": "48209"}}]}}}
    assert picker.read_pick(other) is None
    bad = {"selection": {"objects": {picker.NEAR_LAYER_ID: [{"hex": "not-a-cell"}]}}}
    assert picker.read_pick(bad) is None


def test_the_counties_around_a_point_include_its_neighbours_not_far_ones(counties):
    names = {county.name for county in picker.counties_near(counties, *HAYS)}
    assert {"Hays", "Travis", "Caldwell", "Comal"} <= names
    assert "Dallas" not in names and "Harris" not in names


def test_the_deck_is_written_compactly_with_its_view_and_offline(monkeypatch):
    monkeypatch.delenv("GRID_APP_BASEMAP_STYLE", raising=False)
    layer = picker.layer_spec(picker.county_names_layer([]))
    deck = picker.deck_spec([layer], picker.view(*HAYS, picker.NEAR_ZOOM))
    text = deck.to_json()
    assert "\n" not in text and ": " not in text
    spec = json.loads(text)
    assert spec["initialViewState"]["zoom"] == picker.NEAR_ZOOM
    assert spec["layers"][0]["@@type"] == "TextLayer" and "mapStyle" not in spec
