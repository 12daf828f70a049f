"""What the queue and timeline findings add from the harvested monthly reports: how firm the
county's queue is, and how it moved over the twelve months before the newest report.

The sentences name the reports they read; `queueHistory` in the assessment cites every
project's source cell (and both cells of each change).
"""

from __future__ import annotations

import statistics

from gridservice.screening.outcomes import count, months_between, mw, parse_date
from gridservice.screening.queue_history import month_shift


def firmness_sentence(history: dict) -> str:
    """Return how much of the county's queue has signed an IA or posted security."""
    report = history["report"]
    grades = {g["firmness"]: g for g in history["byFirmness"]}
    parts = [
        f"{mw(grades['security_ntp']['mw'])} with financial security and notice to proceed "
        f"({grades['security_ntp']['projects']})",
        f"{mw(grades['ia_signed']['mw'])} more with an IA signed ({grades['ia_signed']['projects']})",
        f"{mw(grades['neither']['mw'])} with neither ({grades['neither']['projects']})",
    ]
    return (
        f" In the {report['market']} report of {report['reportMonth']} ({report['fileName']}) the "
        f"county has {count(history['activeProjects'], 'queued project')}, "
        f"{mw(history['activeMw'])}: {'; '.join(parts)}."
    )


def change_sentence(history: dict) -> str:
    """Return how many projects entered, left (and why) and changed since the earlier report."""
    changes = history.get("changes")
    if not changes:
        return " Only one monthly report is harvested, so no change can be measured."
    counts = changes["counts"]
    left_by = ", ".join(f"{n} {why}" for why, n in counts["leftBy"].items() if n)
    return (
        f" From {changes['from']['reportMonth']} to {changes['to']['reportMonth']}: "
        f"{counts['entered']} entered, {counts['left']} left"
        + (f" ({left_by})" if left_by else "")
        + f", {counts['changed']} changed MW, COD, phase or firmness (queueHistory lists "
        "the first of each, citing both source cells of each change)."
    )


def cod_slip_sentence(history: dict) -> str:
    """Return how far the county's projected CODs moved over the change window."""
    changes = history.get("changes")
    if not changes:
        return ""
    slips: list[int] = []
    for project in changes["changed"]:
        for change in project["changes"]:
            before, after = parse_date(change["from"]), parse_date(change["to"])
            if change["field"] == "projectedCod" and before and after:
                slips.append(months_between(before, after))
    later = [s for s in slips if s > 0]
    if not slips:
        return (
            f" No queued project in the county moved its projected COD between "
            f"{changes['from']['reportMonth']} and {changes['to']['reportMonth']}."
        )
    text = (
        f" Between {changes['from']['reportMonth']} and {changes['to']['reportMonth']}, "
        f"{len(slips)} of the county's queued projects changed their projected COD: "
        f"{len(later)} later"
    )
    if later:
        text += f" (median {statistics.median(later):.0f} months)"
    return text + f", {len(slips) - len(later)} earlier or within the month."


def likely_build_sentence(history: dict) -> str:
    """Return what the county's queue would build weighted by its history, and the flags."""
    completion = history.get("completion")
    if not completion or not completion["likelyToBuild"]["queuedMw"]:
        return ""
    likely = completion["likelyToBuild"]
    if likely["unweightedMw"] >= likely["queuedMw"]:
        text = (
            f" Too few of the county's projects of the same fuels have ended to weight the "
            f"{mw(likely['queuedMw'])} still queued by how often they reached commercial operation"
        )
    else:
        text = (
            f" Weighted by how often the county's ended projects of the same fuel and phase "
            f"reached commercial operation (a heuristic), the {mw(likely['queuedMw'])} still "
            f"queued would build about {mw(likely['weightedMw'])}"
        )
    if 0 < likely["unweightedMw"] < likely["queuedMw"]:
        text += f" ({mw(likely['unweightedMw'])} of fuels too few of which have ended left out)"
    synchronised, past = likely["synchronisedStillQueued"], likely["projectedCodPast"]
    if synchronised["projects"]:
        text += (
            f"; {count(synchronised['projects'], 'project')} ({mw(synchronised['mw'])}) approved "
            "for synchronisation are still listed queued"
        )
    if past["projects"]:
        text += (
            f"; {count(past['projects'], 'queued project')} ({mw(past['mw'])}) have a projected "
            f"COD before {completion['asOf']}"
        )
    return text + "."


def months_to_cod_sentence(history: dict) -> str:
    """Return the county's historical median months to commercial operation (Kaplan-Meier)
    and when a request entering at the data's as-of date would reach it at that median."""
    completion = history.get("completion")
    if not completion:
        return ""
    window = completion["window"]
    entry = completion["timeToOperation"]["entry"]
    agreement = completion["timeToOperation"]["interconnectionAgreement"]
    span = f"{window['reports']} monthly reports ({window['firstMonth']} to {window['lastMonth']})"
    if entry["medianMonths"] is None:
        return (
            f" In {span}, fewer than half of the county's {entry['projects']} projects measured "
            "from entry reached commercial operation, so the reports give no median months to COD."
        )
    reached = month_shift(completion["asOf"][:7], entry["medianMonths"])
    text = (
        f" In {span}, the county's projects took a median of {entry['medianMonths']} months from "
        f"entering the queue to commercial operation ({entry['reachedOperation']} of "
        f"{entry['projects']} measured reached it; Kaplan-Meier, projects still queued censored)"
    )
    if agreement["medianMonths"] is not None:
        text += f", {agreement['medianMonths']} from a signed IA"
    return text + f": a request entering at {completion['asOf']} would reach it around {reached}."
