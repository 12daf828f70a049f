"""Kaplan-Meier product-limit estimates of the months a project takes to reach operation.

A project that reached commercial operation is an event at its month; one still queued,
or one that left before reaching it, is censored at the last month it was seen. The
estimator is the textbook product limit (the one `lifelines.KaplanMeierFitter` fits; a
test compares the two): written here because the service answers a county in a few
milliseconds and importing lifelines (pandas, scipy, matplotlib) would cost seconds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any


def kaplan_meier(durations: Iterable[tuple[int, bool]]) -> list[dict[str, Any]]:
    """Return the survival curve of (months, reached operation) pairs: one step per month
    with an event or a censoring, each with the projects at risk, events, censored and the
    share not yet in operation after that month."""
    observed = list(durations)
    events = Counter(months for months, event in observed if event)
    censored = Counter(months for months, event in observed if not event)
    at_risk = len(observed)
    survival = 1.0
    steps = []
    for months in sorted(set(events) | set(censored)):
        if events[months]:
            survival *= 1 - events[months] / at_risk
        steps.append(
            {
                "months": months,
                "atRisk": at_risk,
                "events": events[months],
                "censored": censored[months],
                "notYetOperating": round(survival, 6),
            }
        )
        at_risk -= events[months] + censored[months]
    return steps


def median_months(curve: list[dict[str, Any]]) -> int | None:
    """Return the first month at which half or more have reached operation (the curve at or
    below 0.5), or None when the curve never gets there."""
    return next((s["months"] for s in curve if s["notYetOperating"] <= 0.5), None)
