"""The map's pure parts: county outlines and the offline deck."""

from __future__ import annotations

from itertools import pairwise

import pytest

from components import geography, maps
from components.server import map_rows


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


def test_the_map_is_offline_unless_a_basemap_is_configured(monkeypatch, counties):
    monkeypatch.delenv("GRID_APP_BASEMAP_STYLE", raising=False)
    offline = maps.deck([maps.county_layer(list(counties.values())[:3])])
    # the no-basemap style: Streamlit starts no basemap (with None it would fetch Carto's)
    assert offline.map_style == maps.NO_BASEMAP and offline.map_provider is None
    monkeypatch.setenv("GRID_APP_BASEMAP_STYLE", "light")
    online = maps.deck([])
    assert "positron" in online.map_style and online.map_provider == "carto"


def test_the_deck_json_is_pydecks_spec_written_compactly(counties):
    import json

    import pydeck as pdk

    layers = [maps.county_layer(list(counties.values())[:20]), maps.pin_layer(29.88, -97.94)]
    compact = maps.deck(layers, maps.view(29.88, -97.94, 8)).to_json()
    indented = pdk.Deck.to_json(maps.deck(layers, maps.view(29.88, -97.94, 8)))
    assert json.loads(compact) == json.loads(indented)
    assert len(compact) < len(indented) / 2


def test_counties_are_filled_only_when_a_fill_is_shown_or_a_click_picks_them(counties):
    some = list(counties.values())[:3]

    def filled(**options) -> bool:
        return maps.county_layer(some, **options).filled

    # outlines alone (the generation map): no fill program for the browser to build
    assert not filled(pickable=False)
    assert filled(pickable=False, highlight=[some[0].fips])
    assert filled(pickable=False, candidates=[some[1].fips])
    # a pickable layer is picked through its fill
    assert filled(pickable=True)


def drawn_edges(layer) -> list[frozenset]:
    """The edges an outline layer draws, each as its two ends in either order."""
    rows = maps.layer_rows({"data": layer.data})
    return [frozenset((tuple(row["from"]), tuple(row["to"]))) for row in rows]


def test_outlines_draw_every_edge_of_each_county_and_a_shared_border_once(counties):
    # Bossier and Caddo (LA) share a river border whose simplified vertices agree
    bossier, caddo = counties["22015"], counties["22017"]
    shared = {frozenset(e) for e in bossier.edges} & {frozenset(e) for e in caddo.edges}
    assert len(shared) > 10
    layer = maps.outline_layer([bossier, caddo])
    # the edges leave the page's message: an address the app serves (components.server.map_rows)
    assert map_rows.digest_of(layer.data) is not None
    drawn = drawn_edges(layer)
    assert set(drawn) == {frozenset(e) for c in (bossier, caddo) for e in c.edges}
    assert len(drawn) == len(set(drawn)), "each edge drawn once"
    assert len(drawn) == len(bossier.edges) + len(caddo.edges) - len(shared)
    # lines, not a GeoJsonLayer's stroke (deck.gl's PathLayer: seconds of a map's first frame
    # in a browser without a GPU)
    assert layer.type == "LineLayer" and not layer.pickable


def test_a_county_of_several_polygons_has_each_outlined(counties):
    islands = next(c for c in counties.values() if c.geometry["type"] == "MultiPolygon")
    drawn = set(drawn_edges(maps.outline_layer([islands])))
    for polygon in islands.geometry["coordinates"]:
        ring = polygon[0]
        assert {frozenset((tuple(a), tuple(b))) for a, b in pairwise(ring)} <= drawn
