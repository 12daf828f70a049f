"""Response schemas of the site-surroundings extension (every field present, null when unknown)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gridservice.routers.abstention_models import Abstention
from gridservice.routers.models import Opaque, QualityFlag, SourceEvidence

Firmness = Literal["security_ntp", "ia_signed", "neither"]


class SourceCell(BaseModel):
    """A report row (and, for a compared value, the column) a figure was read from."""

    reportId: str
    fileName: str
    worksheet: str
    row: int
    sourceLocator: str
    column: str | None = None


class QueueReport(BaseModel):
    reportId: str
    market: str
    reportMonth: str
    reportDate: str | None
    fileName: str
    sha256: str
    sheets: list[str]


class QueueProject(BaseModel):
    projectId: str
    projectName: str | None
    countyFips: str | None
    county: str | None
    fuel: str | None
    technology: str | None
    capacityMw: float | None
    studyPhase: str | None
    projectedCod: str | None
    iaSigned: str | None
    securityNtp: str | None
    firmness: Firmness
    status: Literal["active", "inactive", "cancelled", "commissioned"]
    source: SourceCell
    # The queue record with this queue id in the project's county and market (null: none held).
    recordId: str | None = None


class ListPage(BaseModel):
    """How much of a bounded list is listed, and where the rest is (its keyset pages)."""

    listed: int
    total: int
    nextCursor: str | None = Field(
        description="The cursor of the page after the listed projects at `href` (null when "
        "every project is listed)."
    )
    href: str = Field(description="The list's pages: `/v1/sites/{siteId}/surroundings/projects`.")


class FuelCount(BaseModel):
    fuel: str
    projects: int
    mw: float


class FirmnessCount(BaseModel):
    firmness: Firmness
    label: str
    projects: int
    mw: float


class QueueTotals(BaseModel):
    locationBasis: Literal["county"]
    report: QueueReport | None = Field(
        description="The newest monthly report of the market the radius lies in; null when "
        "no harvested report names a county within the radius (see `abstentions`)."
    )
    activeProjects: int | None = Field(
        description="Null (as every figure here) when `report` is null: the radius has no "
        "monthly report to total, which is not a zero (each county's `queue` says what its "
        "loaded queues hold)."
    )
    activeMw: float | None
    withoutCapacity: int | None
    byFuel: list[FuelCount] | None
    byFirmness: list[FirmnessCount] | None


class QueueRecordRef(BaseModel):
    """An active queue record of a county no monthly report names."""

    projectId: str | None
    recordId: str
    capacityMw: float | None
    market: str | None


class CountyQueue(BaseModel):
    """A county's active queue (extension members `markets`, `basis`, `asOf`, `dated`,
    `records`, `recordsTotal`, `unavailable`): the figures are null, never 0, when no
    loaded queue covers the county."""

    locationBasis: Literal["county"]
    reportId: str | None
    markets: list[str] = Field(description="The markets whose loaded queues cover the county.")
    basis: Literal["queue_history", "queue_records"] | None = Field(
        description="Where the figures come from: the market's monthly reports (ERCOT), its "
        "queue records (other markets: no firmness), or nothing (null figures)."
    )
    asOf: str | None = Field(description="The date of the figures' source (YYYY-MM-DD).")
    dated: bool = Field(
        description="True when the source is more than a year older than the answer's newest."
    )
    unavailable: str | None = Field(description="Why the figures are null, else null.")
    activeProjects: int | None
    activeMw: float | None
    withoutCapacity: int | None
    byFuel: list[FuelCount] | None
    byFirmness: list[FirmnessCount] | None
    records: list[QueueRecordRef] = Field(
        description="`basis: queue_records`: the first 25 active records by queue id."
    )
    recordsTotal: int | None
    projects: list[QueueProject] = Field(
        description="The first `lists.projects.listed` active projects by queue id; the "
        "figures above count every one."
    )
    lists: dict[Literal["projects"], ListPage]


class InterconnectionPoint(BaseModel):
    pointId: str
    kind: Literal["bus", "tap", "unparsed"]
    kv: float | None
    name: str | None
    busNumber: int | None
    fromBusNumber: int | None
    toBusNumber: int | None
    circuit: str | None
    raw: str
    qualityFlags: list[QualityFlag]
    projectIds: list[str]
    source: SourceCell


class VoltageLevel(BaseModel):
    kv: float | None
    points: list[InterconnectionPoint]


class CountyPoints(BaseModel):
    byKv: list[VoltageLevel]
    unparsed: list[InterconnectionPoint]


class NearbyPlant(BaseModel):
    id: str
    plantId: int | None
    plantName: str | None
    latitude: float
    longitude: float
    distanceKm: float
    capacityMw: float | None
    installedMw: float | None = Field(
        default=None, description="The plant file's installed (nameplate) MW, when it gives one."
    )
    technologies: list[str]
    capacityBasis: str
    evidence: SourceEvidence | None


class CountyPlants(BaseModel):
    locationBasis: Literal["coordinates"]
    nearest: list[NearbyPlant]


class SurroundingCounty(BaseModel):
    countyFips: str
    name: str
    state: str
    distanceKm: float
    isSiteCounty: bool
    queue: CountyQueue
    interconnectionPoints: CountyPoints
    plants: CountyPlants


class ValueChange(BaseModel):
    field: Literal["capacityMw", "projectedCod", "studyPhase", "firmness"]
    # A value is a number (MW) or text (date, phase, firmness), as the report cell has it.
    from_: float | str | None = Field(alias="from")
    to: float | str | None
    fromCell: SourceCell
    toCell: SourceCell


class EnteredProject(QueueProject):
    enteredAs: Literal["new", "reactivated"]
    fromCell: SourceCell | None
    toCell: SourceCell


class LeftProject(QueueProject):
    outcome: Literal["inactive", "cancelled", "commissioned", "unstated"]
    eventDate: str | None
    fromCell: SourceCell
    toCell: SourceCell | None


class ChangedProject(QueueProject):
    changes: list[ValueChange]


class LeftCounts(BaseModel):
    inactive: int
    cancelled: int
    commissioned: int
    unstated: int


class ChangeCounts(BaseModel):
    entered: int
    left: int
    leftBy: LeftCounts
    changed: int


class QueueChanges(BaseModel):
    locationBasis: Literal["county"]
    from_: QueueReport = Field(alias="from")
    to: QueueReport
    counts: ChangeCounts
    entered: list[EnteredProject]
    left: list[LeftProject]
    changed: list[ChangedProject]
    lists: dict[Literal["entered", "left", "changed"], ListPage] | None = Field(
        default=None,
        description="How much of each list is listed (the first by queue id) and where the rest "
        "is; `counts` counts every project. Absent where the lists are complete.",
    )


class DropoutCounts(BaseModel):
    projects: int
    wentInactive: int
    cancelled: int
    droppedOut: int
    commissioned: int
    rate: float | None


class FuelDropout(DropoutCounts):
    fuel: str


class CountyDropout(DropoutCounts):
    countyFips: str | None
    county: str | None


class DropoutWindow(BaseModel):
    firstMonth: str | None
    lastMonth: str | None
    reports: int


class DropoutRates(BaseModel):
    locationBasis: Literal["county"]
    window: DropoutWindow
    all: DropoutCounts
    byFuel: list[FuelDropout]
    byCounty: list[CountyDropout]
    statement: str


class Point(BaseModel):
    latitude: float
    longitude: float


class SiteCounty(BaseModel):
    countyFips: str
    name: str
    state: str


class SiteSurroundings(BaseModel):
    siteId: str | None
    location: Point
    radiusKm: float
    siteCounty: SiteCounty
    market: str | None = Field(
        description="The market of the site's county, as its loaded queues or territories "
        "name it (null: not known here)."
    )
    marketRegion: Opaque | None = Field(
        default=None,
        description="Extension: the market region the site's point is in (HIFLD ISO "
        "boundaries), the object the site and assessment call `market`; `market` here stays "
        "the queue's market code.",
        json_schema_extra={"x-extension": True},
    )
    distanceBasis: str
    queueNow: QueueTotals
    reports: list[QueueReport]
    counties: list[SurroundingCounty]
    changes: QueueChanges | None
    dropout: DropoutRates | None
    abstentions: list[Abstention] = Field(
        description="Datasets covering only some markets, left out for counties outside them."
    )
    limitations: list[str]
