"""The site report's map: the site's pin among the county outlines around it, as SVG.

Drawn from the Census county outlines the app's other maps use (`components.geography`),
in a plain equirectangular projection scaled by the cosine of the site's latitude (over
a box of about 130 km the distortion is under one per cent). It is vector all the way, so
it prints sharp and needs no map tiles, network or browser.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

from components.geography import (
    REGION_STATE_FIPS,
    County,
    counties_by_name,
    counties_in_box,
    country_counties_in_box,
    region_counties,
    state_counties,
)

# Half the box drawn around the site, in degrees of latitude (about 65 km): the site's
# county and most of its neighbours fit, and each county is large enough to carry its name.
HALF_HEIGHT_DEGREES = 0.6
WIDTH, HEIGHT = 640, 440
KM_PER_DEGREE = 111.32
SCALE_BAR_KM = (5, 10, 20, 25, 50)
SITE_FILL, NEARBY_FILL = "#f6c28b", "#b9d3ee"


@dataclass(frozen=True)
class MapFrame:
    """The box drawn (degrees) and the projection from it to the SVG's pixels."""

    south: float
    west: float
    north: float
    east: float

    @property
    def _x_scale(self) -> float:
        return WIDTH / (self.east - self.west)

    def point(self, longitude: float, latitude: float) -> tuple[float, float]:
        """Return the SVG position (x, y) of a point given in degrees."""
        x = (longitude - self.west) * self._x_scale
        y = (self.north - latitude) * HEIGHT / (self.north - self.south)
        return round(x, 1), round(y, 1)

    def km_to_pixels(self, km: float) -> float:
        """Return how many pixels east-west `km` spans at the box's middle latitude."""
        middle = math.radians((self.south + self.north) / 2)
        return km / (KM_PER_DEGREE * math.cos(middle)) * self._x_scale


def frame_around(latitude: float, longitude: float) -> MapFrame:
    """Return the box centred on the point whose shape matches the SVG's (equal km per pixel
    both ways)."""
    half_width = HALF_HEIGHT_DEGREES * WIDTH / HEIGHT / math.cos(math.radians(latitude))
    return MapFrame(
        latitude - HALF_HEIGHT_DEGREES,
        longitude - half_width,
        latitude + HALF_HEIGHT_DEGREES,
        longitude + half_width,
    )


def outlines_near(frame: MapFrame, site_county_fips: str | None, state: str | None) -> list[County]:
    """Return the county outlines within the frame: the demo region's (read once per process,
    as the assessment's map reads them) or the site's state's; the whole country's only when
    the site's county is not known (reading every state's outline takes many seconds)."""
    state_fips = (site_county_fips or "")[:2]
    if state_fips in REGION_STATE_FIPS:
        counties = region_counties()
    elif state_fips and state:
        counties = state_counties(state_fips, state)
    else:
        return country_counties_in_box(frame.south, frame.west, frame.north, frame.east)
    return counties_in_box(counties, frame.south, frame.west, frame.north, frame.east)


def _path(county: County, frame: MapFrame) -> str:
    polygons = county.geometry["coordinates"]
    if county.geometry["type"] == "Polygon":
        polygons = [polygons]
    rings = []
    for polygon in polygons:
        for ring in polygon:
            points = [frame.point(lng, lat) for lng, lat in ring]
            rings.append("M" + " L".join(f"{x},{y}" for x, y in points) + " Z")
    return " ".join(rings)


def _label(county: County, frame: MapFrame) -> str:
    inside = county.shape.representative_point()
    x, y = frame.point(inside.x, inside.y)
    if not (20 <= x <= WIDTH - 20 and 12 <= y <= HEIGHT - 30):
        return ""  # a name cut by the map's edge reads as a different word
    return (
        f'<text x="{x}" y="{y}" font-size="10" text-anchor="middle" fill="#333">'
        f"{html.escape(county.name)}</text>"
    )


def _scale_bar(frame: MapFrame) -> str:
    # the longest round length that takes at most a quarter of the map's width
    km = max((k for k in SCALE_BAR_KM if frame.km_to_pixels(k) <= WIDTH / 4), default=5)
    length = frame.km_to_pixels(km)
    x, y = 14, HEIGHT - 16
    return (
        f'<rect x="{x - 6}" y="{y - 16}" width="{length + 12}" height="26" fill="white" '
        'fill-opacity="0.85"/>'
        f'<line x1="{x}" y1="{y}" x2="{x + length:.1f}" y2="{y}" stroke="#000" stroke-width="2"/>'
        f'<line x1="{x}" y1="{y - 4}" x2="{x}" y2="{y + 4}" stroke="#000"/>'
        f'<line x1="{x + length:.1f}" y1="{y - 4}" x2="{x + length:.1f}" y2="{y + 4}" '
        'stroke="#000"/>'
        f'<text x="{x + length / 2:.1f}" y="{y - 5}" font-size="10" text-anchor="middle">'
        f"{km} km</text>"
    )


def _pin(frame: MapFrame, latitude: float, longitude: float) -> str:
    x, y = frame.point(longitude, latitude)
    return (
        f'<circle cx="{x}" cy="{y}" r="7" fill="#c0392b" stroke="white" stroke-width="2"/>'
        f'<circle cx="{x}" cy="{y}" r="2" fill="white"/>'
    )


def site_map_svg(
    latitude: float,
    longitude: float,
    site_county_fips: str | None,
    site_state: str | None = None,
    nearby_county_names: Sequence[str] = (),
) -> str:
    """Return the SVG of the site's pin, its county (orange), the counties its records name
    (blue, in the site's state) and every county outline around it with its name, and a
    scale bar."""
    frame = frame_around(latitude, longitude)
    shown = outlines_near(frame, site_county_fips, site_state)
    named = {
        c.fips for c in counties_by_name({c.fips: c for c in shown}, list(nearby_county_names))
    }
    shapes, labels = [], []
    for county in shown:
        if county.fips == site_county_fips:
            fill = SITE_FILL
        elif county.fips in named and (site_state is None or county.state == site_state):
            fill = NEARBY_FILL
        else:
            fill = "none"
        shapes.append(
            f'<path d="{_path(county, frame)}" fill="{fill}" fill-rule="evenodd" '
            'stroke="#666" stroke-width="0.8"/>'
        )
        labels.append(_label(county, frame))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif">'
        f'<clipPath id="box"><rect width="{WIDTH}" height="{HEIGHT}"/></clipPath>'
        f'<g clip-path="url(#box)">{"".join(shapes)}</g>'
        f"{''.join(labels)}{_pin(frame, latitude, longitude)}{_scale_bar(frame)}"
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="none" stroke="#999"/></svg>'
    )
