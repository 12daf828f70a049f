"""Response and request models: the OpenAPI document's schemas for every resource.

Every documented field is required and nullable (present always, null when unknown), so
clients never guess whether a key exists. Objects the interface calls opaque stay open.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from gridservice.routers.abstention_models import Abstention
from gridservice.routers.key_figures_models import KeyFigures
from gridservice.routers.source_models import QueueRecordSource, SourceFields, SourceName

Opaque = dict[str, Any]

MARKET_DESCRIPTION = (
    "Extension: the market region the point is in, from HIFLD's ISO boundaries: `{code, "
    "name, label, isIso, alsoIn, method, source, attribution, evidence}` (`code` an ISO such "
    "as `PJM`, or a region outside any ISO: `West`, `Southeast`, `Alaska`, `Hawaii`, labelled "
    "`no ISO: West`); null when no loaded boundary holds the point."
)
ATTRIBUTION_DESCRIPTION = (
    "Extension: the attribution the ODbL 1.0 licence of the HIFLD polygons asks of an answer "
    "using them; null when the answer uses none."
)
T = TypeVar("T")


class Problem(BaseModel):
    """An RFC 9457 problem document."""

    type: str
    title: str
    status: int
    detail: str
    instance: str
    code: str
    requestId: str
    errors: list[dict[str, str]] | None = None


class QualityFlag(BaseModel):
    code: str | None
    severity: str | None
    field: str | None
    message: str | None


class SourceEvidence(SourceFields):
    sourceId: str | None
    assetHash: str | None
    sourceLocator: str | None
    observedAt: str | None


class FactEvidence(SourceFields):
    chunkId: str | None
    tableId: str | None
    quote: str | None
    sourceLocator: str | None
    blockId: str | None
    sourceText: str | None
    page: int | None = Field(ge=1)
    boundingBox: list[float] | None = Field(min_length=4, max_length=4)
    pageWidth: float | None
    pageHeight: float | None
    readingOrder: float | None
    parserConfidence: float | None
    parserConfidenceIsCalibrated: bool | None
    calibratedErrorProbability: float | None
    calibrationStatus: str | None
    route: str | None


class Fact(BaseModel):
    id: str
    factKey: str | None
    factVersion: str | None
    sourceId: str | None
    assetHash: str | None
    subjectId: str | None
    market: str | None
    predicate: str | None
    period: str | None
    scenario: str | None
    value: float | None
    unit: str | None
    assertionType: str | None
    validFrom: str | None
    validTo: str | None
    knownFrom: str | None
    knownTo: str | None
    evidence: FactEvidence | None
    qualityFlags: list[QualityFlag]


class Generator(BaseModel):
    id: str
    generatorId: str | None
    plantName: str | None
    utilityName: str | None
    state: str | None
    county: str | None
    balancingAuthorityCode: str | None
    status: str | None
    technology: str | None
    energySourceCode: str | None
    primeMoverCode: str | None
    agencyPlantId: int | None
    utilityId: int | None
    nameplateCapacityMw: float | None
    summerCapacityMw: float | None
    winterCapacityMw: float | None
    operatingDate: str | None
    plannedOperationDate: str | None
    retirementDate: str | None
    preliminary: bool | None
    evidence: SourceEvidence | None
    qualityFlags: list[QualityFlag]


class GenerationPlant(BaseModel):
    id: str
    plantName: str | None
    utilityName: str | None
    state: str | None
    county: str | None
    balancingAuthorityCode: str | None
    nercRegion: str | None
    sectorName: str | None
    agencyPlantId: int | None
    utilityId: int | None
    latitude: float | None
    longitude: float | None
    preliminary: bool | None
    evidence: SourceEvidence | None
    qualityFlags: list[QualityFlag]


class GeneratorOperation(BaseModel):
    id: str
    generatorId: str | None
    primeMoverCode: str | None
    balancingAuthorityCode: str | None
    state: str | None
    agencyPlantId: int | None
    period: str | None
    netGenerationMwh: float | None
    preliminary: bool | None
    evidence: SourceEvidence | None
    qualityFlags: list[QualityFlag]


class BalancingAuthorityOperation(BaseModel):
    id: str
    balancingAuthorityCode: str | None
    utcTime: str | None
    localTime: str | None
    region: str | None
    demandForecastMw: float | None
    demandMw: float | None
    demandAdjustedMw: float | None
    netGenerationMw: float | None
    netGenerationAdjustedMw: float | None
    totalInterchangeMw: float | None
    totalInterchangeAdjustedMw: float | None
    generationByFuelMw: dict[str, float | None] | None
    evidence: SourceEvidence | None
    qualityFlags: list[QualityFlag]


class TransmissionEvidence(SourceFields):
    assertionType: str | None
    authority: str | None
    sourceUrl: str | None
    sourceLocator: str | None


class TransmissionProject(BaseModel):
    id: str
    sourceId: str | None
    assetHash: str | None
    projectNumber: str | None
    title: str | None
    description: str | None
    status: str | None
    transmissionOwner: str | None
    projectedInServiceDate: str | None
    actualInServiceDate: str | None
    fromLocation: str | None
    toLocation: str | None
    serviceLevelKv: float | None
    counties: list[str] | None
    qualityFlags: list[QualityFlag]
    observedAt: str | None
    evidence: TransmissionEvidence | None


class QueueStatusNow(BaseModel):
    """Extension: the newest source's word on the record's project (gridservice.catalogue.queue_status)."""

    model_config = ConfigDict(json_schema_extra={"x-extension": True})
    status: str | None
    date: str | None
    reportedAt: str | None
    sourceId: str | None
    sourceLocator: str | None
    recordId: str | None
    basis: Literal["own_record", "newer_source"]
    countsAsActive: bool


class QueueRecord(BaseModel):
    id: str
    sourceId: str | None
    assetHash: str | None
    recordKey: str | None
    market: str | None
    projectName: str | None
    pointOfInterconnection: str | None
    state: str | None
    county: str | None
    proposedDate: str | None
    observedAt: str | None
    sourceLocator: str | None
    evidenceUrl: str | None
    status: str | None
    requestedCapacityMw: float | None
    qualityFlags: list[QualityFlag]
    statusNow: QueueStatusNow | None = Field(
        default=None,
        description="Extension: the status now, by the newest source's word "
        "(`status` stays the record's own source's word).",
        json_schema_extra={"x-extension": True},
    )
    evidence: QueueRecordSource | None = Field(
        default=None,
        description="Extension: the record's source in fields (publisher, file, worksheet, "
        "row, edition).",
        json_schema_extra={"x-extension": True},
    )


class QueueDetailsEvidence(SourceFields):
    assertionType: str | None
    authority: str | None
    sourceLocator: str | None
    originalRecord: dict[str, str | None] | None
    dataThrough: str | None = Field(
        default=None,
        description="Extension: the last day a synthesis's data covers (LBNL 'thru<year>').",
        json_schema_extra={"x-extension": True},
    )


class QueueRecordDetails(BaseModel):
    recordId: str
    queueDate: str | None
    onlineDate: str | None
    withdrawnDate: str | None
    interconnectionAgreementDate: str | None
    studyPhaseOriginal: str | None
    studyPhaseNormalized: str | None
    countyFips: str | None
    regionOriginal: str | None
    utilityName: str | None
    transmissionEntity: str | None
    developer: str | None
    cluster: str | None
    serviceType: str | None
    projectType: str | None
    technology: str | None
    capacityComponentsMw: list[float] | None
    evidence: QueueDetailsEvidence | None
    qualityFlags: list[QualityFlag]


class SpreadsheetLocator(BaseModel):
    type: str | None
    fileName: str | None
    worksheet: str | None
    row: int | None = Field(ge=1)


class QueueRecordEvidence(SourceFields):
    recordId: str
    sourceId: str | None
    assetHash: str | None
    sourceLocator: str | None
    sourceName: str | None
    termsClassification: str | None
    sourceUrl: str | None
    locator: SpreadsheetLocator | None
    sourceRow: dict[str, str | None] | None
    redistributionPolicy: str | None


class ExpandedQueueRecord(QueueRecord):
    expandedDetails: QueueRecordDetails | None
    expandedEvidence: QueueRecordEvidence | None


class EvidenceChunk(SourceName):
    chunkId: str
    sourceId: str | None
    assetHash: str | None
    tableId: str | None
    content: str | None
    sourceLocator: str | None
    kind: Literal["prose", "table", "figure"]
    page: int | None
    sectionPath: list[str] | None
    rank: float


class DocketEvidence(SourceFields):
    assertionType: str | None
    authority: str | None
    sourceLocator: str | None


class DocketFiling(BaseModel):
    id: str
    sourceId: str | None
    assetHash: str | None
    controlNumber: str | None
    filingParty: str | None
    description: str | None
    sourceLocator: str | None
    observedAt: str | None
    itemNumber: int | None
    filedAt: str | None
    documentUrl: str | None
    evidence: DocketEvidence | None
    qualityFlags: list[QualityFlag]


class Location(BaseModel):
    latitude: float
    longitude: float


class Address(BaseModel):
    addressLine1: str | None
    addressLine2: str | None
    locality: str | None
    region: str | None
    postalCode: str | None
    countryCode: str | None


class Site(BaseModel):
    id: str
    tenantId: str
    customerReference: str | None
    createdAt: str
    metadata: dict[str, str] | None
    requestedPeakLoadMw: float
    averageLoadMw: float | None
    serviceVoltageKv: float | None
    curtailableMw: float | None
    targetInServiceDate: str | None
    loadProfile: str | None
    redundancy: str | None
    rampProfile: list[Opaque] | None
    onSiteGeneration: list[Opaque] | None
    energyStorage: Opaque | None
    location: Location
    address: Address | None
    market: Opaque | None = Field(
        default=None,
        description=MARKET_DESCRIPTION + " Found when the site was created; absent on sites "
        "created before the service held the boundaries.",
        json_schema_extra={"x-extension": True},
    )
    archivedAt: str | None = Field(
        default=None,
        description="When the site was archived (an extension, PATCH); absent or null: active.",
    )
    degradedFields: list[str] | None = Field(
        default=None,
        description="Extension: members stored before the service bounded free-form JSON "
        "(nesting, size, NUL, finite numbers) that break those bounds, served null; absent "
        "when none.",
        json_schema_extra={"x-extension": True},
    )


class SiteRevision(BaseModel):
    """One change of a site's reference, metadata or archive state (an extension)."""

    changedAt: str
    changedBy: str = Field(description="The tenant and a fingerprint of the token used.")
    changes: list[Opaque] = Field(description='Each member changed: {"field", "from", "to"}.')


class SiteChanges(BaseModel):
    """What changed near a site since one of its assessments (an extension)."""

    siteId: str
    since: Opaque = Field(
        description="assessmentId, createdAt, the queue report it was made on (null when none "
        "is held), isLatest, latestAssessmentId."
    )
    changedSinceAssessment: bool
    summary: str
    queue: Opaque | None = Field(
        description="As the surroundings' `changes` (entered, left, changed between two "
        "reports, each citing its source cells), plus radiusKm and the counties searched; "
        "null when no harvested queue report is held."
    )
    facts: list[Opaque] = Field(
        description='Facts first known since: kind, change ("restated" or "new"), factKey, '
        "market, predicate, period, scenario, unit, before (null when new) and after."
    )
    limitations: list[str]


READINESS_DESCRIPTION = (
    "Level, summary, findings, abstentions and limitations. Extension members: "
    "`frictionScore` (0 to 1, the findings' points weighed by factor, null without findings) "
    "and `weights` (each factor's `factor`, `scope` local or market_wide, `weight`, "
    "`severity` and `points`; a market-wide factor weighs less than every local one)."
)


class Assessment(BaseModel):
    id: str
    siteId: str
    tenantId: str
    disclaimer: str | None
    createdAt: str
    county: Opaque | None
    readiness: Opaque | None = Field(
        description=READINESS_DESCRIPTION,
        json_schema_extra={"x-extension-members": ["frictionScore", "weights"]},
    )
    confidence: Opaque | None
    jurisdictions: list[Opaque] | None
    utilityCandidates: list[Opaque] | None
    tariffCandidates: list[Opaque] | None
    serviceTerritoryCandidates: list[Opaque] | None
    market: Opaque | None = Field(
        default=None, description=MARKET_DESCRIPTION, json_schema_extra={"x-extension": True}
    )
    attribution: str | None = Field(
        default=None, description=ATTRIBUTION_DESCRIPTION, json_schema_extra={"x-extension": True}
    )
    marketSignals: list[Fact] | None
    relevantQueueRecords: list[ExpandedQueueRecord] | None
    relevantTransmissionProjects: list[TransmissionProject] | None
    queueHistory: Opaque | None = Field(
        default=None,
        description="An extension: the site county's queue in the newest harvested report "
        "(activeProjects, activeMw, byFirmness over every project, firmMw: the MW of the firm "
        "grades security_ntp and ia_signed) and its changes over the "
        "twelve months before (counts over every project). `projects` and the changes' "
        "`entered`, `left`, `changed` list the first 25 by queue id; `lists` gives each list's "
        "`listed` and `total` and, at `href` (relative to `/v1/sites/{siteId}/`, so the "
        "blinded packet names no site), all of them (GET "
        "/v1/sites/{siteId}/surroundings/projects, paged from the start).",
    )
    risks: list[str] | None
    nextActions: list[str] | None
    keyFigures: KeyFigures | None = Field(
        default=None,
        description="An extension: the tightest reserve margin (in MW and as a share of "
        "peak) and the nearest plant, as the service works them out.",
    )
    datasetAbstentions: list[Abstention] | None = Field(
        default=None,
        description="An extension: each dataset that covers only some markets (reserve "
        "margins, the monthly queue reports, EIA-930 operations) and none of the site's, "
        "with the markets it covers and its as-of date, so a missing figure never reads as "
        "a zero (absent on assessments made before).",
        json_schema_extra={"x-extension": True},
    )


class SiteWithLatestAssessment(Site):
    """A site as listed with `include=latest_assessment` (an extension)."""

    latestAssessment: Assessment | None
    newerDataSinceAssessment: Opaque | None = Field(
        default=None,
        description="Null without an assessment; else newerQueueReport (the newest harvested "
        "report month when it is later than the one the assessment was made on, else null), "
        "factsKnownSince (facts of the site's markets first known after it) and changed "
        "(either). GET /v1/sites/{siteId}/changes lists what changed.",
    )


class ExpertReviewPacket(BaseModel):
    protocolVersion: str | None
    reviewKind: str | None
    submissionId: str | None
    submittedAt: str | None
    caseId: str | None
    instructions: str | None
    reviewStatus: str | None
    site: Opaque | None
    serviceAssessment: Opaque | None
    rubric: list[Opaque] | None
    researchCompression: Opaque | None
    outcome: Opaque | None
    reviewer: Opaque | None
    attestation: Opaque | None


class AssessmentExport(BaseModel):
    id: str
    tenantId: str
    assessmentId: str
    format: str
    contentType: str
    content: str
    createdAt: str


class TerritoryCandidate(BaseModel):
    utilityId: str | None
    utility: str | None
    companyType: str | None
    ccnNumber: str | None
    isoRto: str | None
    confidence: float | None
    confidenceBasis: str | None
    resolutionMethod: str | None = Field(
        description="`eia861_county_listing` (EIA-861 lists the utility for the point's "
        "county), `retail_territory_polygon` (an extension: a HIFLD Electric Retail Service "
        "Territories polygon holds the point; HIFLD's compilation, not a regulator's "
        "certificate map) or a demo method."
    )
    evidence: Opaque | None
    methodAgreement: Opaque | None = Field(
        default=None,
        description="Extension: `{agrees, otherMethod, note}`, whether the other resolution "
        "method names this utility too (`agrees: false` is a disagreement, said in `note`); "
        "absent where the other method has no data for the point.",
        json_schema_extra={"x-extension": True},
    )


class TerritoryOutline(BaseModel):
    """A territory polygon holding the point, simplified for drawing (an extension)."""

    territoryId: str
    utilityId: str | None
    utility: str | None
    simplifiedToDegrees: float = Field(
        description="The simplification tolerance of `geometry`, in degrees: an edge may lie "
        "this far from the stored polygon's (which is simplified upstream too)."
    )
    geometry: Opaque = Field(description="GeoJSON Polygon or MultiPolygon, [longitude, latitude].")


class TerritoryResolution(BaseModel):
    location: Opaque
    candidates: list[TerritoryCandidate]
    polygons: list[TerritoryOutline] | None = Field(
        default=None,
        description="Extension: the HIFLD territory polygons holding the point (each a "
        "`retail_territory_polygon` candidate), simplified for a map; where several overlap "
        "the point lies in each. Empty when none is loaded or none holds it.",
        json_schema_extra={"x-extension": True},
    )
    market: Opaque | None = Field(
        default=None, description=MARKET_DESCRIPTION, json_schema_extra={"x-extension": True}
    )
    attribution: str | None = Field(
        default=None, description=ATTRIBUTION_DESCRIPTION, json_schema_extra={"x-extension": True}
    )


class ReleaseIdentity(BaseModel):
    releaseId: str
    dataSnapshotSha256: str
    releaseReportSha256: str
    buildReference: str
    buildArtifactSha256: str
    migrationHead: str
    openApiSha256: str
    policySha256: str
    contentFingerprint: str
    productionRevision: int
    validUntil: str
    deploymentId: str


class HarvestRejection(BaseModel):
    sourceLocator: str | None
    reasons: list[str]


class HarvestRun(SourceName):
    runId: str
    sourceId: str | None
    assetHash: str | None
    observedAt: str | None
    inputRecords: int | None
    acceptedRecords: int | None
    rejectedRecords: int | None
    unchangedAsset: bool | None
    rejections: list[HarvestRejection] | None


class DatasetCoverage(BaseModel):
    dataset: str
    label: str
    status: Literal["held", "partial", "missing"]
    rows: int
    note: str | None


class QueueStatusDisagreement(BaseModel):
    """Extension: a queue record whose own source and a newer one disagree on its status."""

    recordId: str | None
    market: str | None
    recordKey: str | None
    projectName: str | None
    county: str | None
    requestedCapacityMw: float | None
    status: str | None
    sourceId: str | None
    sourceLocator: str | None
    statusNow: str | None
    statusNowDate: str | None
    statusNowSourceId: str | None
    statusNowSourceLocator: str | None


class QualitySummary(BaseModel):
    model_config = ConfigDict(extra="allow")
    generatedAt: str | None
    scope: str | None
    policy: str | None
    queue: dict[str, int] | None
    balancingAuthorityOperations: dict[str, int] | None
    joins: dict[str, int] | None
    datasets: list[DatasetCoverage] | None = Field(
        None,
        description="Extension: each dataset the store holds, holds in part or lacks.",
        json_schema_extra={"x-extension": True},
    )
    queueHistory: dict[str, Any] | None = Field(
        None,
        description="Extension: harvested queue report months (file, SHA-256, run, rows "
        "per status, what the source lacks) and the interconnection points parsed.",
        json_schema_extra={"x-extension": True},
    )
    queueByMarket: dict[str, dict[str, Any]] | None = Field(
        default=None,
        description="Extension: per market (ERCOT, PJM, MISO, SPP, CAISO, NYISO, ISO-NE), "
        "the queue counts, unresolvedCounty and missingRequestedCapacity, and byStatus "
        "(records per normalised status).",
        json_schema_extra={"x-extension": True},
    )
    queueStatusDisagreements: list[QueueStatusDisagreement] | None = Field(
        default=None,
        description="Extension: each queue record counted in queue.sourcesDisagreeOnStatus, "
        "with both locators.",
        json_schema_extra={"x-extension": True},
    )


class Methodology(BaseModel):
    unit: str
    acceptanceRateDefinition: str
    note: str


class QualityReport(BaseModel):
    data: list[HarvestRun]
    quality: QualitySummary
    scope: str
    release: ReleaseIdentity
    methodology: Methodology


class CollectionMeta(BaseModel):
    hasMore: bool
    limit: int
    nextCursor: str | None
    order: Literal["id_asc", "rank_desc_id_asc"]


class Page(BaseModel, Generic[T]):
    data: list[T]
    meta: CollectionMeta


class One(BaseModel, Generic[T]):
    data: T


class OneWithMeta(BaseModel, Generic[T]):
    data: T
    meta: Opaque


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    store: Literal["full"] | None = Field(
        default=None, description="Present when degraded: the store has no room for writes."
    )
