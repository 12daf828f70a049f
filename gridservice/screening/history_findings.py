"""What the queue and timeline findings add from the harvested monthly reports: how firm the
county's queue is, and how it moved over the twelve months before the newest report.

The sentences name the reports they read; `queueHistory` in the assessment cites every
project's source cell (and both cells of each change).
"""

from __future__ import annotations

import statistics

from gridservice.screening.outcomes import count, months_between, mw, parse_date


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
