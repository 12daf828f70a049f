"""The assessment and the Portfolio show one reserve margin: the service's, in MW and as a
share of peak (they once showed 2.5% on one page and 2,801 MW on the other)."""

from __future__ import annotations

import pytest
from conftest import ALPHA_TOKEN, page_path, unescape
from streamlit.testing.v1 import AppTest

from components import glossary
from gridclient import GridDataClient, SiteDefinition, SiteLocation
from gridservice.demo import DEMO_POINTS


@pytest.mark.slow
def test_the_assessment_band_and_the_portfolio_row_show_the_same_margin(service_env):
    with GridDataClient(base_url=service_env, token=ALPHA_TOKEN) as client:
        latitude, longitude = DEMO_POINTS["dual_certified"]
        site = client.sites.create(
            SiteDefinition(
                requested_peak_load_mw=200.0,
                location=SiteLocation(latitude=latitude, longitude=longitude),
                customer_reference="Margin agrees",
            )
        )
        assessment = client.assessments.create(site.id)

    band = AppTest.from_file(page_path("assessment"), default_timeout=120)
    band.query_params["assessment"] = assessment.id
    band.run()
    assert not band.exception
    shown = {m.label: m.value for m in band.metric}["Reserve margin, tightest season"]
    # captions are Markdown, escaped ("2\\.5\\% of peak\\."): read as the analyst reads them
    captions = [unescape(c.value) for c in band.caption]

    portfolio = AppTest.from_file(page_path("portfolio"), default_timeout=120).run()
    assert not portfolio.exception
    row = portfolio.dataframe[0].value.set_index("Site id").loc[site.id]
    margin_mw = row["Tightest reserve margin (MW)"]
    share = row["Tightest reserve margin (share of peak)"]
    assert margin_mw == margin_mw and share == share  # both given (not NaN)
    assert shown == glossary.mw(margin_mw)
    assert any(c.startswith(f"{share:.1%} of peak. ") for c in captions)
