"""Interconnection queue: every record, filtered in the URL, charted, each with its evidence."""

from __future__ import annotations

import streamlit as st

from components import connection, data, queue_requests, queue_view
from components.problems import problem_boundary
from components.text import escape_markdown

st.title("Interconnection queue")
st.caption(
    "Every interconnection queue record loaded. Filters stay in the address, so a filtered "
    "view can be shared."
)

with problem_boundary():
    conn = connection.connection_key()
    records = data.all_queue_records(conn)
    by_id = {str(record.id): record for record in records}
    authorities = queue_requests.source_authorities(
        conn, queue_requests.duplicated_sources(records)
    )
    collapsed = queue_requests.one_per_request(records, authorities)
    frame = queue_view.queue_frame(collapsed.kept)
    filtered = queue_view.filter_queue(frame, queue_view.draw_filters(frame))
    filtered = queue_view.draw_technology(conn, filtered)

    total_mw = filtered["requestedCapacityMw"].sum()
    active, active_mw = queue_view.active_now(filtered)
    st.markdown(
        f"**{len(filtered):,}** of {len(frame):,} records · **{total_mw:,.0f} MW** requested"
        f" · **{active:,}** active now, **{active_mw:,.0f} MW**"
    )
    note = queue_requests.collapse_note(collapsed, authorities)
    if note:
        st.caption(escape_markdown(note))
    if filtered.empty:
        st.info("No queue record matches these filters.")
    else:
        queue_view.draw_charts(filtered)
    selected = queue_view.draw_table(filtered)
    if selected and selected in by_id:
        queue_view.draw_record(conn, by_id[selected])
    elif selected:
        st.warning(f"No queue record with id “{escape_markdown(selected)}” in this release.")
    else:
        st.caption("Select a row to see the record's details and evidence.")
