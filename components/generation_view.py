"""Generators and plants: frames for the tables, the plant map layer, monthly net generation."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import html
import math
from collections.abc import Iterable
from typing import Any

import pandas as pd
import pydeck as pdk
import streamlit as st

from components import charts, data, filters, glossary, maps
from components.connection import ConnectionKey
from components.geography import region_counties
from components.grid_context import plant_capacity
from components.tables import (
    PROVENANCE_COLUMNS,
    ShownTable,
    by_attribute,
    mw_column,
    mwh_column,
    provenance_config,
    records_frame,
    show_rows,
    show_table,
    shown_table,
)
from components.text import escape_markdown
from gridclient import GenerationPlant, Generator, GeneratorOperation

GENERATOR_COLUMNS = [
    "generatorId",
    "plantName",
    "agencyPlantId",
    "utilityName",
    "state",
    "county",
    "balancingAuthorityCode",
    "status",
    "technology",
    "energySourceCode",
    "primeMoverCode",
    "nameplateCapacityMw",
    "summerCapacityMw",
    "winterCapacityMw",
    "operatingDate",
    "plannedOperationDate",
    "retirementDate",
    "preliminary",
    "id",
]
PLANT_COLUMNS = [
    "agencyPlantId",
    "plantName",
    "utilityName",
    "state",
    "county",
    "balancingAuthorityCode",
    "nercRegion",
    "sectorName",
    "latitude",
    "longitude",
    "preliminary",
    "id",
]


def generators_frame(generators: Iterable[Generator]) -> pd.DataFrame:
    """Return generators as a flat frame with provenance and quality flags as text."""
    return records_frame(generators, by_attribute(GENERATOR_COLUMNS) | PROVENANCE_COLUMNS)


@dataclasses.dataclass(frozen=True)
class GenerationFrames:
    """The generators that pass the filters as a frame and as the table drawn, and the plants
    they belong to, with their capacity from those generators."""

    generators: pd.DataFrame
    table: ShownTable
    plants: pd.DataFrame

    @functools.cached_property
    def drawn_plants(self) -> pd.DataFrame:
        """The plants the map draws and the chooser offers: the largest `PLANTS_DRAWN`."""
        return largest_plants(self.plants)

    @functools.cached_property
    def deck(self) -> pdk.Deck:
        """The region's county outlines with the plants drawn on top."""
        return plant_deck(self.drawn_plants)

    @functools.cached_property
    def words(self) -> dict[str, pd.Series]:
        """Each text filter's column, case folded: what `narrowed` compares, folded once."""
        return {
            column: self.generators[column].astype("string").str.casefold()
            for column in TEXT_FILTERS.values()
        }

    @functools.cached_property
    def choices(self) -> dict[str, list[str]]:
        """Each filter's choices, `any` first, from these generators' distinct values."""
        return {column: filter_choices(self.generators, column) for column in TEXT_FILTERS.values()}


def generation_frames(
    generators: Iterable[Generator], plants: Iterable[GenerationPlant]
) -> GenerationFrames:
    """Return the frames of the page for these generators and the plants they belong to."""
    frame = generators_frame(generators)
    with_capacity = plants_frame(plants, frame)
    with_capacity = with_capacity[with_capacity["agencyPlantId"].isin(set(frame["agencyPlantId"]))]
    return GenerationFrames(frame, shown_table(frame, generator_table_config()), with_capacity)


# The interface's generator filters on the current view, by the frame's column each matches:
# text filters word for word, whatever the case (the service's columns are NOCASE).
TEXT_FILTERS = {
    "state": "state",
    "status": "status",
    "ba_code": "balancingAuthorityCode",
    "technology": "technology",
}


def narrowed(every: GenerationFrames, arguments: dict[str, Any]) -> GenerationFrames:
    """Return the generators of `every` (the current view, whole) that pass the interface's
    filters in `arguments` (as `draw_generator_filters` returns them, `source_id` unset),
    and the plants they belong to with their capacity from those generators only.

    Matched as the service matches them, on the list already loaded: a filtered list asked
    of the service was cut at 5,000 generators, so a state of 8,538 counted 5,000 (scale 10).
    The table stays the whole list's: the page draws the rows of these generators from it.
    """
    generators = every.generators
    keep = pd.Series(True, index=generators.index)
    for name, column in TEXT_FILTERS.items():
        if arguments.get(name) is not None:
            keep &= (every.words[column] == str(arguments[name]).casefold()).fillna(False)
    capacity = generators["nameplateCapacityMw"]
    if arguments.get("plant_id") is not None:
        keep &= generators["agencyPlantId"] == arguments["plant_id"]
    if arguments.get("min_capacity_mw") is not None:
        keep &= capacity >= arguments["min_capacity_mw"]
    if arguments.get("max_capacity_mw") is not None:
        keep &= capacity <= arguments["max_capacity_mw"]
    chosen = generators[keep]
    plants = every.plants.drop(columns=["capacityMw", "technology"])
    plants = plants[plants["agencyPlantId"].isin(set(chosen["agencyPlantId"]))]
    return GenerationFrames(chosen, every.table, with_capacity(plants, chosen))


def every_generation(
    conn: ConnectionKey, generators: list[Generator], plants: list[GenerationPlant]
) -> GenerationFrames:
    """Return the page's frames for every generator (`data.all_generators`) and every plant,
    made once for those lists: an unfiltered visit only draws them."""
    return data.derived(
        conn, "generators and plants", (generators, plants),
        lambda: generation_frames(generators, plants),
        spinner=f"Making the table of {len(generators):,} generators and {len(plants):,} plants…",
    )  # fmt: skip


# The plants the map draws at most, largest first: each is a row of the map's JSON on every
# visit, and the 4,000 plants of a scale-10 store were most of what the page still sent once
# its table was bounded. At the region's zoom the smallest are dots under the largest.
PLANTS_DRAWN = 2_000


def largest_plants(plants: pd.DataFrame, limit: int = PLANTS_DRAWN) -> pd.DataFrame:
    """Return at most `limit` plants, the largest nameplate MW first (ties by plant id)."""
    if len(plants) <= limit:
        return plants
    order = plants.sort_values(["capacityMw", "agencyPlantId"], ascending=[False, True])
    return order.head(limit)


def plants_drawn_note(drawn: int, total: int) -> str | None:
    """Return the line under the map when it draws only the largest plants, else None."""
    if drawn >= total:
        return None
    return (
        f"The {drawn:,} largest of {total:,} plants are drawn (and offered below); narrow the "
        "filters to reach the others."
    )


def plants_frame(plants: Iterable[GenerationPlant], generators: pd.DataFrame) -> pd.DataFrame:
    """Return plants with their capacity and main technology from the generators, and provenance."""
    frame = records_frame(plants, by_attribute(PLANT_COLUMNS) | PROVENANCE_COLUMNS)
    return with_capacity(frame, generators)


def with_capacity(plants: pd.DataFrame, generators: pd.DataFrame) -> pd.DataFrame:
    """Return the plants' rows with their capacity and main technology from the generators."""
    merged = plants.merge(plant_capacity(generators), on="agencyPlantId", how="left")
    merged["capacityMw"] = merged["capacityMw"].fillna(0.0)
    merged["technology"] = merged["technology"].fillna("unknown")
    return merged


def technology_color(technology: str) -> list[int]:
    """Return a stable RGBA colour for a technology name (the same name, the same colour)."""
    digest = hashlib.sha256(str(technology).casefold().encode()).digest()
    return [60 + digest[0] % 180, 60 + digest[1] % 180, 60 + digest[2] % 180, 200]


def technology_hex(technology: str) -> str:
    """Return a technology's map colour as `#rrggbb`."""
    red, green, blue, _ = technology_color(technology)
    return f"#{red:02x}{green:02x}{blue:02x}"


def plant_radius_m(capacity_mw: float) -> float:
    """Return a marker radius in metres that grows with the square root of capacity."""
    return 1500.0 + 400.0 * math.sqrt(max(capacity_mw or 0.0, 0.0))


def plant_layer(plants: pd.DataFrame) -> pdk.Layer:
    """A pickable scatter layer: one circle per located plant, sized by MW, coloured by technology."""
    located = plants.dropna(subset=["latitude", "longitude"]).copy()
    located["color"] = located["technology"].map(technology_color)
    located["radius"] = located["capacityMw"].map(plant_radius_m).round(0).astype(int)
    located["label"] = [
        f"{name} · {tech} · {mw:,.0f} MW"
        for name, tech, mw in zip(
            located["plantName"], located["technology"], located["capacityMw"], strict=True
        )
    ]
    # what the map needs of a plant and nothing more: where, how big, its colour, its label
    # (the tooltip) and its id (a click chooses it); coordinates to about a metre, radii to
    # a metre. Every byte is decoded and every field kept by the browser on each new tab:
    # the name, technology and MW fields the label repeats cost 0.07 s of one (28 Nov 2026)
    located["latitude"] = located["latitude"].round(5)
    located["longitude"] = located["longitude"].round(5)
    data = located[["agencyPlantId", "latitude", "longitude", "color", "radius", "label"]].to_dict(
        "records"
    )
    return pdk.Layer(
        "ScatterplotLayer",
        # an address of the app's: deck.gl fetches the rows after the page is drawn, where
        # rows written into the deck's JSON are walked one by one before the first frame and
        # sent in the page's message (`maps.rows_url`, `maps.served_rows`)
        data=maps.served_rows(data),
        id="plants",
        get_position=["longitude", "latitude"],
        get_radius="radius",
        get_fill_color="color",
        get_line_color=[30, 30, 30, 220],
        line_width_min_pixels=1,
        stroked=True,
        pickable=True,
    )


def technology_legend(plants: pd.DataFrame) -> pd.DataFrame:
    """Return each technology on the map with its colour as hex and its plants and MW."""
    if plants.empty:
        return pd.DataFrame(columns=["technology", "color", "plants", "capacityMw"])
    grouped = (
        plants.groupby("technology")
        .agg(plants=("id", "count"), capacityMw=("capacityMw", "sum"))
        .reset_index()
        .sort_values("capacityMw", ascending=False)
    )
    grouped.insert(1, "color", grouped["technology"].map(technology_hex))
    return grouped.reset_index(drop=True)


def technology_legend_html(legend: pd.DataFrame) -> str:
    """Return the map's legend as HTML: one row per technology, largest MW first, each its
    map colour's swatch, its whole name, its MW and a bar as long as its share of the
    largest; its plants in the row's tooltip.

    Written as HTML, not as a chart: a chart's library (Vega) is a megabyte of JavaScript a
    new tab of the page would load and run for this list alone.
    Drawn by `st.html`, which the browser sanitizes; the only text from the data, the
    technology's name, is escaped here, and the colours are the app's own.
    """
    largest = float(legend["capacityMw"].max() or 0.0) if not legend.empty else 0.0
    rows = []
    for technology, colour, plants, mw in zip(
        legend["technology"], legend["color"], legend["plants"], legend["capacityMw"], strict=True
    ):
        name = html.escape(str(technology))
        share = 100.0 * float(mw) / largest if largest > 0 else 0.0
        plants_word = "plant" if int(plants) == 1 else "plants"
        rows.append(
            f'<div class="gss-legend-row" title="{name}: {int(plants):,} {plants_word}, '
            f'{float(mw):,.0f} MW">'
            f'<span class="gss-swatch" style="background:{colour}"></span>'
            f'<span class="gss-name">{name}</span>'
            f'<span class="gss-mw">{float(mw):,.0f} MW</span>'
            f'<span class="gss-bar" style="width:{share:.1f}%;background:{colour}"></span>'
            "</div>"
        )
    return LEGEND_STYLE + '<div class="gss-legend">' + "".join(rows) + "</div>"


# the legend's rows: swatch, name (wrapped, never cut) and MW on a line, the bar under them
LEGEND_STYLE = (
    "<style>"
    ".gss-legend{font-size:0.875rem;line-height:1.25}"
    ".gss-legend-row{display:grid;grid-template-columns:0.8rem 1fr auto;column-gap:0.4rem;"
    "align-items:baseline;margin-bottom:0.35rem}"
    ".gss-swatch{width:0.8rem;height:0.8rem;border-radius:2px;align-self:center}"
    ".gss-mw{font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".gss-bar{grid-column:2 / 4;height:4px;margin-top:2px;min-width:2px}"
    "</style>"
)


def monthly_generation(operations: Iterable[GeneratorOperation]) -> pd.DataFrame:
    """Return monthly net generation per generator as (month, generatorId, netGenerationMwh)."""
    columns = {"month": "period"} | by_attribute(
        ["generatorId", "primeMoverCode", "netGenerationMwh", "preliminary"]
    )
    frame = records_frame(operations, columns | PROVENANCE_COLUMNS)
    frame["month"] = pd.to_datetime(frame["month"], format="%Y-%m", errors="coerce")
    frame["netGenerationMwh"] = pd.to_numeric(frame["netGenerationMwh"], errors="coerce")
    return frame.sort_values(["month", "generatorId"]).reset_index(drop=True)


# Drawing -----------------------------------------------------------------------------------

SCOPE = "generation"
# the plant map's key: its state (a clicked plant) is read before the map is drawn
MAP_KEY = "generation.map"
# the session state key of the plant chosen (by the picker or a click on the map)
PLANT_KEY = "generation.plant"
# The page's two views of the generators shown, as tabs: the plants on the map, and the
# generators as a table. Only the open one is built and sent (a lazy tab, kept in the URL as
# `generation.view`): the browser mounts a closed tab's content too. The page drawing map and
# table at once took 1.25 s of a new tab, the map's view alone 1.03 s (16 tabs alternated,
# 28 Nov 2026). The labels stay the same whatever is shown: a tab's identity includes them.
VIEWS = ("Map", "Generators")
VIEW_KEY = "generation.view"


def draw_plant_map(shown: GenerationFrames, later: maps.LaterMaps) -> None:
    """Draw the plants' map (through `later`, keyed `MAP_KEY`: a click chooses a plant)
    beside the legend of its colours."""
    map_column, legend_column = st.columns([2, 1])  # the legend's names whole at 1280 px
    with map_column:
        later.add(
            shown.deck,
            on_select="rerun",
            selection_mode="single-object",
            key=MAP_KEY,
            height=440,
        )
        if note := plants_drawn_note(len(shown.drawn_plants), len(shown.plants)):
            st.caption(note)
    with legend_column:
        st.markdown("**Technology** (map colours, by nameplate MW)")
        legend = technology_legend(shown.plants)
        if legend.empty:
            st.caption("No plant to colour: widen the filters.")
        else:
            st.html(technology_legend_html(legend))
        if maps.basemap_style() is None:
            st.caption("County outlines from the Census; no online basemap configured.")


def draw_generators_table(shown: GenerationFrames) -> None:
    """Draw the generators shown as a table, largest nameplate MW first."""
    st.caption("Largest nameplate MW first.")
    largest_first = shown.generators["nameplateCapacityMw"].sort_values(
        ascending=False, kind="stable"
    )
    show_rows(
        shown.table,
        largest_first.index,
        noun="generators",
        file_name="generators.csv",
        hide_index=True,
    )


def draw_plant_picker(names: dict[Any, str]) -> Any:
    """Draw the picker of the plants drawn on the map (`names`: id -> name) and return the
    plant chosen, by it or by a click on the map (read from the map's state), or None.

    The list (up to 2,000 plants) waits in a popover, which the browser draws only once it is
    opened (a list that long slows a new tab); the popover is named by the plant chosen.
    """
    clicked = picked_plant(st.session_state.get(MAP_KEY))
    if clicked in names:
        st.session_state[PLANT_KEY] = clicked
    chosen = st.session_state.get(PLANT_KEY)
    picker = st.popover(
        # a popover's label is Markdown: the plant's name comes from the data
        escape_markdown(f"{names[chosen]} (plant {chosen})")
        if chosen in names
        else "Choose a plant by name",
        icon=":material/factory:",
    )
    return picker.selectbox(
        "Plant",
        sorted(names, key=lambda pid: str(names[pid])),
        format_func=lambda pid: f"{names[pid]} (plant {pid})",
        key=PLANT_KEY,
        index=None,
        placeholder="Type a plant's name",
        width=520,  # a long plant name and its id whole
    )


# a filter's first choice: no restriction (never sent to the service, nor kept in the URL)
ANY = "any"
# each text filter's label, by its parameter (`TEXT_FILTERS`)
FILTER_LABELS = {
    "state": "State",
    "status": "Status",
    "ba_code": "Balancing authority",
    "technology": "Technology",
}


def filter_choices(generators: pd.DataFrame, column: str) -> list[str]:
    """Return `any` and the column's distinct values, sorted, for a filter's choices."""
    values = generators[column].dropna().astype(str)
    return [ANY, *sorted({v for v in values if v}, key=str.casefold)]


def draw_generator_filters(every: GenerationFrames) -> dict[str, Any]:
    """Draw every filter of the generators interface (kept in the URL); return the arguments."""
    chosen = {}
    boxes = st.columns(len(TEXT_FILTERS))
    for box, (param, column) in zip(boxes, TEXT_FILTERS.items(), strict=True):
        with box:
            chosen[param] = filters.selectbox(
                FILTER_LABELS[param], every.choices[column], param, scope=SCOPE, no_filter=ANY
            )
    more = filters.more_filters(("source_id", "plant_id", "min_mw", "max_mw"), scope=SCOPE)
    with more:
        source_id = filters.text_input(
            "Source release (source id)",
            "source_id",
            scope=SCOPE,
            help="Empty: each generator's current version. A source id: that release's version.",
        )
        plant_id = filters.number_input(
            "Plant id",
            "plant_id",
            min_value=1.0,
            max_value=2147483647.0,
            step=1.0,
            format="%.0f",
            scope=SCOPE,
        )
        min_mw = filters.number_input("Min nameplate MW", "min_mw", min_value=0.0, scope=SCOPE)
        max_mw = filters.number_input("Max nameplate MW", "max_mw", min_value=0.0, scope=SCOPE)
    return {
        **chosen,
        "source_id": source_id or None,
        "plant_id": int(plant_id) if plant_id else None,
        "min_capacity_mw": min_mw,
        "max_capacity_mw": max_mw,
    }


def generator_table_config() -> dict[str, Any]:
    """Column configs of the generators table: MW units and provenance."""
    return {
        **provenance_config(),
        "nameplateCapacityMw": mw_column("Nameplate"),
        "summerCapacityMw": mw_column("Summer"),
        "winterCapacityMw": mw_column("Winter"),
        "agencyPlantId": st.column_config.NumberColumn("Plant id", format="%d"),
    }


def plant_deck(plants: pd.DataFrame) -> pdk.Deck:
    """The region's county outlines with the plants on top."""
    layers = [maps.outline_layer(region_counties().values()), plant_layer(plants)]
    return maps.deck(layers)


def draw_monthly_generation(conn: ConnectionKey, plant_id: int, plant_name: str) -> None:
    """Draw a plant's monthly net generation by generator, as a chart and a table."""
    monthly = monthly_generation(data.generator_operations(conn, plant_id))
    if monthly.empty:
        st.info(f"No generator operations reported for {escape_markdown(plant_name)}.")
        return
    st.altair_chart(
        charts.monthly(
            monthly,
            value="netGenerationMwh",
            color="generatorId",
            title=f"{plant_name}: net generation by month",
            unit="MWh",
        ),
        width="stretch",
    )
    show_table(
        **glossary.table(
            monthly,
            {
                **provenance_config(),
                "month": st.column_config.DateColumn("Month", format="YYYY-MM"),
                "netGenerationMwh": mwh_column("Net generation"),
            },
        ),
        hide_index=True,
    )


def picked_plant(event: Any) -> int | None:
    """Return the plant id a click on the map picked, if any."""
    selection = getattr(event, "selection", None) or (event or {}).get("selection") or {}
    objects = (selection.get("objects") if isinstance(selection, dict) else None) or {}
    for obj in objects.get("plants") or []:
        if obj.get("agencyPlantId") is not None:
            return int(obj["agencyPlantId"])
    return None
