"""The assessment's "How the queue here has ended": the service's completion answer drawn.

Every expected figure is read from the client's own answer for the same place, so the page
is checked against the service, never against numbers written here.
"""

from __future__ import annotations

import io
import json

import pandas as pd
import pyarrow as pa
import pytest
from conftest import ALPHA_TOKEN, page_path, point_app_at, unescape
from streamlit.testing.v1 import AppTest

from components import completion_view as view
from components.surroundings_view import DEFAULT_RADIUS_KM
from gridservice.demo import DEMO_POINTS

HAYS = DEMO_POINTS["dual_certified"]


def screened(demo_service, point: tuple[float, float], key: str) -> str:
    """Return the id of an alpha assessment of a site at `point`."""
    from gridclient import GridDataClient

    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        location = {"latitude": point[0], "longitude": point[1]}
        site = client.sites.create(
            {"requestedPeakLoadMw": 150.0, "location": location}, idempotency_key=key
        )
        return client.assessments.create(site.id).id


@pytest.fixture(scope="module")
def hays_assessment(demo_service) -> str:
    return screened(demo_service, HAYS, "queue-history-page-hays")


@pytest.fixture(scope="module")
def answer(demo_service):
    """The service's completion answer for the counties within the default radius of Hays."""
    from gridclient import GridDataClient

    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        return client.queue_history.completion(
            latitude=HAYS[0], longitude=HAYS[1], radius_km=DEFAULT_RADIUS_KM
        )


def open_page(assessment_id: str, **state) -> AppTest:
    at = AppTest.from_file(page_path("assessment"), default_timeout=120)
    at.query_params["assessment"] = assessment_id
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception
    return at


@pytest.fixture(scope="module")
def page(demo_service, hays_assessment):
    """The Hays assessment run once with its projects' fold open (the run's text is static)."""
    with pytest.MonkeyPatch.context() as patch:
        point_app_at(patch, demo_service, ALPHA_TOKEN)
        yield open_page(hays_assessment, **{view.PROJECTS_OPEN_KEY: True})


def chart(at: AppTest, title: str) -> tuple[dict, pd.DataFrame]:
    """Return a drawn chart's spec and its rows (Streamlit sends them apart, as Arrow)."""
    for element in at.get("vega_lite_chart"):
        spec = json.loads(element.proto.spec)
        if spec.get("title") == title:
            (dataset,) = element.proto.datasets
            return spec, pa.ipc.open_stream(io.BytesIO(dataset.data.data)).read_pandas()
    raise AssertionError(f"no chart titled {title!r}")


def shown(at: AppTest) -> list[str]:
    return [unescape(str(e.value)) for kind in ("markdown", "caption") for e in at.get(kind)]


def test_each_entry_year_is_a_bar_of_its_outcomes_with_their_counts(page, answer):
    spec, rows = chart(page, "How each entry year's projects ended")
    drawn = rows.set_index(["cohort", "outcome"])["count"].to_dict()
    for group in answer.by_cohort:
        label = view.cohort_label(group.cohort, answer)
        for name, words in view.OUTCOMES.items():
            assert drawn[(label, words)] == getattr(group, name).count
        assert f"{group.projects:,} projects" in set(rows.loc[rows["cohort"] == label, "totalText"])
    # the counts are written on the bars, not only their lengths drawn
    assert {layer["mark"]["type"] for layer in spec["layer"]} == {"bar", "text"}
    everything = answer.all
    assert any(
        f"Of {everything.projects:,} projects" in text
        and f"{everything.reached_operation.count:,} reached commercial operation" in text
        and f"{everything.still_queued.count:,} are still queued" in text
        for text in shown(page)
    )


def test_the_months_to_operation_are_steps_with_medians_and_censored_said(page, answer):
    _, rows = chart(page, "Months to commercial operation")
    texts = shown(page)
    for name, label in view.CURVES.items():
        curve = getattr(answer.time_to_operation, name)
        steps = rows[rows["curve"] == label]
        assert len(steps) == (len(curve.steps) + 1 if curve.projects else 0)
        said = [t for t in texts if t.startswith(f"{label}:")]
        assert len(said) == 1
        if curve.projects:
            assert f"{curve.censored:,} censored" in said[0]
            assert f"{curve.projects:,} projects followed" in said[0]
        if curve.median_months is not None:
            assert f"within {curve.median_months:,} months" in said[0]
        elif curve.projects:
            assert "no median yet" in said[0]
    # a historical figure, with its basis and the data's date
    assert any(
        t.startswith("A historical figure") and answer.as_of in t and "ERCOT only" in t
        for t in texts
    )


def test_the_projects_behind_the_figures_open_their_records(page, answer):
    table = next(df.value for df in page.dataframe if "Outcome" in df.value.columns)
    assert list(table["Queue id"]) == [f"queue?project={p.project_id}" for p in answer.projects]
    assert list(table["Outcome"]) == [view.OUTCOME_WORDS[p.outcome] for p in answer.projects]


def test_a_fuel_narrows_every_figure(service_env, hays_assessment, alpha_client, answer):
    fuel = max(answer.by_fuel, key=lambda g: g.projects).fuel
    narrowed = alpha_client.queue_history.completion(
        latitude=HAYS[0], longitude=HAYS[1], radius_km=DEFAULT_RADIUS_KM, fuel=fuel
    )
    at = open_page(hays_assessment, **{view.FUEL_KEY: fuel})
    assert any(f"Of {narrowed.all.projects:,} projects" in t for t in shown(at))
    _, rows = chart(at, "How each entry year's projects ended")
    assert rows["count"].sum() == narrowed.all.projects < answer.all.projects


def test_a_site_outside_ercot_is_told_the_history_covers_ercot_only(service_env, demo_service):
    at = open_page(screened(demo_service, DEMO_POINTS["outside_coverage"], "queue-history-out"))
    assert any("covers ERCOT only" in str(i.value) for i in at.info)
    titles = [json.loads(c.proto.spec).get("title") for c in at.get("vega_lite_chart")]
    assert "How each entry year's projects ended" not in titles
