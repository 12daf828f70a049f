"""The change tables of "Grid around the site": projects that entered, left or changed
between two harvested reports, each row citing its source cells and linking to the project's
queue record (named by the service). The surroundings carry the first projects of each list;
a table that shows fewer than there are says "showing N of M" and lists all on request.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st

from components import glossary
from components.tables import show_folded, show_tabbed, show_table
from gridclient import QueueChanges, QueueProject, SiteSurroundings, SourceCell

RECORD = st.column_config.LinkColumn("Record", display_text=r"record=(.*)$")
MONTH_KEYS = ("surroundings.from", "surroundings.to")
CHANGE_LISTS = ("entered", "left", "changed")
# the session-state key of the change list shown (its tab's label)
CHANGE_TAB_KEY = "surroundings.changes.tab"
# the session-state key holding whether the change tables' expander is open
CHANGES_OPEN_KEY = "surroundings.changes.open"
# set when the reader picks another report month: the page's next run fetches the section again
MONTHS_PICKED_KEY = "surroundings.months.picked"


def cell_text(cell: SourceCell | None) -> str:
    """Return a source cell as `file#'sheet'!A12 (column)`, or "" when there is none."""
    if cell is None:
        return ""
    where = cell.source_locator or f"{cell.file_name} {cell.worksheet} row {cell.row}"
    return f"{where} ({cell.column})" if cell.column else where


def project_row(project: QueueProject) -> dict[str, Any]:
    project_id = str(project.project_id or "")
    return {
        "Project id": project_id,
        "Record": f"queue?record={project.record_id}" if project.record_id else None,
        "Project": project.project_name,
        "County": project.county,
        "Fuel": glossary.label_with_code("fuel", project.fuel),
        "MW": project.capacity_mw,
    }


def change_frame(name: str, projects: list[Any]) -> pd.DataFrame:
    """Return the table of one change list ("entered", "left", "changed"), each row with
    both source cells (a changed project has a row per changed value)."""
    if name == "entered":
        rows = [
            {
                **project_row(p),
                "Entered as": p.entered_as,
                "From cell": cell_text(p.from_cell),
                "To cell": cell_text(p.to_cell),
            }
            for p in projects
        ]
    elif name == "left":
        rows = [
            {
                **project_row(p),
                "How it left": p.outcome,
                "Date": p.event_date,
                "From cell": cell_text(p.from_cell),
                "To cell": cell_text(p.to_cell),
            }
            for p in projects
        ]
    else:
        rows = [
            {
                **project_row(p),
                "Field": change.field,
                "From": str(change.from_value),
                "To": str(change.to),
                "From cell": cell_text(change.from_cell),
                "To cell": cell_text(change.to_cell),
            }
            for p in projects
            for change in p.changes
        ]
    return pd.DataFrame(rows)


def shown_of(changes: QueueChanges, name: str) -> tuple[int, int]:
    """Return (projects the answer lists, projects there are) of one change list."""
    listed = len(getattr(changes, name))
    page = changes.lists.get(name)
    return listed, (page.total if page and page.total is not None else listed)


def draw_changes(
    near: SiteSurroundings, every_project: Callable[[str], list[QueueProject]]
) -> None:
    changes = near.changes
    if changes is None:
        st.caption(
            "Only one queue report is harvested, so there is no change to show."
            if near.reports
            else "No monthly queue report names a county here, so there is no change to show."
        )
        return
    before = changes.from_report.report_month if changes.from_report else "?"
    after = changes.to.report_month if changes.to else "?"
    totals = {name: shown_of(changes, name)[1] for name in CHANGE_LISTS}
    st.markdown(
        f"**What changed between the {before} and {after} reports** "
        f"(location basis: {changes.location_basis or 'county'}): "
        f"{totals['entered']:,} entered, {totals['left']:,} left, "
        f"{totals['changed']:,} changed."
    )
    draw_change_tables(near, before, after, every_project)


def draw_change_tables(
    near: SiteSurroundings,
    before: str,
    after: str,
    every_project: Callable[[str], list[QueueProject]],
) -> None:
    """Draw the report months compared and the change lists (a tab each) folded at first
    (`tables.show_folded`: built only while open).

    Drawn open, they and the dropout tables (folded the same way) slowed the assessment's
    first drawing. Picking another month reruns the page, whose whole
    section is fetched for the months compared.
    """

    def draw() -> None:
        draw_month_choice(near, before, after)
        if st.session_state.pop(MONTHS_PICKED_KEY, False):
            st.rerun()  # the page, not this fragment: the section is fetched for the months
        show_tabbed(
            CHANGE_TAB_KEY,
            {
                name.capitalize(): functools.partial(
                    draw_change_list, near.changes, name, every_project
                )
                for name in CHANGE_LISTS
            },
        )

    show_folded(
        "Show the projects that entered, left or changed, with their source cells",
        CHANGES_OPEN_KEY,
        draw,
    )


def draw_change_list(
    changes: QueueChanges, name: str, every_project: Callable[[str], list[QueueProject]]
) -> None:
    """Draw one change list: the first projects the answer carries, or all on request."""
    listed, total = shown_of(changes, name)
    projects = getattr(changes, name)
    if listed < total:
        everything = st.toggle(
            f"List all {total:,}",
            key=f"surroundings.all.{name}",
            help="The service sends the first projects of each list; this reads the rest "
            "page by page.",
        )
        if everything:
            projects = every_project(name)
        else:
            st.caption(
                f"Showing {listed:,} of {total:,} projects {name} (the first by queue id); "
                "the counts above include all of them."
            )
    frame = change_frame(name, projects)
    if frame.empty:
        st.caption(f"No project {name}.")
    else:
        show_table(frame, hide_index=True, width="stretch", column_config={"Record": RECORD})


def report_months(near: SiteSurroundings) -> list[str]:
    """Return the harvested report months, oldest first."""
    return sorted({r.report_month for r in near.reports if r.report_month})


def draw_month_choice(near: SiteSurroundings, before: str, after: str) -> None:
    """Draw the two report months the change table compares; a change reruns the page
    (`months_picked`)."""
    months = report_months(near)
    if len(months) < 2 or before not in months or after not in months:
        return
    left, right = st.columns(2)
    for column, key, label, shown in (
        (left, MONTH_KEYS[0], "Changes from the report of", before),
        (right, MONTH_KEYS[1], "to the report of", after),
    ):
        column.selectbox(
            label,
            months,
            index=months.index(shown),
            key=key,
            on_change=months_picked,
            help="Harvested monthly queue reports; the default compares the newest with the "
            "one twelve months before it.",
        )


def months_picked() -> None:
    """Say the reader picked another report month (a picker's callback): the fragment that
    draws the pickers then reruns the page."""
    st.session_state[MONTHS_PICKED_KEY] = True
