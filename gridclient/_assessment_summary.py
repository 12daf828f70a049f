"""The few figures of an assessment a portfolio table shows (an extension of the sites list).

``client.sites.list(include_latest_assessment_summary=True)`` lists each site with
``site.latest_assessment_summary`` instead of the whole assessment (about 1 KiB a site
instead of about 120 KiB). ``AssessmentSummary.from_assessment`` works out the same figures
from a whole assessment, for a deployment that lists only whole ones.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from gridclient._base import GridModel

if TYPE_CHECKING:
    from gridclient.models import Assessment

FIRM = ("security_ntp", "ia_signed")
Model = TypeVar("Model", bound=GridModel)


class SummaryQueue(GridModel):
    """The active queue of the site's county in the queue report the assessment read."""

    report_month: str | None = None
    county_fips: str | None = None
    active_projects: int | None = None
    active_mw: float | None = None
    # MW with an interconnection agreement signed or financial security posted.
    firm_mw: float | None = None

    @property
    def firm_share(self) -> float | None:
        """Share of the active MW that is firm; None when no MW is queued."""
        if not self.active_mw or self.firm_mw is None:
            return None
        return self.firm_mw / self.active_mw


class SummaryMargin(GridModel):
    market: str | None = None
    period: str | None = None
    margin_mw: float | None = None
    share_of_peak: float | None = None


class SummaryPlant(GridModel):
    plant_name: str | None = None
    distance_km: float | None = None
    capacity_mw: float | None = None


def _declared(model: type[Model], found: dict[str, Any] | None) -> Model | None:
    """Return `model` read from the members it declares (the others left out), or None."""
    if not found:
        return None
    aliases = [field.alias or name for name, field in model.model_fields.items()]
    return model.model_validate({alias: found.get(alias) for alias in aliases})


class AssessmentSummary(GridModel):
    """Readiness, territory candidates, the county's queue, the tightest reserve margin and
    the nearest plant of one assessment."""

    assessment_id: str | None = None
    created_at: datetime | None = None
    readiness: str | None = None
    territory_candidates: int | None = None
    queue: SummaryQueue | None = None
    tightest_reserve_margin: SummaryMargin | None = None
    nearest_plant: SummaryPlant | None = None

    @classmethod
    def from_assessment(cls, assessment: Assessment) -> AssessmentSummary:
        """Return the summary of a whole assessment (the figures the service lists)."""
        history: dict[str, Any] = assessment.queue_history or {}
        figures: dict[str, Any] = assessment.key_figures or {}
        queue = None
        if history:
            groups = history.get("byFirmness") or []
            queue = SummaryQueue(
                report_month=(history.get("report") or {}).get("reportMonth"),
                county_fips=history.get("countyFips"),
                active_projects=history.get("activeProjects"),
                active_mw=history.get("activeMw"),
                firm_mw=sum(g.get("mw") or 0 for g in groups if g.get("firmness") in FIRM),
            )
        margin = figures.get("tightestReserveMargin")
        plant = figures.get("nearestPlant")
        return cls(
            assessment_id=assessment.id,
            created_at=assessment.created_at,
            readiness=(assessment.readiness or {}).get("level"),
            territory_candidates=len(assessment.service_territory_candidates or []),
            queue=queue,
            tightest_reserve_margin=_declared(SummaryMargin, margin),
            nearest_plant=_declared(SummaryPlant, plant),
        )
