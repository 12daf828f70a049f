"""An assessment (`?assessment=<id>`, shareable): disclaimer first, then everything it found."""

from __future__ import annotations

import streamlit as st

from components import assessment_view as view
from components import connection, downloads
from components.problems import problem_boundary

st.title("Assessment")


@st.cache_data(ttl=300, show_spinner=False)
def fetch_assessment(key: connection.ConnectionKey, assessment_id: str) -> dict | None:
    """Return the assessment's wire dict, or None when the tenant has no such assessment."""
    from gridclient import NotFoundError

    try:
        return connection.client_for(key).assessments.get(assessment_id).to_wire()
    except NotFoundError:
        return None


@st.cache_data(ttl=300, show_spinner=False)
def fetch_site_point(key: connection.ConnectionKey, site_id: str) -> tuple[float, float] | None:
    location = connection.client_for(key).sites.get(site_id).location
    return (location.latitude, location.longitude) if location else None


def choose_assessment() -> None:
    with st.form("open_assessment"):
        typed = st.text_input("Assessment id")
        if st.form_submit_button("Open") and typed.strip():
            st.query_params["assessment"] = typed.strip()
            st.rerun()


def draw_downloads(key: connection.ConnectionKey, assessment_id: str, flags: dict) -> None:
    st.subheader("Downloads")
    packet_column, csv_column = st.columns(2)
    packet = downloads.packet_download(downloads.fetch_packet_bytes(key, assessment_id))
    packet_column.download_button(
        f"Expert-review packet ({packet.file_name})", packet.data, packet.file_name, packet.mime
    )
    packet_column.caption("Blinded: no tenant, customer reference, address or assessment id.")
    export_key = f"export.{assessment_id}"
    if st.session_state.get(export_key):
        export = downloads.csv_download(downloads.fetch_export(key, st.session_state[export_key]))
        csv_column.download_button(
            f"CSV export ({export.file_name})", export.data, export.file_name, export.mime
        )
    elif connection.has_extension(flags, "create_export") and csv_column.button(
        "Prepare the CSV export"
    ):
        st.session_state[export_key] = downloads.create_export(key, assessment_id)["id"]
        st.rerun()
    typed = csv_column.text_input("Or open an export by id", key=f"{export_key}.typed")
    if typed.strip() and typed.strip() != st.session_state.get(export_key):
        st.session_state[export_key] = typed.strip()
        st.rerun()


with problem_boundary():
    assessment_id = st.query_params.get("assessment")
    key = connection.connection_key()
    assessment = fetch_assessment(key, assessment_id) if assessment_id else None
    if not assessment_id:
        st.info("No assessment chosen. Screen a site, or open an assessment by its id.")
        choose_assessment()
    elif assessment is None:
        st.error(f"Assessment {assessment_id!r} was not found for this tenant.")
        choose_assessment()
    else:
        st.warning(assessment.get("disclaimer") or "No disclaimer was given.", icon="⚠️")
        st.caption(
            f"Assessment {assessment['id']} of site {assessment.get('siteId')}, "
            f"created {assessment.get('createdAt')}. Share this page's URL to share it."
        )
        view.draw_readiness(assessment)
        view.draw_actions(assessment)
        view.draw_place(assessment)
        view.draw_candidates(assessment)
        view.draw_records(assessment)
        st.subheader("Map")
        view.draw_map(assessment, fetch_site_point(key, assessment["siteId"]))
        draw_downloads(key, assessment["id"], connection.fetch_capabilities(key))
