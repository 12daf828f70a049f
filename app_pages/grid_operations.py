"""Grid operations: a balancing authority's hourly demand, forecast, generation and fuel mix."""

from __future__ import annotations

import datetime as dt

import streamlit as st

from components import (
    charts,
    connection,
    coverage,
    data,
    filters,
    glossary,
    operations_view,
    tables,
)
from components.problems import problem_boundary
from components.tables import mw_column, provenance_config
from components.text import escape_markdown

SCOPE = "operations"
# Streamlit's default lower bound is ten years back, which hides the start of EIA-930 (2015).
DATE_BOUNDS = {"min_value": dt.date(2000, 1, 1), "max_value": dt.date(2100, 12, 31)}


st.title("Grid operations")

with problem_boundary():
    conn = connection.connection_key()
    coverage.draw_notice(conn, "balancing_authority_operations")
    codes, unserved = operations_view.authority_choices(conn)
    left, middle, right = st.columns([2, 1, 1])
    with left:
        ba_code = filters.selectbox(
            "Balancing authority",
            codes,
            "ba",
            scope=SCOPE,
            format_func=lambda code: glossary.label_with_code("market", code),
        )
    ba_name = glossary.label("market", ba_code)
    if unserved:
        st.caption(
            "Named by plants or generators but without hourly operations here: "
            + escape_markdown(", ".join(glossary.label("market", c) for c in unserved))
            + "."
        )
    if not ba_code:
        st.info("The service has no hourly balancing-authority operations to show.")
        st.stop()
    last_day = data.latest_operations_day(conn, ba_code)
    if last_day is None:
        st.info(
            f"No hourly operations for {escape_markdown(ba_name)}. "
            "Pick another balancing authority."
        )
        st.stop()
    with middle:
        start = filters.date_input("From (UTC)", "start", scope=SCOPE, **DATE_BOUNDS)
    with right:
        end = filters.date_input("To (UTC, inclusive)", "end", scope=SCOPE, **DATE_BOUNDS)
    if start is None and end is None:
        # Open where demand is: sources cover different years, and a week of fuel mix alone
        # says nothing of the load an analyst came to read.
        demand_day = data.latest_demand_day(conn, ba_code, last_day)
        start, end = operations_view.latest_week(demand_day or last_day)
        if demand_day is None or demand_day == last_day:
            st.caption(f"The latest week of data, {start} to {end} (UTC); pick dates for another.")
        else:
            st.caption(
                f"The latest week with hourly demand, {start} to {end} (UTC). Later hours, to "
                f"{last_day}, carry no demand (for instance the fuel mix alone): pick dates "
                "to see them."
            )
    start = start or end - dt.timedelta(days=6)
    end = end or start + dt.timedelta(days=6)
    start, end, cut = operations_view.bounded_window(start, end)
    if cut:
        st.warning(
            f"A window holds at most {operations_view.MAX_WINDOW_DAYS} days of hours: this one "
            f"shows {start} to {end}, the first {operations_view.MAX_WINDOW_DAYS} days from the "
            "start you picked. Pick a later start for the rest."
        )
    window_start, window_end = operations_view.window_bounds(start, end)
    # every hour of the window, of the whole authority and each subregion: a count would cut
    # off the subregions listed last
    operations = data.balancing_authority_operations(
        conn, ba_code=ba_code, start=window_start, end=window_end, max_items=None
    )
    regions = operations_view.region_options(operations)
    if len(regions) > 1:
        region = st.radio("Region", regions, horizontal=True, key="operations.region")
        operations = operations_view.in_region(operations, region or regions[0])
    frame = operations_view.operations_frame(operations)
    if frame.empty:
        st.info(
            f"No hourly operations for {escape_markdown(ba_name)} "
            f"between {window_start} and {window_end}."
        )
        st.stop()
    if note := operations_view.coverage_note(frame, start, end):
        st.caption(note)
    summary = operations_view.summary(frame)
    metrics = st.columns(3)
    metrics[0].metric("Hours", f"{summary['hours']:,}")
    peak = summary["peakDemandMw"]
    metrics[1].metric("Peak demand", "n/a" if peak is None else f"{peak:,.0f} MW")
    error = summary["meanForecastErrorMw"]
    metrics[2].metric("Mean |demand − forecast|", "n/a" if error is None else f"{error:,.0f} MW")
    st.altair_chart(
        charts.lines(
            operations_view.demand_long(frame),
            x="utcTime",
            title=f"{ba_name}: demand against its forecast, net generation and interchange",
            unit="MW",
        ),
        width="stretch",
    )
    fuel_mix = operations_view.fuel_mix_long(operations)
    if fuel_mix.empty:
        # an empty chart reads as a broken one: say what is missing instead
        st.info(
            f"{escape_markdown(ba_name)} reports no generation by fuel for these hours: "
            "pick a window where the fuel mix is published."
        )
    else:
        st.altair_chart(
            charts.stacked_area(
                fuel_mix, x="utcTime", title=f"{ba_name}: generation by fuel", unit="MW"
            ),
            width="stretch",
        )
    units = {
        c: mw_column(glossary.column_label(c), help=f"Field {c}")
        for c in frame.columns
        if c.endswith("Mw")
    }
    tables.show_table(**glossary.table(frame, {**units, **provenance_config()}), hide_index=True)
