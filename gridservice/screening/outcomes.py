"""What every factor rule shares: the gathered context, the outcome, number and date words."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

SEVERITY_ORDER = {"low": 0, "medium": 1, "high": 2}
MAX_CITATIONS = 25


@dataclass
class Context:
    """Everything the factors read, gathered once per screening."""

    site: dict[str, Any]
    county: dict | None
    candidates: list[dict]
    markets: list[str]
    facts: list[dict]
    county_queue: list[dict]
    nearby_queue: list[dict]
    relevant_queue: list[dict]
    projects: list[dict]
    as_of: str | None
    # County records dropped because another source's record describes the same request.
    duplicate_queue: list[dict] = field(default_factory=list)
    # States with any queue record loaded: says whether an empty county is a data gap.
    queue_states: list[str] = field(default_factory=list)
    # The county's queue in the harvested monthly reports: firmness and change (or None).
    queue_history: dict | None = None
    # Whether the store holds any transmission project list: says whether none in the county
    # is a data gap.
    transmission_loaded: bool = True


@dataclass
class Outcome:
    factor: str
    severity: str | None = None
    finding: str | None = None
    citations: list[str] = field(default_factory=list)
    reason: str | None = None
    # Where the factor has a measure finer than its severity, its friction from 0 to 1 on
    # that measure (the readiness weighs it in place of the severity's steps).
    points: float | None = None

    @property
    def abstained(self) -> bool:
        return self.severity is None


def abstain(factor: str, reason: str) -> Outcome:
    return Outcome(factor=factor, reason=reason)


def number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def mw(value: float) -> str:
    return f"{value:,.0f} MW" if value >= 10 else f"{value:,.1f} MW"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """'1 queue request', '3 queue requests'."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def kv(value: float) -> str:
    return f"{value:g} kV"


def county_label(county: dict) -> str:
    return f"{county['name']} County, {county['state']}"


def parse_date(value: Any) -> date | None:
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def months_between(start: date, end: date) -> int:
    return (end.year - start.year) * 12 + (end.month - start.month)
