"""What changed near a site since its assessment: queue projects in, out and changed, facts
restated, each with the report cell or fact it comes from."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components import glossary
from components.tables import records_frame, show_table
from components.text import escape_markdown
from gridclient import SiteChanges

FIELD_WORDS = {
    "capacityMw": "MW",
    "projectedCod": "Expected in-service date",
    "studyPhase": "Study phase",
    "firmness": "How firm",
}
NAMED = {"Project": "project_id", "Name": "project_name"}
PROJECT_COLUMNS = {
    "County": "county",
    "Fuel": lambda p: glossary.label_with_code("fuel", p.fuel),
    "MW": "capacity_mw",
    "How firm": lambda p: glossary.label("firmness", p.firmness),
    "Source cell": "source.source_locator",
}


def _change_text(project) -> str:
    return "; ".join(
        f"{FIELD_WORDS.get(c.field, c.field)}: {c.from_value} → {c.to}" for c in project.changes
    )


def entered_frame(changes: SiteChanges) -> pd.DataFrame:
    queue = changes.queue
    return records_frame(
        queue.entered if queue else [],
        {**NAMED, "How it entered": "entered_as", **PROJECT_COLUMNS},
    )


def left_frame(changes: SiteChanges) -> pd.DataFrame:
    queue = changes.queue
    return records_frame(
        queue.left if queue else [],
        {**NAMED, "Why it left": "outcome", "When": "event_date", **PROJECT_COLUMNS},
    )


def changed_frame(changes: SiteChanges) -> pd.DataFrame:
    queue = changes.queue
    return records_frame(
        queue.changed if queue else [], {**NAMED, "What changed": _change_text, **PROJECT_COLUMNS}
    )


def facts_frame(changes: SiteChanges) -> pd.DataFrame:
    return records_frame(
        changes.facts,
        {
            "Fact": lambda f: f"{f.market} {str(f.predicate).replace('_', ' ')} {f.period}",
            "Restated or new": "change",
            "Before": lambda f: f.before.value if f.before else None,
            "Now": "after.value",
            "Unit": "unit",
            "Known since": "after.known_from",
            "Source": "after.evidence.source_locator",
        },
    )


def draw_changes(changes: SiteChanges) -> None:
    """Draw the summary, then each non-empty table of what changed."""
    st.markdown(escape_markdown(changes.summary or ""))
    for title, frame in (
        ("Entered the queue", entered_frame(changes)),
        ("Left the queue", left_frame(changes)),
        ("Changed", changed_frame(changes)),
        ("Market facts restated or new", facts_frame(changes)),
    ):
        if not frame.empty:
            st.markdown(f"**{title}** ({len(frame)})")
            show_table(frame, hide_index=True, width="stretch")
    for limitation in changes.limitations:
        st.caption(escape_markdown(limitation))
