"""The Grid Site Screener: page config, navigation, and the sidebar that says where data comes from."""

from __future__ import annotations

import streamlit as st

from components import connection, state
from components.problems import problem_boundary

st.set_page_config(
    page_title="Grid Site Screener", page_icon="⚡", layout="wide", initial_sidebar_state="expanded"
)
state.init_state()

PAGES = [
    st.Page(
        "pages/screen_site.py", title="Screen a site", icon="📍", url_path="screen", default=True
    ),
    st.Page(
        "pages/service_territory.py", title="Service territory", icon="🗺️", url_path="territory"
    ),
    st.Page("pages/assessment.py", title="Assessment", icon="📋", url_path="assessment"),
    st.Page("pages/queue.py", title="Interconnection queue", icon="⏳", url_path="queue"),
    st.Page("pages/transmission.py", title="Transmission", icon="🔌", url_path="transmission"),
    st.Page("pages/generation.py", title="Generation", icon="🏭", url_path="generation"),
    st.Page(
        "pages/grid_operations.py", title="Grid operations", icon="📈", url_path="grid-operations"
    ),
    st.Page("pages/market_facts.py", title="Market facts", icon="📊", url_path="market-facts"),
    st.Page("pages/evidence_search.py", title="Evidence search", icon="🔎", url_path="evidence"),
    st.Page("pages/dockets.py", title="Dockets", icon="🗂️", url_path="dockets"),
    st.Page("pages/data_quality.py", title="Data quality & release", icon="✅", url_path="quality"),
]
navigation = st.navigation(PAGES)


def draw_sidebar() -> None:
    """Draw where the data comes from, the tenant (switchable on the demo) and the release."""
    info = connection.connection_info()
    st.sidebar.markdown("**Data source**")
    st.sidebar.text(info.source)
    if info.demo:
        st.session_state.setdefault(state.TENANT, info.tenant)
        st.sidebar.radio(
            "Demo tenant",
            state.DEMO_TENANTS,
            key=state.TENANT,
            horizontal=True,
            help="Each tenant sees only its own sites, assessments and exports.",
        )
    else:
        st.sidebar.caption(f"Tenant: {info.tenant}")
    release = connection.fetch_release(connection.connection_key())
    st.sidebar.markdown("**Release**")
    st.sidebar.text(f"Release id: {release.get('releaseId')}")
    snapshot = release.get("dataSnapshotSha256") or ""
    st.sidebar.text(f"Data snapshot: {snapshot[:12]}")
    st.sidebar.text(f"Valid until: {release.get('validUntil')}")


with st.sidebar, problem_boundary():
    draw_sidebar()

navigation.run()
