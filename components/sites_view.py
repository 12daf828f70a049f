"""The tenant's sites, each with its latest assessment's summary: a table and a button to open
one."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components import glossary
from components.column_chooser import draw_column_chooser
from components.site_names import site_column, site_name
from components.tables import records_frame, show_table
from components.text import escape_markdown
from gridclient import Site


def _readiness(site: Site) -> str | None:
    summary = site.latest_assessment_summary
    return glossary.label("readiness", summary.readiness) if summary else None


def _assessed_at(site: Site) -> str | None:
    summary = site.latest_assessment_summary
    return (glossary.when(summary.created_at) or None) if summary else None


def _assessment_link(site: Site) -> str | None:
    summary = site.latest_assessment_summary
    if summary is None or not summary.assessment_id:
        return None
    return f"assessment?assessment={summary.assessment_id}"


SITE_COLUMNS = {
    "Name": site_name,
    "Site": "id",
    "Customer reference": "customer_reference",
    "Peak MW": "requested_peak_load_mw",
    "Latitude": "location.latitude",
    "Longitude": "location.longitude",
    # The market region the service found for the point when the site was created, by the
    # short label the assessment shows (ERCOT, "no ISO: West"): a region's full name
    # ("ERCOT (demo: the outlines of its demo states)") pushed the columns after it out of
    # the table's width at 1280 px
    "Market": "market.label",
    "Site created": lambda site: glossary.when(site.created_at) or None,
    "Assessment": "latest_assessment_summary.assessment_id",
    "Readiness": _readiness,
    "Assessed at": _assessed_at,
    "Open": _assessment_link,
}
# Shown whole beside the map at 1280 px; the ids, coordinates and dates are a choice away
KEY_SITE_COLUMNS = ("Name", "Readiness", "Peak MW", "Market", "Assessed at", "Open")
SITES_COLUMN_CONFIG = {
    "Site": st.column_config.TextColumn("Site id"),
    "Peak MW": st.column_config.NumberColumn("Peak load", format="%,.1f MW"),
    "Open": st.column_config.LinkColumn("Open", display_text="open assessment"),
}


def sites_frame(sites: list[Site]) -> pd.DataFrame:
    """Return one row per site with its latest assessment's summary (empty cells when it has
    none)."""
    return records_frame(sites, SITE_COLUMNS)


def assessment_labels(sites: list[Site]) -> dict[str, str]:
    """Return, by assessment id, how the picker names each site's latest assessment: the
    site's name as the table shows it, its readiness and when it was assessed (ids are in
    the table's Site id and Assessment columns, a choice away)."""
    return {
        summary.assessment_id: " — ".join(
            part for part in (site_name(site), _readiness(site), _assessed_at(site)) if part
        )
        for site in sites
        if (summary := site.latest_assessment_summary) and summary.assessment_id
    }


def draw_sites(sites: list[Site]) -> str | None:
    """Draw the sites table and a picker of their assessments; return the one to open."""
    frame = sites_frame(sites)
    if frame.empty:
        st.caption("No sites yet: place a pin on the map above and press the button to screen one.")
        return None
    # a name too long for the Site column is named whole in its header's tooltip; the key
    # columns fit beside it, so it is not pinned (a pinned column's names are drawn grey)
    names = site_column(frame["Name"].dropna(), "Site", pinned=False)
    config = {**SITES_COLUMN_CONFIG, "Name": names}
    shown = glossary.table(frame, config)
    order = draw_column_chooser(
        "screen.sites", KEY_SITE_COLUMNS, list(frame.columns), shown["column_config"]
    )
    show_table(**shown, column_order=order, hide_index=True, width="stretch")
    labels = assessment_labels(sites)
    if not labels:
        return None
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    chosen = left.selectbox(
        "Assessment", list(labels), format_func=labels.get, key="screen.open_assessment"
    )
    return chosen if right.button("Open assessment", type="primary") else None


def draw_unreadable(sites: list[Site]) -> None:
    """Say which listed sites could not be read and are left out (none: nothing drawn)."""
    unreadable = getattr(sites, "unreadable", [])
    if not unreadable:
        return
    named = ", ".join(record.id or f"record {record.index + 1}" for record in unreadable[:5])
    more = f" and {len(unreadable) - 5:,} more" if len(unreadable) > 5 else ""
    st.warning(
        escape_markdown(
            f"{len(unreadable):,} of your sites could not be read and are left out of this "
            f"list: {named}{more}. Every other site is shown; the service's operators can "
            "repair or archive them."
        ),
        icon=":material/warning:",
    )
    st.text("Why: " + "; ".join(f"{r.field}: {r.message}" for r in unreadable[:5]))
