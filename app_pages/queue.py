"""Interconnection queue: every record, filtered in the URL, charted, each with its evidence."""

from __future__ import annotations

import streamlit as st

from components import (
    connection,
    coverage,
    data,
    queue_markets,
    queue_requests,
    queue_timeline_view,
    queue_view,
)
from components.problems import problem_boundary
from components.text import escape_markdown

st.title("Interconnection queue")
st.caption(
    "Every interconnection queue record loaded. Filters stay in the address, so a filtered "
    "view can be shared."
)

with problem_boundary():
    conn = connection.connection_key()
    coverage.draw_notice(conn, "interconnection_queue")
    queue = queue_view.queue_list(conn, data.all_queue_records(conn))
    frame = queue.frame
    # a link from the queue's history names a project by its queue id: open its record
    project = st.query_params.get("project")
    if project:
        del st.query_params["project"]
        record_id = queue_timeline_view.record_of_project(queue, project)
        if record_id:
            st.query_params["record"] = record_id
        else:
            st.warning(f"No queue record with queue id “{escape_markdown(project)}” is loaded.")
    chosen = queue_view.draw_filters(queue)
    narrowed = queue_view.filter_queue(frame, chosen)
    st.caption(queue_markets.market_counts_text(frame))
    unloaded = queue_markets.states_without_records(frame, chosen.states)
    if unloaded:
        st.warning(queue_markets.unloaded_states_text(unloaded, frame), icon=":material/dataset:")
    filtered = queue_view.draw_technology(conn, narrowed)

    total_mw = filtered["requestedCapacityMw"].sum()
    active, active_mw = queue_view.active_now(filtered)
    st.markdown(
        f"**{len(filtered):,}** of {len(frame):,} records · **{total_mw:,.0f} MW** requested"
        f" · **{active:,}** active now, **{active_mw:,.0f} MW**"
    )
    note = queue_requests.collapse_note(queue.collapsed, queue.authorities)
    if note:
        st.caption(escape_markdown(note))
    if filtered.empty:
        st.info("No queue record matches these filters.")
    # the records and the charts are two views of the records that pass the filters; only
    # the open one is built and sent (queue_view.VIEWS)
    records_tab, charts_tab = st.tabs(
        queue_view.VIEWS, key=queue_view.VIEW_KEY, on_change="rerun", bind="query-params"
    )
    if records_tab.open:
        with records_tab:
            # the rows of the whole list's table, unless the details added technology to them
            table = queue.table if filtered is narrowed else None
            selected = queue_view.draw_table(filtered, table)
            if selected and selected in queue.by_id:
                queue_view.draw_record(conn, queue.by_id[selected])
                queue_timeline_view.draw_timeline(conn, queue.by_id[selected])
            elif selected:
                st.warning(
                    f"No queue record with id “{escape_markdown(selected)}” in this release."
                )
            else:
                st.caption("Select a row to see the record's details and evidence.")
    if charts_tab.open and not filtered.empty:
        with charts_tab:
            queue_view.draw_charts(filtered)
