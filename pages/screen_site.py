"""Screen a site: drop a pin, describe the load, create the site, screen it, open the result."""

from __future__ import annotations

import streamlit as st

from components import connection, site_form
from components.maps import point_inputs, point_picker
from components.problems import problem_boundary

PICKER = "screen"

st.title("Screen a site")
st.caption(
    "Click the map to zoom in twice, then click a small cell to drop the pin there — or type "
    "latitude and longitude. "
    "The screening is a non-capacity friction screen: it never claims capacity."
)


def create_and_screen(definition: dict, capabilities: dict[str, bool]) -> None:
    """Create the site with this submission's one Idempotency-Key, screen it, open it."""
    key = connection.connection_key()
    client = connection.client_for(key)
    idempotency_key = site_form.idempotency_key_for(definition)
    with st.spinner("Creating the site…"):
        site = client.sites.create(definition, idempotency_key=idempotency_key)
    site_form.remember_success(definition, idempotency_key, site.id)
    site_form.fetch_sites_with_assessments.clear()
    if not connection.has_extension(capabilities, "create_assessment"):
        st.success(f"Site {site.id} created. This deployment does not screen sites on request.")
        return
    with st.spinner("Screening the site…"):
        assessment = client.assessments.create(site.id, idempotency_key=f"assess-{idempotency_key}")
    st.switch_page("pages/assessment.py", query_params={"assessment": assessment.id})


def open_by_id() -> None:
    """The fallback for deployments without the extensions: open an assessment by its id."""
    with st.form("open_assessment"):
        assessment_id = st.text_input("Assessment id", placeholder="asm_…")
        if st.form_submit_button("Open assessment") and assessment_id.strip():
            st.switch_page(
                "pages/assessment.py", query_params={"assessment": assessment_id.strip()}
            )


def tenant_sites() -> None:
    sites = site_form.fetch_sites_with_assessments(connection.connection_key())
    frame = site_form.sites_frame(sites)
    if frame.empty:
        st.caption("This tenant has no sites yet.")
        return
    st.dataframe(
        frame, hide_index=True, width="stretch", column_config=site_form.SITES_COLUMN_CONFIG
    )
    assessed = frame.dropna(subset=["Assessment"])
    if assessed.empty:
        return
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    labels = {
        row.Assessment: f"{row.Assessment} — site {row.Site} ({row.Readiness})"
        for row in assessed.itertuples()
    }
    chosen = left.selectbox(
        "Assessment", list(labels), format_func=labels.get, key="screen.open_assessment"
    )
    if right.button("Open assessment", type="primary"):
        st.switch_page("pages/assessment.py", query_params={"assessment": chosen})


with problem_boundary():
    capabilities = connection.fetch_capabilities(connection.connection_key())
    map_column, form_column = st.columns([3, 2])
    with map_column:
        point_picker(PICKER)
        point = point_inputs(PICKER)
    with form_column:
        submitted = site_form.site_form(point)
    if submitted is not None:
        definition, errors = submitted
        if errors:
            st.error("The site was not sent:\n\n" + "\n".join(f"- {e}" for e in errors))
        else:
            with problem_boundary():
                create_and_screen(definition, capabilities)

    st.header("Your sites and their assessments")
    if connection.has_extension(capabilities, "list_sites", "list_assessments"):
        tenant_sites()
    else:
        st.info("This deployment does not list sites; open an assessment by its id.")
    open_by_id()
