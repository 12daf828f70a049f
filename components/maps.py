"""pydeck maps: county and state outlines, the pin, and the clickable H3 cell hierarchy.

pydeck hands back only the objects a click picked, never the clicked coordinate. So the
surface is a hierarchy of transparent, pickable H3 cells: the region's resolution-3 cells
(about 110 km across) over the state outlines; a click zooms into that cell, showing its
counties and its 49 resolution-5 children; a click zooms again to 49 resolution-7 cells
(about 2.5 km across) over the county outlines, and a click on one of those picks its
centre as the point. Every view draws at most a few hundred light objects: Streamlit's
selection loses clicks on heavy maps (observed in Chromium with software WebGL from
about 250 drawn county polygons), so the full 503-county region is never clickable at once.
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
from shapely.geometry import Polygon

from components import state
from components.geography import County, county_at, region_counties, region_states

COUNTY_LAYER_ID = "counties"
CELL_LAYER_ID = "cells"
PIN_LAYER_ID = "pin"

REGION_VIEW = {"latitude": 31.5, "longitude": -98.8, "zoom": 4.1}
OUTLINE_COLOUR = [90, 98, 112, 200]
HIGHLIGHT_FILL = [255, 140, 0, 90]
CANDIDATE_FILL = [30, 136, 229, 70]
PIN_COLOUR = [214, 39, 40, 230]


@dataclass(frozen=True)
class MapPick:
    """What a click on the picker picked: a cell to zoom into, or a point (a fine cell's centre)."""

    cell: str | None = None
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
        # a list of features, not a FeatureCollection: Streamlit's selection only reports
        # picks on layers whose data is an array
        data=features,
        pickable=pickable,
        stroked=True,
        filled=True,
        get_fill_color="properties.fill",
        get_line_color=OUTLINE_COLOUR,
        line_width_min_pixels=1,
        auto_highlight=pickable,
        highlight_color=[255, 200, 0, 80],
    )


REGION_CELL_RES, MIDDLE_CELL_RES, POINT_CELL_RES = 3, 5, 7
# a zoomed cell fills most of the ~480 px wide picker, so its 49 children are easy to click
ZOOM_BY_RES = {REGION_CELL_RES: 7.5, MIDDLE_CELL_RES: 10.3}


def cell_row(cell: str) -> dict[str, Any]:
    latitude, longitude = h3.cell_to_latlng(cell)
    resolution = h3.get_resolution(cell)
    return {
        "hex": cell,
        "latitude": round(latitude, 5),
        "longitude": round(longitude, 5),
        "label": "pick this point" if resolution >= POINT_CELL_RES else "zoom in here",
    }


def region_cells(counties: Iterable[County]) -> list[dict[str, Any]]:
    """Return the resolution-3 cells that overlap any of the counties."""
    cells: set[str] = set()
    for county in counties:
        shape = h3.geo_to_h3shape(county.geometry)
        cells.update(h3.h3shape_to_cells_experimental(shape, REGION_CELL_RES, contain="overlap"))
    return [cell_row(cell) for cell in sorted(cells)]


def child_cells(cell: str) -> list[dict[str, Any]]:
    """Return the 49 cells two resolutions finer inside a cell."""
    children = h3.cell_to_children(cell, h3.get_resolution(cell) + 2)
    return [cell_row(child) for child in sorted(children)]


def counties_in_cell(counties: Iterable[County], cell: str) -> list[County]:
    """Return the counties whose outline meets the cell (to draw under its children)."""
    boundary = Polygon([(lng, lat) for lat, lng in h3.cell_to_boundary(cell)])
    return [county for county in counties if county.shape.intersects(boundary)]


def cell_view(cell: str, point: tuple[float, float] | None = None) -> pdk.ViewState:
    """Return the view into a cell: centred on it, or on `point` when the point is inside it.

    With a point set, the pin and its surroundings matter more than the cell's outline.
    """
    resolution = h3.get_resolution(cell)
    zoom = ZOOM_BY_RES.get(resolution, 10.3)
    if point is not None and h3.latlng_to_cell(*point, resolution) == cell:
        return view(*point, zoom)
    latitude, longitude = h3.cell_to_latlng(cell)
    return view(latitude, longitude, zoom)


def cell_layer(cells: list[dict[str, Any]]) -> pdk.Layer:
    """Return the faint, pickable grid of H3 cells (a click zooms in or picks a point)."""
    return pdk.Layer(
        "H3HexagonLayer",
        id=CELL_LAYER_ID,
        data=cells,
        get_hexagon="hex",
        pickable=True,
        filled=True,
        stroked=True,
        extruded=False,
        get_fill_color=[30, 111, 217, 12],
        get_line_color=[30, 111, 217, 70],
        line_width_min_pixels=0.5,
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
    """Return what a pydeck selection event picked on the cell layer, if anything."""
    selection = _get(event, "selection") or {}
    objects = _get(selection, "objects") or {}
    for obj in objects.get(CELL_LAYER_ID) or []:
        cell = obj.get("hex")
        if not cell or not h3.is_valid_cell(cell):
            continue
        if h3.get_resolution(cell) < POINT_CELL_RES:
            return MapPick(cell=cell)
        latitude, longitude = h3.cell_to_latlng(cell)
        return MapPick(
            cell=cell,
            latitude=float(obj.get("latitude", latitude)),
            longitude=float(obj.get("longitude", longitude)),
        )
    return None


def _get(value: Any, key: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(key)
    return getattr(value, key, None)


@st.cache_resource(show_spinner=False)
def cached_region_cells() -> list[dict[str, Any]]:
    """Return the region's coarse cells (computed once per process)."""
    return region_cells(region_counties().values())


def state_outline_layer() -> pdk.Layer:
    """Return the region's state outlines (five light polygons, not pickable)."""
    features = [s.feature(fill=[0, 0, 0, 0], label=s.name) for s in region_states().values()]
    return county_layer_from_features(features, layer_id="states")


def county_layer_from_features(features: list[dict], *, layer_id: str) -> pdk.Layer:
    return pdk.Layer(
        "GeoJsonLayer",
        id=layer_id,
        data=features,
        pickable=False,
        stroked=True,
        filled=True,
        get_fill_color="properties.fill",
        get_line_color=OUTLINE_COLOUR,
        line_width_min_pixels=1,
    )


def picker_step(cell: str | None) -> str:
    """Return the line under the picker that says which click comes next."""
    if cell is None:
        return "Step 1 of 3: click a hexagon to zoom into it (about 110 km across)."
    if h3.get_resolution(cell) < MIDDLE_CELL_RES:
        return "Step 2 of 3: click a smaller hexagon to zoom into it (about 16 km across)."
    return "Step 3 of 3: click a small hexagon to drop the pin at its centre (about 2.5 km)."


def map_key(picker: str, cell: str | None, point: tuple[float, float] | None) -> str:
    """Return the picker's chart key: a new level, cell or point makes a new chart.

    Streamlit's deck keeps the user's camera while the chart's key stays the same, so the
    key changes with every view the app sets; that applies the new view on rerun.
    """
    key = f"{picker}.map.{cell or 'region'}"
    if point is not None:
        key += f".{point[0]:.5f},{point[1]:.5f}"
    return key


def follow_point(picker: str, resolution: int) -> None:
    """Zoom the picker to the cell around its point when the point was set by typing.

    A typed point moves the view once (to its cell at `resolution`), so the pin is always
    on the map; a point picked on the map keeps the view the click was made in.
    """
    point = state.picked_point(picker)
    followed = st.session_state.get(state.followed_point_key(picker))
    if not in_bounds(point) or point == followed:
        return
    st.session_state[state.followed_point_key(picker)] = point
    state.set_picked_cell(picker, h3.latlng_to_cell(*point, resolution))


def point_picker(
    picker: str,
    *,
    extra_layers: Iterable[pdk.Layer] = (),
    height: int = 460,
    follow_resolution: int = MIDDLE_CELL_RES,
    follow_picked: bool = False,
) -> tuple[float, float] | None:
    """Draw the clickable map and return the picker's point, if one is set.

    Region: click a coarse cell to zoom in; again a finer one; then a fine cell sets the
    point to its centre. A typed point zooms the map to its cell at `follow_resolution`;
    with `follow_picked` a clicked point does too (to show its surroundings, not the cell).
    The point lives in the session state of `picker` (the keys the latitude and longitude
    inputs use), so draw this before `point_inputs(picker)`.
    """
    follow_point(picker, follow_resolution)
    counties = region_counties()
    point = state.picked_point(picker)
    point = point if in_bounds(point) else None  # a typed point off the Earth is not drawn
    cell = state.picked_cell(picker)
    point_county = county_at(counties, *point) if point else None
    highlight = [point_county.fips] if point_county else []
    if cell is None:
        layers = [state_outline_layer(), cell_layer(cached_region_cells())]
        view_state = None
    else:
        shown = counties_in_cell(counties.values(), cell)
        layers = [county_layer(shown, highlight=highlight, pickable=False)]
        layers.append(cell_layer(child_cells(cell)))
        view_state = cell_view(cell, point)
    layers.extend(extra_layers)
    if point is not None:
        layers.append(pin_layer(*point))
    chart_key = map_key(picker, cell, point)
    event = st.pydeck_chart(
        deck(layers, view_state),
        on_select="rerun",
        selection_mode="single-object",
        key=chart_key,
        height=height,
    )
    st.caption(picker_step(cell))
    pick = read_pick(event)
    # a chart keeps its selection over reruns: act on it once per chart
    last_key = f"{picker}.last_pick"
    if pick is not None and (chart_key, pick) != st.session_state.get(last_key):
        st.session_state[last_key] = (chart_key, pick)
        if pick.is_point:
            state.set_picked_point(picker, pick.latitude, pick.longitude)
            if not follow_picked:  # keep the view the click was made in
                st.session_state[state.followed_point_key(picker)] = state.picked_point(picker)
        else:
            state.set_picked_cell(picker, pick.cell)
        st.rerun()
    return point


def in_bounds(point: tuple[float, float] | None) -> bool:
    """Return whether a point is a place on Earth (latitude -90..90, longitude -180..180)."""
    return point is not None and -90 <= point[0] <= 90 and -180 <= point[1] <= 180


def point_inputs(picker: str) -> tuple[float, float] | None:
    """Draw latitude and longitude inputs bound to the picker; return the point if complete."""
    left, right, back = st.columns([2, 2, 1], vertical_alignment="bottom")
    left.number_input(
        "Latitude",
        help="Between -90 and 90",
        value=None,
        step=0.01,
        format="%.5f",
        key=state.latitude_key(picker),
    )
    right.number_input(
        "Longitude",
        help="Between -180 and 180",
        value=None,
        step=0.01,
        format="%.5f",
        key=state.longitude_key(picker),
    )
    cell = state.picked_cell(picker)
    if cell and back.button("Zoom out", key=f"{picker}.zoom_out"):
        resolution = h3.get_resolution(cell)
        parent = h3.cell_to_parent(cell, resolution - 2) if resolution > REGION_CELL_RES else None
        state.set_picked_cell(picker, parent)
        st.rerun()
    point = state.picked_point(picker)
    if point is not None and not in_bounds(point):
        st.error("Latitude must be between -90 and 90, longitude between -180 and 180.")
    return point
