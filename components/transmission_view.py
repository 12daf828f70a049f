"""Transmission projects: the table with kV, owner and dates, the timeline, the evidence."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from components.tables import (
    as_text,
    by_attribute,
    flags_text,
    kv_column,
    link_column,
    provenance_config,
    records_frame,
)
from gridclient import TransmissionProject

PROJECT_COLUMNS = [
    "projectNumber",
    "title",
    "status",
    "serviceLevelKv",
    "transmissionOwner",
    "projectedInServiceDate",
    "actualInServiceDate",
    "fromLocation",
    "toLocation",
    "counties",
    "sourceUrl",
    "sourceId",
    "sourceLocator",
    "observedAt",
    "qualityFlags",
    "description",
    "id",
]


def projects_frame(projects: Iterable[TransmissionProject]) -> pd.DataFrame:
    """Return projects as a flat frame: counties joined, evidence link and provenance beside."""
    frame = records_frame(
        projects,
        by_attribute(PROJECT_COLUMNS)
        | {
            "counties": lambda project: ", ".join(project.counties or []),
            "sourceUrl": "evidence.source_url",
            "sourceLocator": "evidence.source_locator",
            "observedAt": lambda project: as_text(project.observed_at) or None,
            "qualityFlags": lambda project: flags_text(project.quality_flags),
        },
    )
    frame["serviceLevelKv"] = pd.to_numeric(frame["serviceLevelKv"], errors="coerce")
    for column in ("projectedInServiceDate", "actualInServiceDate"):
        frame[column] = pd.to_datetime(frame[column], errors="coerce")
    return frame


def county_options(projects: Iterable[TransmissionProject]) -> list[str]:
    """Return every county any project crosses, sorted."""
    names = {c for p in projects for c in (p.counties or []) if c}
    return sorted(names, key=str.casefold)


def timeline_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Return (label, date, which, status) rows: each project's projected and actual dates."""
    rows = []
    for _, project in frame.iterrows():
        label = f"{project['projectNumber'] or project['id']} · {project['title'] or ''}"[:60]
        for column, which in (
            ("projectedInServiceDate", "projected in service"),
            ("actualInServiceDate", "actually in service"),
        ):
            if pd.notna(project[column]):
                rows.append(
                    {
                        "label": label,
                        "date": project[column],
                        "which": which,
                        "status": project["status"],
                        "kV": project["serviceLevelKv"],
                    }
                )
    return pd.DataFrame(rows, columns=["label", "date", "which", "status", "kV"])


def timeline_chart(timeline: pd.DataFrame) -> alt.LayerChart:
    """Each project's in-service dates on one line: a rule between them, a mark per date."""
    base = alt.Chart(timeline).encode(
        y=alt.Y("label:N", sort=alt.EncodingSortField("date", op="min"), title=None)
    )
    rule = base.mark_rule(color="#999").encode(x="min(date):T", x2="max(date):T")
    points = base.mark_point(filled=True, size=80).encode(
        x=alt.X("date:T", title="In-service date"),
        color=alt.Color("status:N", title="Status"),
        shape=alt.Shape("which:N", title="Date"),
        tooltip=["label:N", "which:N", alt.Tooltip("date:T"), "status:N", "kV:Q"],
    )
    return (rule + points).properties(title="In-service dates by project")


def table_config() -> dict[str, Any]:
    """Column configs: kV, dates, the source link, provenance."""
    return {
        **provenance_config(),
        "projectNumber": st.column_config.TextColumn("Project"),
        "serviceLevelKv": kv_column(),
        "transmissionOwner": st.column_config.TextColumn("Owner"),
        "projectedInServiceDate": st.column_config.DateColumn("Projected in service"),
        "actualInServiceDate": st.column_config.DateColumn("Actual in service"),
        "sourceUrl": link_column("Source"),
    }
