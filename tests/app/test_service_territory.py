"""Service territory: a typed or clicked point resolves to candidates, labelled as heuristics."""

from __future__ import annotations

import h3
import pytest
from conftest import click_map, drawn_map, page_path, unescape
from streamlit.testing.v1 import AppTest

from components import geography, picker
from gridservice.demo import DEMO_POINTS

CONFIDENCE = "Confidence (source-authority heuristic, not accuracy)"
POLYGON_METHOD = "retail_territory_polygon"
HARVESTED_EVIDENCE = {
    "sourceId", "publisher", "fileName", "featureIndex", "regionId", "assetHash",
    "sourceLocator", "authority", "license", "attribution",
}  # fmt: skip


def resolve_on_page(point: tuple[float, float]) -> AppTest:
    at = AppTest.from_file(page_path("service_territory"), default_timeout=90)
    at.run()
    assert [i.value for i in at.info] == [
        "No point yet: click the map or type latitude and longitude."
    ]
    at.number_input(key="territory.latitude").set_value(point[0])
    at.number_input(key="territory.longitude").set_value(point[1])
    at.run()
    assert not at.exception and not at.error
    return at


def test_dual_certified_point_lists_both_utilities_with_heuristic_confidence(service_env):
    at = resolve_on_page(DEMO_POINTS["dual_certified"])
    assert "County: Hays, TX (FIPS 48209)" in [t.value for t in at.text]
    table = at.dataframe[0].value
    # one narrow table, so at 1280 px the heuristic confidence is on screen next to the name
    assert list(table.columns) == ["Utility", CONFIDENCE, "CCN", "ISO/RTO"]
    assert set(table["Utility"]) == {
        "Lone Star Metro Electric (demo)",
        "Hill Country Electric Cooperative (demo)",
    }
    assert set(table["CCN"]) == {"30901", "10977"}
    assert list(table[CONFIDENCE]) == [0.425, 0.425]
    provenance = [t.value for t in at.text if "found by" in t.value]
    assert len(provenance) == 2
    assert all("Source: regulatory order, PUCT CCN filings (demo)" in t for t in provenance)
    tips = [t.proto.help for t in at.text if "found by" in t.value]
    assert all("Source id: demo-puct-ccn" in tip for tip in tips)
    assert any(
        text.startswith("Lone Star Metro Electric (demo) (investor owned utility, utility id")
        and "found by county union polygon" in text
        and "The point is in Hays, TX, one of the territory's 4 counties" in text
        for text in provenance
    )
    assert "2 territories overlap here" in at.info[0].value
    assert any("source-authority heuristic, not accuracy" in c.value for c in at.caption)


def test_the_map_moves_to_the_point_and_frames_its_surroundings(service_env):
    latitude, longitude = DEMO_POINTS["dual_certified"]
    at = resolve_on_page((latitude, longitude))
    spec = drawn_map(at)
    around = h3.cell_to_latlng(h3.latlng_to_cell(latitude, longitude, picker.NEAR_RES))
    # centred on the point's cell at the surroundings zoom: its county and neighbours show
    assert spec["initialViewState"]["latitude"] == pytest.approx(around[0])
    assert spec["initialViewState"]["longitude"] == pytest.approx(around[1])
    assert spec["initialViewState"]["zoom"] == picker.NEAR_ZOOM
    pin = next(layer for layer in spec["layers"] if layer.get("id") == "pin")
    assert pin["data"][0]["latitude"] == latitude


def test_a_map_click_resolves_the_clicked_point_at_once(service_env):
    at = AppTest.from_file(page_path("service_territory"), default_timeout=90)
    at.run()
    latitude, longitude = DEMO_POINTS["dual_certified"]
    click_map(at, "territory", latitude, longitude)
    # the point shown and resolved is the clicked one, in the same run as the click
    assert f"**Point:** {latitude:.5f}, {longitude:.5f}" in [m.value for m in at.markdown]
    assert any(t.value.startswith("County: ") for t in at.text)


def layer_fips(at: AppTest, layer_id: str) -> set[str]:
    layer = next(layer for layer in drawn_map(at)["layers"] if layer.get("id") == layer_id)
    return {feature["properties"]["fips"] for feature in layer["data"]}


def test_the_map_shades_the_candidate_territories_counties(service_env):
    at = resolve_on_page(DEMO_POINTS["dual_certified"])
    shaded = layer_fips(at, "territory_counties")
    # Hays (the point's county), Travis (both territories) and Gillespie (Hill Country only)
    # are drawn; Dallas is not.
    assert {"48209", "48453", "48171"} <= shaded
    assert "48113" not in shaded


def test_the_shaded_counties_are_named_over_their_shading(service_env):
    at = resolve_on_page(DEMO_POINTS["dual_certified"])
    spec = drawn_map(at)
    ids = [layer.get("id") for layer in spec["layers"]]
    labels = spec["layers"][ids.index("map_labels")]
    names = {row["text"] for row in labels["data"]}
    counties = geography.region_counties()
    shaded = {counties[fips].name for fips in layer_fips(at, "territory_counties")}
    # every shaded county is named, and the names are drawn after (over) the shading
    assert shaded <= names
    assert ids.index("map_labels") > ids.index("territory_counties")


def test_unserved_point_says_no_territory_plainly(service_env):
    at = resolve_on_page(DEMO_POINTS["unserved"])
    assert "County: Dallas, TX (FIPS 48113)" in [t.value for t in at.text]
    assert [w.value for w in at.warning] == ["No service territory found for this point."]
    assert not at.dataframe


def test_point_outside_every_county_says_so(service_env):
    at = resolve_on_page(DEMO_POINTS["outside_coverage"])
    assert "The point is in no county the service has loaded." in [t.value for t in at.text]
    assert [w.value for w in at.warning] == ["No service territory found for this point."]


def test_the_demo_draws_two_overlapping_territory_polygons_in_loudoun(service_env, alpha_client):
    latitude, longitude = DEMO_POINTS["polygon_overlap"]
    answer = alpha_client.service_territories.resolve(latitude=latitude, longitude=longitude)
    polygons = [c for c in answer.candidates if c.resolution_method == POLYGON_METHOD]
    assert len(polygons) == len(answer.polygons) == 2
    for candidate in polygons:
        # the fields a harvested HIFLD feature's evidence carries, the demo's in them
        assert set(candidate.evidence) >= HARVESTED_EVIDENCE
        assert "HIFLD" not in candidate.evidence["attribution"]
        # both methods name the utility, in the demo's words (there is no EIA-861 here)
        assert candidate.method_agreement.agrees
        assert "EIA-861" not in candidate.method_agreement.note
    at = resolve_on_page((latitude, longitude))
    layer = next(
        layer for layer in drawn_map(at)["layers"] if layer.get("id") == "territory_polygons"
    )
    assert [f["geometry"] for f in layer["data"]] == [o.geometry for o in answer.polygons]
    captions = [unescape(c.value) for c in at.caption]
    [legend] = [c for c in captions if c.startswith("Territory polygons holding the point")]
    assert "HIFLD" not in legend and "The point lies in all 2" in legend
    assert all(c.utility in legend for c in polygons)
    assert polygons[0].evidence["attribution"] in captions
    assert {c.utility for c in polygons} <= set(at.dataframe[0].value["Utility"])
