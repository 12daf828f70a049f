"""A map that places the pin where it is clicked, in the browser, and reports the point.

Streamlit's deck chart returns the objects a click picked, never the clicked point, and
every click reruns and redraws the chart: the browser converted the whole deck three times
a click and drew six or seven frames. This component draws the same deck JSON with deck.gl, as pydeck
ships it (`pydeck/nbextension/static/index.js`, served by the app, nothing fetched from the
internet). A click moves the pin at once (an element over the map: no new WebGL frame) and
reports the clicked point; the deck is built again only when its JSON changes.

No basemap: the map draws what its layers hold (the Census outlines), also when an online
basemap style is configured for the app's other maps (docs/APP.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pydeck
import streamlit.components.v1 as components

FRONTEND = Path(__file__).with_name("click_map_frontend")
DECK_BUNDLE = Path(pydeck.__file__).parent / "nbextension" / "static"
BUNDLE_FILE = "index.js"

_click_map = components.declare_component("click_map", path=str(FRONTEND))
# declared only to serve deck.gl's script to the map's page (never drawn itself); the page
# loads it from "../<this component's name>/index.js"
_deck_bundle = components.declare_component("deck_bundle", path=str(DECK_BUNDLE))
BUNDLE_COMPONENT = _deck_bundle.name


@dataclass(frozen=True)
class MapClick:
    """A click on the map: the point it placed, and the click's own id (two clicks on the same
    point are two clicks)."""

    latitude: float
    longitude: float
    click: str


def read_click(value: Any) -> MapClick | None:
    """Return the click a map's value reports, or None for no click or a malformed value."""
    if not isinstance(value, dict):
        return None
    try:
        latitude, longitude = float(value["latitude"]), float(value["longitude"])
        click = str(value["click"])
    except (KeyError, TypeError, ValueError):
        return None
    return MapClick(round(latitude, 5), round(longitude, 5), click)


def click_map(
    deck_spec: dict[str, Any], pin: dict[str, Any] | None, *, key: str, height: int = 460
) -> MapClick | None:
    """Draw the deck (its layers, view and controller; no basemap) and the pin; return the
    last click on it, if any.

    `pin` is the spec of a one-row layer whose row has `latitude` and `longitude`. The map
    draws it as an element over the canvas, in the layer's colours and sizes, and a click
    moves it to the clicked point before the app has answered.
    """
    value = _click_map(
        deck=json.dumps(deck_spec, separators=(",", ":")),
        pin=pin,
        height=height,
        key=key,
        default=None,
    )
    return read_click(value)
