"""Data quality & release: harvest runs, rejections, quality counts, join coverage, identity."""

from __future__ import annotations

import streamlit as st

from components import charts, connection, data_fetch, quality_view
from components.evidence_view import escape_markdown
from components.problems import problem_boundary

st.title("Data quality & release")

with problem_boundary():
    key = connection.connection_key()
    report = data_fetch.quality_report(key)
    methodology = report.get("methodology") or {}
    st.subheader("Methodology")
    # Word for word: the note says what this report is not.
    st.info(escape_markdown(methodology.get("note") or "The service gives no methodology note."))
    st.caption(
        f"Unit: {methodology.get('unit') or 'not stated'} · Acceptance rate: "
        f"{methodology.get('acceptanceRateDefinition') or 'not stated'} · Scope: "
        f"{report.get('scope') or 'not stated'}"
    )

    runs = report.get("data") or []
    st.subheader("Harvest runs")
    runs_frame = quality_view.runs_frame(runs)
    config = quality_view.runs_config()
    st.dataframe(
        runs_frame, hide_index=True, column_order=quality_view.RUN_TABLE, column_config=config
    )
    st.markdown("**Run ids and the hash of each harvested asset**")
    st.dataframe(
        runs_frame,
        hide_index=True,
        column_order=quality_view.RUN_IDENTITY_TABLE,
        column_config=config,
    )
    rejections = quality_view.rejections_frame(runs)
    st.markdown(f"**Rejected records and their reasons** ({len(rejections):,})")
    if rejections.empty:
        st.caption("No harvest run rejected a record.")
    for run_id, source_id, reasons, rejected in quality_view.rejection_groups(rejections):
        st.caption(
            escape_markdown(f"{source_id} · run {run_id} · {len(rejected):,} rejected: {reasons}")
        )
        st.dataframe(
            rejected,
            hide_index=True,
            column_order=quality_view.REJECTION_TABLE,
            column_config=config,
        )

    quality = report.get("quality") or {}
    queue_counts = quality.get("queue") or {}
    st.subheader(f"Queue quality checks ({queue_counts.get('rows', 0):,} records)")
    counts = quality_view.counts_frame(queue_counts, total_key="rows")
    st.altair_chart(
        charts.bar(
            counts, category="check", value="count", title="Records per check", unit="Records"
        ),
        width="stretch",
    )
    left, right = st.columns(2)
    with left:
        st.markdown("**Join coverage**")
        st.dataframe(
            quality_view.join_coverage(quality.get("joins")),
            hide_index=True,
            column_order=["measure", "value"],
        )
    with right:
        st.markdown("**Balancing-authority operations**")
        st.dataframe(
            quality_view.counts_frame(quality.get("balancingAuthorityOperations")),
            hide_index=True,
            column_order=["check", "count"],
        )
        st.caption(f"Report generated {quality.get('generatedAt') or 'at an unstated time'}")

    st.subheader("Release identity")
    release = quality_view.release_rows(data_fetch.release(key))
    st.dataframe(release, hide_index=True, height=quality_view.table_height(len(release)))
    st.caption("The quality report's own `release` object:")
    st.json(report.get("release") or {}, expanded=False)
