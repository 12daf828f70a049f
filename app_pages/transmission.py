"""Transmission projects by county and status, with kV, owner, in-service dates and evidence."""

from __future__ import annotations

import streamlit as st

from components import connection, coverage, data, filters, glossary, tables, transmission_view
from components.evidence_view import draw_flags, source_link
from components.problems import problem_boundary
from components.text import escape_markdown
from gridclient.models import TransmissionEvidence

# each filter's first choice: no restriction (not kept in the URL)
ALL_COUNTIES = "All counties"
ALL_STATUSES = "All statuses"

st.title("Transmission projects")

with problem_boundary():
    conn = connection.connection_key()
    lacking = coverage.draw_notice(conn, "transmission_projects")
    every = transmission_view.every_project_list(conn, data.all_transmission_projects(conn))
    left, right = st.columns(2)
    with left:
        county = filters.selectbox(
            "County",
            [ALL_COUNTIES, *every.counties],
            "county",
            scope="transmission",
            no_filter=ALL_COUNTIES,
        )
    with right:
        status = filters.selectbox(
            "Status",
            [ALL_STATUSES, *every.statuses],
            "status",
            scope="transmission",
            no_filter=ALL_STATUSES,
            format_func=lambda s: s if s == ALL_STATUSES else glossary.label("status", s),
        )
    # The whole list is loaded (its table made once for it): the filters, the interface's
    # own, are matched on it, so every project that passes them is counted.
    listing = every
    if county is not None or status is not None:
        listing = every.narrowed(county, status)
    frame = listing.frame
    st.markdown(f"**{len(frame):,}** projects")
    if frame.empty:
        if not lacking:  # else the notice above says why there is none
            st.info("No transmission project matches these filters.")
        st.stop()
    event = tables.show_rows(
        listing.table,
        noun="projects",
        file_name="transmission-projects.csv",
        hide_index=True,
        on_select="rerun",
        selection_mode="single-row",
        key="transmission.table",
    )
    rows = event.selection.rows if event else []
    chosen = frame.iloc[rows[0]] if rows else frame.iloc[0]
    project = next(p for p in listing.projects if p.id == chosen["id"])
    st.subheader(f"Evidence · {escape_markdown(str(project.project_number or project.id))}")
    st.markdown(escape_markdown(project.description or "(no description)"))
    evidence = project.evidence or TransmissionEvidence()
    st.markdown(
        f"**Authority:** {escape_markdown(glossary.words(evidence.authority or 'not stated'))} · "
        f"**assertion:** {escape_markdown(glossary.words(evidence.assertion_type or 'not stated').lower())} · "
        f"**locator:** {escape_markdown(evidence.source_locator or '')}"
    )
    if transmission_view.reported_ahead(project):
        st.warning(
            escape_markdown(f"In service: {transmission_view.actual_in_service_text(project)}.")
        )
    source_link("Open the source", evidence.source_url)
    draw_flags(project.quality_flags)

    st.subheader("In-service dates")
    timeline = listing.timeline
    if timeline.empty:
        st.caption(
            "None of these projects states an in-service date: pick another county or status."
        )
    else:
        projects_dated = timeline["label"].nunique()
        undated = transmission_view.undated_text(len(frame), projects_dated)
        if undated:
            st.caption(undated)
        show_all = projects_dated <= transmission_view.TIMELINE_ROWS or st.toggle(
            f"Show all {projects_dated:,} dated projects (the first "
            f"{transmission_view.TIMELINE_ROWS} by date are shown)",
            key="transmission.timeline_all",
        )
        rows = transmission_view.timeline_rows(
            timeline, None if show_all else transmission_view.TIMELINE_ROWS
        )
        st.altair_chart(transmission_view.timeline_chart(rows), width="stretch")
