"""Response schemas of an assessment's `keyFigures` (an extension): the tightest reserve margin
and the nearest plant, worked out once by the service so no client derives them again."""

from __future__ import annotations

from pydantic import BaseModel, Field


class TightestReserveMargin(BaseModel):
    """The period whose reserve margin falls furthest short of the reserve need, as the
    market-adequacy finding reads it."""

    market: str | None
    period: str | None
    marginMw: float = Field(
        description="Capacity less forecast peak (or a stated margin) in that period, in MW."
    )
    shareOfPeak: float = Field(
        description="marginMw over the period's forecast peak (capacity over peak less one), "
        "a fraction: 0.025 is 2.5%."
    )
    # the next three are absent (null) on an assessment stored before they were carried
    peakMw: float | None = Field(default=None, description="The period's forecast peak, in MW.")
    peakPredicate: str | None = Field(
        default=None,
        description="The predicate of the peak fact (e.g. summer_peak_demand_forecast).",
    )
    supplyPredicate: str | None = Field(
        default=None,
        description="The predicate of the capacity or margin fact: summer_firm_capacity is "
        "firm capacity, total_capacity_mw is total capacity.",
    )
    needMw: float = Field(description="The stated reserve requirement, else 15% of peak.")
    needBasis: str = Field(description='"stated requirement" or "screening reserve".')
    factIds: list[str] = Field(description="The facts it was read from: peak, supply, need.")
    asOf: str | None = Field(
        default=None,
        description="When the newest of those facts was first known (YYYY-MM-DD; absent in "
        "assessments made before).",
    )
    dated: bool | None = Field(
        default=None,
        description="Whether `asOf` is more than a year older than the data's newest source.",
    )


class NearestPlant(BaseModel):
    """The generating plant of at least `minimumMw` nearest the site by its own coordinates,
    within 300 km."""

    id: str
    plantId: int | None
    plantName: str | None
    distanceKm: float
    capacityMw: float | None
    capacityBasis: str | None = Field(
        default=None, description="What `capacityMw` is (absent in assessments made before)."
    )
    minimumMw: float | None = Field(
        default=None,
        description="The least MW a plant needs to count as the nearest (10): a plant that "
        "matters to a large load (absent in assessments made before).",
    )


class KeyFigures(BaseModel):
    """The figures a portfolio compares sites on; each null when the data gives none."""

    tightestReserveMargin: TightestReserveMargin | None
    nearestPlant: NearestPlant | None
