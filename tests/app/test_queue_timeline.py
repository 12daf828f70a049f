"""A queue record's timeline across the monthly reports, on the Interconnection queue page,
and the queue history's links that open a record by its queue id. Every expected figure is
read from the client's answer for the same project."""

from __future__ import annotations

import io
import json

import pyarrow as pa
import pytest
from conftest import ALPHA_TOKEN, page_path, unescape
from streamlit.testing.v1 import AppTest

from components import queue_timeline_view as view
from components.completion_view import OUTCOME_WORDS
from components.surroundings_changes import cell_text
from gridservice.demo import DEMO_POINTS

CHART_TITLE = "What each monthly report says of it"


@pytest.fixture(scope="module")
def ended_project(alpha_client_module):
    """A project near Hays whose reports end it (reached operation or dropped out), with a
    queue record: its record, its timeline as the client reads it."""
    client = alpha_client_module
    latitude, longitude = DEMO_POINTS["dual_certified"]
    completion = client.queue_history.completion(
        latitude=latitude, longitude=longitude, radius_km=40
    )
    records = {
        str(r.record_key).upper(): r for r in client.queue_records.list(limit=500) if r.record_key
    }
    project = next(
        p
        for p in completion.projects
        if p.outcome in ("reachedOperation", "droppedOut") and p.project_id.upper() in records
    )
    return records[project.project_id.upper()], client.queue_history.project_timeline(
        project.project_id
    )


@pytest.fixture(scope="module")
def alpha_client_module(demo_service):
    from gridclient import GridDataClient

    with GridDataClient(base_url=demo_service, token=ALPHA_TOKEN) as client:
        yield client


def open_queue(**query: str) -> AppTest:
    at = AppTest.from_file(page_path("queue"), default_timeout=120)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception
    return at


def chart_rows(at: AppTest, title: str):
    for element in at.get("vega_lite_chart"):
        if json.loads(element.proto.spec).get("title") == title:
            (dataset,) = element.proto.datasets
            return pa.ipc.open_stream(io.BytesIO(dataset.data.data)).read_pandas()
    raise AssertionError(f"no chart titled {title!r}")


def test_a_queue_id_link_opens_the_record_with_its_months_changes_and_outcome(
    service_env, ended_project
):
    record, timeline = ended_project
    at = open_queue(project=timeline.project_id.lower())
    assert at.query_params["record"] == record.id
    assert "project" not in at.query_params
    outcome = timeline.outcome
    said = [unescape(m.value) for m in at.markdown]
    assert any(
        f"Listed as queued in {timeline.months_listed:,} of the {timeline.window.reports:,}" in text
        and OUTCOME_WORDS[outcome.outcome] in text
        and cell_text(outcome.source) in text
        for text in said
    )
    bars = chart_rows(at, CHART_TITLE)
    assert list(bars["cell"]) == [cell_text(r.source) for r in timeline.rows]
    assert list(bars["label"]) == [view.row_says(r) for r in timeline.rows]
    changes = next(df.value for df in at.dataframe if "What changed" in df.value.columns)
    assert list(changes["Cited cell"]) == [cell_text(c.source) for c in timeline.changes]


def test_a_record_no_monthly_report_lists_says_the_history_covers_ercot_only(
    service_env, alpha_client_module
):
    outside = next(
        r for r in alpha_client_module.queue_records.list(limit=500) if r.market != "ERCOT"
    )
    at = open_queue(record=outside.id)
    assert any("covers ERCOT only" in str(c.value) for c in at.caption)
    titles = [json.loads(c.proto.spec).get("title") for c in at.get("vega_lite_chart")]
    assert CHART_TITLE not in titles


def test_an_ercot_record_no_report_lists_is_not_told_its_market_lacks_a_history():
    from gridclient import QueueRecord

    ercot = view.no_history_words(QueueRecord(market="ERCOT", record_key="99INR9999"))
    assert "No harvested ERCOT monthly report lists" in ercot
    assert "covers ERCOT only" not in ercot
    elsewhere = view.no_history_words(QueueRecord(market="SPP", record_key="GEN-2020-001"))
    assert "covers ERCOT only" in elsewhere and "SPP record" in elsewhere
