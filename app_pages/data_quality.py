"""Data quality & release: harvest runs, rejections, quality counts, join coverage, identity."""

from __future__ import annotations

import streamlit as st

from components import charts, connection, data, glossary, quality_view, tables
from components.problems import problem_boundary
from components.sources import source_tooltip
from components.text import escape_markdown
from gridclient.models import Methodology, QualitySummary

st.title("Data quality & release")

with problem_boundary():
    conn = connection.connection_key()
    report = data.quality_report(conn)
    methodology = report.methodology or Methodology()
    st.subheader("Methodology")
    # Word for word: the note says what this report is not.
    st.info(escape_markdown(methodology.note or "The service gives no methodology note."))
    st.caption(
        escape_markdown(
            f"Unit: {methodology.unit or 'not stated'} · Acceptance rate: "
            f"{glossary.plain(methodology.acceptance_rate_definition or 'not stated')} · Scope: "
            f"{report.scope or 'not stated'}"
        )
    )

    quality = report.quality or QualitySummary()
    config = quality_view.runs_config()
    lacking = quality_view.lacking_datasets(quality)
    if lacking:
        st.warning(escape_markdown(lacking))
    runs = report.data
    st.subheader("Harvest runs")
    runs_frame = quality_view.runs_frame(runs)
    tables.show_table(
        **glossary.table(runs_frame, config), hide_index=True, column_order=quality_view.RUN_TABLE
    )
    st.markdown("**Run ids and the hash of each harvested asset**")
    tables.show_table(
        **glossary.table(runs_frame, config),
        hide_index=True,
        column_order=quality_view.RUN_IDENTITY_TABLE,
    )
    rejections = quality_view.rejections_frame(runs)
    st.markdown(f"**Rejected records and their reasons** ({len(rejections):,})")
    if rejections.empty:
        st.caption("No harvest run rejected a record.")
    for run_id, source_id, source, reasons, rejected in quality_view.rejection_groups(rejections):
        st.caption(
            escape_markdown(f"{source} · run {run_id} · {len(rejected):,} rejected: {reasons}"),
            help=source_tooltip(source_id),
        )
        tables.show_table(
            **glossary.table(rejected, config),
            hide_index=True,
            column_order=quality_view.REJECTION_TABLE,
        )

    queue_counts = quality.queue
    st.subheader(
        f"Queue quality checks ({queue_counts.rows if queue_counts and queue_counts.rows else 0:,} records)"
    )
    counts = quality_view.counts_frame(queue_counts, total_key="rows")
    st.altair_chart(
        charts.bar(
            counts, category="check", value="count", title="Records per check", unit="Records"
        ),
        width="stretch",
    )
    disagreements = quality_view.status_disagreements_frame(quality.queue_status_disagreements)
    st.markdown(f"**Records whose sources disagree on status** ({len(disagreements):,})")
    if not disagreements.empty:
        tables.show_table(disagreements, hide_index=True)
    left, right = st.columns(2)
    with left:
        st.markdown("**Join coverage**")
        tables.show_table(
            **glossary.table(quality_view.join_coverage(quality.joins)),
            hide_index=True,
            column_order=["measure", "value"],
        )
    with right:
        st.markdown("**Balancing-authority operations**")
        tables.show_table(
            **glossary.table(quality_view.counts_frame(quality.balancing_authority_operations)),
            hide_index=True,
            column_order=["check", "count"],
        )
        generated = glossary.when(quality.generated_at)
        st.caption(escape_markdown(f"Report generated {generated or 'at an unstated time'}"))

    st.subheader("Datasets held and missing")
    datasets = quality_view.datasets_frame(quality)
    tables.show_table(datasets, hide_index=True, column_order=quality_view.DATASET_TABLE,
                 column_config=config, height=quality_view.table_height(len(datasets)))  # fmt: skip
    for note in quality_view.dataset_notes(quality):
        st.caption(escape_markdown(note))
    history = quality_view.history_frame(quality)
    if not history.empty:
        points = quality_view.point_counts(quality)
        st.markdown(f"**Queue history: {len(history)} monthly reports**")
        tables.show_table(history, hide_index=True, column_order=quality_view.HISTORY_TABLE,
                     column_config=config)  # fmt: skip
        st.caption(
            f"Interconnection points parsed from the queue's POI texts: {points.get('bus', 0):,} "
            f"buses, {points.get('tap', 0):,} line taps, {points.get('unparsed', 0):,} texts "
            "kept as published because they name no bus number (flagged)."
        )

    st.subheader("Release identity")
    release = quality_view.release_rows(data.release(conn))
    tables.show_table(
        **glossary.table(release), hide_index=True, height=quality_view.table_height(len(release))
    )
    st.caption("The release as the quality report states it (unfold to read):")
    st.json(report.release or {}, expanded=False)
