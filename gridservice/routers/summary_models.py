"""Response schemas of the portfolio listing `GET /v1/sites?include=latest_assessment_summary`
(an extension): each site with the few figures of its newest assessment, not the whole of it."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gridservice.routers.models import Site, SiteWithLatestAssessment


class SummaryQueue(BaseModel):
    """The active queue of the site's county in the report the assessment read."""

    reportMonth: str | None
    countyFips: str | None
    activeProjects: int | None
    activeMw: float | None
    firmMw: float = Field(
        description="MW of those projects with an interconnection agreement signed or "
        "financial security posted (firmness `ia_signed` or `security_ntp`)."
    )


class SummaryMargin(BaseModel):
    """The tightest forecast year of the market's reserve margin (`keyFigures`)."""

    market: str | None
    period: str | None
    marginMw: float | None
    shareOfPeak: float | None


class SummaryPlant(BaseModel):
    """The nearest power plant (`keyFigures.nearestPlant`)."""

    plantName: str | None
    distanceKm: float | None
    capacityMw: float | None


class AssessmentSummary(BaseModel):
    """What a portfolio table shows of an assessment; read the assessment for the rest."""

    assessmentId: str
    createdAt: str
    readiness: str | None = Field(description="`readiness.level` of the assessment.")
    territoryCandidates: int = Field(
        description="How many service-territory candidates the assessment names."
    )
    queue: SummaryQueue | None = Field(description="Null when no queue report was read.")
    tightestReserveMargin: SummaryMargin | None
    nearestPlant: SummaryPlant | None


class SiteWithAssessmentSummary(Site):
    """A site as listed with `include=latest_assessment_summary` (an extension)."""

    latestAssessmentSummary: AssessmentSummary | None = Field(
        description="The newest assessment's summary; null when the site was never screened."
    )
    newerDataSinceAssessment: dict | None = SiteWithLatestAssessment.model_fields[
        "newerDataSinceAssessment"
    ]
