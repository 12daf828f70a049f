"""The generation page: generator filters, the plant map, a plant's monthly generation."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from conftest import popover_labels, unescape
from streamlit.testing.v1 import AppTest

from components import generation_view, maps

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "generation.py")


def test_filters_map_and_monthly_generation(service_env, alpha_client):
    at = AppTest.from_file(PAGE, default_timeout=90).run()
    assert not at.exception and not at.error
    technology = at.selectbox(key="filter:generation:technology").options[1]
    at.selectbox(key="filter:generation:technology").select(technology).run()
    expected = alpha_client.generators.list(technology=technology).to_list()
    assert at.markdown[0].value.startswith(f"**{len(expected):,}** generators")
    # the legend: the one technology left, named whole beside its map colour, with its MW
    legend = next(h.proto.body for h in at.get("html") if 'class="gss-legend"' in h.proto.body)
    colour = generation_view.technology_hex(technology)
    assert legend.count('class="gss-legend-row"') == 1
    assert f'<span class="gss-name">{html.escape(technology)}</span>' in legend
    assert f"background:{colour}" in legend
    mw = sum(g.nameplate_capacity_mw or 0 for g in expected if g.agency_plant_id is not None)
    assert f"{mw:,.0f} MW</span>" in legend
    assert not at.get("vega_lite_chart")  # no chart library loaded for a list

    deck = json.loads(at.get("deck_gl_json_chart")[0].proto.json)
    plants = next(layer for layer in deck["layers"] if layer["id"] == "plants")
    rows = maps.layer_rows(plants)
    # each plant drawn is labelled with its technology, the one chosen, and carries its id
    assert {row["label"].split(" · ")[1] for row in rows} == {technology}
    assert {row["agencyPlantId"] for row in rows} <= {g.agency_plant_id for g in expected}
    # under them, every county of the region outlined, in lines
    from components.geography import read_counties

    outlines = next(layer for layer in deck["layers"] if layer["id"] == "counties")
    assert outlines["@@type"] == "LineLayer"
    drawn = {frozenset((tuple(r["from"]), tuple(r["to"]))) for r in maps.layer_rows(outlines)}
    assert all(frozenset(e) in drawn for c in read_counties().values() for e in c.edges)

    # the other view: the same generators as a table
    at.session_state[generation_view.VIEW_KEY] = "Generators"
    at.run()
    generators = at.dataframe[0].value
    assert set(generators["id"]) == {g.id for g in expected}
    assert set(generators["technology"]) == {technology}

    plant_id = next(g.agency_plant_id for g in expected)
    at.selectbox(key="generation.plant").select(plant_id).run()
    assert not at.exception and not at.error
    operations = alpha_client.generator_operations.list(plant_id=plant_id).to_list()
    monthly = at.dataframe[-1].value
    assert len(monthly) == len(operations)
    assert monthly["netGenerationMwh"].sum() == sum(op.net_generation_mwh for op in operations)


def test_a_click_on_a_plant_chooses_it_and_the_map_is_drawn_in_its_place(service_env, alpha_client):
    at = AppTest.from_file(PAGE, default_timeout=90).run()
    assert not at.exception and not at.error
    deck = json.loads(at.get("deck_gl_json_chart")[0].proto.json)
    plant = maps.layer_rows(next(layer for layer in deck["layers"] if layer["id"] == "plants"))[0]
    headings = [element.value for element in at.main if element.type == "subheader"]
    assert headings == ["Monthly net generation of a plant"]
    assert popover_labels(at)[-1] == "Choose a plant by name"
    at.session_state["generation.map"] = {
        "selection": {"indices": {"plants": [0]}, "objects": {"plants": [plant]}}
    }
    at.run()
    assert not at.exception and not at.error
    assert at.selectbox(key="generation.plant").value == plant["agencyPlantId"]
    # the picker, folded in its popover, is named by the plant chosen
    name = plant["label"].split(" · ")[0]
    label = popover_labels(at)[-1]
    assert unescape(label) == f"{name} (plant {plant['agencyPlantId']})"
    assert "\\(" in label  # the name's punctuation is escaped: the label is Markdown
    operations = alpha_client.generator_operations.list(plant_id=plant["agencyPlantId"]).to_list()
    expected = sum(op.net_generation_mwh for op in operations)
    assert at.dataframe[-1].value["netGenerationMwh"].sum() == pytest.approx(expected)


def test_the_map_stays_when_a_plants_output_cannot_be_read(service_env, monkeypatch):
    from components import data
    from gridclient import APIConnectionError

    def unreachable(*args, **kwargs):
        raise APIConnectionError("the service did not answer")

    at = AppTest.from_file(PAGE, default_timeout=90).run()
    monkeypatch.setattr(data, "generator_operations", unreachable)
    at.selectbox(key="generation.plant").select_index(0).run()
    assert not at.exception
    assert at.error, "the page says what went wrong"
    assert len(at.get("deck_gl_json_chart")) == 1, "and the plant map is still drawn"


def test_the_map_and_the_table_are_two_views_and_only_the_open_one_is_built(service_env):
    at = AppTest.from_file(PAGE, default_timeout=90).run()
    assert not at.exception and not at.error
    assert [tab.label for tab in at.tabs] == list(generation_view.VIEWS)
    # the map's view first: the map and its legend, no generators table
    assert len(at.get("deck_gl_json_chart")) == 1
    assert not at.dataframe
    at.session_state[generation_view.VIEW_KEY] = "Generators"
    at.run()
    assert not at.exception and not at.error
    # the table's view: the table and no map
    assert not at.get("deck_gl_json_chart")
    assert len(at.dataframe) == 1
    # an address naming the view opens it (the browser puts the open view in the address:
    # tests/e2e/test_views_in_tabs.py)
    shared = AppTest.from_file(PAGE, default_timeout=90)
    shared.query_params[generation_view.VIEW_KEY] = "Generators"
    shared.run()
    assert not shared.exception and len(shared.dataframe) == 1
    assert not shared.get("deck_gl_json_chart")


def figures(client, generators) -> str:
    """The page's line of figures for these generators, as the service lists them: their
    count, their nameplate MW and how many of the service's plants they belong to."""
    mw = sum(g.nameplate_capacity_mw or 0 for g in generators)
    known = {p.agency_plant_id for p in client.generation_plants.list(limit=500)}
    plants = {g.agency_plant_id for g in generators} & known
    return f"**{len(generators):,}** generators · **{mw:,.0f} MW** nameplate · **{len(plants):,}** plants"


@pytest.mark.parametrize(
    "query",
    [
        {"state": "TX"},
        {"state": "tx", "status": "Operating"},
        {"ba_code": "SWPP", "min_mw": "50"},
        {"technology": "Batteries", "max_mw": "100"},
    ],
    ids=["state", "state-status", "authority-min-mw", "technology-max-mw"],
)
def test_the_filters_count_every_generator_the_service_lists(
    service_env, alpha_client, monkeypatch, query
):
    """Each filter of the current view counts what the service's own filter lists, whole,
    however long: a filtered list asked of the service is cut (here at 20)."""
    from components import data
    from components.data import records

    monkeypatch.setattr(records, "FILTERED_MAX", 20)
    monkeypatch.setattr(data, "FILTERED_MAX", 20)
    at = AppTest.from_file(PAGE, default_timeout=90)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception and not at.error
    bounds = {"min_mw": "min_capacity_mw", "max_mw": "max_capacity_mw"}
    sent = {
        bounds.get(name, name): float(value) if name in bounds else value
        for name, value in query.items()
    }
    expected = alpha_client.generators.list(**sent, limit=500).to_list()
    assert expected, "the demo store has generators that pass these filters"
    assert at.markdown[0].value == figures(alpha_client, expected)
    # the table lists those very generators
    at.session_state[generation_view.VIEW_KEY] = "Generators"
    at.run()
    assert set(at.dataframe[0].value["id"]) == {g.id for g in expected}
    # and the plant picker offers their plants
    plants = {g.agency_plant_id for g in expected if g.agency_plant_id is not None}
    offered = {
        int(re.search(r"\(plant (\d+)\)$", label).group(1))
        for label in at.selectbox(key="generation.plant").options
    }
    assert offered and offered <= plants


def test_a_source_release_cut_by_the_service_says_so(service_env, alpha_client, monkeypatch):
    from components import data
    from components.data import records

    release = "demo-eia860m-2025-06"
    versions = alpha_client.generators.list(source_id=release, limit=500).to_list()
    assert len(versions) > 20, "the demo store holds an older release of the generators"
    at = AppTest.from_file(PAGE, default_timeout=90)
    at.query_params["source_id"] = release
    at.run()
    assert not at.exception and not at.error
    assert at.markdown[0].value == figures(alpha_client, versions)
    assert not at.warning, "a release read whole is not said to be cut"

    monkeypatch.setattr(records, "FILTERED_MAX", 20)
    monkeypatch.setattr(data, "FILTERED_MAX", 20)
    records.generators.clear()
    at.run()
    assert not at.exception and not at.error
    assert at.markdown[0].value == figures(alpha_client, versions[:20])
    assert "Only the first 20 generators of this source release" in at.warning[0].value
