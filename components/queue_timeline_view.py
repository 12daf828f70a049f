"""A queued project's timeline across the monthly reports, under its queue record.

Drawn from the `/v1/queue-history/projects/{projectId}` extension (`data.queue_project_timeline`):
the months a report lists the project, what it said each month, what changed and how the
project ended, each with the cell it was read from. The service works all of it out.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import streamlit as st

from components import charts, data, glossary
from components.completion_view import OUTCOME_WORDS, month_words
from components.connection import ConnectionKey
from components.problems import show_problem
from components.queue_view import QueueList
from components.surroundings_changes import cell_text
from components.tables import records_frame, show_table
from components.text import escape_markdown
from gridclient import APIStatusError, QueueProjectTimeline, QueueRecord, TimelineRow

TIMELINE_PATH = "/v1/queue-history/projects/{projectId}"
# what each kind of row says of the project, in the chart's order from the top
SAYS = {
    ("active", None): "Queued",
    ("inactive", None): "Inactive",
    ("cancelled", None): "Cancelled",
    ("commissioned", "energization"): "Approved for energization",
    ("commissioned", "synchronization"): "Approved for synchronisation",
    ("commissioned", "commercial_operation"): "Approved for commercial operation",
}
CHANGED = {
    "status": "Status",
    "county": "County",
    "capacityMw": "Capacity (MW)",
    "studyPhase": "Study phase",
    "projectedCod": "Projected COD",
    "firmness": "IA or security",
}


def record_of_project(queue: QueueList, project_id: str) -> str | None:
    """Return the id of the queue record with this queue id (any case; the first by id), or
    None: a link from the queue's history names a project by its queue id."""
    wanted = project_id.strip().upper()
    found = sorted(
        record_id
        for record_id, record in queue.by_id.items()
        if str(record.record_key or "").upper() == wanted
    )
    return found[0] if found else None


def row_says(row: TimelineRow) -> str:
    """Return what a report's row says of the project, in words."""
    milestone = row.milestone if row.status == "commissioned" else None
    return SAYS.get((row.status or "", milestone), glossary.words(row.status or ""))


def _month_start(month: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(f"{month}-01")
    except (TypeError, ValueError):
        return None


def rows_frame(timeline: QueueProjectTimeline) -> pd.DataFrame:
    """Return one bar per report row: from its month to the next, by what it says."""
    rows = []
    for row in timeline.rows:
        start = _month_start(row.month)
        if start is None:
            continue
        end = (start.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
        rows.append(
            {
                "label": row_says(row),
                "status": row_says(row),
                "start": start,
                "end": end,
                "report": month_words(row.month),
                "cell": cell_text(row.source),
            }
        )
    return pd.DataFrame(rows)


def _value_words(field: str | None, value: Any) -> str:
    if value is None or value == "":
        return ""
    if field == "status":
        return glossary.label("status", value)
    if field == "firmness":
        return glossary.label("firmness", value)
    if field == "capacityMw":
        return glossary.mw(value, 1)
    return str(value)


def changes_frame(timeline: QueueProjectTimeline) -> pd.DataFrame:
    """Return what changed from one report to the next, each with the cell saying it."""
    return records_frame(
        timeline.changes,
        {
            "Report": lambda c: month_words(c.month),
            "What changed": lambda c: CHANGED.get(c.field or "", glossary.words(c.field or "")),
            "Before": lambda c: _value_words(c.field, c.before),
            "After": lambda c: _value_words(c.field, c.after),
            "Cited cell": lambda c: cell_text(c.source),
        },
    )


def ending_sentence(timeline: QueueProjectTimeline) -> str:
    """Return how often the reports list the project and how it ended, with the cell."""
    window = timeline.window
    reports = (window.reports if window else None) or 0
    span = (
        f"{month_words(window.first_month)} to {month_words(window.last_month)}" if window else ""
    )
    outcome = timeline.outcome
    words = OUTCOME_WORDS.get(outcome.outcome or "", "Outcome not stated") if outcome else ""
    return (
        f"Listed as queued in {timeline.months_listed or 0:,} of the {reports:,} monthly "
        f"reports of {timeline.market or 'its market'} ({span}). "
        f"{words} by the report of {month_words(outcome.month if outcome else None)}"
        f" ({cell_text(outcome.source if outcome else None)}); data as of "
        f"{timeline.as_of or 'an unstated date'}."
    )


def no_history_words(record: QueueRecord) -> str:
    """Return why a record has no monthly history: its market has none harvested (the
    history covers ERCOT only), or no harvested report lists it."""
    market = glossary.label("market", record.market)
    if market != "ERCOT":
        return (
            f"The queue's monthly history covers ERCOT only; this is a {market or 'queue'} "
            "record, so its months in the queue are not shown."
        )
    return "No harvested ERCOT monthly report lists this project's queue id."


def draw_timeline(conn: ConnectionKey, record: QueueRecord) -> None:
    """Draw the record's project across the monthly reports, or say why there is none."""
    st.markdown("**Across the monthly reports**")
    if not data.capabilities(conn).supports("get", TIMELINE_PATH):
        st.caption("This deployment does not offer the queue's monthly history.")
        return
    if not record.record_key:
        st.caption("This record names no queue id, so its monthly history cannot be looked up.")
        return
    try:
        timeline = data.queue_project_timeline(conn, record.record_key)
    except APIStatusError as exc:
        if exc.code == "no_queue_history":
            st.caption(no_history_words(record))
        else:
            show_problem(exc)
        return
    st.markdown(escape_markdown(ending_sentence(timeline)))
    bars = rows_frame(timeline)
    if not bars.empty:
        st.altair_chart(
            charts.timeline(bars, title="What each monthly report says of it", monthly=True),
            width="stretch",
        )
    changes = changes_frame(timeline)
    if changes.empty:
        st.caption("Nothing the reports compare changed from one report to the next.")
    else:
        show_table(changes, hide_index=True, width="stretch")
