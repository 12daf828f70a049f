"""The map of a site's surroundings: the counties in the radius shaded by active queue MW and
named, the nearest plants, the site's pin, and rings at distances from it labelled in km.

County names are drawn only for the counties of the surroundings, at a fixed size on screen,
and only where a name does not overlap one drawn already (the site's county and the nearest
first): at a wide radius the counties are small and most names would collide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pydeck as pdk

from components import maps
from components.geography import region_counties
from gridclient import SiteSurroundings

DEFAULT_RADIUS_KM = 40
PLANT_COLOUR = [30, 136, 229, 200]
RING_COLOUR = [60, 60, 60, 170]
NAME_COLOUR = [33, 37, 41, 255]
HALO_COLOUR = [255, 255, 255, 230]
# Text size on screen, in pixels: readable at any zoom (sized in metres, a name shrank to a
# speck at a wide radius and covered its neighbours at a narrow one).
NAME_PX = 13
# The width of a character of the map's sans-serif text, as a share of its size (an upper
# bound for county names: capitals and wide letters included).
CHAR_WIDTH = 0.62
KM_PER_DEGREE = 111.32
NAMES_LAYER_ID, RINGS_LAYER_ID, RING_LABELS_LAYER_ID = "county-names", "rings", "ring-labels"


def zoom_for(radius_km: float | None) -> float:
    """Return the map's zoom for a radius: the whole radius on a map about 420 px high."""
    return max(5.0, 9.0 - math.log2(max(radius_km or DEFAULT_RADIUS_KM, 10) / 10))


def screen_point(longitude: float, latitude: float, zoom: float) -> tuple[float, float]:
    """Return a point's position in pixels on the web-Mercator world at `zoom`."""
    size = maps.WORLD_PX * 2**zoom
    x = (longitude + 180) / 360 * size
    y = (1 - math.log(math.tan(math.pi / 4 + math.radians(latitude) / 2)) / math.pi) / 2 * size
    return x, y


@dataclass(frozen=True)
class LabelBox:
    """A text's box on screen, in pixels, centred on its anchor."""

    x: float
    y: float
    width: float
    height: float

    def overlaps(self, other: LabelBox) -> bool:
        return (
            abs(self.x - other.x) * 2 < self.width + other.width
            and abs(self.y - other.y) * 2 < self.height + other.height
        )


def label_box(text: str, longitude: float, latitude: float, zoom: float) -> LabelBox:
    """Return the box a text of `NAME_PX` takes on screen, centred on its anchor."""
    x, y = screen_point(longitude, latitude, zoom)
    return LabelBox(x, y, len(text) * NAME_PX * CHAR_WIDTH + 4, NAME_PX + 4)


def ring_distances(radius_km: float) -> list[float]:
    """Return the distances ringed around the site: the radius, and half of it when that is
    at least 5 km (a ring closer to the pin than that hides it)."""
    half = radius_km / 2
    return [half, radius_km] if half >= 5 else [radius_km]


def ring_rows(latitude: float, longitude: float, radius_km: float) -> list[dict[str, Any]]:
    """Return each ring around the site, with its label's anchor at the ring's north point."""
    return [
        {
            "latitude": latitude,
            "longitude": longitude,
            "radius": km * 1000,
            "label": f"{km:,.0f} km from the site",
            "text": f"{km:,.0f} km",
            "labelLatitude": latitude + km / KM_PER_DEGREE,
        }
        for km in ring_distances(radius_km)
    ]


def px_to_degrees(pixels: float, latitude: float, zoom: float) -> float:
    """Return how many degrees of latitude `pixels` span on screen at `zoom` there."""
    return pixels * 360 / (maps.WORLD_PX * 2**zoom) * math.cos(math.radians(latitude))


def name_rows(
    near: SiteSurroundings, zoom: float, taken: list[LabelBox], pin: tuple[float, float] | None
) -> list[dict[str, Any]]:
    """Return the county names to draw: counties of the surroundings only, the site's county
    first (just under the `pin`, latitude and longitude, when there is one: the pin would
    cover a name at the county's own point), then the nearest, each left out where it would
    overlap a box in `taken` (which it then joins)."""
    outlines = region_counties()
    order = sorted(
        near.counties, key=lambda c: (not c.is_site_county, c.distance_km or 0.0, c.name or "")
    )
    rows = []
    for county in order:
        outline = outlines.get(county.county_fips or "")
        if outline is None:
            continue
        anchor = outline.shape.representative_point()
        longitude, latitude = anchor.x, anchor.y
        if county.is_site_county and pin is not None:
            latitude = pin[0] - px_to_degrees(NAME_PX * 1.4, pin[0], zoom)
            longitude = pin[1]
        box = label_box(outline.name, longitude, latitude, zoom)
        if any(box.overlaps(other) for other in taken):
            continue
        taken.append(box)
        rows.append(
            {
                "longitude": round(longitude, 5),
                "latitude": round(latitude, 5),
                "text": outline.name,
                "label": outline.label,
            }
        )
    return rows


def text_layer(layer_id: str, rows: list[dict[str, Any]], **position: Any) -> pdk.Layer:
    """Return dark text with a white halo, `NAME_PX` on screen, centred on its anchor.

    Constant strings are wrapped in `pdk.types.String`: pydeck reads a bare string as an
    expression over the row, and a text layer given "auto" or "middle" so drew nothing.
    """
    return pdk.Layer(
        "TextLayer",
        id=layer_id,
        data=rows,
        get_position=position.get("get_position", ["longitude", "latitude"]),
        get_text="text",
        get_size=NAME_PX,
        size_units=pdk.types.String("pixels"),
        get_color=NAME_COLOUR,
        font_family=pdk.types.String("sans-serif"),
        font_weight=600,
        # a halo needs the font drawn as a distance field; drawn large, it stays crisp
        font_settings={"sdf": True, "fontSize": 32},
        outline_width=3,
        outline_color=HALO_COLOUR,
        # every character the rows hold (names such as Doña Ana), not ASCII only
        character_set=pdk.types.String("".join(sorted({c for row in rows for c in row["text"]}))),
        get_text_anchor=pdk.types.String("middle"),
        get_alignment_baseline=pdk.types.String("center"),
        pickable=False,
    )


def scale_layers(rings: list[dict[str, Any]]) -> list[pdk.Layer]:
    """Return the rings (outlines only) and their labels in km."""
    circles = pdk.Layer(
        "ScatterplotLayer",
        id=RINGS_LAYER_ID,
        data=rings,
        get_position=["longitude", "latitude"],
        get_radius="radius",
        filled=False,
        stroked=True,
        get_line_color=RING_COLOUR,
        line_width_min_pixels=1,
        pickable=False,
    )
    labels = text_layer(RING_LABELS_LAYER_ID, rings, get_position=["longitude", "labelLatitude"])
    return [circles, labels]


def plant_layer(rows: list[dict[str, Any]]) -> pdk.Layer:
    """Return the plants as blue dots, larger for more capacity."""
    return pdk.Layer(
        "ScatterplotLayer",
        id="plants",
        data=rows,
        get_position=["longitude", "latitude"],
        get_fill_color=PLANT_COLOUR,
        get_radius="radius",
        radius_min_pixels=3,
        pickable=True,
    )


def plants(near: SiteSurroundings) -> list[Any]:
    """Return every nearby plant once, nearest first."""
    seen = {}
    for county in near.counties:
        for plant in county.plants.nearest if county.plants else []:
            seen.setdefault(plant.id or plant.plant_id, plant)
    return sorted(seen.values(), key=lambda p: p.distance_km or 0.0)


def plant_rows(near: SiteSurroundings) -> list[dict[str, Any]]:
    return [
        {
            "latitude": p.latitude,
            "longitude": p.longitude,
            "radius": 400 + 80 * math.sqrt(p.capacity_mw or 0.0),
            "label": f"{p.plant_name}: {p.capacity_mw or 0:,.0f} MW, {p.distance_km} km",
        }
        for p in plants(near)
        if p.latitude is not None and p.longitude is not None
    ]


def county_features(near: SiteSurroundings) -> list[dict[str, Any]]:
    """Return the counties of the surroundings, shaded darker for more active queue MW."""
    outlines = region_counties()
    active = {c.county_fips: c.queue.active_mw if c.queue else None for c in near.counties}
    most = max((mw for mw in active.values() if mw), default=0.0) or 1.0
    return [
        outlines[fips].feature(
            fill=[255, 140, 0, int(30 + 170 * (mw or 0.0) / most)],
            label=f"{outlines[fips].label}: "
            + (f"{mw:,.0f} MW active in the queue" if mw is not None else "no queue figures"),
        )
        for fips, mw in active.items()
        if fips in outlines
    ]


def surroundings_deck(near: SiteSurroundings) -> pdk.Deck:
    """Return the map of the surroundings: counties shaded and named, plants, the pin, and the
    rings at half the radius and at the radius, labelled in km."""
    outlines = region_counties()
    location = near.location or {}
    latitude, longitude = location.get("latitude", 31.5), location.get("longitude", -98.8)
    zoom = zoom_for(near.radius_km)
    layers = [
        maps.fill_layer_from_features(county_features(near), layer_id="surroundings"),
        maps.outline_layer(
            [outlines[c.county_fips] for c in near.counties if c.county_fips in outlines]
        ),
        plant_layer(plant_rows(near)),
    ]
    taken: list[LabelBox] = []
    pinned = "latitude" in location and "longitude" in location
    if pinned:
        rings = ring_rows(latitude, longitude, near.radius_km or DEFAULT_RADIUS_KM)
        taken += [label_box(r["text"], longitude, r["labelLatitude"], zoom) for r in rings]
        layers += scale_layers(rings)
    pin = (latitude, longitude) if pinned else None
    layers.append(text_layer(NAMES_LAYER_ID, name_rows(near, zoom, taken, pin)))
    if pinned:
        layers.append(maps.pin_layer(latitude, longitude))
    return maps.deck(layers, maps.view(latitude, longitude, zoom))
