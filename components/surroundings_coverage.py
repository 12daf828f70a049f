"""What "Grid around the site" covers and leaves out: counties whose queue figures come from
their market's queue records (no monthly report names them), counties with no figures and
why, figures over a year older than the newest, and the datasets that cover only some
markets (`abstentions`), each said in plain view as the service words it.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components.surroundings_changes import RECORD
from components.tables import show_table
from components.text import escape_markdown
from gridclient import SiteSurroundings, SurroundingCounty

MISSING_SHOWN = 3  # more counties without figures than this are listed folded
BASIS_WORDS = {"queue_history": "monthly report", "queue_records": "queue records"}


def county_label(county: SurroundingCounty) -> str:
    """Return "Name, ST" (with "(site)" for the site's county)."""
    return f"{county.name}, {county.state}" + (" (site)" if county.is_site_county else "")


def figures_source(queue: Any) -> str:
    """Return where a county's figures come from and as of when ("" when it has none),
    saying "dated" when the source is over a year older than the answer's newest."""
    if queue is None or queue.basis is None:
        return ""
    markets = "/".join(queue.markets)
    said = f"{markets} {BASIS_WORDS.get(queue.basis, queue.basis)}".strip()
    said += f" of {queue.as_of}" if queue.as_of else ""
    return said + (" (dated: over a year older than the newest here)" if queue.dated else "")


def projects_text(count: int | None) -> str:
    """Return "1 active project" / "3 active projects"."""
    count = count or 0
    return f"{count:,} active project" + ("" if count == 1 else "s")


def draw_coverage(near: SiteSurroundings) -> None:
    """Draw, under the radius's totals, the counties taking their figures from queue records,
    the datasets left out and why, the counties without figures and the dated figures."""
    from_records = [c for c in near.counties if c.queue and c.queue.basis == "queue_records"]
    if from_records:
        st.markdown(
            "**From queue records** (no monthly report names these counties; no firmness): "
            + "; ".join(
                f"{escape_markdown(county_label(c))}: {projects_text(c.queue.active_projects)}, "
                f"{c.queue.active_mw or 0:,.1f} MW ({figures_source(c.queue)})"
                for c in from_records
            )
            + "."
        )
    for abstention in near.abstentions:
        st.info(escape_markdown(abstention.statement or abstention.title or ""))
    missing = [c.queue.unavailable for c in near.counties if c.queue and c.queue.unavailable]
    reasons = "\n".join(f"- {escape_markdown(reason)}" for reason in missing)
    if len(missing) > MISSING_SHOWN:
        # a dozen near-identical sentences pushed the rest of the section off the screen
        with st.expander(
            f"Why {len(missing)} of the {len(near.counties)} counties have no queue figures"
        ):
            st.caption(reasons)
    elif missing:
        st.caption(reasons)
    dated = [c for c in near.counties if c.queue and c.queue.dated]
    if dated:
        st.caption(
            "Dated figures, their source over a year older than the newest here: "
            + "; ".join(
                f"{escape_markdown(county_label(c))} (as of {c.queue.as_of})" for c in dated
            )
            + "."
        )


def draw_records(near: SiteSurroundings) -> None:
    """Draw the active queue records of the counties no monthly report names, each linking
    to its record page."""
    counties = [c for c in near.counties if c.queue and c.queue.basis == "queue_records"]
    st.caption(
        "Active queue records of the counties no monthly report names, the first by queue id "
        "in each county (location basis: county)."
    )
    frame = pd.DataFrame(
        [
            {
                "County": county_label(c),
                "Market": r.market,
                "Project id": r.project_id,
                "Record": f"queue?record={r.record_id}" if r.record_id else None,
                "MW": r.capacity_mw,
            }
            for c in counties
            for r in c.queue.records
        ]
    )
    if frame.empty:
        st.caption("No county here takes its figures from queue records.")
        return
    show_table(frame, hide_index=True, width="stretch", column_config={"Record": RECORD})
    for county in counties:
        listed, total = len(county.queue.records), county.queue.records_total
        if total is not None and listed < total:
            st.caption(f"{escape_markdown(county_label(county))}: showing {listed} of {total}.")
