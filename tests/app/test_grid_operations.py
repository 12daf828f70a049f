"""The grid operations page: a BA's hourly demand, forecast and fuel mix over a window."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "grid_operations.py")


def test_window_and_authority_drive_the_charts(service_env, alpha_client):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    codes = at.selectbox(key="filter:operations:ba").options
    code = codes[-1]
    at.selectbox(key="filter:operations:ba").select(code)
    at.date_input(key="filter:operations:start").set_value(dt.date(2025, 8, 3))
    at.date_input(key="filter:operations:end").set_value(dt.date(2025, 8, 4)).run()
    assert not at.exception and not at.error
    expected = alpha_client.balancing_authority_operations.list(
        ba_code=code, start="2025-08-03T00:00:00Z", end="2025-08-05T00:00:00Z"
    ).to_list()
    assert len(expected) == 48
    assert at.metric[0].value == "48"
    peak = max(op.demand_mw for op in expected)
    assert at.metric[1].value == f"{peak:,.0f} MW"
    titles = [json.loads(c.proto.spec)["title"] for c in at.get("vega_lite_chart")]
    assert titles == [
        f"{code}: demand against its forecast, net generation and interchange",
        f"{code}: generation by fuel",
    ]
    assert len(at.dataframe[0].value) == 48
