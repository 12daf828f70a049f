"""The client reads queue completion as typed records from the reference service (the demo
store, the app handed in as the HTTP client), and checks its arguments before sending."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from demo_store import demo_store_copy
from fastapi.testclient import TestClient

import gridclient as gc
from gridservice.app import create_app
from gridservice.demo import DEMO_POINTS
from gridservice.settings import Settings

POINT = DEMO_POINTS["dual_certified"]


@pytest.fixture(scope="module")
def client(tmp_path_factory) -> Iterator[gc.GridDataClient]:
    path = demo_store_copy(tmp_path_factory.mktemp("completion") / "demo.db")
    app = create_app(Settings(db_path=path, demo=True, rate_limit_burst=10**6))
    with (
        TestClient(app) as served,
        gc.GridDataClient(
            base_url=str(served.base_url), token="gds_demo_alpha", http_client=served
        ) as client,
    ):
        yield client


def test_completion_near_a_point_is_typed_and_every_count_lists_its_projects(client):
    completion = client.queue_history.completion(
        latitude=POINT[0], longitude=POINT[1], radius_km=80
    )
    assert isinstance(completion, gc.QueueCompletion)
    assert isinstance(completion.time_to_operation.entry, gc.SurvivalCurve)
    assert isinstance(completion.likely_to_build, gc.LikelyToBuild)
    assert completion.likely_to_build.label == "heuristic"
    everything = completion.all
    shares = (
        everything.reached_operation,
        everything.dropped_out,
        everything.still_queued,
        everything.left_unstated,
    )
    assert sum(s.count for s in shares) == everything.projects == len(completion.projects)
    assert all(len(s.project_ids) == s.count for s in shares)
    assert sum(g.projects for g in completion.by_cohort) == everything.projects


def test_a_fuel_narrows_the_projects(client):
    county = (
        client.queue_history.completion(latitude=POINT[0], longitude=POINT[1], radius_km=80)
        .by_county[0]
        .county_fips
    )
    solar = client.queue_history.completion(county=county, fuel="SOL")
    assert solar.projects and {p.fuel for p in solar.projects} == {"SOL"}


def test_a_latitude_out_of_range_is_refused_before_sending(client):
    with pytest.raises(gc.InvalidArgumentError):
        client.queue_history.completion(latitude=123, longitude=0)


def test_a_projects_timeline_is_typed_and_ends_as_the_completion_says(client):
    completion = client.queue_history.completion(
        latitude=POINT[0], longitude=POINT[1], radius_km=80
    )
    ended = next(p for p in completion.projects if p.outcome == "droppedOut")
    timeline = client.queue_history.project_timeline(ended.project_id.lower())
    assert isinstance(timeline, gc.QueueProjectTimeline)
    assert timeline.project_id == ended.project_id
    assert (timeline.outcome.outcome, timeline.outcome.month) == ("droppedOut", ended.outcome_month)
    assert [r.month for r in timeline.rows] == sorted(r.month for r in timeline.rows)
    with pytest.raises(gc.NotFoundError):
        client.queue_history.project_timeline("99INR9999")
