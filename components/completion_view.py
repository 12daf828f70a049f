"""How the queue near a site has ended: completion by entry cohort and the months to operation.

Drawn from the `/v1/queue-history/completion` extension (`data.queue_completion`) for the
counties within the surroundings' radius of the site, one fuel or all. The service counts
every project once by its final word and works out the Kaplan-Meier curves; this module
only draws them: a stacked bar per cohort with its counts, the curves as steps, the medians
in words, and the projects behind every figure.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import streamlit as st

from components import charts, data, glossary
from components.connection import ConnectionKey
from components.problems import show_problem
from components.surroundings_changes import cell_text
from components.tables import mw_column, records_frame, show_folded, show_table
from components.text import escape_markdown
from gridclient import APIStatusError, CompletionGroup, QueueCompletion, SurvivalCurve

COMPLETION_PATH = "/v1/queue-history/completion"
# the session-state keys of the fuel chosen and of the projects' fold
FUEL_KEY = "completion.fuel"
PROJECTS_OPEN_KEY = "completion.projects.open"
# The fold's label stays the same whatever the counts: a label that changed would give the
# expander another identity, folding it again at each fuel or radius.
PROJECTS_LABEL = "Show the projects behind these figures, each with its queue record"
# a project's queue id, linked to the queue page that opens its record
QUEUE_ID = st.column_config.LinkColumn("Queue id", display_text=r"project=(.*)$")
ALL_FUELS = "All fuels"
# each outcome's words, in the order the bars stack them
OUTCOMES = {
    "reached_operation": "Reached commercial operation",
    "dropped_out": "Dropped out (inactive or cancelled)",
    "still_queued": "Still queued",
    "left_unstated": "Left the queue, no outcome stated",
}
# each outcome's colour: built green, dropped red, still waiting grey-blue, unknown pale grey
OUTCOME_COLOURS = dict(
    zip(OUTCOMES.values(), ("#2e7d32", "#c62828", "#78909c", "#cfd8dc"), strict=True)
)
OUTCOME_WORDS = {
    "reachedOperation": OUTCOMES["reached_operation"],
    "droppedOut": OUTCOMES["dropped_out"],
    "stillQueued": OUTCOMES["still_queued"],
    "leftUnstated": OUTCOMES["left_unstated"],
}
# where each curve starts counting
CURVES = {
    "entry": "From entering the queue",
    "interconnection_agreement": "From the IA signed",
    "notice_to_proceed": "From security and notice to proceed",
}


def month_words(month: str | None) -> str:
    """Return a report month (`2024-09`) as a reader says it: `September 2024`."""
    if not month:
        return ""
    try:
        return dt.date.fromisoformat(f"{month}-01").strftime("%B %Y")
    except ValueError:
        return month


def cohort_label(cohort: str | None, completion: QueueCompletion) -> str:
    """Return an entry cohort in words: `Entered 2024`, or, for the projects already queued
    in the first harvested report, when that was."""
    first = completion.window.first_month if completion.window else None
    if first and cohort == f"by {first}":
        return f"Already queued in {month_words(first)}"
    return f"Entered {cohort}"


def _cohort_order(group: CompletionGroup) -> tuple[bool, str]:
    # the projects already queued in the first report entered before every dated cohort
    return (not str(group.cohort).startswith("by "), str(group.cohort))


def cohort_frame(completion: QueueCompletion) -> pd.DataFrame:
    """Return one row per cohort and outcome: the count, its share in words, the cohort's
    total (what the bars and their labels draw)."""
    rows = []
    for group in sorted(completion.by_cohort, key=_cohort_order):
        label = cohort_label(group.cohort, completion)
        total = group.projects or 0
        for name, words in OUTCOMES.items():
            part = getattr(group, name)
            rows.append(
                {
                    "cohort": label,
                    "outcome": words,
                    "count": (part.count if part else 0) or 0,
                    "share": f"{(part.share if part else 0) or 0:.0%}",
                    "total": total,
                    "totalText": f"{total:,} projects",
                }
            )
    return pd.DataFrame(rows)


def curve_frame(completion: QueueCompletion) -> pd.DataFrame:
    """Return the steps of every curve with projects, each starting at month 0 with every
    project still followed and none in operation."""
    rows = []
    for name, label in CURVES.items():
        curve = getattr(completion.time_to_operation, name, None)
        if not curve or not curve.projects:
            continue
        rows.append(
            {"curve": label, "months": 0, "notYetOperating": 1.0, "atRisk": curve.projects}
            | {"events": 0, "censored": 0}
        )
        rows += [
            {
                "curve": label,
                "months": step.months,
                "notYetOperating": step.not_yet_operating,
                "atRisk": step.at_risk,
                "events": step.events,
                "censored": step.censored,
            }
            for step in curve.steps
        ]
    return pd.DataFrame(rows)


def median_sentence(label: str, curve: SurvivalCurve | None) -> str:
    """Return a curve's median in words, with the projects it follows and those censored."""
    if not curve or not curve.projects:
        return f"{label}: no project's start is dated in the reports."
    counted = (
        f"{curve.projects:,} projects followed, {curve.reached_operation or 0:,} reached "
        f"operation, {curve.censored or 0:,} censored (still queued, or gone without reaching "
        "operation)"
    )
    if curve.median_months is not None:
        return (
            f"{label}: half reached commercial operation within {curve.median_months:,} "
            f"months ({counted})."
        )
    longest = max((step.months or 0 for step in curve.steps), default=0)
    return (
        f"{label}: fewer than half reached commercial operation in the {longest:,} months "
        f"the reports follow them, so there is no median yet ({counted})."
    )


def headline(completion: QueueCompletion, radius_km: float) -> str:
    """Return the answer's headline: the projects queued in reach and how they ended."""
    group = completion.all or CompletionGroup()

    def count(name: str) -> int:
        part = getattr(group, name)
        return (part.count if part else 0) or 0

    market = completion.market or "the operator"
    return (
        f"**Of {group.projects or 0:,} projects {market}'s monthly reports queued within "
        f"{radius_km:g} km, {count('reached_operation'):,} reached commercial operation, "
        f"{count('dropped_out'):,} dropped out and {count('still_queued'):,} are still "
        f"queued**; {count('left_unstated'):,} left with no outcome stated."
    )


def basis_caption(completion: QueueCompletion) -> str:
    """Return what the figures are: historical, from which reports, as of when, and how."""
    window = completion.window
    reports = (window.reports if window else None) or 0
    span = (
        f"{month_words(window.first_month)} to {month_words(window.last_month)}" if window else ""
    )
    return (
        f"A historical figure, not a forecast: {reports:,} monthly reports of "
        f"{completion.market or 'the'} generation interconnection queue ({span}); data as of "
        f"{completion.as_of or 'an unstated date'}. The queue history covers ERCOT only."
    )


def project_frame(completion: QueueCompletion) -> pd.DataFrame:
    """Return the projects behind the figures: outcome, its month, and the cell they cite."""
    return records_frame(
        completion.projects,
        {
            "Queue id": lambda p: f"queue?project={p.project_id}",
            "Project": "project_name",
            "County": "county",
            "Fuel": lambda p: glossary.label("fuel", p.fuel),
            "MW": "capacity_mw",
            "Entered": lambda p: cohort_label(p.cohort, completion),
            "Furthest step": lambda p: glossary.label("firmness", p.phase_reached),
            "Outcome": lambda p: OUTCOME_WORDS.get(p.outcome or "", p.outcome),
            "Final word": lambda p: month_words(p.outcome_month),
            "Cited cell": lambda p: cell_text(p.source),
        },
    )


def completion_of_fuel(
    conn: ConnectionKey, point: tuple[float, float], radius_km: float
) -> QueueCompletion:
    """Draw the fuel choice (every fuel the reports queue in reach); return the completion of
    the fuel chosen, or of every fuel."""
    whole = data.queue_completion(conn, *point, radius_km, None)
    codes = [group.fuel for group in whole.by_fuel if group.fuel]
    counts = {group.fuel: group.projects or 0 for group in whole.by_fuel}
    chosen = st.selectbox(
        "Fuel",
        [ALL_FUELS, *codes],
        key=FUEL_KEY,
        format_func=lambda code: (
            code if code == ALL_FUELS else f"{glossary.label('fuel', code)} ({counts[code]:,})"
        ),
    )
    if chosen in (None, ALL_FUELS):
        return whole
    return data.queue_completion(conn, *point, radius_km, chosen)


def draw_completion(
    conn: ConnectionKey, point: tuple[float, float] | None, radius_km: float
) -> None:
    """Draw "How the queue here has ended" for the counties within `radius_km` of the site,
    or say why it cannot be drawn."""
    st.subheader("How the queue here has ended", anchor=False)
    if point is None:
        st.info("This assessment names no site location, so the queue's history is not shown.")
        return
    if not data.capabilities(conn).supports("get", COMPLETION_PATH):
        st.info("This deployment does not offer the queue's history, so it is not shown here.")
        return
    try:
        completion = completion_of_fuel(conn, point, radius_km)
    except APIStatusError as exc:
        if exc.code == "no_queue_history":
            st.info(
                f"The queue history covers ERCOT only, and no ERCOT monthly report queues a "
                f"project within {radius_km:g} km of this site: there is no history to show."
            )
        else:
            show_problem(exc)
        return
    st.markdown(headline(completion, radius_km))
    st.caption(escape_markdown(basis_caption(completion)))
    st.altair_chart(
        charts.stacked_counts(
            cohort_frame(completion),
            category="cohort",
            series=OUTCOME_COLOURS,
            title="How each entry year's projects ended",
            unit="Projects",
        ),
        width="stretch",
    )
    curves = curve_frame(completion)
    if not curves.empty:
        st.altair_chart(
            charts.survival(
                curves, order=list(CURVES.values()), title="Months to commercial operation"
            ),
            width="stretch",
        )
    for name, label in CURVES.items():
        st.caption(
            escape_markdown(median_sentence(label, getattr(completion.time_to_operation, name)))
        )
    st.caption(escape_markdown(glossary.plain(completion.basis or "")))
    show_folded(
        PROJECTS_LABEL,
        PROJECTS_OPEN_KEY,
        lambda: draw_projects(completion),
    )


def draw_projects(completion: QueueCompletion) -> None:
    """Draw the projects behind the figures, each linked to its queue record."""
    st.caption(f"{len(completion.projects):,} projects; a queue id opens its record and timeline.")
    config: dict[str, Any] = {"Queue id": QUEUE_ID, "MW": mw_column("Capacity")}
    show_table(project_frame(completion), hide_index=True, column_config=config, width="stretch")
