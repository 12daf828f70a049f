"""Transmission projects: the table with kV, owner and dates, the timeline, the evidence."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Sequence
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from components import data, glossary
from components.connection import ConnectionKey
from components.tables import (
    ShownTable,
    as_text,
    by_attribute,
    flags_text,
    kv_column,
    link_column,
    provenance_config,
    record_source_title,
    records_frame,
    shown_table,
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


# The service's flag on an actual in-service date later than the data's own date (a plan typed
# into the actual column): such a date is shown as reported, never as a fact.
ACTUAL_AFTER_DATA_DATE = "actualInServiceDateAfterDataDate"
ACTUAL = "actually in service"
REPORTED_AHEAD = "reported in service, after the data's date"


def reported_ahead(project: TransmissionProject) -> bool:
    """Return whether the service flags the project's actual date as after its data's date."""
    return any(flag.code == ACTUAL_AFTER_DATA_DATE for flag in project.quality_flags or [])


def actual_in_service_text(project: TransmissionProject) -> str | None:
    """Return the actual in-service date, or "reported as in service on D, after this data's
    date of O" when the service flags it as later than the data; None when there is none."""
    actual = project.actual_in_service_date
    if actual is None or not reported_ahead(project):
        return actual
    data_date = f" of {project.observed_at:%Y-%m-%d}" if project.observed_at else ""
    return f"reported as in service on {actual}, after this data's date{data_date}"


def projects_frame(projects: Iterable[TransmissionProject]) -> pd.DataFrame:
    """Return projects as a flat frame: counties joined, evidence link and provenance beside."""
    frame = records_frame(
        projects,
        by_attribute(PROJECT_COLUMNS)
        | {
            "counties": lambda project: ", ".join(project.counties or []),
            "sourceUrl": "evidence.source_url",
            "source": record_source_title,
            "sourceLocator": "evidence.source_locator",
            "observedAt": lambda project: as_text(project.observed_at) or None,
            "qualityFlags": lambda project: flags_text(project.quality_flags),
        },
    )
    frame["serviceLevelKv"] = pd.to_numeric(frame["serviceLevelKv"], errors="coerce")
    for column in ("projectedInServiceDate", "actualInServiceDate"):
        frame[column] = pd.to_datetime(frame[column], errors="coerce")
    return frame


@dataclasses.dataclass(frozen=True)
class ProjectList:
    """Projects as the page shows them: the models, their frame and table (a row each, in
    the same order), the filters' choices."""

    projects: list[TransmissionProject]
    frame: pd.DataFrame
    table: ShownTable

    @functools.cached_property
    def timeline(self) -> pd.DataFrame:
        """The in-service dates of the projects in the frame (`timeline_frame`)."""
        return timeline_frame(self.frame, [reported_ahead(p) for p in self.projects])

    @functools.cached_property
    def counties(self) -> list[str]:
        """Every county a project crosses, sorted (the county filter's choices)."""
        return county_options(self.projects)

    @functools.cached_property
    def statuses(self) -> list[str]:
        """Every status a project has, sorted (the status filter's choices)."""
        return sorted({project.status for project in self.projects if project.status})

    def narrowed(self, county: str | None, status: str | None) -> ProjectList:
        """The projects that cross `county` and have `status` (None: any), matched as the
        service's own filters match them (word for word, whatever the case), with their
        rows of this list's frame and table.

        Matched on the whole list already loaded: a filtered list asked of the service was
        cut at 5,000 projects, and the unfiltered page said 5,000 of 15,000 (scale 100).
        """
        county_word = None if county is None else county.casefold()
        status_word = None if status is None else status.casefold()
        keep = [
            row
            for row, project in enumerate(self.projects)
            if (status_word is None or (project.status or "").casefold() == status_word)
            and (
                county_word is None
                or any((c or "").casefold() == county_word for c in project.counties or [])
            )
        ]
        rows = self.frame.index[keep]
        return ProjectList(
            [self.projects[row] for row in keep],
            self.frame.loc[rows],
            ShownTable(self.table.data.loc[rows], self.table.column_config),
        )


def project_list(projects: Iterable[TransmissionProject]) -> ProjectList:
    """Return the projects with their frame and table."""
    projects = list(projects)
    frame = projects_frame(projects)
    return ProjectList(projects, frame, shown_table(frame, table_config()))


def every_project_list(conn: ConnectionKey, projects: list[TransmissionProject]) -> ProjectList:
    """Return every project (`data.all_transmission_projects`) as `project_list` does, made
    once for that list: an unfiltered visit only draws it."""
    return data.derived(conn, "transmission projects", (projects,), lambda: project_list(projects))


def county_options(projects: Iterable[TransmissionProject]) -> list[str]:
    """Return every county any project crosses, sorted."""
    names = {c for p in projects for c in (p.counties or []) if c}
    return sorted(names, key=str.casefold)


def short_title(title: object, width: int = 40) -> str:
    text = str(title or "")
    return text if len(text) <= width else text[: width - 1] + "…"


def timeline_frame(frame: pd.DataFrame, ahead: Sequence[bool] | None = None) -> pd.DataFrame:
    """Return (label, date, which, status) rows: each project's projected and actual dates,
    an actual date flagged as after the data's date (`ahead`, by row) named as reported.

    Built column by column: row by row (`iterrows`) is far slower for a long list.
    """
    columns = ["label", "date", "which", "status", "kV"]
    labels = [
        f"{number or record_id} · {short_title(title)}"
        for number, record_id, title in zip(
            frame["projectNumber"], frame["id"], frame["title"], strict=True
        )
    ]
    statuses = [glossary.label("status", status) for status in frame["status"]]
    ahead = list(ahead) if ahead is not None else [False] * len(frame)
    actual = [REPORTED_AHEAD if late else ACTUAL for late in ahead]
    parts = []
    for order, (column, which) in enumerate(
        (("projectedInServiceDate", "projected in service"), ("actualInServiceDate", actual))
    ):
        part = pd.DataFrame(
            {
                "label": labels,
                "date": frame[column].to_numpy(),
                "which": which,
                "status": statuses,
                "kV": frame["serviceLevelKv"].to_numpy(),
                "row": range(len(frame)),
                "order": order,
            }
        )
        parts.append(part[frame[column].notna().to_numpy()])
    if not len(frame):
        return pd.DataFrame(columns=columns)
    # each project's projected date, then its actual one, in the table's order
    timeline = pd.concat(parts).sort_values(["row", "order"], kind="stable")
    return timeline[columns].reset_index(drop=True)


# One colour per status, the same on every chart; statuses not named here share the last.
STATUS_COLOURS = {
    "Planned": "#1f77b4",
    "Engineering": "#9467bd",
    "Under construction": "#ff7f0e",
    "In service": "#2ca02c",
    "Cancelled": "#7f7f7f",
}
TIMELINE_ROWS = 25


def undated_text(listed: int, dated: int) -> str:
    """Return why the timeline holds fewer projects than the list counts ("" when it holds
    them all): "150 projects" above a "Show all 146" read as four projects lost."""
    undated = listed - dated
    if undated <= 0:
        return ""
    states = "states" if undated == 1 else "state"
    return (
        f"{dated:,} of the {listed:,} projects listed have an in-service date; the other "
        f"{undated:,} {states} none and are not on the timeline."
    )


def timeline_rows(timeline: pd.DataFrame, limit: int | None = TIMELINE_ROWS) -> pd.DataFrame:
    """Return the timeline's rows of its first `limit` projects by earliest date (all: None)."""
    if limit is None:
        return timeline
    first = timeline.groupby("label")["date"].min().sort_values().index[:limit]
    return timeline[timeline["label"].isin(first)]


def timeline_chart(timeline: pd.DataFrame) -> alt.LayerChart:
    """Each project's in-service dates on one line, by year: a rule between them, a mark per
    date coloured by status (with its legend)."""
    statuses = sorted(
        set(timeline["status"]),
        key=lambda s: list(STATUS_COLOURS).index(s) if s in STATUS_COLOURS else 99,
    )
    colours = [STATUS_COLOURS.get(s, "#bcbd22") for s in statuses]
    # every row labelled and each label whole (Vega-Lite drops labels it finds overlapping
    # and cuts them at 180 px by default)
    base = alt.Chart(timeline).encode(
        y=alt.Y(
            "label:N",
            sort=alt.EncodingSortField("date", op="min"),
            title=None,
            axis=alt.Axis(labelOverlap=False, labelLimit=360),
        )
    )
    rule = base.mark_rule(color="#999").encode(x="min(date):T", x2="max(date):T")
    points = base.mark_point(filled=True, size=80).encode(
        # a tick every six months, named by month and year: with yearly ticks a list spanning
        # two years had a single tick ("2025") to read its dates by
        x=alt.X(
            "date:T",
            title="In-service date",
            axis=alt.Axis(format="%b %Y", tickCount={"interval": "month", "step": 6}),
        ),
        # the legends under the chart, wrapping into columns, so neither is clipped at 1280 px
        color=alt.Color(
            "status:N",
            title="Status",
            scale=alt.Scale(domain=statuses, range=colours),
            legend=alt.Legend(orient="bottom", direction="horizontal", columns=3),
        ),
        shape=alt.Shape(
            "which:N", title="Date", legend=alt.Legend(orient="bottom", direction="vertical")
        ),
        tooltip=[
            alt.Tooltip("label:N", title="Project"),
            alt.Tooltip("which:N", title="Date"),
            alt.Tooltip("date:T", title="On", format="%Y-%m-%d"),
            alt.Tooltip("status:N", title="Status"),
            alt.Tooltip("kV:Q", title="kV"),
        ],
    )
    rows = timeline["label"].nunique()
    return (rule + points).properties(
        title="In-service dates by project", height=max(120, 22 * rows)
    )


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
