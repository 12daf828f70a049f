"""The grid drawn under the picker: plants summed from their generators, the queue by county."""

from __future__ import annotations

from components import grid_context
from components.geography import County
from gridclient import GenerationPlant, Generator, QueueRecord
from gridclient.models import QueueStatusNow


def plant(plant_id: int | None, name: str, latitude: float | None = 30.0) -> GenerationPlant:
    return GenerationPlant(
        id=f"p{plant_id}", plant_name=name, agency_plant_id=plant_id, latitude=latitude,
        longitude=-97.0,
    )  # fmt: skip


def generator(plant_id: int | None, mw: float | None) -> Generator:
    return Generator(agency_plant_id=plant_id, nameplate_capacity_mw=mw)


def test_a_plant_sums_its_generators_and_an_unlocated_plant_is_left_out():
    markers = grid_context.plant_markers(
        [plant(1, "Two units"), plant(2, "No generators"), plant(3, "Nowhere", latitude=None)],
        [generator(1, 120.5), generator(1, 80.0), generator(1, None), generator(3, 50.0)],
    )
    assert [(m.name, m.capacity_mw) for m in markers] == [
        ("Two units", 200.5),
        ("No generators", 0),
    ]
    assert grid_context.plant_radius_m(400) > grid_context.plant_radius_m(100)


def record(county: str, poi: str | None, mw: float | None, *, active: bool = True) -> QueueRecord:
    now = QueueStatusNow(status="active" if active else "withdrawn", counts_as_active=active)
    return QueueRecord(
        state="TX", county=county, point_of_interconnection=poi, requested_capacity_mw=mw,
        status="active", status_now=now,
    )  # fmt: skip


def test_a_county_counts_distinct_points_and_the_mw_of_its_active_requests_only():
    queue = grid_context.queue_by_county(
        [
            record("Hays", "Juniper 345 kV Substation", 100.0),
            record("Hays", "juniper  345 kV substation", 50.0),  # the same point, spelt apart
            record("Hays County", "Tap 138 kV line", 25.0),
            record("Hays", "Gone 138 kV", 999.0, active=False),  # withdrawn: not counted
            record("Travis", None, None),
        ]
    )
    hays = queue[("TX", "hays")]
    assert (hays.points, hays.requests, hays.active_mw) == (2, 3, 175.0)
    assert hays.label == "2 queue POIs · 175 MW"
    assert queue[("TX", "travis")].label == "0 queue POIs · 0 MW"


def test_only_the_biggest_plants_near_the_centre_are_named():
    markers = [
        grid_context.PlantMarker(f"P{mw}", 30.0, -97.0 + i * 0.01, float(mw))
        for i, mw in enumerate([900, 10, 300, 50, 70, 80, 90, 0])
    ]
    far = grid_context.PlantMarker("Far", 31.0, -97.0, 5000.0)  # 111 km north
    context = grid_context.GridContext((*markers, far), {})
    inside = context.plants_in((29.0, -98.0, 32.0, -96.0))
    assert inside[0].name == "Far"  # biggest first
    rows = grid_context.plant_label_rows(inside, (30.0, -97.0))
    assert [row["text"] for row in rows] == [
        "P900 · 900 MW", "P300 · 300 MW", "P90 · 90 MW", "P80 · 80 MW", "P70 · 70 MW",
        "P50 · 50 MW",
    ]  # fmt: skip


def test_a_countys_queue_line_sits_under_its_name():
    hays = County("48209", "Hays", "TX", {"type": "Polygon", "coordinates": []})
    comal = County("48091", "Comal", "TX", {"type": "Polygon", "coordinates": []})
    context = grid_context.GridContext((), {("TX", "hays"): grid_context.CountyQueue(1, 1, 5.0)})
    rows = grid_context.queue_label_rows(context, [(hays, [-97.9, 30.0]), (comal, [-98.2, 29.8])])
    assert [(r["text"], r["position"], r["offset"]) for r in rows] == [
        ("1 queue POI · 5 MW", [-97.9, 30.0], [0, 14])
    ]
