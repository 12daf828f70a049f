"""The transmission page: projects by county and status, the timeline, the evidence link."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

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
