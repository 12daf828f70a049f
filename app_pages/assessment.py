"""An assessment (`?assessment=<id>`, shareable): disclaimer first, then everything it found."""

from __future__ import annotations

import streamlit as st

from components import assessment_summary as summary
from components import assessment_view as view
from components import (
    completion_view,
    connection,
    data,
    glossary,
    review_form,
    reviews_view,
    surroundings_view,
)
from components.assessment_downloads import draw_downloads
from components.problems import problem_boundary
from components.text import escape_markdown

OPEN_KEY = "assessment.open_id"


def open_typed_id() -> None:
    """Put the typed id in the URL (a callback: it runs before the page, so the run that
    follows the click draws the assessment; no second run)."""
    typed = (st.session_state.get(OPEN_KEY) or "").strip()
    if typed:
        st.query_params["assessment"] = typed


def choose_assessment() -> None:
    with st.form("open_assessment"):
        st.text_input("Assessment id", key=OPEN_KEY)
        st.form_submit_button("Open", on_click=open_typed_id)


with problem_boundary():
    assessment_id = st.query_params.get("assessment")
    conn = connection.connection_key()
    assessment = data.assessment(conn, assessment_id) if assessment_id else None
    if assessment is None:
        st.title("Assessment")
    if not assessment_id:
        st.info("No assessment chosen. Screen a site, or open an assessment by its id.")
        choose_assessment()
    elif assessment is None:
        # The id comes from the URL: shown as text, so a shared link cannot write the page.
        st.error(f"Assessment '{escape_markdown(assessment_id)}' was not found for this tenant.")
        choose_assessment()
    else:
        site = data.site(conn, assessment.site_id) if assessment.site_id else None
        # the title names the site; the ids a support request needs stay in the caption
        st.title(
            f"Assessment of {escape_markdown(summary.site_title(assessment, site))}", anchor=False
        )
        disclaimer = escape_markdown(assessment.disclaimer or "No disclaimer was given.")
        st.warning(disclaimer, icon=":material/warning:")
        st.caption(
            escape_markdown(
                f"Created {glossary.when(assessment.created_at)}; assessment {assessment.id} "
                f"of site {assessment.site_id}."
            )
            + " Share this page's URL to share it."
        )
        cases = data.review_cases(conn)
        st.caption(escape_markdown(reviews_view.review_status_words(cases, assessment.id)))
        review_form.draw_send_form(conn, assessment.id)
        location = site.location if site else None
        point = (location.latitude, location.longitude) if location else None
        summary.draw_band(
            assessment,
            summary.headlines(assessment),
            view.readiness_label(assessment.readiness),
            site,
        )
        view.draw_readiness(assessment)
        view.draw_actions(assessment)
        view.draw_place(assessment)
        view.draw_candidates(assessment)
        view.draw_records(assessment)
        # the maps wait folded, each built when opened and drawn last in its fold
        st.subheader("Map", anchor=summary.ANCHORS["map"])
        view.draw_site_map(assessment, point)
        surroundings_view.draw_surroundings(conn, assessment.site_id)
        completion_view.draw_completion(conn, point, surroundings_view.chosen_radius())
        draw_downloads(conn, assessment, site, data.capabilities(conn))
