"""The Grid Site Screener's script: page config, navigation, and the sidebar that says where
data comes from.

Served by `app.py` (`streamlit run app.py`); AppTest runs this file.
"""

from __future__ import annotations

import contextlib
import importlib

import streamlit as st

from components import connection, data, login, release_view, state
from components.problems import problem_boundary
from components.text import escape_markdown
from gridclient import GridAPIError

# The tab icon stays an emoji: a Material favicon is fetched from fonts.gstatic.com, which an
# offline deployment cannot reach (the sidebar's Material icons are bundled).
st.set_page_config(
    page_title="Grid Site Screener", page_icon="⚡", layout="wide", initial_sidebar_state="expanded"
)
state.init_state()
# Where the deployment asks for a login, nothing but the login screen (or "no access") is drawn
# until the user has a tenant: no navigation, no data source, no page.
login.gate(connection.DEMO_TOKENS)
# Screen a site's modules, and the geography its map opens on: a first start loads them while
# the demo database is built (the process only waits there), so the page's first run, after
# the build, no longer does (about a second of it on 2 cores).
FIRST_PAGE_MODULES = ("components.picker", "components.site_form", "components.sites_view")


def prepare_first_page() -> None:
    """Import the first page's modules and read the country's state outlines its map shows."""
    for name in FIRST_PAGE_MODULES:
        importlib.import_module(name)
    importlib.import_module("components.geography").country_states()


# A first start builds the demo database before anything else can draw: say so in the main area
connection.start_embedded_service(meanwhile=prepare_first_page)


def page(stem: str, title: str, icon: str, *, default: bool = False) -> st.Page:
    """Return the st.Page of app_pages/<stem>.py, served at /<stem>.

    The page scripts live in `app_pages/`, never `pages/`: Streamlit treats a `pages/` folder
    beside the entry script as old-style pages, and on a fresh process a deep link (a shared
    assessment URL) then ran the page script alone, without this file: no navigation, no
    data-source sidebar, no page config, for every visitor until someone opened the root URL.
    """
    return st.Page(f"app_pages/{stem}.py", title=title, icon=icon, url_path=stem, default=default)


PAGES = [
    page("screen_site", "Screen a site", ":material/add_location_alt:", default=True),
    page("service_territory", "Service territory", ":material/map:"),
    page("assessment", "Assessment", ":material/assignment:"),
    page("portfolio", "Portfolio", ":material/compare:"),
    page("reviews", "Expert reviews", ":material/rate_review:"),
    page("queue", "Interconnection queue", ":material/pending_actions:"),
    page("transmission", "Transmission", ":material/cable:"),
    page("generation", "Generation", ":material/factory:"),
    page("grid_operations", "Grid operations", ":material/monitoring:"),
    page("market_facts", "Market facts", ":material/bar_chart:"),
    page("evidence_search", "Evidence search", ":material/search:"),
    page("dockets", "Dockets", ":material/folder_open:"),
    page("data_quality", "Data quality & release", ":material/fact_check:"),
]
REVIEWS_PAGE = next(p for p in PAGES if p.url_path == "reviews")


def connected_as_reviewer() -> bool:
    """Return True when the session's token is an expert reviewer's (it reaches only its
    review cases); False when that cannot be asked now (the page reports why)."""
    try:
        return data.acting_as_reviewer(connection.connection_key())
    except GridAPIError:
        return False


REVIEWER = connected_as_reviewer()
navigation = st.navigation([REVIEWS_PAGE] if REVIEWER else PAGES)


def draw_sidebar() -> None:
    """Draw where the data comes from, the tenant (switchable on the demo) and the release."""
    info = connection.connection_info()
    if REVIEWER:
        st.sidebar.caption(
            "Connected as an expert reviewer: only the review cases assigned to you are here."
        )
        return
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
        st.sidebar.caption(f"Tenant: {escape_markdown(info.tenant)}")
    release_view.draw_release(data.release(connection.connection_key()))


# counted while under way: a whole collection loading in the background (below) waits
with data.PAGE_RUNS.running():
    with st.sidebar, problem_boundary():
        draw_sidebar()
    navigation.run()

# Once the page has run: the whole collections the queue, Generation and an assessment draw
# on start loading in the background, so those pages find them there. A service that cannot
# be reached now was already reported, by the page and by the sidebar's release.
if not REVIEWER:
    with contextlib.suppress(GridAPIError):
        data.preload_collections(connection.connection_key())
