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


def test_cells_cover_the_county_and_their_centres_fall_inside(counties):
    hays = counties["48209"]
    cells = maps.county_cells(hays)
    assert 50 < len(cells) <= maps.MAX_CELLS
    inside = [geography.county_at(counties, c["latitude"], c["longitude"]) for c in cells[:40]]
    assert all(county is not None and county.fips == "48209" for county in inside)


def test_large_county_gets_a_coarser_grid_under_the_cap(counties):
    brewster = counties["48043"]  # the largest county in Texas
    assert maps.cell_resolution(brewster) < maps.cell_resolution(counties["48209"])
    assert len(maps.county_cells(brewster)) <= maps.MAX_CELLS


def test_a_cell_pick_gives_its_centre_and_wins_over_a_county():
    event = {
        "selection": {
            "indices": {"cells": [3], "counties": [0]},
            "objects": {
                "cells": [{"hex": "872a1072bffffff", "latitude": 29.9, "longitude": -97.9}],
                "counties": [{"properties": {"fips": "48209"}}],
            },
        }
    }
    assert maps.read_pick(event) == maps.MapPick(latitude=29.9, longitude=-97.9)


def test_a_county_pick_names_the_county_and_a_hex_only_pick_uses_its_centre():
    county_event = {"selection": {"objects": {"counties": [{"properties": {"fips": "48209"}}]}}}
    assert maps.read_pick(county_event) == maps.MapPick(county_fips="48209")
    cell = h3.latlng_to_cell(29.88, -97.94, 8)
    pick = maps.read_pick({"selection": {"objects": {"cells": [{"hex": cell}]}}})
    assert pick.is_point
    assert (pick.latitude, pick.longitude) == pytest.approx(h3.cell_to_latlng(cell))


def test_no_selection_picks_nothing():
    assert maps.read_pick({"selection": {"indices": {}, "objects": {}}}) is None
    assert maps.read_pick(None) is None


def test_the_map_is_offline_unless_a_basemap_is_configured(monkeypatch, counties):
    monkeypatch.delenv("GRID_APP_BASEMAP_STYLE", raising=False)
    offline = maps.deck([maps.county_layer(list(counties.values())[:3])])
    assert offline.map_style is None and offline.map_provider is None
    monkeypatch.setenv("GRID_APP_BASEMAP_STYLE", "light")
    online = maps.deck([])
    assert "positron" in online.map_style and online.map_provider == "carto"
