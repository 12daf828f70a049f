"""pydeck maps: county and state outlines, pins and points, and the offline deck.

The base map is drawn offline from Census outlines; an online basemap style is used only
when `GRID_APP_BASEMAP_STYLE` (env) or `basemap_style` (secrets) names one. The clickable
point picker is `components.picker`.
"""

from __future__ import annotations

import base64
import functools
import json
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

import pydeck as pdk
import pydeck.bindings.deck
import streamlit as st
from pydeck.bindings.json_tools import default_serialize

from components.geography import County, outline_edges
from components.server import map_rows

COUNTY_LAYER_ID = "counties"
PIN_LAYER_ID = "pin"

REGION_VIEW = {"latitude": 31.5, "longitude": -98.8, "zoom": 4.1}
OUTLINE_COLOUR = [90, 98, 112, 200]
HIGHLIGHT_FILL = [255, 140, 0, 90]
CANDIDATE_FILL = [30, 136, 229, 70]
PIN_COLOUR = [214, 39, 40, 230]
# pydeck's and Streamlit's "no basemap" style: Streamlit then starts no maplibre map at all.
# With no style (None) it would fetch Carto's basemap style, which fails offline and costs a
# second WebGL context per chart.
NO_BASEMAP = "__MAP_STYLE__"
ROWS_URL_PREFIX = "data:application/json;base64,"
# outlines a process has written lately, by the FIPS codes of their counties in order
OUTLINE_URLS_KEPT = 64

# pydeck's Deck looks for its Jupyter widget four times each time one is made, each a failing
# import (about 6 ms): a quarter of the assessment's two maps' cost in the app's run. Whether
# the widget can be imported does not change while the process runs: asked once.
pydeck.bindings.deck.has_jupyter_extra = functools.cache(pydeck.bindings.deck.has_jupyter_extra)


def basemap_style() -> str | None:
    """Return the configured online basemap style, or None to draw offline outlines only."""
    style = os.environ.get("GRID_APP_BASEMAP_STYLE")
    if style:
        return style
    try:
        return st.secrets.get("basemap_style")
    except Exception:  # no secrets file at all is the common, offline case
        return None


def outline_layer(counties: Iterable[County], *, layer_id: str = COUNTY_LAYER_ID) -> pdk.Layer:
    """Return the counties' outlines as lines, one per edge, a shared border drawn once.

    Lines, not a GeoJsonLayer's stroke: that stroke is deck.gl's PathLayer, whose shader
    program (joints, caps, miters) a browser without a GPU compiles in software on the map's
    first frame, for seconds; a LineLayer's is a plain segment. At a width of one pixel the
    two look the same.
    The edges travel as a `data:` URL (`rows_url`).
    """
    return pdk.Layer(
        "LineLayer",
        id=layer_id,
        data=outline_url(counties),
        get_source_position="from",
        get_target_position="to",
        get_color=OUTLINE_COLOUR,
        get_width=1,
        pickable=False,
    )


@functools.lru_cache(maxsize=50_000)
def _edge_json(start: tuple[float, float], end: tuple[float, float]) -> str:
    """An outline edge as a row of the outline layer, in compact JSON (the region has about
    10,500 edges; writing their numbers was most of an outline's cost)."""
    return json.dumps({"from": start, "to": end}, separators=(",", ":"))


_outline_rows: OrderedDict[tuple[str, ...], bytes] = OrderedDict()
_outline_rows_lock = threading.Lock()


def outline_url(counties: Iterable[County]) -> str:
    """Return the address of the counties' outline edges (`outline_edges`), served by the
    app (`map_rows.publish`). Their JSON is kept for the `OUTLINE_URLS_KEPT` sets of counties
    asked for last (a county's outline is the same for the life of the process): a site's
    map is drawn again at each of its runs."""
    counties = list(counties)
    key = tuple(county.fips for county in counties)
    with _outline_rows_lock:
        text = _outline_rows.get(key)
        if text is not None:
            _outline_rows.move_to_end(key)
    if text is None:
        rows = ",".join(_edge_json(start, end) for start, end in outline_edges(counties))
        text = f"[{rows}]".encode()
        with _outline_rows_lock:
            _outline_rows[key] = text
            while len(_outline_rows) > OUTLINE_URLS_KEPT:
                _outline_rows.popitem(last=False)
    # published again each time: the store may have dropped rows no page fetched lately
    return map_rows.publish(text)


def county_layer(
    counties: Iterable[County],
    *,
    highlight: Iterable[str] = (),
    candidates: Iterable[str] = (),
    pickable: bool = True,
    stroked: bool = True,
    layer_id: str = COUNTY_LAYER_ID,
) -> pdk.Layer:
    """Return the county outlines; `highlight` and `candidates` are FIPS codes to fill.
    With `stroked=False` only the fills are drawn (the outlines then come from an
    `outline_layer`, which costs a map's first frame far less)."""
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
        stroked=stroked,
        # outlines only when nothing is filled or picked: in a browser without a GPU the
        # polygons' fill program costs a map's first frame about 1.6 s (docs/benchmarks/app.md)
        filled=bool(highlight or candidates or pickable),
        get_fill_color="properties.fill",
        get_line_color=OUTLINE_COLOUR,
        line_width_min_pixels=1,
        auto_highlight=pickable,
        highlight_color=[255, 200, 0, 80],
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


def rows_url(rows: list[Any]) -> str:
    """Return rows as a `data:` URL of their compact JSON, for a layer's `data`.

    Rows written into a deck's JSON are walked one by one by deck.gl's JSON converter in
    Streamlit's chart, on the browser's main thread, before the map's first frame; a URL is
    a string, fetched and parsed by deck.gl once the page is drawn, so a big map's first
    frame comes sooner. Picking and tooltips work on the fetched rows as on written ones.
    """
    return json_url(json.dumps(rows, separators=(",", ":")))


def served_rows(rows: list[Any]) -> str:
    """Return the address of rows served by the app (`components.server.map_rows`), for the
    `data` of a layer drawn by `st.pydeck_chart`: the rows stay out of the page's message,
    and deck.gl fetches them once the page is drawn, from the browser's cache when a tab
    before fetched the same rows. The Generation deck's message shrank from 1 MB to 3 KB
    (docs/benchmarks/app.md)."""
    return map_rows.publish(json.dumps(rows, separators=(",", ":")))


def json_url(text: str) -> str:
    """Return JSON text as a `data:` URL (`layer_rows` reads it back)."""
    return ROWS_URL_PREFIX + base64.b64encode(text.encode()).decode("ascii")


def rows_by_url(spec: dict[str, Any]) -> dict[str, Any]:
    """Return a layer spec whose rows travel as a `data:` URL, a string, instead of a list.

    For the picker's map (`components.click_map`), which converts the whole deck JSON again
    whenever it changes (a new view, the pin's county washed): each conversion makes every
    layer's row list a new object, and deck.gl would build every polygon and point again.
    deck.gl compares a URL as a string: the same rows, the same URL, and the layer keeps what
    it built; only the layer whose rows changed is built again (docs/benchmarks/app.md). The
    browser decodes the URL itself, before the layer's first frame.
    """
    rows = spec.get("data")
    if not isinstance(rows, list):
        return spec
    return {**spec, "data": rows_url(rows)}


def layer_rows(spec: dict[str, Any]) -> list[Any]:
    """Return a layer spec's rows, whether a list, a `data:` URL of `rows_by_url` or an
    address of `served_rows` (read from this process's store)."""
    rows = spec.get("data")
    if isinstance(rows, str) and rows.startswith(ROWS_URL_PREFIX):
        return json.loads(base64.b64decode(rows.removeprefix(ROWS_URL_PREFIX)))
    if isinstance(rows, str) and (served := map_rows.read(rows)) is not None:
        return json.loads(served)
    return rows if isinstance(rows, list) else []


def view(latitude: float, longitude: float, zoom: float) -> pdk.ViewState:
    return pdk.ViewState(latitude=latitude, longitude=longitude, zoom=zoom, pitch=0, bearing=0)


# deck.gl's web-Mercator world is 512 pixels wide at zoom 0
WORLD_PX = 512


def _mercator_y(latitude: float) -> float:
    """Return a latitude's web-Mercator ordinate, in radians of the world's width."""
    return math.log(math.tan(math.pi / 4 + math.radians(latitude) / 2))


def view_fitting(
    bounds: tuple[float, float, float, float], width_px: int, height_px: int
) -> pdk.ViewState:
    """Return the view centred on a box (south, west, north, east) at the highest zoom that
    shows all of it on a map of that many pixels."""
    south, west, north, east = bounds
    low, high = _mercator_y(south), _mercator_y(north)
    zoom_across = math.log2(width_px * 360 / (WORLD_PX * (east - west)))
    zoom_up = math.log2(height_px * 2 * math.pi / (WORLD_PX * (high - low)))
    middle = math.degrees(2 * math.atan(math.exp((low + high) / 2)) - math.pi / 2)
    zoom = math.floor(min(zoom_across, zoom_up) * 100) / 100  # rounded down: never cut off
    return view(round(middle, 4), round((west + east) / 2, 4), zoom)


class CompactDeck(pdk.Deck):
    """A Deck written as compact JSON: the same spec as pydeck's, without its indentation.

    pydeck indents its JSON, which makes Python's json module use its pure-Python encoder,
    several times slower and larger; the browser parses the smaller text on every redraw.
    """

    def to_json(self) -> str:
        return json.dumps(self, sort_keys=True, default=default_serialize, separators=(",", ":"))


def deck(layers: list[pdk.Layer], view_state: pdk.ViewState | None = None) -> pdk.Deck:
    """Return a Deck over the layers, with an online basemap only when one is configured."""
    style = basemap_style()
    return CompactDeck(
        layers=layers,
        initial_view_state=view_state or view(**REGION_VIEW),
        map_provider="carto" if style else None,
        map_style=style or NO_BASEMAP,
        tooltip={"text": "{label}"},
    )


class LaterMaps:
    """Maps drawn at the end of a page's run, each in the place kept for it.

    In a browser without a GPU a map's first frame costs seconds (its layers' shader programs
    are compiled in software) and holds back whatever the page draws after it: a page keeps
    each map's place (`add`) inside `with LaterMaps() as later:`, and the maps are drawn when
    the block ends, even when it ends with a problem (the problem is drawn too, and says why).
    """

    def __init__(self) -> None:
        self._maps: list[tuple[Any, pdk.Deck, dict[str, Any]]] = []

    def __enter__(self) -> LaterMaps:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.draw()

    def add(self, deck: pdk.Deck, **chart_options: Any) -> None:
        """Keep the map's place here; `chart_options` go to `st.pydeck_chart` (a chart with
        a selection: read its state by its key before `draw`)."""
        self._maps.append((st.container(), deck, chart_options))

    def draw(self) -> None:
        for place, deck, chart_options in self._maps:
            place.pydeck_chart(deck, **chart_options)
        self._maps.clear()


def fill_layer_from_features(
    features: list[dict], *, layer_id: str, stroked: bool = False
) -> pdk.Layer:
    """Return the features filled with their `fill` property; unstroked (their outlines
    come from an `outline_layer`) unless `stroked`, then edged in their `line` colour."""
    edges = {"get_line_color": "properties.line", "line_width_min_pixels": 2} if stroked else {}
    return pdk.Layer(
        "GeoJsonLayer",
        id=layer_id,
        data=features,
        pickable=False,
        stroked=stroked,
        filled=True,
        get_fill_color="properties.fill",
        **edges,
    )
