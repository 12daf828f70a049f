"""Screen a site: drop a pin, describe the load, create the site, screen it, open the result."""

from __future__ import annotations

import streamlit as st

from components import connection, data, grid_context, site_form, sites_view, state
from components.picker import draw_picker_map, in_bounds, point_inputs, zoom_out_button
from components.problems import describe_problem, problem_boundary
from components.text import escape_markdown
from gridclient import Capabilities, SiteDefinition, UnprocessableEntityError

PICKER = "screen"
SUBMITTED = "screen.submitted"  # a submission of the form, handed from its fragment to the page

st.title("Screen a site")
st.caption(
    "Click the map to place the pin (or type latitude and longitude), describe the load, and "
    "press the button. The screening is a non-capacity friction screen: it never claims "
    "capacity."
)


def create_and_screen(definition: SiteDefinition, capabilities: Capabilities) -> None:
    """Create the site with this submission's one Idempotency-Key, screen it, open it."""
    conn = connection.connection_key()
    idempotency_key = site_form.idempotency_key_for(definition)
    with st.spinner("Creating the site…"):
        site = data.create_site(conn, definition, idempotency_key)
    site_form.remember_success(definition, idempotency_key, site.id)
    if not capabilities.create_assessment:
        st.success(
            f"Site {escape_markdown(site.id)} created. "
            "This deployment does not screen sites on request."
        )
        return
    with st.spinner("Screening the site…"):
        assessment = data.screen_site(conn, site.id, f"assess-{idempotency_key}")
    st.switch_page("app_pages/assessment.py", query_params={"assessment": assessment.id})


def submit(
    submitted: tuple[SiteDefinition | None, dict[str, list[str]]], caps: Capabilities
) -> None:
    """Send a submitted form; a refusal is kept to be shown under the fields it names."""
    definition, unreadable = submitted
    state.set_site_form_problem(None)
    if definition is None:
        state.set_site_form_problem(site_form.unreadable_fields(unreadable))
        st.rerun()
    try:
        create_and_screen(definition, caps)
    except UnprocessableEntityError as exc:
        state.set_site_form_problem(describe_problem(exc))
        st.rerun()


def warn_outside_coverage(point: tuple[float, float]) -> None:
    """Warn, before anything is created, when the point is in no county the data covers."""
    conn = connection.connection_key()
    location = data.territory_resolution(conn, *point).location
    if location and not location.get("county"):
        warning = site_form.coverage_warning(location, data.queue_states(conn))
        st.warning(escape_markdown(warning), icon=":material/travel_explore:")


def open_by_id() -> None:
    """The fallback for deployments without the extensions: open an assessment by its id."""
    with st.form("open_assessment"):
        assessment_id = st.text_input("Assessment id", placeholder="asm_…")
        if st.form_submit_button("Open assessment") and assessment_id.strip():
            st.switch_page(
                "app_pages/assessment.py", query_params={"assessment": assessment_id.strip()}
            )


@st.fragment
def pin_and_form(capabilities: Capabilities) -> None:
    """The map and the form beside it: a map click reruns this part only, not the page."""
    # the boundary is inside: a fragment shows its own failures, an outer `with` never sees them
    with problem_boundary():
        draw_pin_and_form(capabilities)


def draw_pin_and_form(capabilities: Capabilities) -> None:
    map_column, form_column = st.columns([3, 2])
    with map_column:
        conn = connection.connection_key()
        draw_picker_map(PICKER, grid=lambda: grid_context.grid_context(conn))
        zoom_out_button(PICKER)
    with form_column:
        # the coordinates head the form they belong to, beside the map
        point = point_inputs(PICKER, zoom_button=False)
        # always drawn (empty when the point is covered), so the form below keeps its place
        with st.container():
            if in_bounds(point):
                warn_outside_coverage(point)
        refused = state.site_form_problem()
        submitted = site_form.site_form(point, refused)
        if refused is not None:
            site_form.draw_refusal(refused)
    if submitted is not None:
        # sent from a run of the whole page, not of this fragment: creating, screening and
        # switching page (and a second click on the button meanwhile) behave as on any page
        st.session_state[SUBMITTED] = submitted
        st.rerun()


capabilities = None
with problem_boundary():
    capabilities = data.capabilities(connection.connection_key())
    if (pending := st.session_state.pop(SUBMITTED, None)) is not None:
        with problem_boundary():  # a failure is shown above the form, which stays
            submit(pending, capabilities)
    pin_and_form(capabilities)

if capabilities is not None:
    st.header("Your sites and their assessments")
    # its own boundary: a failure here leaves the open-by-id box below in place
    with problem_boundary():
        if not capabilities.list_sites:
            st.info("This deployment does not list sites; open an assessment by its id.")
        else:
            sites = data.recent_sites(connection.connection_key())
            sites_view.draw_unreadable(sites)
            looked_up_one_by_one = not data.lists_sites_with_assessments(capabilities)
            if looked_up_one_by_one and len(sites) > data.LOOKED_UP_SITES:
                st.caption(
                    f"This deployment lists sites without their assessments: the newest "
                    f"{data.LOOKED_UP_SITES} of your {len(sites):,} sites show theirs."
                )
            if chosen := sites_view.draw_sites(sites):
                st.switch_page("app_pages/assessment.py", query_params={"assessment": chosen})
open_by_id()
