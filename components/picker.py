"""The point picker: one click on the map places the pin, and only the picker's part reruns.

pydeck hands back the objects a click picked, never the clicked coordinate. So the map
carries a transparent, pickable surface of H3 cells and a click's point is the centre of the
cell under the pointer:
- the region view (Texas and its neighbours) is covered by resolution-4 cells (about 45 km
  across, a few pixels at that zoom): one click there places the pin at the clicked spot and
  brings the view to the pin's surroundings;
- the surroundings view is covered, around its centre, by resolution-7 cells (about 2.5 km
  across) over a box wider than the map is at any common screen width (NEAR_HALF_SPAN_KM):
  a click there moves the pin to the clicked cell and leaves the view where it is, with the
  county outlines, their names and a 20 km scale bar drawn with it.
The pick is read from the chart's session state *before* the map is drawn, so a click costs
one run of the picker's fragment (`st.fragment`), not a rerun of the page. The deck's JSON is
written compactly, with the big surface layers built once per process.

One chart serves the picker's whole life (a fixed key), so a click redraws the map it is on
instead of building a new one: under software WebGL a new chart compiles every shader
program again, seconds a click. Two things make that work with Streamlit's chart:
- the surface a click lands on has no layer id. Streamlit fades every layer but the selected
  object while a selection names a layer *with* an id that is still drawn; deck.gl names an
  id-less layer after its type (`CLICK_LAYER_ID`) and Streamlit ignores a selection on it, so
  nothing is faded, and it drops that selection once the next map arrives;
- the map's double-click zoom is off: with it on, deck.gl holds every click back about
  300 ms to tell it from a double click (the mouse wheel and the +/- buttons still zoom).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import h3
import pydeck as pdk
import streamlit as st

from components import grid_context, state
from components.geography import County, county_at, region_counties, region_states
from components.maps import (
    NO_BASEMAP,
    OUTLINE_COLOUR,
    PIN_COLOUR,
    REGION_VIEW,
    CompactDeck,
    basemap_style,
    county_layer,
    pin_layer,
    rows_by_url,
    view,
)

REGION_LAYER_ID = "region_cells"
NEAR_LAYER_ID = "near_cells"
# the id deck.gl gives the id-less surface a click lands on, and so the key of its selection
CLICK_LAYER_ID = "H3HexagonLayer"
REGION_RES, NEAR_RES = 4, 7
NEAR_ZOOM = 9.0
# half the surroundings box, east-west and north-south: at NEAR_ZOOM a map 1,300 px wide and
# 700 px tall (wider than the picker's column in a 2,400 px window) fits inside it
NEAR_HALF_SPAN_KM = (90.0, 50.0)
SCALE_KM = 20
NEAR_HIGHLIGHT = [255, 140, 0, 40]  # the pin's county: a light wash, the cells stay readable


@dataclass(frozen=True)
class MapPick:
    """A click on the picker: the cell under the pointer and the point it places (its centre)."""

    cell: str
    latitude: float
    longitude: float

    @property
    def moves_view(self) -> bool:
        """A click on the region view brings the view to the new pin's surroundings."""
        return h3.get_resolution(self.cell) < NEAR_RES


def layer_spec(layer: pdk.Layer) -> dict[str, Any]:
    """Return a layer as the deck JSON pydeck would write for it."""
    return json.loads(CompactDeck(layers=[layer]).to_json())["layers"][0]


def surface_spec(cells: Iterable[str], layer_id: str, colour: list[int]) -> dict[str, Any]:
    """Return the pickable, nearly transparent cell surface (a click picks a cell; the cell
    under the pointer lights up). Not outlined: under software WebGL the outlines of a few
    thousand cells cost every frame of the map hundreds of milliseconds.

    Drawn as polygons (`highPrecision`): for cells finer than resolution 5 deck.gl would
    otherwise draw instanced hexagon columns, whose shaders cost a software-WebGL GPU
    process about three times as much per click over ~3,200 cells (docs/benchmarks/app.md).
    """
    return {
        "@@type": "H3HexagonLayer",
        "id": layer_id,
        "data": [{"hex": cell} for cell in cells],
        "getHexagon": "@@=hex",
        "highPrecision": True,
        "pickable": True,
        "filled": True,
        "stroked": False,
        "extruded": False,
        "getFillColor": colour,
        "autoHighlight": True,
        "highlightColor": [214, 39, 40, 140],
    }


def clickable(surface: dict[str, Any]) -> dict[str, Any]:
    """Return the surface a click lands on: without its id (see the module's note)."""
    return {key: value for key, value in surface.items() if key != "id"}


def passed_over(surface: dict[str, Any], centre: str) -> dict[str, Any]:
    """Return the region surface under the surroundings view, its id naming the view: a click
    on it (past the surroundings' edge) moves the view, and the selection it left names a
    layer the next map no longer draws, so Streamlit drops it instead of fading the map."""
    return {**surface, "id": f"{surface['id']}.{centre}"}


@st.cache_resource(show_spinner=False)
def region_surface() -> dict[str, Any]:
    """Return the resolution-4 surface over every county of the region (built once)."""
    cells: set[str] = set()
    for county in region_counties().values():
        shape = h3.geo_to_h3shape(county.geometry)
        cells.update(h3.h3shape_to_cells_experimental(shape, REGION_RES, contain="overlap"))
    return surface_spec(sorted(cells), REGION_LAYER_ID, [30, 111, 217, 1])


def near_box(latitude: float, longitude: float) -> tuple[float, float, float, float]:
    """Return the surroundings box around a point: (south, west, north, east) in degrees."""
    half_east_km, half_north_km = NEAR_HALF_SPAN_KM
    reach_lat = half_north_km / 111.32
    reach_lng = half_east_km / (111.32 * max(math.cos(math.radians(latitude)), 0.2))
    return latitude - reach_lat, longitude - reach_lng, latitude + reach_lat, longitude + reach_lng


@st.cache_resource(show_spinner=False, max_entries=64)
def near_surface(centre: str) -> dict[str, Any]:
    """Return the resolution-7 surface over the surroundings box of a centre cell."""
    south, west, north, east = near_box(*h3.cell_to_latlng(centre))
    box = h3.LatLngPoly([(south, west), (south, east), (north, east), (north, west)])
    cells = sorted(h3.h3shape_to_cells_experimental(box, NEAR_RES, contain="overlap"))
    return surface_spec(cells, NEAR_LAYER_ID, [*PIN_COLOUR[:3], 8])


@st.cache_resource(show_spinner=False)
def state_outlines() -> dict[str, Any]:
    """Return the region's state outlines (five light polygons, not pickable)."""
    features = [s.feature(fill=[0, 0, 0, 0], label=s.name) for s in region_states().values()]
    layer = pdk.Layer(
        "GeoJsonLayer",
        id="states",
        data=features,
        stroked=True,
        filled=False,
        get_line_color=OUTLINE_COLOUR,
        line_width_min_pixels=1,
    )
    return layer_spec(layer)


def counties_near(
    counties: Mapping[str, County], latitude: float, longitude: float
) -> list[County]:
    """Return the counties whose outline box meets the surroundings box of the point."""
    south, west, north, east = near_box(latitude, longitude)
    found = []
    for county in counties.values():
        minx, miny, maxx, maxy = county.shape.bounds
        if minx <= east and maxx >= west and miny <= north and maxy >= south:
            found.append(county)
    return found


def label_point(county: County) -> list[float]:
    """Return where a county's name goes: its centroid, or a point inside an odd outline."""
    shape = county.shape
    inside = shape.centroid if shape.contains(shape.centroid) else shape.representative_point()
    return [round(inside.x, 4), round(inside.y, 4)]


def labels_layer(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Return one text layer for every label of the map (county names, the scale's length).

    One layer, one small font atlas of only the characters used: under software WebGL each
    text layer's atlas and program cost a new chart hundreds of milliseconds.
    """
    rows = [{"anchor": "middle", "offset": [0, 0], **row} for row in rows]
    layer = pdk.Layer(
        "TextLayer",
        id="map_labels",
        data=rows,
        get_position="position",
        get_text="text",
        get_size="size",
        get_color="colour",
        get_text_anchor="anchor",
        get_pixel_offset="offset",
        pickable=False,
    )
    spec = layer_spec(layer)
    # set here: pydeck would read a string as a field name
    spec["fontFamily"] = "sans-serif"
    spec["characterSet"] = "".join(sorted({char for row in rows for char in row["text"]}))
    spec["fontSettings"] = {"fontSize": 32}
    return spec


NAME_COLOUR = [40, 44, 52, 235]


def county_name_rows(counties: Iterable[County]) -> list[dict[str, Any]]:
    """Return a label row per county: its name at a point inside it."""
    return [
        {"text": c.name, "position": label_point(c), "size": 12, "colour": NAME_COLOUR}
        for c in counties
    ]


def county_names_layer(counties: Iterable[County]) -> dict[str, Any]:
    """Return each county's name at a point inside it."""
    return labels_layer(county_name_rows(counties))


def scale_bar(latitude: float, longitude: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return a SCALE_KM bar south-west of the view's centre, and its label row."""
    start_lat, start_lng = latitude - 0.2, longitude - 0.28
    span = SCALE_KM / (111.32 * math.cos(math.radians(start_lat)))
    bar = pdk.Layer(
        "PathLayer",
        id="scale_bar",
        data=[{"path": [[start_lng, start_lat], [start_lng + span, start_lat]]}],
        get_path="path",
        get_color=[40, 44, 52, 230],
        width_min_pixels=3,
    )
    label = {
        "text": f"{SCALE_KM} km",
        "position": [round(start_lng + span / 2, 4), round(start_lat + 0.025, 4)],
        "size": 13,
        "colour": [40, 44, 52, 255],
    }
    return layer_spec(bar), label


class SpecDeck(pdk.Deck):
    """A deck whose JSON is written once, compactly, from layer specs (pydeck's own writer
    indents every row of every layer, and takes ~0.1 s over the region's cells)."""

    def __init__(self, spec: dict[str, Any]):
        # no tooltip: the cell under the pointer lights up instead, and says where a click goes
        super().__init__(layers=[], map_provider=spec.get("mapProvider"), tooltip=False)
        self._spec_json = json.dumps(spec, separators=(",", ":"))

    def to_json(self) -> str:
        return self._spec_json


def deck_spec(layers: list[dict[str, Any]], view_state: pdk.ViewState | None) -> SpecDeck:
    """Return the deck over layer specs, offline unless a basemap style is configured."""
    initial = view_state or view(**REGION_VIEW)
    spec: dict[str, Any] = {
        "initialViewState": {
            "latitude": initial.latitude,
            "longitude": initial.longitude,
            "zoom": initial.zoom,
            "pitch": 0,
            "bearing": 0,
        },
        "layers": layers,
        # no double-click zoom: with it, deck.gl holds each click ~300 ms (module's note)
        "views": [{"@@type": "MapView", "controller": {"doubleClickZoom": False}}],
    }
    style = basemap_style()
    if style:
        spec["mapProvider"], spec["mapStyle"] = "carto", style
    else:
        spec["mapStyle"] = NO_BASEMAP
    return SpecDeck(spec)


def read_pick(selection: Any) -> MapPick | None:
    """Return the cell a chart's selection picked on a surface layer, if any (the layer's
    name does not matter: only the surfaces are pickable, and their objects are cells)."""
    selection = _get(selection, "selection") or {}
    objects = _get(selection, "objects") or {}
    for picked in objects.values():
        for obj in picked or []:
            cell = obj.get("hex") if isinstance(obj, Mapping) else None
            if cell and h3.is_valid_cell(cell):
                latitude, longitude = h3.cell_to_latlng(cell)
                return MapPick(cell, round(latitude, 5), round(longitude, 5))
    return None


def _get(value: Any, key: str) -> Any:
    if isinstance(value, Mapping):
        return value.get(key)
    return getattr(value, key, None)


def in_bounds(point: tuple[float, float] | None) -> bool:
    """Return whether a point is a place on Earth (latitude -90..90, longitude -180..180)."""
    return point is not None and -90 <= point[0] <= 90 and -180 <= point[1] <= 180


def chart_key(picker: str) -> str:
    """Return the key of the picker's chart: one chart for the picker's whole life."""
    return f"{picker}.map"


def applied_pick_key(picker: str) -> str:
    return f"{picker}.applied_pick"


def apply_pick(picker: str) -> None:
    """Act on the click the picker's chart reported since the last run, once.

    The chart keeps reporting a pick until the browser has the next map and drops it, so a
    run in between (a typed coordinate, a form field) sees the same pick again: it is applied
    only when it differs from the last one applied, and forgotten once the chart reports none.
    """
    pick = read_pick(st.session_state.get(chart_key(picker)))
    if pick == st.session_state.get(applied_pick_key(picker)):
        return
    st.session_state[applied_pick_key(picker)] = pick
    if pick is None:
        return
    state.set_picked_point(picker, pick.latitude, pick.longitude)
    st.session_state[state.followed_point_key(picker)] = state.picked_point(picker)
    if pick.moves_view:
        state.set_picked_cell(picker, h3.latlng_to_cell(pick.latitude, pick.longitude, NEAR_RES))


def follow_typed_point(picker: str) -> None:
    """Bring the view to a typed point once (a point placed by a click is followed already)."""
    point = state.picked_point(picker)
    if not in_bounds(point) or point == st.session_state.get(state.followed_point_key(picker)):
        return
    st.session_state[state.followed_point_key(picker)] = point
    state.set_picked_cell(picker, h3.latlng_to_cell(*point, NEAR_RES))


def take_click(picker: str) -> None:
    """Apply a click or a newly typed point to the picker's state (safe to call twice a run:
    a page that reads the point before drawing the map calls this first)."""
    apply_pick(picker)
    follow_typed_point(picker)


def picker_caption(centre: str | None) -> str:
    """Return the line under the map: what a click does here, and the view's scale."""
    if centre is None:
        return "Click the map to place the pin; the map then shows its surroundings."
    return (
        "Click to move the pin (to the centre of the ~2.5 km cell lit under the pointer). Grey "
        f'lines are county borders, the bar is {SCALE_KM} km; "Whole region" zooms back out.'
    )


def grid_layers(
    context: grid_context.GridContext, near: list[County], box: tuple[float, float, float, float]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the grid's layers for the surroundings view (plants) and its label rows
    (the biggest plants' names, each county's active queue under its name)."""
    plants = context.plants_in(box)
    south, west, north, east = box
    labels = grid_context.plant_label_rows(plants, ((south + north) / 2, (west + east) / 2))
    labels += grid_context.queue_label_rows(context, ((c, label_point(c)) for c in near))
    return [layer_spec(grid_context.plants_layer(plants))], labels


def draw_picker_map(
    picker: str,
    *,
    extra_layers: Iterable[pdk.Layer] = (),
    named_counties: Iterable[County] = (),
    grid: Callable[[], grid_context.GridContext] | None = None,
    height: int = 460,
) -> tuple[float, float] | None:
    """Draw the clickable map (a click since the last run applied first); return the point.

    `extra_layers` are drawn over the map's surfaces. The surroundings view names every
    county in its box and `named_counties` (a shaded territory's) over any shading; the
    region view names none (at that zoom a territory's names run into one blot). `grid`,
    called only for the surroundings view, gives the plants and queue drawn there too.
    """
    take_click(picker)
    point = state.picked_point(picker)
    point = point if in_bounds(point) else None
    centre = state.picked_cell(picker)
    layers = [state_outlines(), clickable(region_surface())]
    named: dict[str, County] = {}
    labels: list[dict[str, Any]] = []
    view_state = None
    if centre is not None:
        latitude, longitude = h3.cell_to_latlng(centre)
        near = counties_near(region_counties(), latitude, longitude)
        layers = [state_outlines(), near_outlines(near, point)]
        layers += [passed_over(region_surface(), centre), clickable(near_surface(centre))]
        named.update((county.fips, county) for county in [*named_counties, *near])
        bar, bar_label = scale_bar(latitude, longitude)
        layers.append(bar)
        labels.append(bar_label)
        view_state = view(latitude, longitude, NEAR_ZOOM)
        if grid is not None:
            grid_specs, grid_labels = grid_layers(grid(), near, near_box(latitude, longitude))
            layers += grid_specs
            labels += grid_labels
    layers += [layer_spec(layer) for layer in extra_layers]
    labels += county_name_rows(named.values())
    if labels:
        layers.append(labels_layer(labels))  # over the shading, so every name reads
    # what a click leaves as it was goes by URL, so the browser does not build it again;
    # the pin, one row, is all a click in the surroundings changes
    layers = [rows_by_url(layer) for layer in layers]
    if point is not None:
        layers.append(layer_spec(pin_layer(*point)))
    st.pydeck_chart(
        deck_spec(layers, view_state),
        on_select="rerun",
        selection_mode="single-object",
        key=chart_key(picker),
        height=height,
    )
    st.caption(picker_caption(centre))
    if centre is not None and grid is not None:
        st.caption(grid_context.LEGEND)
    return point


def near_outlines(near: list[County], point: tuple[float, float] | None) -> dict[str, Any]:
    """Return the outlines of the counties around, the point's county lightly washed."""
    here = county_at(region_counties(), *point) if point else None
    outlines = layer_spec(county_layer(near, highlight=[here.fips] if here else [], pickable=False))
    for feature in outlines["data"]:
        if feature["properties"]["fill"][3]:
            feature["properties"]["fill"] = NEAR_HIGHLIGHT
    return outlines


def zoom_out(picker: str) -> None:
    """Go back to the whole region (a callback: it runs before the picker redraws)."""
    state.set_picked_cell(picker, None)


def zoom_out_button(picker: str) -> None:
    """Draw "Whole region" while the map shows a pin's surroundings."""
    if state.picked_cell(picker):
        st.button("Whole region", key=f"{picker}.zoom_out", on_click=zoom_out, args=(picker,))


def point_inputs(picker: str, *, zoom_button: bool = True) -> tuple[float, float] | None:
    """Draw latitude and longitude inputs bound to the picker (and "Whole region" beside
    them, unless drawn elsewhere); return the point if complete."""
    if zoom_button:
        left, right, back = st.columns([2, 2, 1.4], vertical_alignment="bottom")
    else:
        # one above the other: in a form's narrow column, side by side cut the values short
        left, right, back = st.container(), st.container(), None
    for column, label, bound, key in (
        (left, "Latitude", 90, state.latitude_key(picker)),
        (right, "Longitude", 180, state.longitude_key(picker)),
    ):
        help_text = f"Between -{bound} and {bound}"
        column.number_input(label, help=help_text, value=None, step=0.01, format="%.5f", key=key)
    if back is not None:
        with back:
            zoom_out_button(picker)
    point = state.picked_point(picker)
    if point is not None and not in_bounds(point):
        st.error("Latitude must be between -90 and 90, longitude between -180 and 180.")
    return point
