"""The tenant's sites, each with its latest assessment: a table and a button to open one."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components import glossary
from components.tables import attribute, records_frame, show_table
from gridclient import Site

SITE_COLUMNS = {
    "Site": "id",
    "Customer reference": "customer_reference",
    "Peak MW": "requested_peak_load_mw",
    "Latitude": "location.latitude",
    "Longitude": "location.longitude",
    "Site created": lambda site: glossary.when(site.created_at) or None,
    "Assessment": "latest_assessment.id",
    "Readiness": lambda site: glossary.label(
        "readiness", (attribute("latest_assessment.readiness")(site) or {}).get("level")
    ),
    "Assessed at": lambda site: (
        glossary.when(attribute("latest_assessment.created_at")(site)) or None
    ),
    "Open": lambda site: (
        f"assessment?assessment={site.latest_assessment.id}" if site.latest_assessment else None
    ),
}
SITES_COLUMN_CONFIG = {
    "Peak MW": st.column_config.NumberColumn("Peak load", format="%,.1f MW"),
    "Open": st.column_config.LinkColumn("Open", display_text="open assessment"),
}


def sites_frame(sites: list[Site]) -> pd.DataFrame:
    """Return one row per site with its latest assessment (empty cells when it has none)."""
    return records_frame(sites, SITE_COLUMNS)


def draw_sites(sites: list[Site]) -> str | None:
    """Draw the sites table and a picker of their assessments; return the one to open."""
    frame = sites_frame(sites)
    if frame.empty:
        st.caption("No sites yet: place a pin on the map above and press the button to screen one.")
        return None
    show_table(**glossary.table(frame, SITES_COLUMN_CONFIG), hide_index=True, width="stretch")
    assessed = [site for site in sites if site.latest_assessment]
    if not assessed:
        return None
    labels = {
        site.latest_assessment.id: f"{site.latest_assessment.id} — site {site.id} "
        f"({glossary.label('readiness', (site.latest_assessment.readiness or {}).get('level'))})"
        for site in assessed
    }
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    chosen = left.selectbox(
        "Assessment", list(labels), format_func=labels.get, key="screen.open_assessment"
    )
    return chosen if right.button("Open assessment", type="primary") else None
