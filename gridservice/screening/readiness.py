"""An assessment's readiness: its factors' severities weighed into one friction score and a
level, local factors counting more than market-wide ones (docs/SCREENING.md).

The market's supply margin (`market_adequacy`) is read from the market's forecasts: every
site of ERCOT gets the same finding. Weighed as much as the factors of the site itself, it
decided the level of every ERCOT site alike ("high friction" for Abilene and Odessa both), so
it counts for less, and the readiness says so.
"""

from __future__ import annotations

from typing import Any

from gridservice.screening.outcomes import Outcome

# What each factor describes: the site's own surroundings and request, or its whole market.
LOCAL, MARKET_WIDE = "local", "market_wide"
FACTOR_SCOPES = {
    "service_territory": LOCAL,
    "queue_congestion": LOCAL,
    "transmission": LOCAL,
    "market_adequacy": MARKET_WIDE,
    "load_scale": LOCAL,
    "timeline": LOCAL,
}
# A factor's weight in the friction score. The queue near the site weighs most (requests that
# compete for the same substations and studies); who serves the point and the lines planned
# around it next; the site's own request (size and voltage, date) less, being the same
# wherever the site is put; the market's supply margin least, being the same for every site of
# its market and so unable to tell two of them apart.
FACTOR_WEIGHTS = {
    "queue_congestion": 1.0,
    "service_territory": 0.8,
    "transmission": 0.8,
    "load_scale": 0.6,
    "timeline": 0.6,
    "market_adequacy": 0.3,
}
SEVERITY_POINTS = {"low": 0.0, "medium": 0.5, "high": 1.0}
# The friction score at which the level becomes moderate / high.
MODERATE_SCORE = 0.25
HIGH_SCORE = 0.5
# Fewer findings than this (or no county) and the data is too thin for a level.
MIN_FINDINGS = 3
LEVELS = ("low_friction", "moderate_friction", "high_friction")


def factor_weight(factor: str) -> float:
    """Return the weight of `factor` in the friction score (a full local weight by default)."""
    return FACTOR_WEIGHTS.get(factor, 1.0)


def finding_points(finding: Outcome) -> float:
    """Return a finding's friction from 0 to 1: its own measure where it has one (the queue's
    MW), else its severity's (0 low, 0.5 medium, 1 high)."""
    return finding.points if finding.points is not None else SEVERITY_POINTS[finding.severity]


def friction_score(findings: list[Outcome]) -> float:
    """Return the weighted mean of the findings' points (`finding_points`), 0 to 1."""
    weights = [factor_weight(o.factor) for o in findings]
    points = sum(w * finding_points(o) for w, o in zip(weights, findings, strict=True))
    return round(points / sum(weights), 2) if weights else 0.0


def level_of(findings: list[Outcome], score: float) -> str:
    """Return the level the friction score reaches; a local factor at high friction keeps it
    at moderate or above, so one red flag at the site is never averaged away."""
    level = 2 if score >= HIGH_SCORE else 1 if score >= MODERATE_SCORE else 0
    local_high = any(
        o.severity == "high" and FACTOR_SCOPES.get(o.factor, LOCAL) == LOCAL for o in findings
    )
    return LEVELS[max(level, 1) if local_high else level]


def weights_wire(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """Return each factor's scope and weight, its severity and points (null when abstained)."""
    return [
        {
            "factor": o.factor,
            "scope": FACTOR_SCOPES.get(o.factor, LOCAL),
            "weight": factor_weight(o.factor),
            "severity": o.severity,
            "points": None if o.abstained else finding_points(o),
        }
        for o in outcomes
    ]


def weighing_sentence(outcomes: list[Outcome]) -> str:
    """Return how the level was weighed, naming the market-wide factors the assessment has."""
    market_wide = [
        o.factor
        for o in outcomes
        if FACTOR_SCOPES.get(o.factor, LOCAL) == MARKET_WIDE and not o.abstained
    ]
    if not market_wide:
        return " Weighed on the site's local factors, the queue near it most."
    named = " and ".join(f.replace("_", " ") for f in market_wide)
    weight = min(factor_weight(f) for f in market_wide)
    return (
        f" Weighed on the site's local factors, the queue near it most; {named}, the same for "
        f"every site of the market, counts {weight:g} against the queue's "
        f"{factor_weight('queue_congestion'):g}."
    )


def readiness(outcomes: list[Outcome], county: dict | None, limitations: list[str]) -> dict:
    """Return the wire `readiness`: level, friction score and weights, summary, findings,
    abstentions and limitations."""
    findings = [o for o in outcomes if not o.abstained]
    abstentions = [o for o in outcomes if o.abstained]
    score = friction_score(findings)
    if county is None or len(findings) < MIN_FINDINGS:
        level = "insufficient_data"
    else:
        level = level_of(findings, score)
    by_severity = {
        s: [o.factor for o in findings if o.severity == s] for s in ("high", "medium", "low")
    }
    parts = [f"{len(v)} {s} ({', '.join(v)})" for s, v in by_severity.items() if v]
    weighed = f" Friction score {score:.2f} of 1." + weighing_sentence(outcomes) if findings else ""
    summary = (
        f"{level.replace('_', ' ').capitalize()}: findings on {len(findings)} of "
        f"{len(outcomes)} factors"
        + (f" - {'; '.join(parts)}" if parts else "")
        + (f"; abstained on {', '.join(o.factor for o in abstentions)}" if abstentions else "")
        + "."
        + weighed
        + " Non-capacity screening."
    )
    return {
        "level": level,
        "frictionScore": score if findings else None,
        "weights": weights_wire(outcomes),
        "summary": summary,
        "findings": [
            {
                "factor": o.factor,
                "severity": o.severity,
                "finding": o.finding,
                "citations": o.citations,
            }
            for o in findings
        ],
        "abstentions": [{"factor": o.factor, "reason": o.reason} for o in abstentions],
        "limitations": limitations,
    }
