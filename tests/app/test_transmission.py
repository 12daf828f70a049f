"""The transmission page: projects by county and status, the timeline, the evidence link."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from components.transmission_view import REPORTED_AHEAD

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "transmission.py")


def test_county_filter_shows_that_countys_projects_with_evidence(service_env, alpha_client):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    every = alpha_client.transmission_projects.list().to_list()
    assert at.markdown[0].value == f"**{len(every):,}** projects"

    county = next(p.counties[0] for p in every if p.counties)
    at.selectbox(key="filter:transmission:county").select(county).run()
    expected = alpha_client.transmission_projects.list(county=county).to_list()
    assert at.markdown[0].value == f"**{len(expected):,}** projects"
    table = at.dataframe[0].value
    assert set(table["id"]) == {p.id for p in expected}
    assert {"serviceLevelKv", "transmissionOwner", "projectedInServiceDate"} <= set(table.columns)
    assert at.query_params["county"] in (county, [county])
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert spec["title"] == "In-service dates by project"
    first = expected[0]
    assert at.get("link_button")[0].proto.url == first.evidence.source_url
    assert any(first.project_number in re.sub(r"\\(.)", r"\1", s.value) for s in at.subheader)


def test_status_and_county_together_list_what_the_service_lists(service_env, alpha_client):
    """The filters are matched on the whole list loaded, as the service's own filters match."""
    every = alpha_client.transmission_projects.list(limit=500).to_list()
    status = sorted({p.status for p in every if p.status})[0]
    county = next(c for p in every if p.status == status for c in p.counties or [])
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["status"] = status.upper()  # an address may spell it in any case
    at.run()
    assert not at.exception and not at.error
    by_status = alpha_client.transmission_projects.list(status=status, limit=500).to_list()
    assert at.markdown[0].value == f"**{len(by_status):,}** projects"
    assert set(at.dataframe[0].value["id"]) == {p.id for p in by_status}

    at.selectbox(key="filter:transmission:county").select(county).run()
    assert not at.exception and not at.error
    both = alpha_client.transmission_projects.list(status=status, county=county).to_list()
    assert both
    assert at.markdown[0].value == f"**{len(both):,}** projects"
    assert set(at.dataframe[0].value["id"]) == {p.id for p in both}


def test_the_timeline_says_how_many_listed_projects_it_leaves_out_for_want_of_a_date(
    service_env, alpha_client
):
    """ "150 projects" above "Show all 146 projects" read as four projects lost."""
    every = alpha_client.transmission_projects.list().to_list()
    dated = [p for p in every if p.projected_in_service_date or p.actual_in_service_date]
    assert 0 < len(dated) < len(every)  # the demo lists a few projects with no date
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    assert at.markdown[0].value == f"**{len(every):,}** projects"
    assert any(
        c.value.startswith(f"{len(dated):,} of the {len(every):,} projects listed have an ")
        for c in at.caption
    )
    assert [t.label for t in at.toggle if t.key == "transmission.timeline_all"] == [
        f"Show all {len(dated):,} dated projects (the first 25 by date are shown)"
    ]


def test_an_actual_date_after_the_data_date_reads_as_reported_not_as_actual(
    service_env, alpha_client
):
    """A project "actually in service" on a date after its data's own date cannot be: the
    timeline names such a date as reported, the other actual dates stay actual."""
    every = alpha_client.transmission_projects.list().to_list()
    ahead = {
        p.project_number
        for p in every
        if p.actual_in_service_date and p.actual_in_service_date > f"{p.observed_at:%Y-%m-%d}"
    }
    assert ahead  # the demo holds such dates, as real trackers do
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.toggle(key="transmission.timeline_all").set_value(True).run()
    assert not at.exception and not at.error
    chart = at.get("vega_lite_chart")[0].proto
    drawn = pd.concat(convert_arrow_bytes_to_pandas_df(d.data.data) for d in chart.datasets)
    actual = {
        label.split(" · ")[0]: which
        for label, which in zip(drawn["label"], drawn["which"], strict=True)
        if which != "projected in service"
    }
    assert {number for number, which in actual.items() if which == REPORTED_AHEAD} == ahead
    assert {actual[number] for number in set(actual) - ahead} == {"actually in service"}
