"""Risks and next actions: plain sentences built from the factor outcomes and their numbers."""

from __future__ import annotations

from gridservice.screening.factors import queue_summary
from gridservice.screening.outcomes import Context, Outcome, count, county_label, mw, number

STUDY_ACTION = (
    "Ask the serving utility for a load interconnection study (load flow and facility "
    "study); this screening does not assess capacity."
)


def risks(ctx: Context, outcomes: list[Outcome]) -> list[str]:
    """Return the risks: each medium or high finding, and what a missing datum leaves open."""
    by_factor = {o.factor: o for o in outcomes}
    found: list[str] = []
    if ctx.county is None:
        found.append(
            "The point lies outside every loaded county, so no territory, queue or transmission "
            "data could be matched to it."
        )
    elif by_factor["service_territory"].abstained:
        found.append(
            f"No loaded utility territory covers {county_label(ctx.county)}; the serving "
            "utility, and so the whole service path, is unknown."
        )
    for outcome in outcomes:
        if not outcome.abstained and outcome.severity in ("high", "medium"):
            found.append(
                f"{outcome.severity.capitalize()} {outcome.factor.replace('_', ' ')} friction: {outcome.finding}"
            )
    return found


def next_actions(ctx: Context, outcomes: list[Outcome], utilities: list[dict]) -> list[str]:
    """Return the next actions a site developer can take, most basic first."""
    by_factor = {o.factor: o for o in outcomes}
    peak = number(ctx.site.get("requestedPeakLoadMw")) or 0.0
    actions: list[str] = []
    if ctx.county is None:
        actions.append(
            "Check the site's coordinates: they fall outside every county loaded in the data."
        )
    elif not utilities:
        actions.append(
            f"Identify the utility serving {county_label(ctx.county)}: no loaded territory covers it."
        )
    elif len(utilities) == 1:
        actions.append(
            f"Contact {utilities[0]['utility']} to confirm it serves the point and to open a "
            f"large-load service request for {mw(peak)}."
        )
    else:
        names = ", ".join(u["utility"] for u in utilities)
        actions.append(
            f"Ask each of the {len(utilities)} overlapping utilities ({names}) which one serves "
            "the point before requesting service."
        )
    if utilities:
        actions.append(
            "Confirm the applicable tariff schedule with the utility; the tariff candidates "
            "listed are derived from the site's size and voltage, not matched to an approved tariff."
        )
    queue = by_factor["queue_congestion"]
    if not queue.abstained and ctx.county is not None:
        summary = queue_summary(ctx.county_queue)
        actions.append(
            f"Review the {count(summary['active'], 'active queue request')} ({mw(summary['activeMw'])}) in "
            f"{county_label(ctx.county)} for projects that may share the site's point of interconnection."
        )
    transmission = by_factor["transmission"]
    if not transmission.abstained and transmission.severity != "low":
        actions.append(
            "Check with their owners the in-service dates and voltage of the "
            f"{count(len(transmission.citations), 'listed transmission project')} against the site's needs."
        )
    load = by_factor["load_scale"]
    if not load.abstained and load.severity == "high" and "red flag" in (load.finding or ""):
        actions.append(
            f"Revisit the service voltage: {mw(peak)} at {ctx.site.get('serviceVoltageKv')} kV is "
            "unlikely to be offered; plan for a transmission-level substation."
        )
    timeline = by_factor["timeline"]
    if not timeline.abstained and timeline.severity != "low":
        actions.append(
            "Plan for a later in-service date or phase the load: the target leaves less time than "
            "utility studies and construction typically take."
        )
    actions.append(STUDY_ACTION)
    return actions
