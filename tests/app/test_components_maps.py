"""The map's pure parts: county outlines, the H3 click grid, and reading a pydeck pick."""

from __future__ import annotations

import h3
import pytest

from components import geography, maps


@pytest.fixture(scope="module")
def counties():
    return geography.read_counties()


def test_region_is_texas_and_neighbours_with_real_county_names(counties):
    states = {county.state for county in counties.values()}
    assert states == {"TX", "NM", "OK", "AR", "LA"}
    assert len([c for c in counties.values() if c.state == "TX"]) == 254
    assert counties["48453"].label == "Travis County, TX"


def test_point_lands_in_its_county_and_the_gulf_in_none(counties):
    assert geography.county_at(counties, 29.8833, -97.9414).name == "Hays"
    assert geography.county_at(counties, 29.7604, -95.3698).name == "Harris"
    assert geography.county_at(counties, 27.0, -94.0) is None


def test_counties_by_name_accepts_names_with_state_and_fips(counties):
    found = geography.counties_by_name(counties, ["Travis, TX", "Harris County", "48001"])
    assert {c.fips for c in found} >= {"48453", "48201", "48001"}
    assert all(c.state == "TX" for c in found if c.name == "Harris")


def test_region_grid_is_coarse_and_light_enough_to_click(counties):
    cells = maps.region_cells(counties.values())
    # every drawn view stays far below the ~250 objects where clicks were seen to get lost
    assert 80 < len(cells) < 200
    assert all(h3.get_resolution(row["hex"]) == 3 for row in cells)
    hays_cell = h3.latlng_to_cell(29.8833, -97.9414, 3)
    assert hays_cell in {row["hex"] for row in cells}


def test_children_are_two_resolutions_finer_and_inside_their_parent():
    parent = h3.latlng_to_cell(29.8833, -97.9414, 3)
    children = maps.child_cells(parent)
    assert len(children) == 49
    assert {h3.cell_to_parent(row["hex"], 3) for row in children} == {parent}
    assert all(h3.get_resolution(row["hex"]) == 5 for row in children)


def test_counties_in_a_cell_are_the_ones_it_meets(counties):
    cell = h3.latlng_to_cell(29.8833, -97.9414, 5)
    names = {county.name for county in maps.counties_in_cell(counties.values(), cell)}
    assert "Hays" in names and "Dallas" not in names


def test_a_coarse_cell_pick_zooms_and_a_fine_cell_pick_is_a_point():
    coarse = h3.latlng_to_cell(29.88, -97.94, 5)
    event = {"selection": {"objects": {"cells": [{"hex": coarse}]}}}
    assert maps.read_pick(event) == maps.MapPick(cell=coarse)
    fine = h3.latlng_to_cell(29.88, -97.94, 7)
    row = maps.cell_row(fine)
    pick = maps.read_pick({"selection": {"indices": {"cells": [0]}, "objects": {"cells": [row]}}})
    assert pick.is_point and pick.cell == fine
    assert (pick.latitude, pick.longitude) == pytest.approx(h3.cell_to_latlng(fine), abs=1e-5)


def test_no_selection_or_another_layer_picks_nothing():
    assert maps.read_pick({"selection": {"indices": {}, "objects": {}}}) is None
    assert maps.read_pick(None) is None
    other = {"selection": {"objects": {"counties": [{"properties": {"fips": "48209"}}]}}}
    assert maps.read_pick(other) is None


def test_the_map_is_offline_unless_a_basemap_is_configured(monkeypatch, counties):
    monkeypatch.delenv("GRID_APP_BASEMAP_STYLE", raising=False)
    offline = maps.deck([maps.county_layer(list(counties.values())[:3])])
    assert offline.map_style is None and offline.map_provider is None
    monkeypatch.setenv("GRID_APP_BASEMAP_STYLE", "light")
    online = maps.deck([])
    assert "positron" in online.map_style and online.map_provider == "carto"


def test_a_cell_view_centres_on_the_cell_or_on_a_point_inside_it():
    point = (29.8833, -97.9414)
    cell = h3.latlng_to_cell(*point, maps.MIDDLE_CELL_RES)
    centre = h3.cell_to_latlng(cell)
    plain = maps.cell_view(cell)
    assert (plain.latitude, plain.longitude) == pytest.approx(centre)
    assert plain.zoom == maps.ZOOM_BY_RES[maps.MIDDLE_CELL_RES]
    on_point = maps.cell_view(cell, point)
    assert (on_point.latitude, on_point.longitude) == pytest.approx(point)
    elsewhere = maps.cell_view(cell, (32.78, -96.8))  # Dallas is not in the cell
    assert (elsewhere.latitude, elsewhere.longitude) == pytest.approx(centre)
