"""The point picker: one click on the map places the pin, and only the picker's part reruns.

The map is `components.click_map`: deck.gl drawing the deck JSON pydeck writes, in the
browser, with the pin placed there at the clicked point as soon as the map is clicked, and
the point reported to the app. (Streamlit's own deck chart reports the objects a click
picked, never the point, and redraws the whole map for each click.)
- the country view (the lower 48, their state outlines, fitted to the map): a click places
  the pin and brings the view to the pin's surroundings, its counties outlined;
- the surroundings view, around a centre: a click moves the pin and leaves the view where it
  is, with the county outlines, their names and a 20 km scale bar drawn with it; a click
  outside the surroundings box (NEAR_HALF_SPAN_KM, wider than the map at any common screen
  width, so reached only after dragging the map) brings the view to the new pin.
The click is read from the map's session state *before* the map is drawn, so a click costs
one run of the picker's fragment (`st.fragment`), not a rerun of the page. What the map draws
but the pin goes by `data:` URL and is built in the browser only when it changes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import h3
import pydeck as pdk
import streamlit as st
from pydeck.bindings.json_tools import default_serialize

from components import click_map, grid_context, state
from components.geography import (
    County,
    counties_in_box,
    country_counties_in_box,
    country_states,
    county_at,
    outline_bounds,
)
from components.maps import (
    county_layer,
    outline_layer,
    pin_layer,
    rows_by_url,
    view,
    view_fitting,
)

NEAR_RES = 7  # the surroundings view is centred on an H3 cell of this resolution (~2.5 km)
NEAR_ZOOM = 9.0
# half the surroundings box, east-west and north-south: at NEAR_ZOOM a map 1,300 px wide and
# 700 px tall (wider than the picker's column in a 2,400 px window) fits inside it
NEAR_HALF_SPAN_KM = (90.0, 50.0)
SCALE_KM = 20
NEAR_HIGHLIGHT = [255, 140, 0, 40]  # the pin's county: a light wash, the names stay readable
# the country view is fitted to the narrowest map the picker gets (its column in Streamlit's
# centred layout); a wider map shows more around the lower 48
COUNTRY_FIT_PX = (420, 460)


def layer_spec(layer: pdk.Layer) -> dict[str, Any]:
    """Return a layer as the deck JSON pydeck would write for it (pydeck's own serialiser,
    without building a Deck: a Deck looks for Jupyter's packages each time it is made, most
    of a click's run when the picker built one per layer)."""
    return json.loads(json.dumps(layer, sort_keys=True, default=default_serialize))


def near_box(latitude: float, longitude: float) -> tuple[float, float, float, float]:
    """Return the surroundings box around a point: (south, west, north, east) in degrees."""
    half_east_km, half_north_km = NEAR_HALF_SPAN_KM
    reach_lat = half_north_km / 111.32
    reach_lng = half_east_km / (111.32 * max(math.cos(math.radians(latitude)), 0.2))
    return latitude - reach_lat, longitude - reach_lng, latitude + reach_lat, longitude + reach_lng


STATES_LAYER_ID = "states"


def state_outlines() -> dict[str, Any]:
    """Return the outlines of the lower 48's states, as lines (a border two states share
    drawn once; lines cost a first frame less than polygons' strokes, `maps.outline_layer`)."""
    return layer_spec(outline_layer(country_states().values(), layer_id=STATES_LAYER_ID))


@st.cache_resource(show_spinner=False)
def country_view() -> pdk.ViewState:
    """Return the view the map opens on: the state outlines drawn, fitted to the map."""
    return view_fitting(outline_bounds(country_states().values()), *COUNTRY_FIT_PX)


def counties_near(
    counties: Mapping[str, County], latitude: float, longitude: float
) -> list[County]:
    """Return the counties whose outline box meets the surroundings box of the point."""
    return counties_in_box(counties, *near_box(latitude, longitude))


def country_counties_near(latitude: float, longitude: float) -> list[County]:
    """Return the lower 48's counties whose outline box meets the point's surroundings box."""
    return country_counties_in_box(*near_box(latitude, longitude))


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


def deck_spec(layers: list[dict[str, Any]], view_state: pdk.ViewState | None) -> dict[str, Any]:
    """Return the picker's deck JSON: the layers, the view, and no double-click zoom (a double
    click would zoom as well as place the pin twice; the wheel and a drag still move the map)."""
    initial = view_state or country_view()
    return {
        "initialViewState": {
            "latitude": initial.latitude,
            "longitude": initial.longitude,
            "zoom": initial.zoom,
            "pitch": 0,
            "bearing": 0,
        },
        "layers": layers,
        "views": [{"@@type": "MapView", "controller": {"doubleClickZoom": False}}],
    }


def in_view(point: tuple[float, float], centre: str | None) -> bool:
    """Return whether a point is inside the surroundings box the map shows (none: the country)."""
    if centre is None:
        return False
    south, west, north, east = near_box(*h3.cell_to_latlng(centre))
    return south <= point[0] <= north and west <= point[1] <= east


def in_bounds(point: tuple[float, float] | None) -> bool:
    """Return whether a point is a place on Earth (latitude -90..90, longitude -180..180)."""
    return point is not None and -90 <= point[0] <= 90 and -180 <= point[1] <= 180


def chart_key(picker: str) -> str:
    """Return the key of the picker's chart: one chart for the picker's whole life."""
    return f"{picker}.map"


def applied_pick_key(picker: str) -> str:
    return f"{picker}.applied_pick"


def apply_pick(picker: str) -> None:
    """Act on the click the picker's map reported since the last run, once.

    The map keeps reporting its last click, so a run in between (a typed coordinate, a form
    field) sees the same click again: each click (its own id) is applied once.
    """
    click = click_map.read_click(st.session_state.get(chart_key(picker)))
    if click is None or click.click == st.session_state.get(applied_pick_key(picker)):
        return
    st.session_state[applied_pick_key(picker)] = click.click
    point = (click.latitude, click.longitude)
    if not in_bounds(point):
        return
    state.set_picked_point(picker, *point)
    st.session_state[state.followed_point_key(picker)] = state.picked_point(picker)
    if not in_view(point, state.picked_cell(picker)):
        state.set_picked_cell(picker, h3.latlng_to_cell(*point, NEAR_RES))


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
        "Click to move the pin to the clicked point; drag to pan, scroll to zoom. Grey lines "
        f'are county borders, the bar is {SCALE_KM} km; "{ZOOM_OUT_LABEL}" zooms back out.'
    )


# the views whose grid layers a connection keeps (about 0.2 MB each at scale 100)
GRID_VIEWS_KEPT = 64


def grid_layers(
    context: grid_context.GridContext, near: list[County], box: tuple[float, float, float, float]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Return the grid's layers for the surroundings view (plants, rows by URL) and its label
    rows (the biggest plants' names, each county's active queue under its name).

    Kept on the context for the next click in the same view: building them was a large part
    of each click's run."""
    key = (box, tuple(county.fips for county in near))
    kept = context.drawn.get(key)
    if kept is None:
        plants = context.plants_in(box)
        south, west, north, east = box
        labels = grid_context.plant_label_rows(plants, ((south + north) / 2, (west + east) / 2))
        labels += grid_context.queue_label_rows(context, ((c, label_point(c)) for c in near))
        if len(context.drawn) >= GRID_VIEWS_KEPT:
            context.drawn.clear()
        kept = context.drawn[key] = (
            (rows_by_url(layer_spec(grid_context.plants_layer(plants))),),
            tuple(labels),
        )
    specs, labels = kept
    return list(specs), list(labels)


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
    country view names none (at that zoom a territory's names run into one blot). `grid`,
    called only for the surroundings view, gives the plants and queue drawn there too.
    """
    take_click(picker)
    point = state.picked_point(picker)
    point = point if in_bounds(point) else None
    centre = state.picked_cell(picker)
    # Whatever loads before the map (the grid's progress bars) goes into this container,
    # drawn on every run: the map keeps its place. The browser reloads a frame whose element
    # moves, and Streamlit never hands a reloaded frame its map again (a blank map).
    loading = st.container()
    layers = [state_outlines()]
    named: dict[str, County] = {}
    labels: list[dict[str, Any]] = []
    view_state = None
    if centre is not None:
        latitude, longitude = h3.cell_to_latlng(centre)
        near = country_counties_near(latitude, longitude)
        layers = [state_outlines(), near_outlines(near, point)]
        named.update((county.fips, county) for county in [*named_counties, *near])
        bar, bar_label = scale_bar(latitude, longitude)
        layers.append(bar)
        labels.append(bar_label)
        view_state = view(latitude, longitude, NEAR_ZOOM)
        if grid is not None:
            with loading:
                context = grid()
            grid_specs, grid_labels = grid_layers(context, near, near_box(latitude, longitude))
            layers += grid_specs
            labels += grid_labels
    layers += [layer_spec(layer) for layer in extra_layers]
    labels += county_name_rows(named.values())
    if labels:
        layers.append(labels_layer(labels))  # over the shading, so every name reads
    # rows go by URL: the browser builds a layer again only when its rows change
    layers = [rows_by_url(layer) for layer in layers]
    pin = layer_spec(pin_layer(*point)) if point is not None else None
    click_map.click_map(deck_spec(layers, view_state), pin, key=chart_key(picker), height=height)
    st.caption(picker_caption(centre))
    if centre is not None and grid is not None:
        st.caption(grid_context.LEGEND)
    return point


def near_outlines(near: list[County], point: tuple[float, float] | None) -> dict[str, Any]:
    """Return the outlines of the counties around, the point's county lightly washed."""
    here = county_at({county.fips: county for county in near}, *point) if point else None
    outlines = layer_spec(county_layer(near, highlight=[here.fips] if here else [], pickable=False))
    for feature in outlines["data"]:
        if feature["properties"]["fill"][3]:
            feature["properties"]["fill"] = NEAR_HIGHLIGHT
    return outlines


ZOOM_OUT_LABEL = "Whole country"


def zoom_out(picker: str) -> None:
    """Go back to the whole country (a callback: it runs before the picker redraws)."""
    state.set_picked_cell(picker, None)


def zoom_out_button(picker: str) -> None:
    """Draw "Whole country" while the map shows a pin's surroundings."""
    if state.picked_cell(picker):
        st.button(ZOOM_OUT_LABEL, key=f"{picker}.zoom_out", on_click=zoom_out, args=(picker,))


def point_inputs(picker: str, *, zoom_button: bool = True) -> tuple[float, float] | None:
    """Draw latitude and longitude inputs bound to the picker (and "Whole country" beside
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
