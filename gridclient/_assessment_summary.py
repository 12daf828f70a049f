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
    """The tightest reserve margin as the service works it out: MW and a share of peak."""

    market: str | None = None
    period: str | None = None
    margin_mw: float | None = None
    # a fraction: 0.025 is 2.5% (capacity over peak, less one)
    share_of_peak: float | None = None


class SummaryPlant(GridModel):
    """The plant nearest the site: its name, distance and capacity."""

    plant_name: str | None = None
    distance_km: float | None = None
    capacity_mw: float | None = None


class ReserveMargin(SummaryMargin):
    """An assessment's tightest reserve margin with the facts it was read from."""

    peak_mw: float | None = None
    # e.g. summer_peak_demand_forecast, firm_peak_load_mw
    peak_predicate: str | None = None
    # summer_firm_capacity is firm capacity, total_capacity_mw total capacity
    supply_predicate: str | None = None
    need_mw: float | None = None
    need_basis: str | None = None
    fact_ids: list[str] = []
    # when the newest of those facts was first known; dated: over a year older than the data
    as_of: str | None = None
    dated: bool | None = None


class NearestPlant(SummaryPlant):
    """The plant nearest the site by its own coordinates (within 300 km), of at least
    `minimum_mw`; `capacity_basis` says which capacity figure that is."""

    id: str | None = None
    plant_id: int | None = None
    minimum_mw: float | None = None
    capacity_basis: str | None = None


class KeyFigures(GridModel):
    """An assessment's key figures (an extension), each None when the data gives none."""

    tightest_reserve_margin: ReserveMargin | None = None
    nearest_plant: NearestPlant | None = None


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
        figures = assessment.key_figures or KeyFigures()
        queue = None
        if history:
            queue = SummaryQueue(
                report_month=(history.get("report") or {}).get("reportMonth"),
                county_fips=history.get("countyFips"),
                active_projects=history.get("activeProjects"),
                active_mw=history.get("activeMw"),
                firm_mw=history.get("firmMw"),
            )
        margin, plant = figures.tightest_reserve_margin, figures.nearest_plant
        return cls(
            assessment_id=assessment.id,
            created_at=assessment.created_at,
            readiness=(assessment.readiness or {}).get("level"),
            territory_candidates=len(assessment.service_territory_candidates or []),
            queue=queue,
            tightest_reserve_margin=_declared(SummaryMargin, margin and margin.to_wire()),
            nearest_plant=_declared(SummaryPlant, plant and plant.to_wire()),
        )
