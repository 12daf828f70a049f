"""Dockets: a control number (those the evidence mentions are offered) and its filings."""

from __future__ import annotations

import streamlit as st

from components import connection, coverage, data, dockets_view, filters
from components.problems import problem_boundary
from components.text import escape_markdown

OTHER = "Another control number…"

st.title("Dockets")
st.caption(
    "Regulatory dockets by control number. The numbers offered are those the evidence "
    "mentions; any other can be typed."
)


with problem_boundary():
    conn = connection.connection_key()
    coverage.draw_notice(conn, "docket_filings")
    chunks = data.evidence_chunks(conn, "docket")
    offered = dockets_view.mentioned_control_numbers(dockets_view.chunk_texts(chunks))
    choice = filters.selectbox(
        "Control number", [*offered, OTHER], "control_number", scope="dockets"
    )
    control_number = choice
    if choice == OTHER:
        control_number = filters.text_input("Type a control number", "typed", scope="dockets")
    if not control_number:
        st.stop()
    filings = data.docket_filings(conn, control_number)
    if not filings:
        st.info(f"No filings under control number {escape_markdown(control_number)}.")
        st.stop()
    frame = dockets_view.filings_frame(filings)
    st.markdown(
        f"**{len(frame):,}** filings in docket **{escape_markdown(control_number)}**, from "
        f"{frame['filedAt'].min():%Y-%m-%d} to {frame['filedAt'].max():%Y-%m-%d}"
    )
    dockets_view.draw_filings(frame)
