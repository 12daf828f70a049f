"""Expert reviews: for an analyst, the review cases, the reviews side by side, the agreement
and adjudication, and the screening against its experts; for a reviewer (the app connected
with a reviewer's token), the queue of blinded packets and the review form."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components import connection, data, filters, glossary, review_form, spreadsheets
from components import reviews_view as view
from components.problems import problem_boundary
from components.tables import show_table
from components.text import escape_markdown
from gridclient import ReviewCase

SCOPE = "reviews"

st.title("Expert reviews")


def draw_case(case: ReviewCase) -> None:
    st.subheader("Reviews side by side")
    st.caption(
        escape_markdown(
            f"Case {case.id}, {view.state_words(case.state).lower()}, due {case.due_date}. "
            "Each reviewer's latest answer per factor beside the screening's."
        )
    )
    show_table(view.side_by_side_frame(case), hide_index=True, width="stretch")
    st.markdown(escape_markdown(view.agreement_words(case.agreement)))
    decided = view.adjudication_lines(case)
    if decided:
        st.markdown("**Adjudication**")
        for line in decided:
            st.caption(escape_markdown(line))
    elif case.disagreements:
        st.caption(
            escape_markdown(
                "Disagreements to adjudicate: "
                + ", ".join(glossary.label("factor", f) for f in case.disagreements)
                + "."
            )
        )


def draw_experts(conn: connection.ConnectionKey) -> pd.DataFrame:
    """Draw agreement and calibration across cases; return the agreement table."""
    st.subheader("Agreement across cases")
    agreement = view.agreement_frame(data.review_agreement(conn))
    show_table(agreement, hide_index=True, width="stretch")
    st.subheader("The screening against its experts")
    calibration = data.review_calibration(conn)
    st.caption(
        "Adjudicated cases only. The assessment's confidence stays a heuristic until a factor "
        "has enough expert labels; from then on the measured agreement shows beside it."
    )
    show_table(view.calibration_frame(calibration), hide_index=True, width="stretch")
    by_factor = {glossary.label("factor", c.factor): c for c in calibration}
    factor = st.selectbox("Factor", list(by_factor), key="reviews.factor")
    matrix_column, chart_column = st.columns([2, 3])
    with matrix_column:
        st.markdown("**Screening against adjudicated expert severity (counts)**")
        show_table(view.confusion_frame(by_factor[factor]), hide_index=True, width="stretch")
    reliability = view.reliability_frame(calibration)
    with chart_column:
        if reliability.empty:
            st.caption("No adjudicated case yet: the reliability chart waits for labels.")
        else:
            st.altair_chart(view.reliability_chart(reliability), width="stretch")
    return agreement


def draw_downloads(cases: list[ReviewCase], agreement: pd.DataFrame) -> None:
    st.subheader("Downloads")
    frame = view.reviews_frame(cases)
    left, right = st.columns(2)
    left.download_button("Reviews (CSV)", view.reviews_csv(frame), "reviews.csv", "text/csv")
    right.download_button(
        "Reviews and agreement (Excel)",
        lambda: view.reviews_xlsx(frame, agreement),
        "reviews.xlsx",
        spreadsheets.XLSX_MIME,
    )


with problem_boundary():
    conn = connection.connection_key()
    if data.acting_as_reviewer(conn):
        review_form.draw_reviewer(conn)
        st.stop()
    # each case read whole: the list carries neither reviews nor disagreements
    cases = [data.review_case(conn, c.id) or c for c in data.review_cases(conn)]
    st.caption(
        "Assessments sent to independent experts: their answers per factor, how far they "
        "agree, and how the screening fares against them."
    )
    if not cases:
        st.info("No assessment has been sent for expert review yet.")
        st.stop()
    st.subheader("Review cases")
    show_table(view.cases_frame(cases), hide_index=True, width="stretch")
    by_id = {c.id: c for c in cases}
    chosen = filters.selectbox(
        "Case",
        list(by_id),
        "case",
        scope=SCOPE,
        format_func=lambda i: f"{i} ({view.state_words(by_id[i].state).lower()})",
    )
    case = data.review_case(conn, chosen) if chosen else None
    if case is not None:
        draw_case(case)
    draw_downloads(cases, draw_experts(conn))
