"""The six friction factors: each gives a finding (with citations) or an abstention.

Every rule here is a screening heuristic, written down in docs/SCREENING.md. None of them
estimates capacity: they say what the loaded records show and what could slow a site down.
"""

from __future__ import annotations

import statistics
from typing import Any

from gridservice.catalogue import queue_status
from gridservice.screening.history_findings import (
    change_sentence,
    cod_slip_sentence,
    firmness_sentence,
    likely_build_sentence,
    months_to_cod_sentence,
)
from gridservice.screening.market import market_adequacy
from gridservice.screening.outcomes import (
    MAX_CITATIONS,
    SEVERITY_ORDER,
    Context,
    Outcome,
    abstain,
    count,
    county_label,
    kv,
    months_between,
    mw,
    number,
    parse_date,
)
from gridservice.screening.territory import is_county_listing
from gridservice.screening.territory_polygons import is_polygon, polygon_finding

__all__ = ["FACTORS", "RULES", "SEVERITY_ORDER", "evaluate", "is_active", "queue_summary"]

FACTORS = (
    "service_territory",
    "queue_congestion",
    "transmission",
    "market_adequacy",
    "load_scale",
    "timeline",
)

# Active queued MW in the site's county at which queue congestion becomes medium / high.
QUEUE_MEDIUM_MW = 1_000.0
QUEUE_HIGH_MW = 5_000.0
# Peak load at which a load usually gets a separate large-load review (ERCOT uses 75 MW).
LARGE_LOAD_MW = 75.0
VERY_LARGE_LOAD_MW = 300.0
DONE_WORDS = ("complete", "in service", "in-service", "energized", "operational")
CANCELLED_WORDS = ("cancel", "withdrawn", "terminated")

# --- service territory -------------------------------------------------------------------


def service_territory(ctx: Context) -> Outcome:
    factor = "service_territory"
    if ctx.county is None:
        return abstain(
            factor, "The point lies in no loaded county, so no territory can be resolved."
        )
    if not ctx.candidates:
        return abstain(
            factor,
            f"No loaded service territory covers {county_label(ctx.county)}; the serving "
            "utility is unknown from this data.",
        )
    ids = [c["evidence"]["territoryId"] for c in ctx.candidates]
    names = [f"{c['utility']} ({c['confidence']:.2f})" for c in ctx.candidates]
    if any(is_polygon(c) for c in ctx.candidates):
        return Outcome(factor, *polygon_finding(ctx.candidates, county_label(ctx.county)), ids)
    if all(is_county_listing(c) for c in ctx.candidates):
        return _county_listing_outcome(ctx, names, ids)
    if len(ctx.candidates) == 1:
        return Outcome(
            factor,
            "low",
            f"One utility territory covers {county_label(ctx.county)}: {names[0]}.",
            ids,
        )
    return Outcome(
        factor,
        "medium",
        f"{len(ctx.candidates)} utility territories overlap in {county_label(ctx.county)} "
        f"(dual certification): {', '.join(names)}. Which one serves the site must be confirmed.",
        ids,
    )


def _county_listing_outcome(ctx: Context, names: list[str], ids: list[str]) -> Outcome:
    """County listings say a utility serves part of a county, never which part."""
    where = county_label(ctx.county)
    if len(names) == 1:
        return Outcome(
            "service_territory",
            "low",
            f"One utility lists {where} in its reported service territory: {names[0]}. The "
            "listing is a county, not a boundary, so that it serves the point itself must be "
            "confirmed.",
            ids,
        )
    return Outcome(
        "service_territory",
        "medium",
        f"{len(names)} utilities list {where} in their reported service territories: "
        f"{', '.join(names)}. These are county listings, not territory polygons, so the data "
        "cannot say which of them serves the point; it must be confirmed with each.",
        ids,
    )


# --- queue congestion --------------------------------------------------------------------


def is_active(entry: dict) -> bool:
    """Return True when the entry's record counts as active now (`queue_status` rule)."""
    return queue_status.counts_as_active(entry["record"])


def queue_summary(entries: list[dict]) -> dict[str, Any]:
    """Count active records and their positive requested MW (dirty values left out)."""
    active = [e["record"] for e in entries if is_active(e)]
    capacities = [number(r.get("requestedCapacityMw")) for r in active]
    positive = [c for c in capacities if c is not None and c > 0]
    return {
        "total": len(entries),
        "active": len(active),
        "activeMw": sum(positive),
        "activeWithoutCapacity": len(active) - len(positive),
        "activeIds": [r["id"] for r in active],
        "noLongerActive": [
            e["record"] for e in entries if queue_status.disagrees(e["record"]) and not is_active(e)
        ],
    }


def queue_congestion(ctx: Context) -> Outcome:
    factor = "queue_congestion"
    if ctx.county is None:
        return abstain(
            factor, "The point lies in no loaded county, so no queue records can be matched."
        )
    if not ctx.county_queue:
        context = (
            f" {len(ctx.nearby_queue)} records from neighbouring or same-state counties are listed "
            "for context only."
            if ctx.nearby_queue
            else ""
        )
        if ctx.county["state"] not in ctx.queue_states:
            loaded = ", ".join(ctx.queue_states) or "no state"
            context = (
                f" The loaded queue data covers {loaded} only, so this is a gap in the data, "
                "not a sign of an empty queue." + context
            )
        return abstain(
            factor,
            f"No interconnection queue records are loaded for {county_label(ctx.county)}.{context}",
        )
    summary = queue_summary(ctx.county_queue)
    active_mw = summary["activeMw"]
    severity = (
        "high"
        if active_mw >= QUEUE_HIGH_MW
        else "medium"
        if active_mw >= QUEUE_MEDIUM_MW
        else "low"
    )
    text = (
        f"{count(summary['active'], 'active queue request')} totalling {mw(active_mw)} in "
        f"{county_label(ctx.county)} ({count(summary['total'], 'queue record')} in the county in all)."
    )
    if summary["activeWithoutCapacity"]:
        missing = count(summary["activeWithoutCapacity"], "active record")
        text += f" {missing} with no positive requested capacity left out of the total."
    text += _no_longer_active_text(summary["noLongerActive"])
    cited = summary["activeIds"] or [e["record"]["id"] for e in ctx.county_queue]
    if ctx.duplicate_queue:
        dropped = count(len(ctx.duplicate_queue), "record")
        text += (
            f" {dropped} of a second source describing the same request (same queue id) "
            "counted once (the operator's own report preferred)."
        )
    if len(cited) > MAX_CITATIONS:
        text += f" The first {MAX_CITATIONS} are cited."
    if ctx.queue_history:
        text += firmness_sentence(ctx.queue_history) + change_sentence(ctx.queue_history)
        text += likely_build_sentence(ctx.queue_history)
    return Outcome(factor, severity, text, cited[:MAX_CITATIONS], points=queue_points(active_mw))


def queue_points(active_mw: float) -> float:
    """Return the queue's friction from 0 to 1: 0.5 at the medium threshold, 1 at the high
    one, straight between (two counties of one severity still differ by their MW)."""
    if active_mw < QUEUE_MEDIUM_MW:
        return round(0.5 * active_mw / QUEUE_MEDIUM_MW, 3)
    share = (active_mw - QUEUE_MEDIUM_MW) / (QUEUE_HIGH_MW - QUEUE_MEDIUM_MW)
    return round(min(1.0, 0.5 + 0.5 * share), 3)


def _no_longer_active_text(records: list[dict]) -> str:
    """Say which records an older source lists as active but a newer report does not."""
    if not records:
        return ""
    named = "; ".join(
        f"{r.get('projectName') or r['id']} ({r.get('recordKey')}), "
        f"{queue_status.describe(r['statusNow'])}"
        for r in records[:MAX_CITATIONS]
    )
    return (
        f" Not counted: {count(len(records), 'record')} an older source lists as active "
        f"but a newer report does not: {named}."
    )


# --- transmission ------------------------------------------------------------------------


def _project_state(project: dict) -> str:
    status = str(project.get("status") or "").lower()
    if any(w in status for w in CANCELLED_WORDS):
        return "cancelled"
    if project.get("actualInServiceDate") or any(w in status for w in DONE_WORDS):
        return "done"
    return "planned"


def transmission(ctx: Context) -> Outcome:
    factor = "transmission"
    if ctx.county is None:
        return abstain(
            factor,
            "The point lies in no loaded county, so no transmission projects can be matched.",
        )
    if not ctx.transmission_loaded:
        return abstain(
            factor,
            "No transmission project list (such as ERCOT's TPIT or RPG lists) is loaded in this "
            "store: planned lines and upgrades near the site are unknown.",
        )
    live = [p for p in ctx.projects if _project_state(p) != "cancelled"]
    if not live:
        return abstain(
            factor,
            f"No transmission projects in the data list {county_label(ctx.county)}; that says "
            "nothing either way about existing lines.",
        )
    voltages = [v for v in (number(p.get("serviceLevelKv")) for p in live) if v is not None]
    planned = [p for p in live if _project_state(p) == "planned"]
    target = parse_date(ctx.site.get("targetInServiceDate"))
    late = [
        p
        for p in planned
        if target is not None
        and (d := parse_date(p.get("projectedInServiceDate"))) is not None
        and d > target
    ]
    peak = number(ctx.site.get("requestedPeakLoadMw")) or 0.0
    max_kv = max(voltages) if voltages else None
    text = (
        f"The data lists {count(len(live), 'transmission project')} in {county_label(ctx.county)} "
        f"({len(planned)} not yet in service)"
        + (f", up to {kv(max_kv)}." if max_kv is not None else ".")
    )
    severity = "low"
    if late:
        severity = "medium"
        text += (
            f" {count(len(late), 'planned project is', 'planned projects are')} projected in service after the site's target date "
            f"{ctx.site['targetInServiceDate']}."
        )
    if peak > 50 and max_kv is not None and max_kv < 100:
        severity = "high" if severity == "medium" else "medium"
        text += f" None listed is at 100 kV or above, which a {mw(peak)} load usually needs."
    return Outcome(factor, severity, text, [p["id"] for p in live][:MAX_CITATIONS])


# --- load scale --------------------------------------------------------------------------


def _voltage_class(kv_value: float) -> int:
    """0 distribution, 1 sub-transmission (60-99 kV), 2 transmission (100-199), 3 EHV."""
    return 0 if kv_value < 60 else 1 if kv_value < 100 else 2 if kv_value < 200 else 3


def _needed_class(peak: float) -> int:
    return 0 if peak <= 10 else 1 if peak <= 50 else 2 if peak <= VERY_LARGE_LOAD_MW else 3


CLASS_NAMES = ("distribution (below 60 kV)", "69 kV class", "138 kV class", "230 kV and above")


def load_scale(ctx: Context) -> Outcome:
    factor = "load_scale"
    peak = number(ctx.site.get("requestedPeakLoadMw"))
    if peak is None:
        return abstain(factor, "The site gives no requested peak load.")
    severity = "low" if peak < LARGE_LOAD_MW else "medium" if peak < VERY_LARGE_LOAD_MW else "high"
    text = f"Requested peak load {mw(peak)}"
    voltage = number(ctx.site.get("serviceVoltageKv"))
    needed = _needed_class(peak)
    if voltage is None:
        text += f"; no service voltage given (a load this size is usually served at {CLASS_NAMES[needed]})."
    else:
        gap = needed - _voltage_class(voltage)
        text += f" at {kv(voltage)}"
        if gap >= 2:
            severity = "high"
            text += f": a red flag, a load this size is usually served at {CLASS_NAMES[needed]}."
        elif gap == 1:
            severity = max(severity, "medium", key=SEVERITY_ORDER.__getitem__)
            text += f": below the {CLASS_NAMES[needed]} a load this size is usually served at."
        else:
            text += ", a voltage class consistent with the load."
    if peak >= LARGE_LOAD_MW:
        text += f" At {mw(LARGE_LOAD_MW)} or more a separate large-load review is common."
    curtailable = number(ctx.site.get("curtailableMw"))
    if curtailable:
        text += f" {mw(curtailable)} is declared curtailable, which can ease a utility's review."
    return Outcome(factor, severity, text, [])


# --- timeline ----------------------------------------------------------------------------


def _typical_months(peak: float) -> int:
    return 12 if peak < 20 else 24 if peak < LARGE_LOAD_MW else 36


def _queue_durations(entries: list[dict]) -> list[tuple[int, str]]:
    durations = []
    for e in entries:
        details = e.get("details") or {}
        start = parse_date(details.get("queueDate"))
        end = parse_date(details.get("onlineDate"))
        if start and end and end >= start:
            durations.append((months_between(start, end), e["record"]["id"]))
    return durations


def timeline(ctx: Context) -> Outcome:
    factor = "timeline"
    target = parse_date(ctx.site.get("targetInServiceDate"))
    if target is None:
        return abstain(factor, "The site gives no target in-service date.")
    as_of = parse_date(ctx.as_of)
    if as_of is None:
        return abstain(factor, "The data carries no as-of date to measure the timeline from.")
    peak = number(ctx.site.get("requestedPeakLoadMw")) or 0.0
    typical = _typical_months(peak)
    months = months_between(as_of, target)
    if months < 0:
        severity = "high"
        text = f"The target in-service date {target} is before the data's as-of date {as_of}."
    else:
        severity = "high" if months < typical / 2 else "medium" if months < typical else "low"
        text = (
            f"{months} months from the data's as-of date {as_of} to the target {target}; "
            f"utility studies and construction for a {mw(peak)} load typically take about "
            f"{typical} months."
        )
    durations = _queue_durations(ctx.relevant_queue)
    cited: list[str] = []
    if durations:
        median = statistics.median(d for d, _ in durations)
        text += (
            f" {count(len(durations), 'listed queue request')} that reached online took a median of "
            f"{median:.0f} months from their queue date."
        )
        cited = sorted(i for _, i in durations)[:MAX_CITATIONS]
    if ctx.queue_history:
        text += cod_slip_sentence(ctx.queue_history) + months_to_cod_sentence(ctx.queue_history)
    return Outcome(factor, severity, text, cited)


RULES = (service_territory, queue_congestion, transmission, market_adequacy, load_scale, timeline)


def evaluate(ctx: Context) -> list[Outcome]:
    """Return one outcome per factor, in the order of FACTORS."""
    return [rule(ctx) for rule in RULES]
