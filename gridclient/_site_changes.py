"""Models of what changed near a site since one of its assessments (an extension)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from gridclient._surroundings import QueueChanges, QueueReport
from gridclient.models import FactEvidence, GridModel


class SinceAssessment(GridModel):
    """The assessment compared with, and the queue report it was made on."""

    assessment_id: str | None = None
    created_at: datetime | None = None
    report: QueueReport | None = None
    is_latest: bool | None = None
    latest_assessment_id: str | None = None


class FactVersion(GridModel):
    id: str | None = None
    fact_version: str | None = None
    value: Any = None
    known_from: datetime | None = None
    evidence: FactEvidence | None = None


class FactChange(GridModel):
    """A fact first known after the assessment: ``change`` is ``restated`` or ``new``."""

    kind: str | None = None
    change: str | None = None
    fact_key: str | None = None
    market: str | None = None
    predicate: str | None = None
    period: str | None = None
    scenario: str | None = None
    unit: str | None = None
    before: FactVersion | None = None
    after: FactVersion | None = None


class SiteQueueChanges(QueueChanges):
    radius_km: float | None = None
    counties: list[dict[str, Any]] = Field(default_factory=list)


class SiteChanges(GridModel):
    """What changed near a site since ``since``; ``changed_since_assessment`` says if anything."""

    site_id: str | None = None
    since: SinceAssessment | None = None
    changed_since_assessment: bool | None = None
    summary: str | None = None
    queue: SiteQueueChanges | None = None
    facts: list[FactChange] = Field(default_factory=list)
    limitations: list[str] = Field(default_factory=list)


__all__ = ["FactChange", "FactVersion", "SinceAssessment", "SiteChanges", "SiteQueueChanges"]
