"""Typed records of a site's surroundings (the ``/v1/sites/{siteId}/surroundings`` extension).

Queue figures are placed by county (``location_basis == "county"``: the operator publishes
no coordinates for queued projects); plants by their own coordinates. Every queue figure
cites its source cells (:class:`SourceCell`).
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from gridclient._markets import Abstention, Market
from gridclient.models import GridModel, QualityFlag, SourceEvidence


class SourceCell(GridModel):
    """A report row, and for a compared value the column, that a figure was read from."""

    report_id: str | None = None
    file_name: str | None = None
    worksheet: str | None = None
    row: int | None = None
    source_locator: str | None = None
    column: str | None = None


class QueueReport(GridModel):
    report_id: str | None = None
    market: str | None = None
    report_month: str | None = None
    report_date: str | None = None
    file_name: str | None = None
    sha256: str | None = None
    sheets: list[str] = Field(default_factory=list)


class QueueProject(GridModel):
    project_id: str | None = None
    project_name: str | None = None
    county_fips: str | None = None
    county: str | None = None
    fuel: str | None = None
    technology: str | None = None
    capacity_mw: float | None = None
    study_phase: str | None = None
    projected_cod: str | None = None
    ia_signed: str | None = None
    security_ntp: str | None = None
    firmness: str | None = None
    status: str | None = None
    source: SourceCell | None = None
    # The queue record with this queue id in the project's county (None: none held).
    record_id: str | None = None


class ListPage(GridModel):
    """How much of a bounded list the answer carries: ``listed`` of ``total``, the rest at
    ``href`` from ``next_cursor`` (read it with ``client.sites.surroundings_projects``)."""

    listed: int | None = None
    total: int | None = None
    next_cursor: str | None = None
    href: str | None = None


class FuelCount(GridModel):
    fuel: str | None = None
    projects: int | None = None
    mw: float | None = None


class FirmnessCount(GridModel):
    firmness: str | None = None
    label: str | None = None
    projects: int | None = None
    mw: float | None = None


class QueueRecordRef(GridModel):
    """An active queue record of a county no monthly report names."""

    project_id: str | None = None
    record_id: str | None = None
    capacity_mw: float | None = None
    market: str | None = None


class QueueTotals(GridModel):
    """The active queue of the radius (``queue_now``) or of one county.

    A county's figures are None, never 0, when no loaded queue covers it (``unavailable``
    says why); ``by_firmness`` is None where the figures come from queue records
    (``basis == "queue_records"``), which state no firmness. ``dated``: the source is more
    than a year older than the answer's newest."""

    location_basis: str | None = None
    report: QueueReport | None = None
    report_id: str | None = None
    markets: list[str] = Field(default_factory=list)
    basis: str | None = None
    as_of: str | None = None
    dated: bool | None = None
    unavailable: str | None = None
    active_projects: int | None = None
    active_mw: float | None = None
    without_capacity: int | None = None
    by_fuel: list[FuelCount] | None = Field(default_factory=list)
    by_firmness: list[FirmnessCount] | None = Field(default_factory=list)
    records: list[QueueRecordRef] = Field(default_factory=list)
    records_total: int | None = None
    # The first projects by queue id; ``lists["projects"]`` says how many there are in all.
    projects: list[QueueProject] = Field(default_factory=list)
    lists: dict[str, ListPage] = Field(default_factory=dict)


class InterconnectionPoint(GridModel):
    point_id: str | None = None
    kind: str | None = None
    kv: float | None = None
    name: str | None = None
    bus_number: int | None = None
    from_bus_number: int | None = None
    to_bus_number: int | None = None
    circuit: str | None = None
    raw_text: str | None = Field(default=None, alias="raw")  # ``raw`` is the HTTP response
    quality_flags: list[QualityFlag] = Field(default_factory=list)
    project_ids: list[str] = Field(default_factory=list)
    source: SourceCell | None = None


class VoltageLevel(GridModel):
    kv: float | None = None
    points: list[InterconnectionPoint] = Field(default_factory=list)


class CountyPoints(GridModel):
    by_kv: list[VoltageLevel] = Field(default_factory=list)
    unparsed: list[InterconnectionPoint] = Field(default_factory=list)


class NearbyPlant(GridModel):
    id: str | None = None
    plant_id: int | None = None
    plant_name: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    distance_km: float | None = None
    capacity_mw: float | None = None
    installed_mw: float | None = None
    technologies: list[str] = Field(default_factory=list)
    capacity_basis: str | None = None
    evidence: SourceEvidence | None = None


class CountyPlants(GridModel):
    location_basis: str | None = None
    nearest: list[NearbyPlant] = Field(default_factory=list)


class SurroundingCounty(GridModel):
    county_fips: str | None = None
    name: str | None = None
    state: str | None = None
    distance_km: float | None = None
    is_site_county: bool | None = None
    queue: QueueTotals | None = None
    interconnection_points: CountyPoints | None = None
    plants: CountyPlants | None = None


class ValueChange(GridModel):
    """One compared value; ``from_value`` is the wire's ``from``."""

    field: str | None = None
    from_value: Any = Field(default=None, alias="from")
    to: Any = None
    from_cell: SourceCell | None = None
    to_cell: SourceCell | None = None


class EnteredProject(QueueProject):
    entered_as: str | None = None
    from_cell: SourceCell | None = None
    to_cell: SourceCell | None = None


class LeftProject(QueueProject):
    outcome: str | None = None
    event_date: str | None = None
    from_cell: SourceCell | None = None
    to_cell: SourceCell | None = None


class ChangedProject(QueueProject):
    changes: list[ValueChange] = Field(default_factory=list)


class QueueChanges(GridModel):
    """Projects near the site that entered, left and changed; ``from_report`` is ``from``."""

    location_basis: str | None = None
    from_report: QueueReport | None = Field(default=None, alias="from")
    to: QueueReport | None = None
    counts: dict[str, Any] | None = None
    entered: list[EnteredProject] = Field(default_factory=list)
    left: list[LeftProject] = Field(default_factory=list)
    changed: list[ChangedProject] = Field(default_factory=list)
    # How much of each list is carried (the first by queue id); ``counts`` counts them all.
    lists: dict[str, ListPage] = Field(default_factory=dict)


class DropoutCounts(GridModel):
    fuel: str | None = None
    county_fips: str | None = None
    county: str | None = None
    projects: int | None = None
    went_inactive: int | None = None
    cancelled: int | None = None
    dropped_out: int | None = None
    commissioned: int | None = None
    rate: float | None = None


class DropoutRates(GridModel):
    location_basis: str | None = None
    window: dict[str, Any] | None = None
    all: DropoutCounts | None = None
    by_fuel: list[DropoutCounts] = Field(default_factory=list)
    by_county: list[DropoutCounts] = Field(default_factory=list)
    statement: str | None = None


class SiteSurroundings(GridModel):
    """A site's neighbourhood: counties within the radius, changes, dropout rates."""

    site_id: str | None = None
    location: dict[str, float] | None = None
    radius_km: float | None = None
    site_county: dict[str, str] | None = None
    market: str | None = None
    # The market region holding the site's point (an extension), beside `market`, the
    # queue's market.
    market_region: Market | None = None
    distance_basis: str | None = None
    queue_now: QueueTotals | None = None
    reports: list[QueueReport] = Field(default_factory=list)
    counties: list[SurroundingCounty] = Field(default_factory=list)
    changes: QueueChanges | None = None
    dropout: DropoutRates | None = None
    abstentions: list[Abstention] = Field(default_factory=list)
    limitations: list[str] = Field(default_factory=list)


__all__ = [
    "Abstention",
    "ChangedProject",
    "CountyPlants",
    "CountyPoints",
    "DropoutCounts",
    "DropoutRates",
    "EnteredProject",
    "FirmnessCount",
    "FuelCount",
    "InterconnectionPoint",
    "LeftProject",
    "ListPage",
    "NearbyPlant",
    "QueueChanges",
    "QueueProject",
    "QueueRecordRef",
    "QueueReport",
    "QueueTotals",
    "SiteSurroundings",
    "SourceCell",
    "SurroundingCounty",
    "ValueChange",
    "VoltageLevel",
]
