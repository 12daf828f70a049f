"""The grid drawn under the picker's surroundings view: existing plants and the queue's points.

- Existing plants stand at their own coordinates, one circle each, its area growing with the
  nameplate MW of the generators the service lists for the plant.
- The queue's points of interconnection are named in the queue reports by their substation
  or line, located only by county: each county with active requests gets one line under its
  name, "7 queue POIs · 1,240 MW" (distinct points and the requested MW of its active
  requests). Nothing is placed at a point the data does not give.

Built from the same lists as the Generation and Queue pages (`components.data`), once per
connection and lifetime of fetched data.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import pydeck as pdk
import streamlit as st

from components import data
from components.connection import ConnectionKey
from components.geography import County, name_key
from components.queue_view import status_now
from gridclient import GenerationPlant, Generator, QueueRecord

PLANT_FILL = [28, 131, 225, 150]  # Streamlit's blue, as the legend's `:blue[●]`
QUEUE_COLOUR = [196, 92, 0, 255]  # a dark orange, as the legend's `:orange[...]`
PLANTS_LABELLED = 6  # the biggest plants near the view's centre are named
LABEL_REACH_KM = 30.0  # on screen at the surroundings zoom on any common width


def plant_capacity(generators: pd.DataFrame) -> pd.DataFrame:
    """Return each plant's nameplate MW and its technology with the most MW."""
    if generators.empty:
        return pd.DataFrame(columns=["agencyPlantId", "capacityMw", "technology"])
    by_tech = (
        generators.assign(technology=generators["technology"].fillna("unknown"))
        .groupby(["agencyPlantId", "technology"])["nameplateCapacityMw"]
        .sum()
        .reset_index()
        .sort_values(
            ["agencyPlantId", "nameplateCapacityMw", "technology"], ascending=[True, False, True]
        )
    )
    main = by_tech.drop_duplicates("agencyPlantId")[["agencyPlantId", "technology"]]
    total = by_tech.groupby("agencyPlantId")["nameplateCapacityMw"].sum().rename("capacityMw")
    return main.merge(total.reset_index(), on="agencyPlantId")[
        ["agencyPlantId", "capacityMw", "technology"]
    ]


@dataclass(frozen=True)
class PlantMarker:
    """An existing plant at its own coordinates, with the nameplate MW of its generators."""

    name: str
    latitude: float
    longitude: float
    capacity_mw: float


@dataclass(frozen=True)
class CountyQueue:
    """A county's active queue requests: distinct points of interconnection, requests, MW."""

    points: int
    requests: int
    active_mw: float

    @property
    def label(self) -> str:
        noun = "queue POI" if self.points == 1 else "queue POIs"
        return f"{self.points:,} {noun} · {self.active_mw:,.0f} MW"


def plant_markers(
    plants: Iterable[GenerationPlant], generators: Iterable[Generator]
) -> list[PlantMarker]:
    """Return every located plant with the summed nameplate MW of its listed generators
    (`plant_capacity`, as the Generation page does)."""
    rows = [
        (g.agency_plant_id, g.technology, g.nameplate_capacity_mw)
        for g in generators
        if g.agency_plant_id is not None
    ]
    frame = pd.DataFrame(rows, columns=["agencyPlantId", "technology", "nameplateCapacityMw"])
    capacity = dict(plant_capacity(frame)[["agencyPlantId", "capacityMw"]].itertuples(index=False))
    return [
        PlantMarker(
            name=plant.plant_name or f"Plant {plant.agency_plant_id or plant.id}",
            latitude=plant.latitude,
            longitude=plant.longitude,
            capacity_mw=float(capacity.get(plant.agency_plant_id, 0.0)),
        )
        for plant in plants
        if plant.latitude is not None and plant.longitude is not None
    ]


def county_key(state: str | None, county: str | None) -> tuple[str, str]:
    """Return how a queue record's county and a county outline are matched: state, name."""
    return str(state or "").strip().upper(), name_key(county or "")


def queue_by_county(records: Iterable[QueueRecord]) -> dict[tuple[str, str], CountyQueue]:
    """Return each county's active requests (by their status now): points, requests, MW."""
    points: dict[tuple[str, str], set[str]] = {}
    requests: dict[tuple[str, str], int] = {}
    megawatts: dict[tuple[str, str], float] = {}
    for record in records:
        if not record.county or not status_now(record)["countsAsActive"]:
            continue
        key = county_key(record.state, record.county)
        point = " ".join(str(record.point_of_interconnection or "").split()).casefold()
        points.setdefault(key, set())
        if point:
            points[key].add(point)
        requests[key] = requests.get(key, 0) + 1
        megawatts[key] = megawatts.get(key, 0.0) + (record.requested_capacity_mw or 0.0)
    return {key: CountyQueue(len(points[key]), requests[key], megawatts[key]) for key in requests}


@dataclass(frozen=True)
class GridContext:
    """What the picker draws of the grid: plants, and the active queue per county."""

    plants: tuple[PlantMarker, ...]
    queue: dict[tuple[str, str], CountyQueue]
    # what a view drew of it, kept for the next click in the same view (the picker's memo;
    # shared by the sessions of a connection, like the context)
    drawn: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def plants_in(self, box: tuple[float, float, float, float]) -> list[PlantMarker]:
        """Return the plants inside a (south, west, north, east) box, biggest first."""
        south, west, north, east = box
        inside = [
            p for p in self.plants if south <= p.latitude <= north and west <= p.longitude <= east
        ]
        return sorted(inside, key=lambda p: (-p.capacity_mw, p.name))

    def queue_of(self, county: County) -> CountyQueue | None:
        return self.queue.get(county_key(county.state, county.name))


@st.cache_resource(ttl=data.TTL_SECONDS, show_spinner=False, max_entries=16)
def _context(conn: ConnectionKey) -> GridContext:
    markers = plant_markers(data.all_generation_plants(conn), data.all_generators(conn))
    return GridContext(tuple(markers), queue_by_county(data.all_queue_records(conn)))


def grid_context(conn: ConnectionKey) -> GridContext:
    """Return the grid context of a connection (its lists fetched once, with progress)."""
    # the lists come first, outside the cached function: their progress bars are drawn here
    data.all_generation_plants(conn)
    data.all_generators(conn)
    data.all_queue_records(conn)
    return _context(conn)


def plant_radius_m(capacity_mw: float) -> float:
    """Return a circle's radius in metres: its area grows with MW (100 MW about 850 m)."""
    return 250.0 + 60.0 * math.sqrt(max(capacity_mw, 0.0))


def plants_layer(plants: list[PlantMarker]) -> pdk.Layer:
    """Return the plants as circles; not pickable, so a click goes through to the map."""
    rows = [
        {
            "position": [round(p.longitude, 5), round(p.latitude, 5)],
            "radius": round(plant_radius_m(p.capacity_mw)),
        }
        for p in plants
    ]
    return pdk.Layer(
        "ScatterplotLayer",
        id="grid_plants",
        data=rows,
        get_position="position",
        get_radius="radius",
        radius_min_pixels=3,
        get_fill_color=PLANT_FILL,
        get_line_color=[255, 255, 255, 220],
        line_width_min_pixels=1,
        stroked=True,
        pickable=False,
    )


def plant_label_rows(
    plants: list[PlantMarker], centre: tuple[float, float], reach_km: float = LABEL_REACH_KM
) -> list[dict[str, Any]]:
    """Return name and MW labels for the biggest plants within `reach_km` of the view's
    centre (always on screen), just east of their circles."""
    latitude, longitude = centre
    near = [
        p
        for p in plants
        if abs(p.latitude - latitude) * 111.32 <= reach_km
        and abs(p.longitude - longitude) * 111.32 * math.cos(math.radians(latitude)) <= reach_km
    ]
    return [
        {
            "text": f"{p.name} · {p.capacity_mw:,.0f} MW",
            "position": [round(p.longitude, 4), round(p.latitude, 4)],
            "size": 11,
            "colour": [18, 72, 140, 255],
            "anchor": "start",
            "offset": [10, 0],
        }
        for p in near[:PLANTS_LABELLED]
        if p.capacity_mw > 0
    ]


def queue_label_rows(
    context: GridContext, counties: Iterable[tuple[County, list[float]]]
) -> list[dict[str, Any]]:
    """Return a county's active-queue line, just under its name at the name's point."""
    rows = []
    for county, position in counties:
        queue = context.queue_of(county)
        if queue is not None:
            rows.append(
                {
                    "text": queue.label,
                    "position": position,
                    "size": 11,
                    "colour": QUEUE_COLOUR,
                    "anchor": "middle",
                    "offset": [0, 14],
                }
            )
    return rows


LEGEND = (
    ":blue[●] existing plant, its area by nameplate MW · :orange[**queue POIs · MW**] a "
    "county's active queue requests: distinct points of interconnection and requested MW "
    "(the queue reports locate a point only by its county)"
)
