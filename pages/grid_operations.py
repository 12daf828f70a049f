"""Grid operations: a balancing authority's hourly demand, forecast, generation and fuel mix."""

from __future__ import annotations

import datetime as dt

import streamlit as st

from components import charts, connection, data_fetch, filters, operations_view
from components.problems import problem_boundary
from components.tables import mw_column, provenance_config

SCOPE = "operations"

st.title("Grid operations")

with problem_boundary():
    key = connection.connection_key()
    plants = data_fetch.traverse(key, "generation_plants", "generation plants")
    codes = sorted({p["balancingAuthorityCode"] for p in plants if p.get("balancingAuthorityCode")})
    left, middle, right = st.columns([2, 1, 1])
    with left:
        ba_code = filters.selectbox("Balancing authority", codes, "ba", scope=SCOPE)
    if not ba_code:
        st.info("The service lists no plant with a balancing authority to choose from.")
        st.stop()
    first = data_fetch.list_records(
        key, "balancing_authority_operations", ba_code=ba_code, max_items=1
    )
    if not first:
        st.info(f"No hourly operations for {ba_code}.")
        st.stop()
    first_day = dt.date.fromisoformat(first[0]["utcTime"][:10])
    with middle:
        start = filters.date_input("From (UTC)", "start", scope=SCOPE) or first_day
    with right:
        end = filters.date_input("To (UTC, inclusive)", "end", scope=SCOPE) or (
            start + dt.timedelta(days=6)
        )
    window_start, window_end = operations_view.window_bounds(start, end)
    operations = data_fetch.list_records(
        key,
        "balancing_authority_operations",
        ba_code=ba_code,
        start=window_start,
        end=window_end,
        max_items=24 * 93,
    )
    frame = operations_view.operations_frame(operations)
    if frame.empty:
        st.info(f"No hourly operations for {ba_code} between {window_start} and {window_end}.")
        st.stop()
    summary = operations_view.summary(frame)
    metrics = st.columns(3)
    metrics[0].metric("Hours", f"{summary['hours']:,}")
    metrics[1].metric("Peak demand", f"{summary['peakDemandMw']:,.0f} MW")
    error = summary["meanForecastErrorMw"]
    metrics[2].metric("Mean |demand − forecast|", "n/a" if error is None else f"{error:,.0f} MW")
    st.altair_chart(
        charts.lines(
            operations_view.demand_long(frame),
            x="utcTime",
            title=f"{ba_code}: demand against its forecast, net generation and interchange",
            unit="MW",
        ),
        width="stretch",
    )
    st.altair_chart(
        charts.stacked_area(
            operations_view.fuel_mix_long(operations),
            x="utcTime",
            title=f"{ba_code}: generation by fuel",
            unit="MW",
        ),
        width="stretch",
    )
    units = {c: mw_column(c) for c in frame.columns if c.endswith("Mw")}
    st.dataframe(frame, hide_index=True, column_config={**units, **provenance_config()})
