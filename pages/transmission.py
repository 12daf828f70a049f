"""Transmission projects by county and status, with kV, owner, in-service dates and evidence."""

from __future__ import annotations

import streamlit as st

from components import connection, data_fetch, filters, transmission_view
from components.evidence_view import draw_flags, escape_markdown, source_link
from components.problems import problem_boundary

st.title("Transmission projects")

with problem_boundary():
    key = connection.connection_key()
    every_project = data_fetch.traverse(key, "transmission_projects", "transmission projects")
    left, right = st.columns(2)
    with left:
        county = filters.selectbox(
            "County",
            ["All counties", *transmission_view.county_options(every_project)],
            "county",
            scope="transmission",
        )
    with right:
        statuses = sorted({p.get("status") for p in every_project if p.get("status")})
        status = filters.selectbox(
            "Status", ["All statuses", *statuses], "status", scope="transmission"
        )
    # The service filters (county and status are the interface's own filters).
    projects = data_fetch.list_records(
        key,
        "transmission_projects",
        county=None if county == "All counties" else county,
        status=None if status == "All statuses" else status,
    )
    frame = transmission_view.projects_frame(projects)
    st.markdown(f"**{len(frame):,}** projects")
    if frame.empty:
        st.info("No transmission project matches these filters.")
        st.stop()
    timeline = transmission_view.timeline_frame(frame)
    if timeline.empty:
        st.caption("None of these projects states an in-service date.")
    else:
        st.altair_chart(transmission_view.timeline_chart(timeline), width="stretch")
    event = st.dataframe(
        frame,
        hide_index=True,
        column_config=transmission_view.table_config(),
        on_select="rerun",
        selection_mode="single-row",
        key="transmission.table",
    )
    rows = event.selection.rows if event else []
    chosen = frame.iloc[rows[0]] if rows else frame.iloc[0]
    project = next(p for p in projects if p.get("id") == chosen["id"])
    st.subheader(
        f"Evidence · {escape_markdown(str(project.get('projectNumber') or project.get('id')))}"
    )
    st.markdown(escape_markdown(project.get("description") or "(no description)"))
    evidence = project.get("evidence") or {}
    st.markdown(
        f"**Authority:** {escape_markdown(evidence.get('authority') or 'not stated')} · "
        f"**assertion:** {escape_markdown(evidence.get('assertionType') or 'not stated')} · "
        f"**locator:** {escape_markdown(evidence.get('sourceLocator') or '')}"
    )
    source_link("Open the source", evidence.get("sourceUrl"))
    draw_flags(project.get("qualityFlags"))
