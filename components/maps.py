"""pydeck maps: the county-outline base map, the pin, and the two-step clickable surface.

pydeck hands back only the objects a click picked, never the clicked coordinate. So the
surface is two-step: transparent, pickable counties; once a county is picked, a fine grid
of transparent H3 cells inside it, and a click on a cell picks its centre as the point.
The base map is drawn offline from Census outlines; an online basemap style is used only
when `GRID_APP_BASEMAP_STYLE` (env) or `basemap_style` (secrets) names one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import h3
import pydeck as pdk
import streamlit as st

from components.geography import County

COUNTY_LAYER_ID = "counties"
CELL_LAYER_ID = "cells"
PIN_LAYER_ID = "pin"

REGION_VIEW = {"latitude": 31.5, "longitude": -98.8, "zoom": 4.1}
OUTLINE_COLOUR = [90, 98, 112, 200]
HIGHLIGHT_FILL = [255, 140, 0, 90]
CANDIDATE_FILL = [30, 136, 229, 70]
PIN_COLOUR = [214, 39, 40, 230]
# Keep the cell grid fine but light enough for the browser: at most this many cells.
MAX_CELLS = 3000


@dataclass(frozen=True)
class MapPick:
    """What a click on the screening map picked: a county, or a point (a cell's centre)."""

    county_fips: str | None = None
    latitude: float | None = None
    longitude: float | None = None

    @property
    def is_point(self) -> bool:
        return self.latitude is not None and self.longitude is not None


def basemap_style() -> str | None:
    """Return the configured online basemap style, or None to draw offline outlines only."""
    style = os.environ.get("GRID_APP_BASEMAP_STYLE")
    if style:
        return style
    try:
        return st.secrets.get("basemap_style")
    except Exception:  # no secrets file at all is the common, offline case
        return None


def county_layer(
    counties: Iterable[County],
    *,
    highlight: Iterable[str] = (),
    candidates: Iterable[str] = (),
    pickable: bool = True,
    layer_id: str = COUNTY_LAYER_ID,
) -> pdk.Layer:
    """Return the county outlines; `highlight` and `candidates` are FIPS codes to fill."""
    highlight, candidates = set(highlight), set(candidates)
    features = []
    for county in counties:
        if county.fips in highlight:
            fill = HIGHLIGHT_FILL
        elif county.fips in candidates:
            fill = CANDIDATE_FILL
        else:
            fill = [0, 0, 0, 0]
        features.append(county.feature(fill=fill))
    return pdk.Layer(
        "GeoJsonLayer",
        id=layer_id,
        data={"type": "FeatureCollection", "features": features},
        pickable=pickable,
        stroked=True,
        filled=True,
        get_fill_color="properties.fill",
        get_line_color=OUTLINE_COLOUR,
        line_width_min_pixels=1,
        auto_highlight=pickable,
        highlight_color=[255, 200, 0, 80],
    )


def cell_resolution(county: County, max_cells: int = MAX_CELLS) -> int:
    """Return the finest H3 resolution (6 to 9) that keeps the county under `max_cells`."""
    area_km2 = county.shape.area * 111.0 * 96.0  # degrees² to km², near 30° N
    for resolution in (9, 8, 7):
        if area_km2 / h3.average_hexagon_area(resolution, unit="km^2") <= max_cells:
            return resolution
    return 6


def county_cells(county: County, resolution: int | None = None) -> list[dict[str, Any]]:
    """Return the H3 cells inside the county, each with its centre's latitude and longitude."""
    resolution = resolution or cell_resolution(county)
    cells = h3.h3shape_to_cells(h3.geo_to_h3shape(county.geometry), resolution)
    rows = []
    for cell in sorted(cells):
        latitude, longitude = h3.cell_to_latlng(cell)
        rows.append({"hex": cell, "latitude": round(latitude, 5), "longitude": round(longitude, 5)})
    return rows


def cell_layer(cells: list[dict[str, Any]]) -> pdk.Layer:
    """Return the transparent, pickable grid of H3 cells (a click picks a cell's centre)."""
    return pdk.Layer(
        "H3HexagonLayer",
        id=CELL_LAYER_ID,
        data=cells,
        get_hexagon="hex",
        pickable=True,
        filled=True,
        stroked=False,
        extruded=False,
        get_fill_color=[255, 255, 255, 1],
        auto_highlight=True,
        highlight_color=[214, 39, 40, 120],
    )


def pin_layer(latitude: float, longitude: float, label: str = "Site") -> pdk.Layer:
    """Return a single pin at the point."""
    return pdk.Layer(
        "ScatterplotLayer",
        id=PIN_LAYER_ID,
        data=[{"latitude": latitude, "longitude": longitude, "label": label}],
        get_position=["longitude", "latitude"],
        get_fill_color=PIN_COLOUR,
        get_line_color=[255, 255, 255, 255],
        stroked=True,
        line_width_min_pixels=2,
        get_radius=600,
        radius_min_pixels=7,
        radius_max_pixels=14,
        pickable=False,
    )


def points_layer(
    rows: list[dict[str, Any]], *, layer_id: str, colour: list[int], radius_m: float = 1500
) -> pdk.Layer:
    """Return a scatter of rows carrying `latitude`, `longitude` and a `label`."""
    return pdk.Layer(
        "ScatterplotLayer",
        id=layer_id,
        data=rows,
        get_position=["longitude", "latitude"],
        get_fill_color=colour,
        get_radius=radius_m,
        radius_min_pixels=3,
        pickable=True,
    )


def view(latitude: float, longitude: float, zoom: float) -> pdk.ViewState:
    return pdk.ViewState(latitude=latitude, longitude=longitude, zoom=zoom, pitch=0, bearing=0)


def county_view(county: County) -> pdk.ViewState:
    """Return a view that frames the county."""
    minx, miny, maxx, maxy = county.shape.bounds
    span = max(maxx - minx, maxy - miny, 0.05)
    zoom = max(5.0, min(10.0, 6.7 - _log2(span)))
    return view((miny + maxy) / 2, (minx + maxx) / 2, zoom)


def _log2(value: float) -> float:
    import math

    return math.log2(value)


def deck(layers: list[pdk.Layer], view_state: pdk.ViewState | None = None) -> pdk.Deck:
    """Return a Deck over the layers, with an online basemap only when one is configured."""
    style = basemap_style()
    return pdk.Deck(
        layers=layers,
        initial_view_state=view_state or view(**REGION_VIEW),
        map_provider="carto" if style else None,
        map_style=style,
        tooltip={"text": "{label}"},
    )


def read_pick(event: Any) -> MapPick | None:
    """Return what a pydeck selection event picked (a cell's centre wins over a county)."""
    selection = _get(event, "selection") or {}
    objects = _get(selection, "objects") or {}
    for obj in objects.get(CELL_LAYER_ID) or []:
        if "latitude" in obj and "longitude" in obj:
            return MapPick(latitude=float(obj["latitude"]), longitude=float(obj["longitude"]))
        if "hex" in obj:
            latitude, longitude = h3.cell_to_latlng(obj["hex"])
            return MapPick(latitude=latitude, longitude=longitude)
    for obj in objects.get(COUNTY_LAYER_ID) or []:
        properties = obj.get("properties", obj)
        if properties.get("fips"):
            return MapPick(county_fips=str(properties["fips"]))
    return None


def _get(value: Any, key: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(key)
    return getattr(value, key, None)


@st.cache_resource(show_spinner=False)
def cached_county_cells(fips: str) -> list[dict[str, Any]]:
    """Return the clickable H3 cells of a region county (computed once per process)."""
    from components.geography import region_counties

    return county_cells(region_counties()[fips])


def point_picker(
    picker: str, *, extra_layers: Iterable[pdk.Layer] = (), height: int = 460
) -> tuple[float, float] | None:
    """Draw the two-step clickable map and return the picker's point, if one is set.

    A click on a county shows its H3 cells; a click on a cell sets the point to the cell's
    centre. The point lives in the session state of `picker` (the same keys the latitude and
    longitude inputs use), so draw this before `point_inputs(picker)`.
    """
    from components import state
    from components.geography import county_at, region_counties

    counties = region_counties()
    point = state.picked_point(picker)
    fips = state.picked_county(picker)
    if fips is None and point is not None:
        found = county_at(counties, *point)
        fips = found.fips if found else None
    county = counties.get(fips) if fips else None
    layers = [county_layer(counties.values(), highlight=[fips] if fips else [])]
    if state.picked_county(picker):
        layers.append(cell_layer(cached_county_cells(fips)))
    layers.extend(extra_layers)
    if point is not None:
        layers.append(pin_layer(*point))
    view_state = county_view(county) if county else None
    if point is not None and view_state is not None:
        view_state = view(point[0], point[1], view_state.zoom)
    event = st.pydeck_chart(
        deck(layers, view_state),
        on_select="rerun",
        selection_mode="single-object",
        key=f"{picker}.map.{state.picked_county(picker) or 'region'}",
        height=height,
    )
    pick = read_pick(event)
    last_key = f"{picker}.last_pick"
    if pick is not None and pick != st.session_state.get(last_key):
        st.session_state[last_key] = pick
        if pick.is_point:
            state.set_picked_point(picker, pick.latitude, pick.longitude)
        else:
            state.set_picked_county(picker, pick.county_fips)
        st.rerun()
    return point


def point_inputs(picker: str) -> tuple[float, float] | None:
    """Draw latitude and longitude inputs bound to the picker; return the point if complete."""
    from components import state

    left, right, reset = st.columns([2, 2, 1], vertical_alignment="bottom")
    left.number_input(
        "Latitude",
        min_value=-90.0,
        max_value=90.0,
        value=None,
        step=0.01,
        format="%.5f",
        key=state.latitude_key(picker),
    )
    right.number_input(
        "Longitude",
        min_value=-180.0,
        max_value=180.0,
        value=None,
        step=0.01,
        format="%.5f",
        key=state.longitude_key(picker),
    )
    if state.picked_county(picker) and reset.button("Whole region", key=f"{picker}.reset"):
        state.set_picked_county(picker, None)
        st.rerun()
    return state.picked_point(picker)
